"""Must-cover analyses over a function's statement blocks: does every path through a write pass a covering statement?

A covering statement is one the caller recognises (a version bump, a rehash, a decision-log record).
`uncovered` accepts a cover before or after the write (a `finally` block covers every path through
its `try`; a path that ends in `raise` needs no cover: the operation failed); `reached_uncovered`
asks for one before it (the rationale of a prune). The analysis is structural (if/elif/else, loops
with `else`, `break`/`continue`, try/except/else/finally, with, match, return) and runs only on
functions that contain a candidate write. `enclosing_statements` finds the statement an expression
is part of.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from spanlint.rules import traversal
from spanlint.rules.libcst_backend import cst

# A path's state: (the write happened, a covering statement happened).
State = tuple[bool, bool]
if TYPE_CHECKING:
    Covers = Callable[[cst.CSTNode], bool]


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


def uncovered(function: cst.FunctionDef, write: cst.BaseSmallStatement, covers: Covers) -> bool:
    """True when some path through `write` leaves `function` normally without a covering statement.

    A covering statement on the same line as the write counts as following it.
    """
    flow = _Flow(write, covers)
    exits = flow.block(function.body, {(False, False)})
    return (True, False) in exits.normal | exits.returns


def reached_uncovered(function: cst.FunctionDef, write: cst.CSTNode, covers: Covers) -> bool:
    """True when some path reaches `write` (a simple or compound statement) with no covering statement before it.

    A covering statement on the same line as the write does not count (`log.record(spans.pop())`
    removes first); one in a compound statement's header covers its body.
    """
    flow = _Flow(write, covers, headers=True)
    flow.block(function.body, {(False, False)})
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
    def __init__(self, write: cst.CSTNode, covers: Covers, headers: bool = False) -> None:
        self.write = write
        self.covers = covers
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
            self.bare = self.bare or any(not covered for _, covered in states)
            states = {(True, covered) for _, covered in states}
        if self.headers and self.covers(node):  # `with log.record(...):`, `if log.record(...):`
            states = {(written, True) for written, _ in states}
        if isinstance(node, cst.If):
            taken = self.block(node.body, states)
            if isinstance(node.orelse, cst.If):
                other = self.statement(node.orelse, states)
            elif isinstance(node.orelse, cst.Else):
                other = self.block(node.orelse.body, states)
            else:
                other = _Exits(normal=set(states))
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
                self.bare = self.bare or any(not covered for _, covered in current)
                current = {(True, covered) for _, covered in current}
            if self.covers(small):
                current = {(written, True) for written, _ in current}
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
        for _ in range(8):  # the state space has four points: this reaches the fixpoint
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
