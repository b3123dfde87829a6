"""A function's locals are read from its statements, and from the expressions of the lines that may
bind a name or yield (`expression_binding_lines`): the same judgement as walking every node."""

from __future__ import annotations

import ast

import pytest

from spanlint.rules.project import expression_binding_lines, new_object_sources

CASES = {
    "constructor through a local": ("def f() -> Span:\n    s = Span()\n    return s\n", ()),
    "a generator": ("def f() -> Span:\n    s = Span()\n    yield s\n    return s\n", None),
    "a yield deep in an expression": ("def f() -> Span:\n    log(x=(yield))\n    return Span()\n", None),
    "a walrus rebinding the local": (
        "def f(items) -> Span:\n    s = Span()\n    if (s := items[0]):\n        pass\n    return s\n", None,
    ),
    "a comprehension over many lines": (
        "def f(items) -> Span:\n    s = Span()\n    found = [\n        s\n        for s in items\n    ]\n    return s\n", None,
    ),
    "a walrus inside a lambda is not the function's": (
        "def f() -> Span:\n    s = Span()\n    g = lambda: (s := 1)\n    return s\n", (),
    ),
    "a with target": ("def f(cm) -> Span:\n    with cm() as s:\n        pass\n    return s\n", None),
    "a helper's result": ("def f() -> Span:\n    made = build()\n    return made\n", ("build",)),
    "a case block": (
        "def f(v) -> Span:\n    s = Span()\n    match v:\n        case [*rest] if (s := rest):\n            pass\n    return s\n", None,
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_locals_from_statements_and_binding_lines_judge_as_every_node_does(name: str) -> None:
    source, expected = CASES[name]
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    assert new_object_sources(function) == expected
    assert new_object_sources(function, expression_binding_lines(source)) == expected
