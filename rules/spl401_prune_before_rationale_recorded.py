"""SPL401: spans pruned from the context before the rationale is written to the decision log."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from spanlint.rules.analysis import callee_name, last_name, string_key, string_value
from spanlint.rules.base import Invalid, Valid
from spanlint.rules.evidence import (
    GuardedFunction,
    RemovalPrefilter,
    GuardedRule,
    chain_names,
    TRACING_MARKERS,
    has_word,
    is_decision_log,
    is_editing_callee,
    is_filter_of,
    is_record_call,
    is_span_container,
    mentions,
    recording_functions,
    access_root,
    same_expression,
    words_in,
)
from spanlint.rules.libcst_backend import cst
from spanlint.rules.names import REMOVING_METHODS, name_parts
from runtime_guard.vocabulary import Vocabulary

# Words that make a function's name, a guard or a removal's argument a pruning policy, beyond the
# vocabulary's `prune_words`, `summarize_words` and `age_words`.
_POLICY_WORDS = (
    "len", "token", "tokens", "limit", "max", "size", "capacity", "window", "count", "score", "relevance",
    "importance", "priority", "old", "threshold", "exceed", "exceeds", "keep", "retain", "cap", "dedupe",
    "dedup", "enforce", "squeeze", "lru", "least",
)
# Owners whose items are not an agent's context, whatever their names.
_NOT_CONTEXT_PARTS = frozenset({"cache", "lru", "memo", "pool", "queue", "stack", "heap", "frontier", "inbox", "outbox"})
# Span nouns too common in other code to name a span type on their own (`PtyProcessEntry`).
_WEAK_NOUNS = frozenset({"entry", "entries", "block", "blocks", "turn", "turns"})
# `other.append(c.pop())` moves an item; it does not drop it.
_MOVING_METHODS = frozenset({"append", "appendleft", "insert", "extend", "put", "put_nowait", "add"})
_LIFECYCLE = frozenset({"__init__", "__post_init__", "__del__", "__exit__", "__aexit__", "close", "aclose", "setUp"})
# A removal the rule can report: `del`, a removing method, a filtering comprehension or `filter()`,
# or a slice (`self.spans = self.spans[-10:]`), possibly through a local written back later.
_PRESCAN = re.compile(r"\bdel\b|\.(?:pop|popleft|popitem|remove|clear|discard)\(|\bfilter\(|\bfor\b[\s\S]*?\bif\b|[\w)\]]\[[^\]]*:")


# `ctx: list[Span]`, `self.window: deque[Message] = ...`: a container declared to hold an element type.
_ANNOTATED_CONTAINER = re.compile(
    r"\b(\w+)\s*:\s*(?:\w+\.)?(?:list|List|deque|Deque|MutableSequence|Sequence|dict|Dict|OrderedDict)\[([\w\s.,\[]*)\]"
)
# `ctx.append(span)`, `self.buffer.insert(0, message)`: a container given span-like items.
_APPENDED = re.compile(r"\b(\w+)\.(?:append|appendleft|insert)\((?:[^,()]*,\s*)?(\w+)\)")


@dataclass
class _Removal:
    node: cst.CSTNode
    path: tuple[int, ...]
    seq: int


@dataclass
class _Function(GuardedFunction):
    """The events of one function, in source order, with the block each happened in."""

    params: frozenset[str]
    path: list[int] = field(default_factory=list)
    records: list[tuple[tuple[int, ...], int]] = field(default_factory=list)
    calls: list[tuple[str, tuple[int, ...], int]] = field(default_factory=list)  # maybe helper records
    removals: list[_Removal] = field(default_factory=list)
    moved: set[cst.CSTNode] = field(default_factory=set)  # calls whose result goes into another container
    loops: list[tuple[cst.BaseExpression, cst.BaseExpression]] = field(default_factory=list)  # (target, iter)
    aliases: set[str] = field(default_factory=set)  # locals naming a context container
    owned: set[str] = field(default_factory=set)  # locals holding this function's own values
    filtered: dict[str, cst.BaseExpression] = field(default_factory=dict)  # local -> container it filters


def _dominates(earlier: tuple[tuple[int, ...], int], later: tuple[tuple[int, ...], int]) -> bool:
    """True when the event `earlier` runs before `later` on every path reaching `later`."""
    (path_a, seq_a), (path_b, seq_b) = earlier, later
    return seq_a < seq_b and path_b[: len(path_a)] == path_a


class PrunePrefilter(RemovalPrefilter):
    """A removing method called on a name, attribute or item, `del x[...]`, a filtering rewrite or
    slice assigned to an attribute or item, a filtered local written back, or a tombstone written
    into a content field."""

    shape = "removal"
    methods = REMOVING_METHODS

    def removes(self, call: ast.Call, receiver: ast.expr) -> bool:
        return isinstance(receiver, (ast.Name, ast.Attribute, ast.Subscript))

    def assigns_removal(self, target: ast.Attribute | ast.Subscript, value: ast.expr) -> bool:
        return self._is_tombstone_write(target, value)

    def _is_tombstone_write(self, target: ast.Attribute | ast.Subscript, value: ast.expr) -> bool:
        """`span.content = "[pruned]"`, `turn["content"] = TOMBSTONE`."""
        key = target.slice if isinstance(target, ast.Subscript) else None
        field = target.attr if isinstance(target, ast.Attribute) else key.value if isinstance(key, ast.Constant) else None
        if field not in self.vocabulary.content_fields:
            return False
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return any(marker in value.value for marker in self.vocabulary.tombstone_markers)
        name = value.id if isinstance(value, ast.Name) else value.attr if isinstance(value, ast.Attribute) else ""
        return "tombstone" in self.parts(name)


class PruneBeforeRationaleRecorded(GuardedRule[_Function]):
    code = "SPL401"
    name = "prune-before-rationale-recorded"
    summary = "Spans pruned before the rationale is recorded in the decision log"
    message = "`{container}` pruned before the rationale is recorded in a decision log"
    help = "Record why in the decision log before the removal"
    prefilter = PrunePrefilter
    local_to_definitions = True
    docs = """
## What it does
Finds pruning passes that remove spans from a context container (`del ctx.spans[i]`,
`self.messages.pop(0)`, `.remove(span)`, `.clear()`, `ctx.spans = [s for s in ctx.spans if ...]`,
a span's content replaced by a tombstone marker) when no decision-log record runs before the
first removal on that path. A record that only comes after the removal is still a finding.

A function is a pruning pass when its name says so (vocabulary `prune_words`: `prune`, `trim`,
`evict`, `compact`...), when the removal is guarded by a policy (a size, token, score or age test,
a condition on the span), when it truncates with a slice, or when it filters the container and
writes the result back. Plain `clear()`/`remove()`/`pop()` calls of a store's own delete API
(`def clear(self)`, `def delete_message(self, id)`), queue consumers and local copies (a pure
`trim_messages(messages)` that returns a new list) are not pruning passes: the caller decides.

## Why is this bad?
The rationale for a prune usually lives in the spans being removed. Once they are gone, nobody can
reconstruct why the agent forgot what it forgot; if the process dies between the removal and a
late record, the reason is lost for good.

## Example
```python
def evict(self, budget):
    while self.token_count() > budget:
        span = self.spans.pop(0)
        self.decision_log.record("evict", span.id, reason="over budget")
```

## Use instead
```python
def evict(self, budget):
    while self.token_count() > budget:
        self.decision_log.record("evict", self.spans[0].id, reason="over budget")
        self.spans.pop(0)
```

## Fix safety
No fix: the rationale is the author's to write.
"""
    valid = [
        Valid(
            "def evict(self, budget):\n    while self.token_count() > budget:\n"
            "        self.decision_log.record('evict', self.spans[0].id)\n        self.spans.pop(0)\n"
        ),
        Valid("class ChatHistory:\n    def clear(self):\n        self.messages.clear()\n"),
        Valid(
            "def parse(tokens):\n    stack = []\n    for token in tokens:\n        if token == ')':\n"
            "            stack.pop()\n        else:\n            stack.append(token)\n"
        ),
        Valid(
            "def trim_messages(messages, max_tokens):\n    messages = list(messages)\n"
            "    while count(messages) > max_tokens:\n        messages.pop(0)\n    return messages\n"
        ),
        Valid(
            "async def drain(self):\n    while self.pending_messages:\n"
            "        message = self.pending_messages.pop(0)\n        await self.send(message)\n"
        ),
        Valid(
            "from dataclasses import dataclass, field\n\n@dataclass\nclass Context:\n"
            "    spans: list = field(default_factory=list)\n\n    def prune(self, keep):\n"
            "        self.audit_log.append({'op': 'prune', 'dropped': [s.id for s in self.spans if s.id not in keep]})\n"
            "        self.spans = [s for s in self.spans if s.id in keep]\n"
        ),
        Valid(
            "def end_span(self, event_id):\n    span = self.active_spans.pop(event_id, None)\n"
            "    if span is not None:\n        span.end()\n"
        ),
        Valid(
            "class Window:\n    def _note(self, reason):\n        self.ledger.write(reason)\n\n"
            "    def trim(self, n):\n        self._note(f'trim {n}')\n        del self.nodes[:n]\n"
        ),
    ]
    invalid = [
        Invalid(
            "def evict(self, budget):\n    while self.token_count() > budget:\n        span = self.spans.pop(0)\n"
            "        self.decision_log.record('evict', span.id)\n",
            line=3,
            column=16,
            message="`self.spans` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(
            "def compact(ctx, keep):\n    ctx.spans[:] = [s for s in ctx.spans if s.id in keep]\n",
            line=2,
            column=5,
            message="`ctx.spans` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(
            "class Memory:\n    def forget_stale(self, now):\n        for node in list(self.nodes):\n"
            "            if now - node.created_at > self.ttl:\n                self.nodes.remove(node)\n",
            line=5,
            column=17,
            message="`self.nodes` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(
            "async def trim_window(buffer, limit):\n    del buffer.messages[:-limit]\n"
            "    await buffer.audit_log.append('trimmed')\n",
            line=2,
            column=5,
            message="`buffer.messages` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(
            "from pydantic import BaseModel\n\nclass Span(BaseModel):\n    id: str\n    content: str\n\n"
            "def redact_pruned(span: Span):\n    span.content = '[pruned]'\n",
            line=8,
            column=5,
            message="`span` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(
            "def drop_tool_results(state):\n    for message in list(state['messages']):\n"
            "        if message.role == 'tool':\n            state['messages'].remove(message)\n",
            line=4,
            column=13,
            message="`state['messages']` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(
            "class Buffer:\n    def add(self, chunk):\n        self.chunks.append(chunk)\n"
            "        if len(self.chunks) > self.capacity:\n            self.chunks.pop(0)\n",
            line=5,
            column=13,
            message="`self.chunks` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(
            "def prune(self, verbose=False):\n    if verbose:\n        self.decision_log.record('prune')\n"
            "    kept = [s for s in self.spans if s.score > 0.2]\n    self.spans = kept\n",
            line=5,
            column=5,
            message="`self.spans` pruned before the rationale is recorded in a decision log",
        ),
    ]

    @classmethod
    def may_match(cls, source: str, vocabulary: Vocabulary) -> bool:
        return _PRESCAN.search(source) is not None or any(
            marker in source for marker in (*vocabulary.tombstone_markers, "tombstone", "TOMBSTONE")
        )

    def __init__(self, context) -> None:
        super().__init__(context)
        self._transparent: set[cst.CSTNode] = set()  # blocks that always run when their parent does
        self._blocks = 0
        self._seq = 0
        self._tracing: bool | None = None
        self._recorders: frozenset[str] | None = None
        self._span_holders: frozenset[str] | None = None

    # --- scopes and blocks ---------------------------------------------------------------------
    def start_function(self, node: cst.FunctionDef) -> _Function:
        return _Function(frozenset(self.facts.params))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        super().visit_FunctionDef(node)
        self._transparent.add(node.body)

    def visit_With(self, node: cst.With) -> None:
        self._transparent.add(node.body)

    def visit_Try(self, node: cst.Try) -> None:
        self._transparent.add(node.body)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._enter_block(node)

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock) -> None:
        self._leave_block(original_node)

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._enter_block(node)

    def leave_SimpleStatementSuite(self, original_node: cst.SimpleStatementSuite) -> None:
        self._leave_block(original_node)

    def _enter_block(self, node: cst.CSTNode) -> None:
        if self.state is not None and node not in self._transparent:
            self._blocks += 1
            self.state.path.append(self._blocks)

    def _leave_block(self, node: cst.CSTNode) -> None:
        if self.state is not None and node not in self._transparent:
            self.state.path.pop()

    def visit_For(self, node: cst.For) -> None:
        super().visit_For(node)
        function = self.state
        if function is not None:
            function.loops.append((node.target, node.iter))
            if isinstance(node.target, cst.Name):
                function.owned.add(node.target.value)

    def leave_For(self, original_node: cst.For) -> None:
        super().leave_For(original_node)
        if self.state is not None:
            self.state.loops.pop()

    def _here(self) -> tuple[tuple[int, ...], int]:
        self._seq += 1
        return tuple(self.state.path), self._seq

    # --- records ---------------------------------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        function = self.state
        if function is None:
            return
        vocabulary = self.context.vocabulary
        if is_record_call(node, vocabulary, self.facts):
            function.records.append(self._here())
            return
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in _MOVING_METHODS:
            function.moved.update(a.value for a in node.args)
        if isinstance(func, cst.Attribute) and func.attr.value in REMOVING_METHODS and node not in function.moved:
            if self._is_context(func.value) and self._is_policy(node, func.value, method=func.attr.value):
                function.removals.append(_Removal(node, *self._here()))
                return
        name = callee_name(node)
        if name and not is_editing_callee(name, vocabulary) and any(
            is_decision_log(a.value, vocabulary, self.facts) for a in node.args
        ):
            function.records.append(self._here())  # `note_prune(ctx.decision_log, span, reason)`
            return
        if name:
            function.calls.append((name, *self._here()))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if self.state is not None and is_decision_log(node.target, self.context.vocabulary, self.facts):
            self.state.records.append(self._here())

    # --- removals ----------------------------------------------------------------------------------
    def visit_Del(self, node: cst.Del) -> None:
        if self.state is None:
            return
        targets = [e.value for e in node.target.elements] if isinstance(node.target, cst.Tuple) else [node.target]
        for target in targets:
            if isinstance(target, cst.Subscript) and self._is_context(target.value) and self._is_policy(node, target.value):
                self.state.removals.append(_Removal(node, *self._here()))
                return

    def visit_Assign(self, node: cst.Assign) -> None:
        function = self.state
        if function is None:
            return
        for target in node.targets:
            written = target.target
            if isinstance(written, cst.Subscript) and is_decision_log(written.value, self.context.vocabulary, self.facts):
                function.records.append(self._here())
            elif self._removes(written, node.value) or self._tombstones(written, node.value):
                function.removals.append(_Removal(node, *self._here()))
            elif isinstance(written, cst.Name):
                self._bind(function, written.value, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if self.state is not None and node.value is not None and isinstance(node.target, cst.Name):
            self._bind(self.state, node.target.value, node.value)

    def _bind(self, function: _Function, name: str, value: cst.BaseExpression) -> None:
        function.filtered.pop(name, None)
        function.aliases.discard(name)
        kept = is_filter_of(value)
        if kept is not None and _is_full_slice(value):
            kept = None
        if kept is not None and self._is_context(kept):
            function.filtered[name] = kept
        elif isinstance(value, (cst.Attribute, cst.Subscript)) and self._is_context(value):
            function.aliases.add(name)
        function.owned.add(name)

    def _removes(self, target: cst.BaseExpression, value: cst.BaseExpression) -> bool:
        """`c[:] = filtered`, `self.spans = [s for s in self.spans if ...]`, `self.spans = kept`."""
        function = self.state
        if isinstance(target, cst.Subscript) and _is_full_slice(target):
            container = target.value
            return self._is_context(container) and (
                is_filter_of(value) is not None or (isinstance(value, cst.Name) and value.value in function.filtered)
            )
        if not isinstance(target, (cst.Attribute, cst.Subscript)) or not self._is_context(target):
            return False
        if isinstance(value, cst.Name):
            source = function.filtered.get(value.value)
            return source is not None and same_expression(source, target)
        kept = is_filter_of(value)
        return kept is not None and not _is_full_slice(value) and same_expression(kept, target)

    def _tombstones(self, target: cst.BaseExpression, value: cst.BaseExpression) -> bool:
        """`span.content = "[pruned]"`, `turn["content"] = "<tombstone>"`: content replaced by a tombstone marker."""
        vocabulary = self.context.vocabulary
        if isinstance(target, cst.Attribute) and target.attr.value in vocabulary.content_fields:
            span = target.value
        elif isinstance(target, cst.Subscript) and string_key(target) in vocabulary.content_fields:
            span = target.value  # `turn["content"] = "<tombstone>"`
        else:
            return False
        if not self.context.analysis.is_span_like(span, self.facts):
            return False
        text = string_value(value)
        if text is not None:
            return any(marker in text for marker in vocabulary.tombstone_markers)
        if isinstance(value, (cst.Name, cst.Attribute)):
            return "tombstone" in name_parts(last_name(value))
        return False

    # --- what is a context container and a pruning policy ----------------------------------------
    def _is_context(self, expr: cst.BaseExpression) -> bool:
        """A span container that outlives the function: an attribute, a state key, a parameter or its alias."""
        function = self.state
        if isinstance(expr, cst.Name):
            if expr.value in function.aliases:
                return True
            if expr.value in function.owned or expr.value not in function.params:
                return False
        elif not isinstance(expr, (cst.Attribute, cst.Subscript)):
            return False
        owners = [*chain_names(expr), (self.facts.self_class if self.facts else None) or ""]
        if any(_NOT_CONTEXT_PARTS.intersection(name_parts(name)) for name in owners):
            return False  # an HTTP cache's entries, a work queue's items
        if (
            not is_span_container(expr, self.context.analysis, self.facts) or self._only_a_buffer(expr)
        ) and not self._holds_spans(expr):
            return False
        if {"span", "spans"}.intersection(name_parts(last_name(expr) or "")) and self._traces():
            return False  # an OpenTelemetry exporter's spans
        root = access_root(expr)
        return root is None or root not in function.owned or root in function.aliases

    def _traces(self) -> bool:
        """The file uses tracing (OpenTelemetry and the like), where `span` means a trace span."""
        if self._tracing is None:
            self._tracing = TRACING_MARKERS.search(self.context.source) is not None
        return self._tracing

    def _only_a_buffer(self, expr: cst.BaseExpression) -> bool:
        """`self._buffer`: named only by a container noun, it may hold text or bytes; the file must show spans in it."""
        names = chain_names(expr)
        analysis = self.context.analysis
        return (
            bool(names)
            and not analysis.is_span_name(names[-1])
            and analysis.known_class(expr, self.facts) is None
            and any(part in self.context.vocabulary.container_nouns for part in name_parts(names[-1]))
        )

    def _holds_spans(self, expr: cst.BaseExpression) -> bool:
        """A container the file declares as holding spans (`ctx: list[Span]`) or appends spans to."""
        names = chain_names(expr)
        if not names:
            return False
        if self._span_holders is None:
            self._span_holders = self._find_span_holders()
        return names[-1] in self._span_holders

    def _find_span_holders(self) -> frozenset[str]:
        analysis, project = self.context.analysis, self.context.project
        found = set()
        for name, element in _ANNOTATED_CONTAINER.findall(self.context.source):
            element_type = re.findall(r"\w+", element)[-1:]
            if element_type and (project.span_class(element_type[0]) or _names_a_span_type(element_type[0], analysis)):
                found.add(name)
        for name, item in _APPENDED.findall(self.context.source):
            if analysis.is_span_name(item) or project.span_class(item):
                found.add(name)
        return frozenset(found)

    def _is_policy(self, removal: cst.CSTNode, container: cst.BaseExpression, method: str | None = None) -> bool:
        """The removal is a pruning decision: by the function's name, a guard, or its own arguments."""
        assert self.function is not None
        if self.function.name.value in _LIFECYCLE:
            return False
        words = self._policy_words()
        own = {part for name in chain_names(container) for part in name_parts(name)}
        if has_word("_".join(p for p in name_parts(self.function.name.value) if p not in own), words):
            return True  # `evict`, `trim_window`; not `transcribe_turns` for `self._turns`
        if isinstance(removal, cst.Del) or method in ("pop", "popleft"):
            argument = removal.target if isinstance(removal, cst.Del) else removal  # type: ignore[union-attr]
            if _slice_bounded(argument) or (isinstance(argument, cst.CSTNode) and _arguments_mention(argument, words)):
                return True
        if isinstance(container, cst.Name):
            # A bare parameter may be the caller's work list (a stack of chunks): only a test that
            # judges the items of a loop over it makes the removal a pruning decision.
            judged = self._judged_items(container)
            return any(
                name in judged
                for guard in self.state.guards
                if not (isinstance(guard, cst.Comparison) and self._selects_by_id(guard))
                for name in words_in(guard)
            )
        return any(self._is_policy_guard(guard, container) for guard in self.state.guards)

    def _is_policy_guard(self, guard: cst.BaseExpression, container: cst.BaseExpression) -> bool:
        """A test that selects what to drop: it names a size, score or age, or judges the container's items.

        Not `while queue:`, `if x in c:`, `if c is not None:`, nor a test about something else.
        """
        if isinstance(guard, (cst.Name, cst.Attribute, cst.Subscript)):
            return False  # truthiness, or a `for` over a container
        if isinstance(guard, cst.Comparison) and (_is_emptiness_test(guard) or self._selects_by_id(guard)):
            return False
        own = set(chain_names(container))
        words = self._policy_words()
        judged = self._judged_items(container)
        for name in words_in(guard):
            if name in judged or (name not in own and has_word(name, words)):
                return True
        return False

    def _selects_by_id(self, test: cst.Comparison) -> bool:
        """`m.id == message_id`: the caller named the item; a delete, not a pruning policy."""
        if any(not isinstance(c.operator, (cst.Equal, cst.In, cst.Is)) for c in test.comparisons):
            return False
        ids = self.context.vocabulary.id_fields
        operands = [test.left, *(c.comparator for c in test.comparisons)]
        return any(isinstance(o, cst.Attribute) and o.attr.value in ids for o in operands) and not mentions(
            test, self._policy_words()
        )

    def _judged_items(self, container: cst.BaseExpression) -> set[str]:
        """Names of the loop variables iterating over `container` (or a copy of it)."""
        found: set[str] = set()
        for target, iterable in self.state.loops:
            while isinstance(iterable, cst.Call) and iterable.args and callee_name(iterable) in (
                "list", "tuple", "reversed", "enumerate", "sorted", "copy"
            ):
                iterable = iterable.args[0].value
            if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Attribute):
                iterable = iterable.func.value  # `c.items()`, `c.copy()`
            if same_expression(iterable, container):
                found.update(words_in(target))
        return found

    def _policy_words(self) -> tuple[str, ...]:
        vocabulary = self.context.vocabulary
        return (*vocabulary.prune_words, *vocabulary.summarize_words, *vocabulary.age_words, *_POLICY_WORDS)

    # --- verdict -----------------------------------------------------------------------------------
    def finish_function(self, function: _Function, node: cst.FunctionDef) -> None:
        if not function.removals:
            return
        records = list(function.records)
        if function.calls:
            if self._recorders is None:
                self._recorders = recording_functions(self.context.source, self.context.vocabulary)
            records.extend((path, seq) for name, path, seq in function.calls if name in self._recorders)
        reported: list[_Removal] = []
        for removal in function.removals:
            where = (removal.path, removal.seq)
            if any(_dominates(r, where) for r in records):
                continue
            if any(_dominates((r.path, r.seq), where) for r in reported):
                continue
            reported.append(removal)
            self.report(removal.node, self.message.format(container=self._container_text(removal.node)))

    def _container_text(self, node: cst.CSTNode) -> str:
        code = self.context.module.code_for_node
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            return code(node.func.value)
        if isinstance(node, cst.Del):
            target = node.target.elements[0].value if isinstance(node.target, cst.Tuple) else node.target
            return code(target.value) if isinstance(target, cst.Subscript) else code(target)
        if isinstance(node, cst.Assign):
            target = node.targets[0].target
            if isinstance(target, cst.Subscript) and (
                _is_full_slice(target) or string_key(target) in self.context.vocabulary.content_fields
            ):
                return code(target.value)
            if isinstance(target, cst.Attribute) and not self.context.analysis.is_span_container(target, self.facts):
                return code(target.value)  # a tombstoned span's owner
            return code(target)
        return code(node)


def _names_a_span_type(type_name: str, analysis) -> bool:
    """`Span`, `Message`, `BaseMessage`, `TextNode`: a short type name ending in a span noun."""
    parts = name_parts(type_name)
    return 0 < len(parts) <= 2 and analysis.is_span_name(parts[-1]) and parts[-1] not in _WEAK_NOUNS


def _is_full_slice(node: cst.BaseExpression) -> bool:
    """`x[:]`."""
    return (
        isinstance(node, cst.Subscript)
        and len(node.slice) == 1
        and isinstance(node.slice[0].slice, cst.Slice)
        and node.slice[0].slice.lower is None
        and node.slice[0].slice.upper is None
    )


def _slice_bounded(node: cst.CSTNode) -> bool:
    """`x[:-10]`, `x[a:b]`: a truncation, not a clear."""
    return isinstance(node, cst.Subscript) and any(isinstance(e.slice, cst.Slice) for e in node.slice) and not _is_full_slice(node)


def _arguments_mention(node: cst.CSTNode, words: tuple[str, ...]) -> bool:
    if isinstance(node, cst.Call):
        return any(mentions(a.value, words) for a in node.args[:1])
    if isinstance(node, cst.Subscript):
        return any(mentions(e.slice, words) for e in node.slice)
    return False


def _is_emptiness_test(test: cst.Comparison) -> bool:
    """`len(c) > 0`, `len(c) != 0`, `c != []`."""
    right = test.comparisons[-1].comparator
    return isinstance(right, cst.Integer) and right.value == "0" or isinstance(right, (cst.List, cst.Tuple)) and not right.elements
