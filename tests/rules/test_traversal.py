"""The read-only traversal (`rules.traversal`) against LibCST's own visits, on the repository's corpora.

`bench/traversal.py` runs the same whole-lint comparison on the big real-world corpora by hand.
"""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap
from pathlib import Path
from typing import Any, Callable

import libcst as cst
import pytest

from spanlint.config import ConfigResolver
from spanlint.reporters import render_json
from spanlint.runner import RunOptions, check_paths
from spanlint.settings import Settings
from spanlint.rules import traversal

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "rules" / "corpus"
FILES = sorted([*CORPUS.rglob("*.py"), *(REPO / "examples").rglob("*.py")])
NODE_CLASSES = sorted(
    (kind for kind in vars(cst).values() if isinstance(kind, type) and issubclass(kind, cst.CSTNode)
     and not inspect.isabstract(kind)),
    key=lambda kind: kind.__name__,
)


def _module(path: Path) -> cst.Module:
    return cst.parse_module(path.read_text(encoding="utf-8"))


def _nodes(root: cst.CSTNode) -> list[cst.CSTNode]:
    found, pending = [], [root]
    while pending:
        node = pending.pop()
        found.append(node)
        pending.extend(node.children)
    return found


def _fields_in_source(kind: type) -> tuple[str, ...]:
    """The field names LibCST's `_visit_and_replace_children` of `kind` visits, read from its source."""
    source = textwrap.dedent(inspect.getsource(kind._visit_and_replace_children))
    calls = sorted(
        (node for node in ast.walk(ast.parse(source))
         if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id.startswith("visit_")),
        key=lambda call: (call.lineno, call.col_offset),
    )
    return tuple(dict.fromkeys(call.args[1].value for call in calls))


@pytest.mark.parametrize("kind", NODE_CLASSES, ids=lambda kind: kind.__name__)
def test_child_fields_are_the_fields_libcst_visits_in_its_order(kind: type) -> None:
    assert traversal.child_fields(kind) == _fields_in_source(kind)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_children_from_fields_are_libcsts_children(path: Path) -> None:
    for node in _nodes(_module(path)):
        expected = node.children
        found = traversal.children(node)
        assert len(found) == len(expected) and all(a is b for a, b in zip(found, expected)), type(node).__name__


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_child_is_of_a_class_its_field_annotation_allows(path: Path) -> None:
    # The traversal skips a subtree when no handled class is allowed below it: that must be sound.
    allowed = traversal._child_field_types()
    for node in _nodes(_module(path)):
        for name, types in zip(traversal.child_fields(type(node)), allowed[type(node)]):
            value = getattr(node, name)
            for child in value if isinstance(value, (tuple, list)) else [value]:
                assert child is None or isinstance(child, cst.MaybeSentinel) or type(child) in types, (
                    f"{type(node).__name__}.{name} holds a {type(child).__name__}"
                )


def _recorder(kinds: list[type], events: list[tuple[str, str, int]]) -> cst.BatchableCSTVisitor:
    """A batchable visitor that records entering and leaving every node of `kinds`."""

    def method(event: str, kind: type) -> Callable[[Any, cst.CSTNode], None]:
        def record(self: Any, node: cst.CSTNode) -> None:
            events.append((event, type(node).__name__, id(node)))

        record.__name__ = f"{event}_{kind.__name__}"  # LibCST finds visitor methods by __name__
        return record

    methods: dict[str, Any] = {}
    for kind in kinds:
        methods[f"visit_{kind.__name__}"] = method("visit", kind)
        methods[f"leave_{kind.__name__}"] = method("leave", kind)
    return type("Recorder", (cst.BatchableCSTVisitor,), methods)()


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
@pytest.mark.parametrize(
    "kinds", [NODE_CLASSES, [cst.Call, cst.FunctionDef, cst.Assign, cst.Name, cst.Comment]], ids=["all", "some"]
)
def test_batched_visits_are_libcsts(path: Path, kinds: list[type]) -> None:
    module = _module(path)
    expected: list[tuple[str, str, int]] = []
    found: list[tuple[str, str, int]] = []
    cst.visit_batched(module, [_recorder(kinds, expected), _recorder(kinds[:2], expected)])
    traversal.visit_batched(module, [_recorder(kinds, found), _recorder(kinds[:2], found)])
    assert found == expected
    assert found


class _CallMethods:
    """Records calls and leaving functions; does not look inside functions named `skip*`."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[tuple[str, int]] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return not node.name.value.startswith("skip")

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.events.append(("leave", id(original_node)))

    def visit_Call(self, node: cst.Call) -> None:
        self.events.append(("call", id(node)))


class _EveryNodeMethods(_CallMethods):
    def on_visit(self, node: cst.CSTNode) -> bool:
        self.events.append(("node", id(node)))
        return super().on_visit(node)  # type: ignore[misc]


# The same methods on our visitor base and on LibCST's.
VISITOR_PAIRS = [
    (type("Calls", (_CallMethods, traversal.Visitor), {}), type("LibCSTCalls", (_CallMethods, cst.CSTVisitor), {})),
    (
        type("EveryNode", (_EveryNodeMethods, traversal.Visitor), {}),
        type("LibCSTEveryNode", (_EveryNodeMethods, cst.CSTVisitor), {}),
    ),
]


class _Driven(cst.CSTVisitor):
    """LibCST's own traversal driving one of our visitors."""

    def __init__(self, visitor: traversal.Visitor) -> None:
        super().__init__()
        self.visitor = visitor

    def on_visit(self, node: cst.CSTNode) -> bool:
        return self.visitor.on_visit(node)

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.visitor.on_leave(original_node)


SKIPPING = "def skip(a):\n    f(a)\n\ndef keep(b):\n    def skip_inner():\n        g()\n    h(b)(i)\n"


@pytest.mark.parametrize("ours, libcsts", VISITOR_PAIRS, ids=["calls", "every-node"])
def test_a_visitor_returning_false_skips_the_children_as_in_libcst(ours: type, libcsts: type) -> None:
    for module in [cst.parse_module(SKIPPING), *map(_module, FILES)]:
        expected, found = libcsts(), ours()
        module.visit(expected)
        traversal.visit(module, found)
        assert found.events == expected.events
    assert len([e for e in found.events if e[0] == "call"]) > 0


def test_attribute_visitors_are_refused() -> None:
    class Attribute(traversal.Visitor):
        def visit_Call_func(self, node: cst.Call) -> None:
            pass

    class BatchedAttribute(cst.BatchableCSTVisitor):
        def leave_Call_args(self, node: cst.Call) -> None:
            pass

    module = cst.parse_module("f(x)\n")
    with pytest.raises(TypeError, match="visit_Call_func"):
        traversal.visit(module, Attribute())
    with pytest.raises(TypeError, match="leave_Call_args"):
        traversal.visit_batched(module, [BatchedAttribute()])


def test_a_tree_deeper_than_the_recursion_limit_is_walked() -> None:
    depth = sys.getrecursionlimit() * 2
    name = cst.Name("x")
    expression: cst.BaseExpression = name
    for _ in range(depth):
        expression = cst.UnaryOperation(cst.Minus(), expression)
    module = cst.Module([cst.SimpleStatementLine([cst.Expr(expression)])])
    events: list[tuple[str, str, int]] = []
    traversal.visit_batched(module, [_recorder([cst.UnaryOperation, cst.Name], events)])
    assert len(events) == 2 * (depth + 1)
    assert events[depth] == ("visit", "Name", id(name))


def _lint_json(path: Path) -> str:
    """Every rule on every file (no pre-filter: the pre-filters have their own test)."""
    resolver = ConfigResolver.fixed(Settings(select=("ALL",)))
    return render_json(check_paths([path], resolver, RunOptions(jobs=1, prescan=False)), color=False)


@pytest.mark.parametrize("directory", [CORPUS, REPO / "examples"], ids=["corpus", "examples"])
def test_lint_output_is_byte_identical_to_libcst_driven_rules(directory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ours = _lint_json(directory)
    monkeypatch.setattr(traversal, "visit_batched", cst.visit_batched)
    monkeypatch.setattr(traversal, "visit", lambda node, visitor: node.visit(_Driven(visitor)))
    theirs = _lint_json(directory)
    assert ours == theirs
    assert '"code": "SPL' in ours


def test_visitor_names_are_the_methods_libcst_finds() -> None:
    from spanlint.rules import all_rules

    for rule in all_rules():
        # LibCST's own listing, on an instance that need not be initialised to be inspected
        expected = sorted(cst.BatchableCSTVisitor.get_visitors(rule.__new__(rule)))
        assert list(traversal.visitor_names(rule)) == expected, rule.code
