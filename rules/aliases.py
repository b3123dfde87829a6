"""Local names that stand for a container of the function's caller: `hist = self.messages`.

A name is an alias when every binding of it in the function's own body (assignment, tuple
unpacking, walrus) binds it to an access chain (`self.messages`, `state["messages"]`, a parameter,
another alias) and all of them to the same one; a `for`, `with`, `except` or augmented binding,
or a binding to anything else (a call, a copy, an item `x[0]`), makes it the function's own value.
`resolve` replaces an alias at the root of an expression by what it stands for, through any chain.
"""

from __future__ import annotations

from spanlint.rules.libcst_backend import cst
from spanlint.rules import traversal

# A binding that is not an alias.
_OWN = None


class Aliases:
    def __init__(self, function: cst.FunctionDef) -> None:
        collector = _Collector()
        traversal.visit(function.body, collector)
        self._bound = {name: value for name, value in collector.bound.items() if value is not _OWN}

    def __contains__(self, name: str) -> bool:
        return name in self._bound

    def resolve(self, expr: cst.BaseExpression) -> cst.BaseExpression:
        """`expr` with its root alias replaced by what it stands for: `view.pop` -> `self.messages.pop`."""
        for _ in range(8):  # chains of aliases are resolved as they are bound; this bounds a cycle
            replaced = self._replace_root(expr)
            if replaced is expr:
                return expr
            expr = replaced
        return expr

    def _replace_root(self, expr: cst.BaseExpression) -> cst.BaseExpression:
        if isinstance(expr, cst.Name):
            return self._bound.get(expr.value, expr)
        if isinstance(expr, (cst.Attribute, cst.Subscript)):
            root = self._replace_root(expr.value)
            return expr if root is expr.value else expr.with_changes(value=root)
        return expr


def _is_chain(value: cst.BaseExpression) -> bool:
    """`x`, `self.a.b`, `state["messages"]`: the container itself, not an item or a copy of it."""
    while isinstance(value, (cst.Attribute, cst.Subscript)):
        if isinstance(value, cst.Subscript) and not (
            len(value.slice) == 1
            and isinstance(value.slice[0].slice, cst.Index)
            and isinstance(value.slice[0].slice.value, cst.SimpleString)
        ):
            return False
        value = value.value
    return isinstance(value, cst.Name)


class _Collector(traversal.FunctionBodyVisitor):
    def __init__(self) -> None:
        self.bound: dict[str, cst.BaseExpression | None] = {}

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            values = value.elements if isinstance(value, (cst.Tuple, cst.List)) else None
            if values is not None and len(values) != len(target.elements):
                values = None
            for number, element in enumerate(target.elements):
                self._bind(element.value, values[number].value if values is not None else None)
            return
        if isinstance(target, cst.StarredElement):
            self._bind(target.value, None)
            return
        if not isinstance(target, cst.Name):
            return
        name = target.value
        alias = value if value is not None and _is_chain(value) and not _names(value, name) else _OWN
        if name in self.bound and (
            self.bound[name] is _OWN or alias is _OWN or not alias.deep_equals(self.bound[name])
        ):
            alias = _OWN
        self.bound[name] = alias

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind(target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target, node.value)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target, None)

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target, None)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._bind(node.target, None)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._bind(node.asname.name, None)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.name is not None:
            self._bind(node.name.name, None)


def _names(value: cst.BaseExpression, name: str) -> bool:
    """`x = x.inner`: the chain reads the name it rebinds."""
    while isinstance(value, (cst.Attribute, cst.Subscript)):
        value = value.value
    return isinstance(value, cst.Name) and value.value == name
