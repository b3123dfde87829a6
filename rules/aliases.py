"""Local names of one function that hold another expression's value, and what they resolve to.

`y = x`, `y, key = x, x.id`, `(y := x)`, `y = next(o for o in [x] if o is not None)`: `y` is `x`.
Only reads alias (names, attributes, items); a call's result is a new value, judged by the caller.
"""

from __future__ import annotations

from spanlint.rules.analysis import callee_name
from spanlint.rules.libcst_backend import cst

# How many alias hops `resolve` follows (a chain longer than this is left where it stops).
_MAX_HOPS = 16


class Aliases:
    """The aliases bound so far in one function, in the order its statements run."""

    def __init__(self) -> None:
        self._values: dict[str, cst.BaseExpression] = {}

    def bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        """Record `target = value` (`value` None: bound to something unknown, such as a loop item)."""
        if isinstance(target, cst.Name):
            aliased = _aliased(value) if value is not None else None
            if aliased is None or (isinstance(aliased, cst.Name) and aliased.value == target.value):
                self._values.pop(target.value, None)
            else:
                self._values[target.value] = aliased
        elif isinstance(target, (cst.Tuple, cst.List)):
            values = _elements(value) if value is not None else None
            if values is None or len(values) != len(target.elements):
                values = [None] * len(target.elements)
            for element, item in zip(target.elements, values):
                self.bind(element.value, item)
        elif isinstance(target, cst.StarredElement):
            self.bind(target.value, None)

    def resolve(self, expr: cst.BaseExpression) -> cst.BaseExpression:
        """The expression `expr` aliases (through any chain of aliases), else `expr` itself; for an
        attribute or item read, the read of the resolved root (`rec.text` with `rec = doc`: `doc.text`)."""
        if isinstance(expr, cst.Name):
            seen = 0
            while isinstance(expr, cst.Name) and expr.value in self._values and seen < _MAX_HOPS:
                expr = self._values[expr.value]
                seen += 1
            return expr
        if isinstance(expr, cst.Attribute):
            owner = self.resolve(expr.value)
            return expr if owner is expr.value else expr.with_changes(value=owner)
        if isinstance(expr, cst.Subscript):
            owner = self.resolve(expr.value)
            return expr if owner is expr.value else expr.with_changes(value=owner)
        return expr

    def __contains__(self, name: str) -> bool:
        return name in self._values


def _elements(value: cst.BaseExpression) -> list[cst.BaseExpression | None] | None:
    if isinstance(value, (cst.Tuple, cst.List)):
        if any(isinstance(e, cst.StarredElement) for e in value.elements):
            return None
        return [e.value for e in value.elements]
    return None


def _aliased(value: cst.BaseExpression) -> cst.BaseExpression | None:
    """What `value` is another name for: a read, or the one item of `next(o for o in [x] ...)`."""
    if isinstance(value, (cst.Name, cst.Attribute, cst.Subscript)):
        return None if isinstance(value, cst.Name) and value.value in ("None", "True", "False") else value
    if isinstance(value, cst.Call) and callee_name(value) == "next" and value.args:
        inner = value.args[0].value
        if isinstance(inner, cst.GeneratorExp) and inner.for_in.inner_for_in is None:
            loop = inner.for_in
            items = _elements(loop.iter)
            if (
                items is not None and len(items) == 1 and items[0] is not None
                and isinstance(loop.target, cst.Name) and isinstance(inner.elt, cst.Name)
                and inner.elt.value == loop.target.value
            ):
                return _aliased(items[0])
        if isinstance(inner, cst.Call) and callee_name(inner) == "iter" and inner.args:
            items = _elements(inner.args[0].value)
            if items is not None and len(items) == 1 and items[0] is not None:
                return _aliased(items[0])
    return None
