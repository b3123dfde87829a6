"""SPL403: tombstones garbage-collected by age without checking that nothing still holds them."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from spanlint.rules.analysis import callee_name
from spanlint.rules.base import Invalid, Valid
from spanlint.rules.evidence import (
    GuardedFunction,
    RemovalPrefilter,
    GuardedRule,
    has_word,
    is_filter_of,
    is_span_container,
    mentions,
    same_expression,
    words_in,
)
from spanlint.rules.libcst_backend import cst
from runtime_guard.vocabulary import Vocabulary

# Method calls that drop an entry from a container or a store.
_DROPPING_METHODS = frozenset({"pop", "popitem", "remove", "discard", "delete", "purge", "evict", "clear"})
# Those that drop without being told what: `.popitem()`, `.clear()`.
_DROPPING_ALL = frozenset({"popitem", "clear"})
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


class DropPrefilter(RemovalPrefilter):
    """A dropping method with an argument (or `.popitem()`, `.clear()`), `del` of an item or of
    several names, a filtering rewrite or slice assigned to an attribute or item, or a filtered
    local written back. (The rule's text test asks for a tombstone.)"""

    shape = "drop"
    methods = _DROPPING_METHODS

    def deletes(self, targets: list[ast.expr]) -> bool:
        return len(targets) > 1 or super().deletes(targets)

    def removes(self, call: ast.Call, receiver: ast.expr) -> bool:
        return bool(call.args) or call.func.attr in _DROPPING_ALL


@dataclass
class _Function(GuardedFunction):
    removals: list[cst.CSTNode] = field(default_factory=list)  # removals whose condition is age or time
    containers: list[cst.BaseExpression] = field(default_factory=list)  # what each removal drops from
    # Per enclosing block, the tests of earlier `if ...: continue` / `return` statements in it.
    exits: list[list[cst.BaseExpression]] = field(default_factory=list)
    age_locals: set[str] = field(default_factory=set)  # locals computed from a time or age: `cutoff`, `expired`
    filtered: dict[str, cst.BaseExpression] = field(default_factory=dict)  # local -> filter assigned to it


class TombstoneGcByAge(GuardedRule[_Function]):
    code = "SPL403"
    name = "tombstone-gc-by-age"
    summary = "Tombstones garbage-collected by age without checking for holders"
    message = "Tombstone removed from `{container}` by age or time without checking that nothing still holds it"
    help = "Check that nothing holds the tombstone (its holders, a reference count, weak references) before removing it"
    prefilter = DropPrefilter
    local_to_definitions = True
    docs = """
## What it does
Finds garbage collection of tombstoned spans whose condition is age or time (`time.time()`,
`time.monotonic()`, `datetime.now()`, `age`, `ttl`, `created_at`, `max_age`, turn counters) in a
function that never checks whether anything still holds the span (`holders`, `refcount`,
`live_refs`, `weakref`, `is_referenced`, `has_holders`). Only tombstone collection counts: the
function must deal with a tombstone (a `tombstone` name, a `tombstoned`/`deleted` flag, a
`deleted_at` stamp or a tombstone marker); an ordinary TTL cache expiring entries is not reported.

## Why is this bad?
A tombstone stands in for a pruned span so that citations, embeddings and summaries derived from
it can still resolve it. Age says nothing about whether those holders are gone: collecting a
tombstone that is still referenced turns every dangling reference into a silent miss.

## Example
```python
def collect(self, now):
    for span_id, tomb in list(self.tombstones.items()):
        if now - tomb.deleted_at > self.ttl:
            del self.tombstones[span_id]
```

## Use instead
```python
def collect(self, now):
    for span_id, tomb in list(self.tombstones.items()):
        if now - tomb.deleted_at > self.ttl and not self.holders.get(span_id):
            del self.tombstones[span_id]
```

## Fix safety
No fix: which holders exist is specific to the application.
"""
    valid = [
        Valid(
            "def collect(self, now):\n    for sid, tomb in list(self.tombstones.items()):\n"
            "        if now - tomb.deleted_at > self.ttl and not self.holders.get(sid):\n"
            "            del self.tombstones[sid]\n"
        ),
        Valid(
            "import time\n\nclass TTLCache:\n    def expire(self):\n        now = time.time()\n"
            "        for key, (value, at) in list(self._data.items()):\n            if now - at > self.ttl:\n"
            "                del self._data[key]\n"
        ),
        Valid(
            "def sweep(store):\n    for span in list(store.spans):\n        if span.tombstoned and span.refcount == 0:\n"
            "            store.spans.remove(span)\n"
        ),
        Valid(
            "import weakref\n\ndef gc_tombstones(self):\n    for sid in list(self.tombstones):\n"
            "        if self.age(sid) > self.max_age and weakref.getweakrefcount(self.objects[sid]) == 0:\n"
            "            self.tombstones.pop(sid)\n"
        ),
        Valid(
            "def compact(self):\n    for sid in list(self.tombstones):\n        if not self.is_referenced(sid):\n"
            "            del self.tombstones[sid]\n"
        ),
        Valid(
            "class HTTPCache:\n    def purge(self, now):\n        for url in list(self.entries):\n"
            "            if self.entries[url].expires < now:\n                self.entries.pop(url)\n"
        ),
    ]
    invalid = [
        Invalid(
            "def collect(self, now):\n    for sid, tomb in list(self.tombstones.items()):\n"
            "        if now - tomb.deleted_at > self.ttl:\n            del self.tombstones[sid]\n",
            line=4,
            column=13,
            message="Tombstone removed from `self.tombstones` by age or time without checking that nothing still holds it",
        ),
        Invalid(
            "import time\n\ndef sweep(store):\n    for span in list(store.spans):\n"
            "        if span.tombstoned and time.time() - span.created_at > 3600:\n            store.spans.remove(span)\n",
            line=6,
            column=13,
            message="Tombstone removed from `store.spans` by age or time without checking that nothing still holds it",
        ),
        Invalid(
            "from datetime import datetime, timedelta\n\nclass Buffer:\n    def gc(self):\n"
            "        cutoff = datetime.now() - timedelta(hours=1)\n"
            "        self.tombstones = {k: t for k, t in self.tombstones.items() if t.at > cutoff}\n",
            line=6,
            column=9,
            message="Tombstone removed from `self.tombstones` by age or time without checking that nothing still holds it",
        ),
        Invalid(
            "async def purge_deleted(self, turn):\n    for node in list(self.nodes):\n"
            "        if node.deleted and turn - node.turn > 5:\n            await self.store.delete(node.id)\n",
            line=4,
            column=19,
            message="Tombstone removed from `self.store` by age or time without checking that nothing still holds it",
        ),
        Invalid(
            "import time\n\ndef reap(graveyard, max_age):\n    now = time.monotonic()\n"
            "    for sid, stone in list(graveyard.items()):\n        if stone.content == '<tombstone>' and now - stone.at > max_age:\n"
            "            graveyard.pop(sid)\n",
            line=7,
            column=13,
            message="Tombstone removed from `graveyard` by age or time without checking that nothing still holds it",
        ),
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Tombstone:\n    span_id: str\n    age: int\n\n"
            "def expire(tombstones: list[Tombstone]):\n    for stone in list(tombstones):\n"
            "        if stone.age > 10:\n            tombstones.remove(stone)\n",
            line=11,
            column=13,
            message="Tombstone removed from `tombstones` by age or time without checking that nothing still holds it",
        ),
    ]

    @classmethod
    def may_match(cls, source: str, vocabulary: Vocabulary) -> bool:
        return _tombstone_text(vocabulary).search(source) is not None

    def start_function(self, node: cst.FunctionDef) -> _Function:
        return _Function()

    def finish_function(self, function: _Function, node: cst.FunctionDef) -> None:
        if function.removals:
            text = self.context.module.code_for_node(node)
            vocabulary = self.context.vocabulary
            tombstones = _tombstone_text(vocabulary).search(text) is not None or (
                _tombstone_key_text(vocabulary).search(text) is not None
                and any(is_span_container(c, self.context.analysis, self.facts) for c in function.containers)
            )
            if tombstones and not _mentions_liveness(text, vocabulary):
                container = self.context.module.code_for_node(function.containers[0])
                self.report(function.removals[0], self.message.format(container=container))

    # --- conditions ----------------------------------------------------------------------------
    def leave_If(self, original_node: cst.If) -> None:
        super().leave_If(original_node)
        function = self.state
        if function is not None and function.exits and original_node.orelse is None and _exits(original_node.body):
            function.exits[-1].append(original_node.test)  # `if fresh: continue` guards what follows

    def visit_MatchCase(self, node: cst.MatchCase) -> None:
        if node.guard is not None:
            self.push_guard(node.guard)

    def leave_MatchCase(self, original_node: cst.MatchCase) -> None:
        if original_node.guard is not None:
            self.pop_guard()

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        if self.state is not None:
            self.state.exits.append([])

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock) -> None:
        if self.state is not None:
            self.state.exits.pop()

    def _is_about_age(self, expr: cst.BaseExpression) -> bool:
        age_locals = self.state.age_locals
        return mentions(expr, self.context.vocabulary.age_words) or any(name in age_locals for name in words_in(expr))

    def _by_age(
        self, node: cst.CSTNode, container: cst.BaseExpression, condition: cst.BaseExpression | None = None
    ) -> None:
        """Keep the removal `node` when its condition (enclosing tests, or its own filter) is about age."""
        function = self.state
        guards = [*function.guards, *(test for block in function.exits for test in block)]
        if (condition is not None and self._is_about_age(condition)) or any(self._is_about_age(g) for g in guards):
            function.removals.append(node)
            function.containers.append(container)

    # --- removals --------------------------------------------------------------------------------
    def visit_Del(self, node: cst.Del) -> None:
        if self.state is not None and isinstance(node.target, (cst.Subscript, cst.Tuple)):
            target = node.target.elements[0].value if isinstance(node.target, cst.Tuple) else node.target
            self._by_age(node, target.value if isinstance(target, cst.Subscript) else target)

    def visit_Call(self, node: cst.Call) -> None:
        if self.state is not None and isinstance(node.func, cst.Attribute) and callee_name(node) in _DROPPING_METHODS:
            if node.args or callee_name(node) in ("popitem", "clear"):
                self._by_age(node, node.func.value)

    def visit_Assign(self, node: cst.Assign) -> None:
        function = self.state
        if function is None:
            return
        if self._is_about_age(node.value):
            function.age_locals.update(t.target.value for t in node.targets if isinstance(t.target, cst.Name))
        value = node.value
        if isinstance(value, cst.Name) and value.value in function.filtered:
            value = function.filtered[value.value]  # `kept = [...]` then `self.tombstones = kept`
        kept = is_filter_of(value)
        if kept is None:
            return
        for target in node.targets:
            written = target.target
            if isinstance(written, cst.Name):
                function.filtered[written.value] = value
            elif same_expression(kept, written) or _slice_of(written, kept):
                self._by_age(node, kept, value)
                return


def _slice_of(target: cst.BaseExpression, kept: cst.BaseExpression) -> bool:
    """`x[:] = [... for ... in x if ...]`."""
    return isinstance(target, cst.Subscript) and same_expression(target.value, kept)


def _exits(body: cst.BaseSuite) -> bool:
    """The block ends by leaving the loop or function: `continue`, `break`, `return`, `raise`."""
    last = body.body[-1] if body.body else None
    if isinstance(last, cst.SimpleStatementLine):
        last = last.body[-1] if last.body else None
    return isinstance(last, (cst.Continue, cst.Break, cst.Return, cst.Raise))


def _mentions_liveness(text: str, vocabulary: Vocabulary) -> bool:
    words = vocabulary.liveness_words
    return any(has_word(identifier, words) for identifier in set(_IDENTIFIER.findall(text)))


_TOMBSTONE_KEY_TEXT: dict[tuple[str, ...], re.Pattern[str]] = {}


def _tombstone_key_text(vocabulary: Vocabulary) -> re.Pattern[str]:
    """A tombstone flag as a dict key: `block["deleted"]`, `msg.get("tombstoned")`."""
    pattern = _TOMBSTONE_KEY_TEXT.get(vocabulary.tombstone_flags)
    if pattern is None:
        flags = "|".join(re.escape(f) for f in vocabulary.tombstone_flags) or "(?!)"
        pattern = re.compile(rf"[\"'](?:is_)?(?:{flags})(?:_at)?[\"']")
        _TOMBSTONE_KEY_TEXT[vocabulary.tombstone_flags] = pattern
    return pattern


_TOMBSTONE_TEXT: dict[tuple[tuple[str, ...], tuple[str, ...]], re.Pattern[str]] = {}


def _tombstone_text(vocabulary: Vocabulary) -> re.Pattern[str]:
    """Tombstone context in source text: the word, a flag attribute, a deletion stamp, or a marker."""
    key = (vocabulary.tombstone_flags, vocabulary.tombstone_markers)
    pattern = _TOMBSTONE_TEXT.get(key)
    if pattern is None:
        flags = "|".join(re.escape(f) for f in vocabulary.tombstone_flags)
        markers = "|".join(re.escape(m) for m in vocabulary.tombstone_markers)
        alternatives = [r"(?i:tombstone)", rf"\.(?:is_)?(?:{flags})(?:_at)?\b" if flags else "", markers]
        pattern = re.compile("|".join(a for a in alternatives if a))
        _TOMBSTONE_TEXT[key] = pattern
    return pattern
