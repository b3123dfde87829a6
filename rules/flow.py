"""Must-cover analyses over a function's statement blocks: does every path through a write pass a covering statement?

A covering statement is one the caller recognises (a version bump, a rehash, a decision-log record).
`uncovered` accepts a cover before or after the write (a `finally` block covers every path through
its `try`; a path that ends in `raise` needs no cover: the operation failed); `reached_uncovered`
asks for one before it (the rationale of a prune). The analysis is structural (if/elif/else, loops
with `else`, `break`/`continue`, try/except/else/finally, with, match, return) and runs only on
functions that contain a candidate write. Flags are followed: a local set to `True` on a path
(`changed = True`) sends that path into `if changed:` (a cover there covers it) and never into its
`else`. `enclosing_statements` finds the statement an expression is part of.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from spanlint.rules import traversal
from spanlint.rules.libcst_backend import cst

# A path's state: (the write happened, a covering statement happened, the locals set to True on it).
State = tuple[bool, bool, frozenset[str]]
if TYPE_CHECKING:
    Covers = Callable[[cst.CSTNode], bool]
    CoversTest = Callable[[cst.BaseExpression], bool]


@dataclass
class _Exits:
    normal: set[State] = field(default_factory=set)
    returns: set[State] = field(default_factory=set)
    breaks: set[State] = field(default_factory=set)
    continues: set[State] = field(default_factory=set)

    def absorb(self, other: "_Exits") -> None:
        self.returns |= other.returns
        self.breaks |= other.breaks
        self.continues |= other.continues


def uncovered(
    function: cst.FunctionDef, write: cst.BaseSmallStatement, covers: Covers, covers_test: CoversTest | None = None
) -> bool:
    """True when some path through `write` leaves `function` normally without a covering statement.

    A covering statement on the same line as the write counts as following it. With `covers_test`,
    an `if`/`elif` test it accepts (a guard: `if art.version != span.version: raise ...`) covers
    both branches.
    """
    flow = _Flow(write, covers, covers_test, _flags(function))
    exits = flow.block(function.body, {(False, False, frozenset())})
    return any(written and not covered for written, covered, _ in exits.normal | exits.returns)


def reached_uncovered(function: cst.FunctionDef, write: cst.CSTNode, covers: Covers) -> bool:
    """True when some path reaches `write` (a simple or compound statement) with no covering statement before it.

    A covering statement on the same line as the write does not count (`log.record(spans.pop())`
    removes first); one in a compound statement's header covers its body.
    """
    flow = _Flow(write, covers, flags=_flags(function), headers=True)
    flow.block(function.body, {(False, False, frozenset())})
    return flow.bare


def enclosing_statements(function: cst.FunctionDef, nodes: Iterable[cst.CSTNode]) -> dict[cst.CSTNode, cst.CSTNode]:
    """For each of `nodes` in `function`'s own body, the innermost statement (simple, else compound) that is or holds it."""
    wanted = set(nodes)
    found: dict[cst.CSTNode, cst.CSTNode] = {}
    statements: list[cst.CSTNode] = []

    class Finder(traversal.Visitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                return False
            if isinstance(node, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
                statements.append(node)
            if node in wanted and statements:
                found[node] = statements[-1]
            return True

        def on_leave(self, original_node: cst.CSTNode) -> None:
            if statements and statements[-1] is original_node:
                statements.pop()

    traversal.visit(function.body, Finder())
    return found


class _Flow:
    def __init__(
        self, write: cst.CSTNode, covers: Covers, covers_test: CoversTest | None = None,
        flags: frozenset[str] = frozenset(), headers: bool = False,
    ) -> None:
        self.write = write
        self.covers = covers
        self.covers_test = covers_test
        self.flags = flags
        self.headers = headers  # `covers` is asked about compound statements too (their headers)
        self.bare = False  # some path reached the write with no cover before it

    def block(self, body: cst.BaseSuite | Sequence[cst.BaseStatement], states: set[State]) -> _Exits:
        statements: Iterable[cst.CSTNode]
        if isinstance(body, cst.SimpleStatementSuite):
            statements = [body]
        elif isinstance(body, cst.IndentedBlock):
            statements = body.body
        else:
            statements = body
        exits = _Exits()
        current = set(states)
        for statement in statements:
            if not current:
                break
            outcome = self.statement(statement, current)
            exits.absorb(outcome)
            current = outcome.normal
        exits.normal = current
        return exits

    def statement(self, node: cst.CSTNode, states: set[State]) -> _Exits:
        if isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            return self.simple(node.body, states)
        if node is self.write:
            self.bare = self.bare or any(not covered for _, covered, _ in states)
            states = {(True, covered, flags) for _, covered, flags in states}
        if self.headers and self.covers(node):  # `with log.record(...):`, `if log.record(...):`
            states = {(written, True, flags) for written, _, flags in states}
        if isinstance(node, cst.If):
            if self.covers_test is not None and self.covers_test(node.test):
                states = {(written, True, flags) for written, _, flags in states}
            flag, negated = _flag_test(node.test)
            into, past = set(states), set(states)
            if flag in self.flags:  # a path whose flag is set goes one way only; the others either way
                unset = {state for state in states if flag not in state[2]}
                if negated:
                    into = unset
                else:
                    past = unset
            taken = self.block(node.body, into)
            if isinstance(node.orelse, cst.If):
                other = self.statement(node.orelse, past)
            elif isinstance(node.orelse, cst.Else):
                other = self.block(node.orelse.body, past)
            else:
                other = _Exits(normal=set(past))
            taken.absorb(other)
            taken.normal |= other.normal
            return taken
        if isinstance(node, (cst.For, cst.While)):
            return self.loop(node, states)
        if isinstance(node, (cst.Try, cst.TryStar)):
            return self.try_(node, states)
        if isinstance(node, cst.With):
            return self.block(node.body, states)
        if isinstance(node, cst.Match):
            exits = _Exits()
            irrefutable = False
            for case in node.cases:
                outcome = self.block(case.body, states)
                exits.absorb(outcome)
                exits.normal |= outcome.normal
                irrefutable = irrefutable or (
                    case.guard is None
                    and isinstance(case.pattern, cst.MatchAs)
                    and case.pattern.pattern is None
                )
            if not irrefutable:
                exits.normal |= states
            return exits
        return _Exits(normal=set(states))  # nested def/class: no effect on this function's paths

    def simple(self, body: Sequence[cst.BaseSmallStatement], states: set[State]) -> _Exits:
        exits = _Exits()
        current = set(states)
        for small in body:
            if small is self.write:
                self.bare = self.bare or any(not covered for _, covered, _ in current)
                current = {(True, covered, flags) for _, covered, flags in current}
            if self.covers(small):
                current = {(written, True, flags) for written, _, flags in current}
            if isinstance(small, cst.Assign) and self.flags:
                for target in small.targets:
                    if isinstance(target.target, cst.Name) and target.target.value in self.flags:
                        name = target.target.value
                        truth = isinstance(small.value, cst.Name) and small.value.value == "True"
                        current = {(w, c, flags | {name} if truth else flags - {name}) for w, c, flags in current}
            if isinstance(small, cst.Return):
                exits.returns |= current
                current = set()
            elif isinstance(small, cst.Raise):
                current = set()
            elif isinstance(small, cst.Break):
                exits.breaks |= current
                current = set()
            elif isinstance(small, cst.Continue):
                exits.continues |= current
                current = set()
        exits.normal = current
        return exits

    def loop(self, node: cst.For | cst.While, states: set[State]) -> _Exits:
        head = set(states)
        exits = _Exits()
        breaks: set[State] = set()
        for _ in range(64):  # the states only grow, over a small space: this reaches the fixpoint
            outcome = self.block(node.body, head)
            exits.returns |= outcome.returns
            breaks |= outcome.breaks
            grown = head | outcome.normal | outcome.continues
            if grown == head:
                break
            head = grown
        endless = isinstance(node, cst.While) and isinstance(node.test, cst.Name) and node.test.value == "True"
        finished = set() if endless else head
        if node.orelse is not None:
            after_else = self.block(node.orelse.body, finished)
            exits.returns |= after_else.returns
            exits.breaks |= after_else.breaks
            exits.continues |= after_else.continues
            finished = after_else.normal
        exits.normal = finished | breaks
        return exits

    def try_(self, node: cst.Try | cst.TryStar, states: set[State]) -> _Exits:
        body = self.block(node.body, states)
        exits = _Exits()
        exits.absorb(body)
        normal = body.normal
        if node.orelse is not None:
            after_else = self.block(node.orelse.body, normal)
            exits.absorb(after_else)
            normal = after_else.normal
        raised_from = states | body.normal
        for handler in node.handlers:
            handled = self.block(handler.body, raised_from)
            exits.absorb(handled)
            normal = normal | handled.normal
        exits.normal = normal
        if node.finalbody is None:
            return exits
        covered = _Exits()
        for kind in ("normal", "returns", "breaks", "continues"):
            through = self.block(node.finalbody.body, getattr(exits, kind))
            covered.absorb(through)
            getattr(covered, kind).update(through.normal)
        return covered


def _flag_test(test: cst.BaseExpression) -> tuple[str | None, bool]:
    """(`flag`, negated) for `if flag:` / `if not flag:`, else (None, False). A compound test
    (`if changed and strict:`) may go either way."""
    negated = False
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test, negated = test.expression, True
    if isinstance(test, cst.Name) and test.value not in ("True", "False", "None"):
        return test.value, negated
    return None, False


# Flags followed per function: each doubles the states a path may be in.
MAX_FLAGS = 4


def _flags(function: cst.FunctionDef) -> frozenset[str]:
    """The locals of `function` both set to `True` and tested by an `if` (`if changed:`), at most MAX_FLAGS."""
    finder = _FlagFinder()
    traversal.visit(function.body, finder)
    return frozenset(sorted(finder.set_true & finder.tested)[:MAX_FLAGS])


class _FlagFinder(traversal.FunctionBodyVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.set_true: set[str] = set()
        self.tested: set[str] = set()

    def visit_Assign(self, node: cst.Assign) -> None:
        if isinstance(node.value, cst.Name) and node.value.value == "True":
            self.set_true.update(t.target.value for t in node.targets if isinstance(t.target, cst.Name))

    def visit_If(self, node: cst.If) -> None:
        flag, _ = _flag_test(node.test)
        if flag is not None:
            self.tested.add(flag)
