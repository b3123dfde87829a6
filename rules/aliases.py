"""Local names of one function that stand for another expression, two ways.

- `ValueAliases` follows the function in statement order: after `y = x`, `y, key = x, x.id`,
  `(y := x)` or `y = next(o for o in [x] if o is not None)`, `y` is `x` until it is rebound. Only
  reads alias (names, attributes, items); a call's result is a new value, judged by the caller.
  The cache, record and slice rules ask it at the read they judge.
- `ContainerAliases` answers for the whole function: a name is an alias of a caller's container
  when every binding of it (assignment, tuple unpacking, walrus) binds it to the same access chain
  (`self.messages`, `state["messages"]`, a parameter, another alias); a `for`, `with`, `except` or
  augmented binding, or a binding to anything else (a call, a copy, an item `x[0]`), makes it the
  function's own value. The prune, log, GC and summary rules ask it, since a removal through
  `hist = self.messages` anywhere in the body removes from the caller's list.
"""

from __future__ import annotations

from typing import Any

from spanlint.rules import traversal
from spanlint.rules.analysis import callee_name
from spanlint.rules.libcst_backend import cst

# A binding that is not a container alias.
_OWN = None

# How many alias hops `resolve` follows (a chain longer than this is left where it stops).
_MAX_VALUE_HOPS = 16


class ValueAliases:
    """The aliases bound so far in one function, in the order its statements run: fed by the
    rule's visitor as it reaches each binding (`bind`), asked at a read (`resolve`)."""

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
            while isinstance(expr, cst.Name) and expr.value in self._values and seen < _MAX_VALUE_HOPS:
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


class ContainerAliases:
    """The names of one function that stand for a container of its caller, over the whole body."""

    def __init__(self, function: cst.FunctionDef) -> None:
        self._function = function
        self._aliases: dict[str, cst.BaseExpression] | None = None  # read on first use: most functions need none

    @classmethod
    def of(cls, function: cst.FunctionDef, memo: dict[Any, Any]) -> ContainerAliases:
        """The aliases of `function`, one instance per file (`memo` is `SpanAnalysis.memo`): the rules
        that ask share its walk of the body."""
        key = ("container-aliases", function)
        found = memo.get(key)
        if found is None:
            found = memo[key] = cls(function)
        return found

    @property
    def _bound(self) -> dict[str, cst.BaseExpression]:
        if self._aliases is None:
            collector = _Collector()
            traversal.visit(self._function.body, collector)
            self._aliases = {name: value for name, value in collector.bound.items() if value is not _OWN}
        return self._aliases

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
