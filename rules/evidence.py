"""Shared facts of the evidence rules (SPL401-SPL403, SPL501): decision logs, removals, word matching,
and `GuardedRule`, which tracks the conditions enclosing the current node.

The words come from the vocabulary (`decision_log_names`, `record_methods`, `prune_words`,
`age_words`, `liveness_words`, `check_words`); a word matches a name when its word parts appear
consecutively among the name's parts (`audit` in `self.audit_log`, `created_at` in `s.created_at`).
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterator, Sequence, TypeVar

from spanlint.rules import traversal
from spanlint.rules.analysis import FunctionFacts, SpanAnalysis, callee_name, run_elsewhere, string_key, string_value
from spanlint.rules.base import FunctionStateRule
from spanlint.rules.libcst_backend import cst
from spanlint.rules.names import EDITING_METHODS, ENTRY_ATTRIBUTES, name_parts
from spanlint.rules.prescan import ASSIGNMENTS, Prefilter, Scope, alternation, assignment_targets, deleted, has_slice, is_filter
from runtime_guard.vocabulary import Vocabulary

# Name parts of objects that are not decision logs even when a log word is among their parts.
NOT_A_LOG_PARTS = frozenset({"logger", "logging", "file", "fh", "fp", "path", "dir", "stream", "fd", "handler"})
# Text that says a module's spans are tracing spans (OpenTelemetry and friends), not context spans.
# (`t(?<!\wt)racer` is `\btracer`: every alternative starts with a literal, for a fast search.)
TRACING_MARKERS = re.compile(
    r"opentelemetry|t(?<!\wt)racer\b|trace_id|TracingProcessor|ReadableSpan|SpanExport|SpanProcessor|tracing\.|start_span\("
)


@dataclass
class GuardedFunction:
    """The state of a function for a `GuardedRule`; a rule's own function state extends it."""

    # The `if`/`while` tests and `for` iterables enclosing the current node, innermost last.
    guards: list[cst.BaseExpression] = field(default_factory=list, kw_only=True)


Guarded = TypeVar("Guarded", bound=GuardedFunction)


class GuardedRule(FunctionStateRule[Guarded]):
    """A rule that knows the conditions enclosing the current node in its function (`self.state.guards`).

    Subclasses overriding these visit/leave methods must call `super()`.
    """

    def visit_If(self, node: cst.If) -> None:
        self.push_guard(node.test)

    def leave_If(self, original_node: cst.If) -> None:
        self.pop_guard()

    def visit_While(self, node: cst.While) -> None:
        self.push_guard(node.test)

    def leave_While(self, original_node: cst.While) -> None:
        self.pop_guard()

    def visit_For(self, node: cst.For) -> None:
        self.push_guard(node.iter)

    def leave_For(self, original_node: cst.For) -> None:
        self.pop_guard()

    def push_guard(self, guard: cst.BaseExpression) -> None:
        """`guard` encloses what is visited until the matching `pop_guard()`."""
        if self.state is not None:
            self.state.guards.append(guard)

    def pop_guard(self) -> None:
        if self.state is not None:
            self.state.guards.pop()


def parts_of(words: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The word parts of each vocabulary word (cached by the caller's tuple)."""
    return _parts_of(tuple(words))


@lru_cache(maxsize=64)
def _parts_of(words: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(name_parts(w)) for w in words if name_parts(w))


def has_word(name: str, words: Sequence[str]) -> bool:
    """True when one of `words` appears, as whole consecutive word parts, in `name`."""
    return _has_word(name, tuple(words))


@lru_cache(maxsize=8192)
def _has_word(name: str, words: tuple[str, ...]) -> bool:
    parts = name_parts(name)
    for word in _parts_of(words):
        size = len(word)
        if any(tuple(parts[i : i + size]) == word for i in range(len(parts) - size + 1)):
            return True
    return False


def chain_names(expr: cst.BaseExpression) -> list[str]:
    """The names along an attribute/subscript chain, root first: `self.log.entries[0]` -> self, log, entries.

    A string subscript key counts as a name (`state["messages"]`).
    """
    found: list[str] = []
    node: cst.BaseExpression | None = expr
    while node is not None:
        if isinstance(node, cst.Attribute):
            found.append(node.attr.value)
            node = node.value
        elif isinstance(node, cst.Subscript):
            key = string_key(node)
            if key:
                found.append(key)
            node = node.value
        elif isinstance(node, cst.Name):
            found.append(node.value)
            node = None
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            node = node.func.value  # `log.entries.copy()`: the chain of its receiver
        else:
            return []
    return found[::-1]


def access_root(expr: cst.BaseExpression) -> str | None:
    """`self` for `self.a.b[0]`, `state` for `state["messages"]`; None through a call (unlike
    `rules.analysis.root_name`, which follows `n.get(k)` to `n`)."""
    node = expr
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def is_log_name(name: str, vocabulary: Vocabulary) -> bool:
    """`decision_log`, `audit_log`, `self._decisions`: a name naming a decision log."""
    if not has_word(name, vocabulary.decision_log_names):
        return False
    return not NOT_A_LOG_PARTS.intersection(name_parts(name))


def is_log_type(type_name: str, vocabulary: Vocabulary) -> bool:
    """`DecisionLog`, `AuditLedger`, `ReviewLog`: a class named as a decision log (a log word, or a
    compound ending in `Log`; not `Log` or `Logger`)."""
    if not type_name:
        return False
    if is_log_name(type_name, vocabulary):
        return True
    if not type_name.endswith(("Log", "_log")):
        return False
    parts = name_parts(type_name)
    return len(parts) > 1 and not NOT_A_LOG_PARTS.intersection(parts)


def is_decision_log(
    expr: cst.BaseExpression, vocabulary: Vocabulary, facts: FunctionFacts | None = None,
    analysis: SpanAnalysis | None = None,
) -> bool:
    """True for a decision log or its entries: `self.decision_log`, `audit_log.entries`, `ledger[...]`.

    A parameter annotated with a log class (`log: DecisionLog`) is a log, so is a field of `self`
    declared or assigned with one (`self.log = log`), and inside a class named like a log
    (`class AuditLog`), `self.entries` is the log too. With `analysis`, so is any value the tree
    says has a log class (`buffer.log`, `buffer: ContextBuffer` whose `log` is a `DecisionLog`).
    """
    names = chain_names(expr)
    if not names:
        return False
    last = names[-1]
    if analysis is not None and len(names) >= 2 and isinstance(expr, cst.Attribute):
        known = analysis.known_class(expr, facts)
        if known is not None and is_log_type(known.name, vocabulary):
            return True
    if len(names) == 1 and facts is not None and is_log_type(facts.params.get(last) or "", vocabulary):
        return True
    if names[:1] == ["self"] and len(names) == 2 and facts is not None and is_log_type(
        facts.self_field_types.get(last, ""), vocabulary
    ):
        return True
    if is_log_name(last, vocabulary) and last not in ("self", "cls"):
        return True
    if len(names) >= 2 and last.lstrip("_") in ENTRY_ATTRIBUTES:
        owner = names[-2]
        if owner == "self":
            return facts is not None and is_log_name(facts.self_class or "", vocabulary)
        if len(names) == 2 and facts is not None and is_log_type(facts.params.get(owner) or "", vocabulary):
            return True
        return is_log_name(owner, vocabulary)
    return False


def is_log_word_call(call: cst.Call, vocabulary: Vocabulary) -> bool:
    """A call whose callee names a decision log: `self._audit(...)`, `record_decision(...)`."""
    name = callee_name(call)
    if not name:
        return False
    parts = [p.rstrip("s") for p in name_parts(name)]
    log_words = {p[0].rstrip("s") for p in parts_of(vocabulary.decision_log_names)}
    if not log_words.intersection(parts) or NOT_A_LOG_PARTS.intersection(parts):
        return False
    verbs = {m.rstrip("s") for m in vocabulary.record_methods}
    return parts[0] in log_words or bool(verbs.intersection(parts))


def is_editing_callee(name: str, vocabulary: Vocabulary) -> bool:
    """`prune(log)`, `compact_history(log)`, `summarize(log)`: a callee named for editing what it is given.

    The verb comes first; `note_prune(log, span)` and `record_eviction(log, ...)` record to the log.
    """
    parts = name_parts(name)
    return bool(parts) and has_word(parts[0], (*vocabulary.prune_words, *vocabulary.summarize_words))


# Methods that read a log without adding to it.
_READING_METHODS = frozenset(
    {"get", "items", "keys", "values", "copy", "count", "index", "find", "filter", "query", "search", "read",
     "tail", "head", "last", "latest", "since", "to_list", "dump", "dumps", "json", "model_dump", "iter"}
)


def is_record_call(
    call: cst.Call, vocabulary: Vocabulary, facts: FunctionFacts | None = None, analysis: SpanAnalysis | None = None
) -> bool:
    """`decision_log.record(...)`, `self.audit.add(...)`, `log_decision(...)`: a decision-log record.

    Any method of a decision log other than a read or a removal records something; so does a record
    run in a thread (`await asyncio.to_thread(log.record, ...)`). `analysis`: see `is_decision_log`.
    """
    call = run_elsewhere(call) or call
    func = call.func
    if isinstance(func, cst.Attribute) and is_decision_log(func.value, vocabulary, facts, analysis):
        method = func.attr.value
        return method in vocabulary.record_methods or (
            method not in _READING_METHODS and method not in EDITING_METHODS - {"insert"}
            and not method.startswith(("get", "_"))
        )
    if isinstance(func, cst.Attribute) and func.attr.value in ("append", "record") and call.args and _named_log(func.value):
        return True  # `log.append("gc", spans=freed, rule=...)`: an entry written to what the code calls its log
    return is_log_word_call(call, vocabulary)


def _named_log(expr: cst.BaseExpression) -> bool:
    """`log`, `self._log`, `prune_log`: a value named a log (not a logger), which `append`/`record` write to."""
    names = chain_names(expr)
    parts = name_parts(names[-1]) if names else []
    return bool(parts) and parts[-1] == "log" and not NOT_A_LOG_PARTS.intersection(parts)


_DEF = re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]+(\w+)", re.MULTILINE)


def recording_functions(source: str, vocabulary: Vocabulary) -> frozenset[str]:
    """Names of the functions of `source` whose body records to a decision log (a text scan)."""
    ascii_text = source.isascii()  # lower-casing ASCII keeps every offset
    text = source.lower() if ascii_text else source
    records = [record.start() for record in _records_pattern(vocabulary, not ascii_text).finditer(text)]
    if not records:
        return frozenset()
    starts = [(match.end(), match.group(1)) for match in _DEF.finditer(source)]
    bodies = [end for end, _ in starts]
    found = set()
    for record in records:
        number = bisect_right(bodies, record) - 1
        if number >= 0:
            found.add(starts[number][1])
    return frozenset(found)


@lru_cache(maxsize=8)
def _records_pattern(vocabulary: Vocabulary, ignore_case: bool) -> re.Pattern[str]:
    """`decision_log.record(`, `self.audit_trail.entries.append(`: a record call on one line.

    It starts at the log word (a search needs no word before it), so it does not backtrack over
    every word of the file. Its words are lower-case: lower-cased text needs no case-insensitive
    matching, which is slow on an alternation.
    """
    log_words = alternation(w.lower() for w in vocabulary.decision_log_names)
    methods = alternation(m.lower() for m in vocabulary.record_methods)
    pattern = rf"(?:{log_words})\w*(?:\.\w+)*\.(?:{methods})\("
    return re.compile(pattern, re.IGNORECASE if ignore_case else 0)


def is_span_container(expr: cst.BaseExpression, analysis: SpanAnalysis, facts: FunctionFacts | None) -> bool:
    """A collection of spans: `self._spans`, `ctx.messages`, `state["messages"]`, `buffer.nodes`."""
    if isinstance(expr, cst.Subscript):
        key = string_key(expr)
        return key is not None and analysis.is_span_name(key) and name_parts(key)[-1].endswith("s")
    return analysis.is_span_container(expr, facts)


def words_in(node: cst.CSTNode) -> Iterator[str]:
    """Every name and attribute name inside `node` (string subscript keys included)."""
    stack: list[cst.CSTNode] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Name):
            yield current.value
        elif isinstance(current, cst.Subscript):
            key = string_key(current)
            if key:
                yield key
        stack.extend(traversal.children(current))


_FIELD_PATH = re.compile(r"[A-Za-z_][\w.]*")


def field_names_in(node: cst.CSTNode) -> Iterator[str]:
    """`words_in`, and the fields that strings name: a store's metadata filter selects by a field path
    written as text (`{"field": "meta.killed_at", ...}`, `where={"deleted": True}`)."""
    yield from words_in(node)
    stack: list[cst.CSTNode] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.SimpleString):
            text = string_value(current)
            if text and len(text) < 64 and _FIELD_PATH.fullmatch(text):
                yield text.rsplit(".", 1)[-1]
        stack.extend(traversal.children(current))


def mentions(node: cst.CSTNode, words: Sequence[str]) -> bool:
    """True when a name inside `node` contains one of `words`."""
    return any(has_word(name, words) for name in words_in(node))


def is_filter_of(value: cst.BaseExpression) -> cst.BaseExpression | None:
    """The iterable a filtering rewrite keeps part of, else None.

    `[s for s in X if ...]`, `{k: v for k, v in X.items() if ...}`, `list(filter(f, X))`, `X[a:b]`.
    """
    if isinstance(value, cst.Call) and callee_name(value) in ("list", "deque", "dict") and value.args:
        value = value.args[0].value
    if isinstance(value, (cst.ListComp, cst.DictComp, cst.SetComp, cst.GeneratorExp)):
        comp = value.for_in
        if comp.ifs or comp.inner_for_in is not None:
            iterable = comp.iter
            if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Attribute) and iterable.func.attr.value in (
                "items", "values", "keys"
            ):
                iterable = iterable.func.value
            return iterable
        return None
    if isinstance(value, cst.Call) and callee_name(value) == "filter" and len(value.args) == 2:
        return value.args[1].value
    if isinstance(value, cst.Subscript) and any(isinstance(e.slice, cst.Slice) for e in value.slice):
        return value.value
    return None


def same_expression(a: cst.BaseExpression, b: cst.BaseExpression) -> bool:
    """`self.spans` and `self.spans`, `state["messages"]` twice: the same name/attribute/key chain."""
    left = chain_names(a)
    return bool(left) and left == chain_names(b) and not isinstance(a, cst.Call) and not isinstance(b, cst.Call)


class RemovalPrefilter(Prefilter):
    """The pre-filter of a rule about removals from a container (SPL401, SPL403), in a function: a
    filtering rewrite or slice assigned to an attribute or item, a filtered local written back
    (`kept = [...]; self.spans = kept`), one of the rule's `methods` called, a `del`.

    A subclass sets `methods` and says which `del` statements and method calls count."""

    statements = (*ASSIGNMENTS, ast.Delete)
    expressions = (ast.Call,)
    methods: frozenset[str] = frozenset()

    def attributes(self) -> frozenset[str]:
        return self.methods

    def deletes(self, targets: list[ast.expr]) -> bool:
        """A `del` of `targets` may be a removal."""
        return any(isinstance(t, ast.Subscript) for t in targets)

    def removes(self, call: ast.Call, receiver: ast.expr) -> bool:
        """A call of one of `methods` on `receiver` may be a removal."""
        return True

    def assigns_removal(self, target: ast.Attribute | ast.Subscript, value: ast.expr) -> bool:
        """Beyond a filtering rewrite or slice: an assignment that may be a removal."""
        return False

    def statement(self, node: ast.AST, scope: Scope) -> None:
        if scope.node is None:
            return
        if isinstance(node, ast.Delete):
            if self.deletes(deleted(node)):
                self.mark(node)
            return
        if node.value is None:
            return
        filtering = is_filter(node.value)
        for target in assignment_targets(node):
            if isinstance(target, ast.Name):
                scope.notes["filters"] = scope.notes.get("filters", False) or filtering
            elif isinstance(target, (ast.Attribute, ast.Subscript)):
                if filtering or (isinstance(target, ast.Subscript) and has_slice(target)):
                    self.mark(node.value)
                    continue
                if isinstance(node.value, ast.Name):
                    scope.notes["writeback"] = True
                if self.assigns_removal(target, node.value):
                    self.mark(node.value)

    def statements_done(self, scopes: list[Scope]) -> None:
        for scope in scopes:
            if scope.notes.get("filters", False) and scope.notes.get("writeback", False):
                self.mark(scope.node)

    def expression(self, node: ast.AST, scope: Scope) -> None:
        func = node.func
        if scope.node is not None and isinstance(func, ast.Attribute) and func.attr in self.methods:
            if self.removes(node, func.value):
                self.mark(node)
