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
from spanlint.rules.aliases import ContainerAliases
from spanlint.rules.libcst_backend import cst
from spanlint.rules import sql, traversal
from spanlint.rules.names import STORE_DELETE_METHODS
from spanlint.rules.prescan import Scope
from runtime_guard.vocabulary import Vocabulary

# Method calls that drop an entry from a container or a store.
_DROPPING_METHODS = frozenset(
    {"pop", "popitem", "remove", "discard", "delete", "purge", "evict", "clear", "drop", "forget"}
) | STORE_DELETE_METHODS
# First words of methods named for dropping what they are given (`delete_many`, `purge_expired`).
_DROPPING_VERBS = frozenset({"delete", "remove", "drop", "purge", "evict", "forget", "discard", "erase"})
# Those that drop without being told what: `.popitem()`, `.clear()`.
_DROPPING_ALL = frozenset({"popitem", "clear"})
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
# Python's reference introspection (`sys.getrefcount`, `gc.get_referrers`, `weakref.getweakrefcount`): liveness checks.
_REFERENCE_CALLS = frozenset({"getrefcount", "get_referrers", "getweakrefcount", "getweakrefs"})


def _drops(method: str) -> bool:
    """A method dropping entries: one of `_DROPPING_METHODS`, or named with a dropping verb first
    (`delete_many`, `purge_expired`, `drop_spans`)."""
    return method in _DROPPING_METHODS or (method.split("_", 1)[0] in _DROPPING_VERBS and "_" in method)


class DropPrefilter(RemovalPrefilter):
    """A dropping method with an argument (or `.popitem()`, `.clear()`), `del` of an item or of
    several names, a filtering rewrite or slice assigned to an attribute or item, a filtered
    local written back, or a literal `DELETE FROM` run with `execute`. (The rule's text test asks
    for a tombstone.)"""

    shape = "drop"
    methods = _DROPPING_METHODS | sql.EXECUTE_METHODS

    def words(self) -> tuple[str, ...]:
        return tuple(sorted(_DROPPING_VERBS))  # `store.delete_many(stale)`

    def expression(self, node: ast.AST, scope: Scope) -> None:
        func = node.func
        if scope.node is not None and isinstance(func, ast.Attribute) and (
            _drops(func.attr) or func.attr in sql.EXECUTE_METHODS
        ) and self.removes(node, func.value):
            self.mark(node)

    def deletes(self, targets: list[ast.expr]) -> bool:
        return len(targets) > 1 or super().deletes(targets)

    def removes(self, call: ast.Call, receiver: ast.expr) -> bool:
        method = call.func.attr
        if method in sql.EXECUTE_METHODS:
            text = sql.ast_literal(call.args[0]) if call.args else None
            return bool(text) and text.lstrip()[:6].upper() == "DELETE"
        return _drops(method) and (bool(call.args or call.keywords) or method in _DROPPING_ALL)


@dataclass
class _Function(GuardedFunction):
    removals: list[cst.CSTNode] = field(default_factory=list)  # removals whose condition is age or time
    containers: list[cst.BaseExpression] = field(default_factory=list)  # what each removal drops from
    # For each removal: True when its condition selects tombstones, None when it says nothing either way.
    selected: list[bool | None] = field(default_factory=list)
    # Per enclosing block, the tests of earlier `if ...: continue` / `return` statements in it.
    exits: list[list[cst.BaseExpression]] = field(default_factory=list)
    age_locals: set[str] = field(default_factory=set)  # locals computed from a time or age: `cutoff`, `expired`
    live_locals: set[str] = field(default_factory=set)  # locals computed from a liveness check: `held`
    iterables: list[cst.BaseExpression] = field(default_factory=list)  # of the enclosing `for` loops
    aliases: ContainerAliases | None = None
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
`time.monotonic()`, `datetime.now()`, `age`, `ttl`, `created_at`, `max_age`, turn counters) when
that condition never checks whether anything still holds the span (`holders`, `refcount`,
`live_refs`, `weakref`, `is_referenced`, `has_holders`): the enclosing tests, an earlier
`if held: continue`, the filter of a comprehension, or a local computed from such a check. A
check in another branch of the function does not cover the removal. Containers are followed
through local aliases (`pool = self._spans`). Only tombstone collection counts: the
function must deal with a tombstone (a `tombstone` name, a `tombstoned`/`deleted` flag, a
`deleted_at` stamp or a tombstone marker); an ordinary TTL cache expiring entries is not reported.
A store's delete named with a dropping verb (`store.delete_many(stale)`) is a removal, and so is
`DELETE FROM spans WHERE tombstoned_at < ?` run on a span table the module creates, unless the
statement asks what still holds the rows (`NOT EXISTS (SELECT ... FROM holders ...)`).

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
            "SCHEMA = \"\"\"\nCREATE TABLE IF NOT EXISTS spans (\n    span_id TEXT PRIMARY KEY,\n    content TEXT NOT NULL,\n    version INTEGER NOT NULL DEFAULT 0,\n    content_hash TEXT NOT NULL,\n    tombstoned_at REAL\n);\n\"\"\"\n\n"
            "def vacuum(conn, cutoff: float) -> int:\n"
            "    return conn.execute(\n        \"DELETE FROM spans WHERE tombstoned_at < ? \"\n"
            "        \"AND NOT EXISTS (SELECT 1 FROM holders h WHERE h.span_id = spans.span_id)\", (cutoff,)\n    ).rowcount\n"
        ),
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
        # The old tombstones nothing holds, picked first, then removed one by one.
        Valid(
            "import time\n\ndef collect(store, citations, min_age):\n    now = time.time()\n"
            "    held = holders_of(store, citations)\n"
            "    ready = [n for n in store.tombstones() if n.note_id not in held and now - n.tombstoned_at > min_age]\n"
            "    for note in ready:\n        store.delete(note.note_id)\n"
        ),
        Valid(
            "def compact(self):\n    for sid in list(self.tombstones):\n        if not self.is_referenced(sid):\n"
            "            del self.tombstones[sid]\n"
        ),
        Valid(
            "class HTTPCache:\n    def purge(self, now):\n        for url in list(self.entries):\n"
            "            if self.entries[url].expires < now:\n                self.entries.pop(url)\n"
        ),
        Valid(
            "import time\n\ndef purge(store, cited, days):\n    cutoff = time.time() - days * 86400\n"
            "    old = store.filter_documents(filters={'field': 'meta.deleted_at', 'operator': '<', 'value': cutoff})\n"
            "    store.delete_documents([d.id for d in old if d.id not in cited])\n"
        ),
        Valid(
            "def sweep(self, ttl, cited_ids, now):\n    for node_id, ts in list(self.deleted_at.items()):\n"
            "        if now - ts <= ttl or node_id in cited_ids:\n            continue\n"
            "        self.docstore.delete_document(node_id)\n        del self.deleted_at[node_id]\n"
        ),
        # Sessions dropped by age: no tombstone in sight.
        Valid(
            "import time\n\n"
            "def expire_sessions(sessions, ttl):\n"
            "    now = time.time()\n"
            "    for sid in [s for s, t in sessions.items() if now - t.last_seen > ttl]:\n"
            "        sessions.drop(sid)\n"
        ),
        # Finished jobs purged by age beside a call to a tombstone sweep (judged in its own function).
        Valid(
            "def maintain(self):\n    sweep_unheld_tombstones(self.buffer, self.log, self.settings.tombstone_ttl_s)\n"
            "    self.jobs.purge_finished(self.settings.job_ttl_s)\n",
        ),
        # What goes is selected by age and by nothing holding it, then removed by identity.
        Valid(
            "import time\n\ndef gc(history, ttl):\n    cutoff = time.time() - ttl\n"
            "    doomed = [m for m in history.spans() if m.tombstoned and m.tombstoned_at < cutoff and not history.is_held(m.span_id)]\n"
            "    ids = {id(m) for m in doomed}\n    history.history = [m for m in history.history if id(m) not in ids]\n",
        ),
    ]
    invalid = [
        Invalid(
            "SCHEMA = \"\"\"\nCREATE TABLE IF NOT EXISTS spans (\n    span_id TEXT PRIMARY KEY,\n    content TEXT NOT NULL,\n    version INTEGER NOT NULL DEFAULT 0,\n    content_hash TEXT NOT NULL,\n    tombstoned_at REAL\n);\n\"\"\"\n\n"
            "def vacuum(conn, cutoff: float) -> int:\n"
            "    return conn.execute(\"DELETE FROM spans WHERE tombstoned_at IS NOT NULL AND tombstoned_at < ?\", (cutoff,)).rowcount\n",
            line=12, column=12, message="Tombstone removed from `spans` by age or time without checking that nothing still holds it",
        ),
        # The store's delete named with a verb (`delete_many`), given the tombstones picked by age.
        Invalid(
            "def sweep(store, cutoff):\n    stale = [s.span_id for s in store.tombstoned() if s.tombstoned_at < cutoff]\n"
            "    return store.delete_many(stale)\n",
            line=3, column=12, message="Tombstone removed from `store` by age or time without checking that nothing still holds it",
        ),
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
        # A document store's tombstones, selected by a metadata filter on their deletion stamp.
        Invalid(
            "import time\n\ndef purge(store, days):\n    cutoff = time.time() - days * 86400\n"
            "    old = store.filter_documents(filters={'field': 'meta.deleted_at', 'operator': '<', 'value': cutoff})\n"
            "    store.delete_documents([d.id for d in old])\n",
            line=6, column=5,
            message="Tombstone removed from `store` by age or time without checking that nothing still holds it",
        ),
        # A memory store's own delete, told the age by a keyword; the filter names the tombstone state.
        Invalid(
            "from datetime import datetime, timedelta\n\n"
            "def expire_tombstones(memory, days=14):\n"
            "    cutoff = datetime.utcnow() - timedelta(days=days)\n"
            "    return memory.forget(older_than=cutoff, metadata_filter={'state': 'tombstoned'})\n",
            line=5, column=12,
            message="Tombstone removed from `memory` by age or time without checking that nothing still holds it",
        ),
        # Ids selected by age, then dropped one by one.
        Invalid(
            "import time\n\n"
            "def sweep(buffer, ttl):\n"
            "    now = time.time()\n"
            "    expired = [s.span_id for s in buffer.all() if s.tombstoned and now - s.tombstoned_at > ttl]\n"
            "    for span_id in expired:\n"
            "        buffer.drop(span_id)\n",
            line=7, column=9,
            message="Tombstone removed from `buffer` by age or time without checking that nothing still holds it",
        ),
    ]

    @classmethod
    def may_match(cls, source: str, vocabulary: Vocabulary) -> bool:
        return _names_tombstones(source, vocabulary)

    def start_function(self, node: cst.FunctionDef) -> _Function:
        return _Function(aliases=ContainerAliases.of(node, self.context.analysis.memo))

    def finish_function(self, function: _Function, node: cst.FunctionDef) -> None:
        if not function.removals:
            return
        code = self.context.module.code_for_node
        vocabulary = self.context.vocabulary
        number = next((i for i, selected in enumerate(function.selected) if selected), None)
        if number is None:  # no condition names tombstones: the removal and what it is given, or the function's name, must
            text = _removal_text(node, function.removals, code)
            if _names_tombstones(text, vocabulary) or (
                _tombstone_key_text(vocabulary).search(text) is not None
                and any(is_span_container(c, self.context.analysis, self.facts) for c in function.containers)
            ):
                number = 0
        if number is not None:
            self.report(function.removals[number], self.message.format(container=code(function.containers[number])))

    def visit_For(self, node: cst.For) -> None:
        super().visit_For(node)
        if self.state is not None:
            self.state.iterables.append(node.iter)

    def leave_For(self, original_node: cst.For) -> None:
        super().leave_For(original_node)
        if self.state is not None:
            self.state.iterables.pop()

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

    def _checks_liveness(self, expr: cst.BaseExpression) -> bool:
        """`expr` names a liveness check (`holders`, `msg.get("refcount")`); a local alias of the container
        (`live = self._spans`) is not one."""
        function = self.state
        words = self.context.vocabulary.liveness_words
        return any(
            name in function.live_locals or name in _REFERENCE_CALLS
            or (has_word(name, words) and name not in function.aliases)
            for name in set(_IDENTIFIER.findall(self.context.module.code_for_node(expr)))
        )

    def _is_about_age(self, expr: cst.BaseExpression) -> bool:
        age_locals = self.state.age_locals
        return mentions(expr, self.context.vocabulary.age_words) or any(name in age_locals for name in words_in(expr))

    def _by_age(
        self, node: cst.CSTNode, container: cst.BaseExpression, condition: cst.BaseExpression | None = None,
        *, selects: cst.BaseExpression | None = None,
    ) -> None:
        """Keep the removal `node` when its condition (enclosing tests, its own filter `condition` of what
        it keeps, or the expression `selects` naming what it removes) is about age."""
        function = self.state
        guards = [*function.guards, *(test for block in function.exits for test in block)]
        tests = [g for g in guards if not any(g is i for i in function.iterables)]
        tests += [t for t in (condition, selects) if t is not None]
        if any(self._checks_liveness(t) for t in tests) or any(
            isinstance(i, cst.Name) and i.value in function.live_locals for i in function.iterables
        ):
            return  # also `for note in ready:`, `ready` kept by a filter that checks holders
        if any(t is not None and self._is_about_age(t) for t in (condition, selects)) or any(self._is_about_age(g) for g in guards):
            exits = [test for block in function.exits for test in block]
            drop = [(g, True) for g in function.guards if not any(g is i for i in function.iterables)]
            drop += [(test, False) for test in exits]
            drop += [(keep, False) for keep in _keep_conditions(condition)] if condition is not None else []
            drop += [(selects, True)] if selects is not None else []
            keyed = is_span_container(container, self.context.analysis, self.facts)  # `m["deleted"]` says tombstone
            polarities = {p for test, positive in drop for p in self._tombstone_polarities(test, positive, keyed)}
            if polarities == {False}:
                return  # tombstones are what it keeps (`... or s.tombstoned`), or what it skips
            function.removals.append(node)
            function.containers.append(container)
            function.selected.append(True if True in polarities else None)

    def _tombstone_polarities(self, test: cst.BaseExpression, positive: bool, keyed: bool) -> set[bool]:
        """For each tombstone flag or marker `test` names: True when the removal needs it
        to hold (`s.tombstoned and old`), False when it needs it not to (`not s.deleted`, `content != "[pruned]"`)."""
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return self._tombstone_polarities(test.expression, not positive, keyed)
        if isinstance(test, cst.BooleanOperation):
            return self._tombstone_polarities(test.left, positive, keyed) | self._tombstone_polarities(test.right, positive, keyed)
        if self._is_about_age(test):
            return set()  # `now - s.deleted_at > ttl`: the age, not which items are tombstones
        if isinstance(test, cst.Comparison) and any(
            isinstance(c.operator, (cst.NotEqual, cst.IsNot, cst.NotIn)) for c in test.comparisons
        ):
            positive = not positive
        vocabulary = self.context.vocabulary
        text = self.context.module.code_for_node(test)
        named = _names_tombstones(text, vocabulary) or (
            keyed and _tombstone_key_text(vocabulary).search(text) is not None
        )
        return {positive} if named else set()

    # --- removals --------------------------------------------------------------------------------
    def visit_Del(self, node: cst.Del) -> None:
        if self.state is not None and isinstance(node.target, (cst.Subscript, cst.Tuple)):
            target = node.target.elements[0].value if isinstance(node.target, cst.Tuple) else node.target
            self._by_age(node, target.value if isinstance(target, cst.Subscript) else target)

    def visit_Call(self, node: cst.Call) -> None:
        if self.state is not None and isinstance(node.func, cst.Attribute) and node.func.attr.value in sql.EXECUTE_METHODS:
            self._sql_delete(node)
        elif self.state is not None and isinstance(node.func, cst.Attribute) and _drops(callee_name(node) or ""):
            if node.args or callee_name(node) in ("popitem", "clear"):
                # `store.delete_documents([d.id for d in old])`, `old` selected by a cutoff, or
                # `memory.forget(older_than=cutoff)`: the argument says which go
                selected = next((a.value for a in node.args if self._is_about_age(a.value)), None)
                self._by_age(node, node.func.value, selects=selected)

    def _sql_delete(self, call: cst.Call) -> None:
        """`conn.execute("DELETE FROM spans WHERE tombstoned_at < ?", (cutoff,))` on a span table
        (`rules.sql`), outside any test of what holds the rows."""
        statement = sql.sql_write(call, sql.file_tables(self.context))
        if not isinstance(statement, sql.SqlDelete) or sql.collects_by_age(statement) is None:
            return
        if any(self._checks_liveness(g) for g in (*self.state.guards, *(t for block in self.state.exits for t in block))):
            return
        self.report(call, self.message.format(container=statement.table.name))

    def visit_Assign(self, node: cst.Assign) -> None:
        function = self.state
        if function is None:
            return
        named = [t.target.value for t in node.targets if isinstance(t.target, cst.Name)]
        if self._is_about_age(node.value):
            function.age_locals.update(named)
        if self._checks_liveness(node.value):
            function.live_locals.update(named)
        value = node.value
        if isinstance(value, cst.Name) and value.value in function.filtered:
            value = function.filtered[value.value]  # `kept = [...]` then `self.tombstones = kept`
        kept = is_filter_of(value)
        if kept is None:
            return
        resolve = function.aliases.resolve
        for target in node.targets:
            written = target.target
            if isinstance(written, cst.Name):
                function.filtered[written.value] = value
            elif same_expression(resolve(kept), resolve(written)) or _slice_of(resolve(written), resolve(kept)):
                self._by_age(node, kept, value)
                return


def _keep_conditions(value: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The conditions a filtering rewrite keeps items by: the `if`s of a comprehension, a `filter` lambda's body."""
    if isinstance(value, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
        found: list[cst.BaseExpression] = []
        comp: cst.CompFor | None = value.for_in
        while comp is not None:
            found += [c.test for c in comp.ifs]
            comp = comp.inner_for_in
        return found
    if isinstance(value, cst.Call) and callee_name(value) == "filter" and value.args and isinstance(value.args[0].value, cst.Lambda):
        return [value.args[0].value.body]
    return []


def _slice_of(target: cst.BaseExpression, kept: cst.BaseExpression) -> bool:
    """`x[:] = [... for ... in x if ...]`."""
    return isinstance(target, cst.Subscript) and same_expression(target.value, kept)


def _exits(body: cst.BaseSuite) -> bool:
    """The block ends by leaving the loop or function: `continue`, `break`, `return`, `raise`."""
    last = body.body[-1] if body.body else None
    if isinstance(last, cst.SimpleStatementLine):
        last = last.body[-1] if last.body else None
    return isinstance(last, (cst.Continue, cst.Break, cst.Return, cst.Raise))


_TOMBSTONE_KEY_TEXT: dict[tuple[str, ...], re.Pattern[str]] = {}


def _removal_text(node: cst.FunctionDef, removals: list[cst.CSTNode], code) -> str:  # type: ignore[no-untyped-def]
    """The function's name, its removals, and the statements binding the locals they read
    (`old = store.filter_documents(... "meta.deleted_at" ...)` for `store.delete_documents(old)`): not a
    tombstone sweep the function calls elsewhere (`sweep_tombstones(buffer)` beside `jobs.purge(ttl)`)."""
    bindings = [s for s in traversal.descendants(node.body) if isinstance(s, (cst.Assign, cst.AnnAssign, cst.For))]
    read = _names_read(removals)
    binding: list[cst.CSTNode] = []
    while True:  # the statements binding what is read, then what those read, ...
        more = [s for s in bindings if s not in binding and _names_read(_bound_targets(s)) & read]
        if not more:
            return "\n".join([node.name.value, *map(code, removals), *map(code, binding)])
        binding += more
        read |= _names_read(more)


def _names_read(nodes: list[cst.CSTNode]) -> set[str]:
    return {n.value for node in nodes for n in traversal.descendants(node) if isinstance(n, cst.Name)}


def _bound_targets(statement: cst.Assign | cst.AnnAssign | cst.For) -> list[cst.BaseExpression]:
    if isinstance(statement, cst.Assign):
        return [t.target for t in statement.targets]
    return [statement.target]


def _tombstone_key_text(vocabulary: Vocabulary) -> re.Pattern[str]:
    """A tombstone flag as a dict key: `block["deleted"]`, `msg.get("tombstoned")`."""
    pattern = _TOMBSTONE_KEY_TEXT.get(vocabulary.tombstone_flags)
    if pattern is None:
        flags = "|".join(re.escape(f) for f in vocabulary.tombstone_flags) or "(?!)"
        pattern = re.compile(rf"[\"'](?:is_)?(?:{flags})(?:_at)?[\"']")
        _TOMBSTONE_KEY_TEXT[vocabulary.tombstone_flags] = pattern
    return pattern


_FLAG_ATTRIBUTES: dict[tuple[str, ...], re.Pattern[str]] = {}


def _names_tombstones(text: str, vocabulary: Vocabulary) -> bool:
    """Tombstone context in source text: the word (in any case), a flag attribute or a deletion stamp
    (`.is_deleted`, `.deleted_at`), or a marker. Searched with `in` where it can be: a pattern of
    alternatives that do not all start with a literal tries every position of the text."""
    if "tombstone" in text.lower() or any(marker in text for marker in vocabulary.tombstone_markers):
        return True
    flags = vocabulary.tombstone_flags
    pattern = _FLAG_ATTRIBUTES.get(flags)
    if pattern is None:
        pattern = _FLAG_ATTRIBUTES[flags] = re.compile(rf"\.(?:is_)?(?:{'|'.join(map(re.escape, flags))})(?:_at)?\b" if flags else "(?!)")
    return pattern.search(text) is not None
