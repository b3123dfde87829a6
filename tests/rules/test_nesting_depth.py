"""The project pass refuses over-deep files; its depth measure skips only statements too short to matter."""

from __future__ import annotations

import ast

import pytest

from spanlint.rules.project import MAX_NESTING, nesting_depth

DEEP = MAX_NESTING + 200
SOURCES = {
    "lambdas": "x = " + "lambda: " * DEEP + "1\n",
    "unary minus": "x = " + "-" * DEEP + "1\n",
    "operator chain over many lines": "x = (\n" + " +\n".join(["a"] * DEEP) + "\n)\n",
    "subscripts": "x = a" + "[0]" * DEEP + "\n",
    "decorator": "@" + "-" * DEEP + "d\ndef f():\n    pass\n",
    "if header": "if " + "-" * DEEP + "x:\n    pass\n",
    "after non-ASCII text": "x = 'é'\ny = " + "-" * DEEP + "1\n",
    "shallow but long": "x = {" + ", ".join(f"'k{i}': {i}" for i in range(DEEP)) + "}\n",
}


def _exact(tree: ast.AST) -> int:
    deepest, pending = 0, [(tree, 1)]
    while pending:
        node, depth = pending.pop()
        deepest = max(deepest, depth)
        pending.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


@pytest.mark.parametrize("source", SOURCES.values(), ids=SOURCES.keys())
def test_depth_is_exact_whenever_it_is_over_the_limit(source: str) -> None:
    tree = ast.parse(source)
    exact = _exact(tree)
    assert nesting_depth(tree, source) == exact
    measured = nesting_depth(tree, source, MAX_NESTING)
    assert (measured > MAX_NESTING) == (exact > MAX_NESTING)
    if exact > MAX_NESTING:
        assert measured == exact
