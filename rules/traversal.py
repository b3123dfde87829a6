"""A read-only traversal of a LibCST tree that drives rule visitors without rebuilding it.

LibCST's `visit_batched` goes through `CSTNode.visit`, which rebuilds every node of the tree (and
runs its validation) even for visitors that cannot change anything; for the rules that is most of
the time of a lint. `visit_batched` here calls the same `visit_<Node>`/`leave_<Node>` methods on
the same original nodes in the same order (children in source order, rules in the order given),
with an explicit stack, so deep trees do not hit the recursion limit. It also skips subtrees that
can hold no node any rule handles (whitespace, punctuation, names when no rule visits `Name`...).

Attribute visitors (`visit_<Node>_<field>`) are not supported: a rule that defines one is refused.
"""

from __future__ import annotations

import dataclasses
import typing
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Protocol, Sequence

from spanlint.rules.libcst_backend import child_fields, cst

if TYPE_CHECKING:
    Handler = Callable[[cst.CSTNode], Any]
    # What to do at a node of one class: the methods to call on entering it and on leaving it, and
    # the fields to walk into.
    Entry = tuple[Sequence[Handler], Sequence[Handler], tuple[str, ...]]


class VisitorFailed(Exception):
    """A visitor's method raised (the exception is the `__cause__`): `method` raised at `node`.

    For a visitor that walks a tree of its own inside its method (a rule asking the shared
    analysis), `node` is the innermost node a method raised at."""

    def __init__(self, method: Handler, node: cst.CSTNode) -> None:
        super().__init__(f"{getattr(method, '__qualname__', method)} raised at a {type(node).__name__}")
        self.method = method
        self.node = node

    @property
    def error(self) -> BaseException:
        """The exception the method raised."""
        cause = self.__cause__
        while isinstance(cause, VisitorFailed):
            cause = cause.__cause__
        assert cause is not None
        return cause

    @property
    def visitor(self) -> object:
        """The object whose method raised."""
        return getattr(self.method, "__self__", None)


def _failed(method: Handler, node: cst.CSTNode, error: Exception) -> VisitorFailed:
    return VisitorFailed(method, error.node if isinstance(error, VisitorFailed) else node)


class BatchVisitor(Protocol):
    """What `visit_batched` drives: an object listing its `visit_<Node>`/`leave_<Node>` methods
    (a rule, or a LibCST `BatchableCSTVisitor`)."""

    def get_visitors(self) -> Mapping[str, Callable[[cst.CSTNode], Any]]: ...


def children(node: cst.CSTNode, fields: tuple[str, ...] | None = None) -> list[cst.CSTNode]:
    """`node.children` (its child nodes, in source order), read from its fields (`fields`, default all
    its `child_fields`): LibCST's property visits the node, which rebuilds it."""
    found: list[cst.CSTNode] = []
    no_value = cst.MaybeSentinel
    for name in child_fields(type(node)) if fields is None else fields:
        value = getattr(node, name)
        value_type = type(value)
        if value_type is tuple or value_type is list:
            found.extend(value)
        elif value is not None and value_type is not no_value:
            found.append(value)
    return found


def descendants(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """`node` and every node inside it, in no particular order."""
    pending = [node]
    while pending:
        current = pending.pop()
        yield current
        pending.extend(children(current))


def visit_batched(node: cst.CSTNode, visitors: Iterable[BatchVisitor]) -> None:
    """Run the `visit_*`/`leave_*` methods of `visitors` over `node` and its descendants, as
    `libcst.visit_batched` would (return values ignored), without rebuilding the tree."""
    visit: dict[type, list[Handler]] = {}
    leave: dict[type, list[Handler]] = {}
    for visitor in visitors:
        for name, method in visitor.get_visitors().items():
            kind, node_type = _method_target(visitor, name)
            (visit if kind == "visit" else leave).setdefault(node_type, []).append(method)
    handled = frozenset(visit) | frozenset(leave)
    walk(node, lambda kind: (visit.get(kind, ()), leave.get(kind, ()), fields_to_walk(kind, handled)))


def visit(node: cst.CSTNode, visitor: Visitor) -> None:
    """`node.visit(visitor)` for a read-only `visitor`, without rebuilding the tree: `visit_<Node>`
    returning False skips the node's children, `leave_<Node>` is still called."""
    overrides_dispatch, handled = _visitor_plan(type(visitor))
    if overrides_dispatch:
        walk(node, lambda kind: ((visitor.on_visit,), (visitor.on_leave,), child_fields(kind)), skip_on_false=True)
        return

    def entry(kind: type) -> Entry:
        visit_method = getattr(visitor, f"visit_{kind.__name__}", None) if kind in handled else None
        leave_method = getattr(visitor, f"leave_{kind.__name__}", None) if kind in handled else None
        return (
            (visit_method,) if visit_method is not None else (),
            (leave_method,) if leave_method is not None else (),
            fields_to_walk(kind, handled),
        )

    walk(node, entry, skip_on_false=True)


class Visitor:
    """A read-only visitor for `visit`, like LibCST's `CSTVisitor` (defining one does not load LibCST):
    `visit_<Node>` and `leave_<Node>` methods, or `on_visit`/`on_leave` called at every node."""

    def on_visit(self, node: cst.CSTNode) -> bool:
        """Call `visit_<Node>`; False (its children are skipped) only when it returns False."""
        method = getattr(self, f"visit_{type(node).__name__}", None)
        return method is None or method(node) is not False

    def on_leave(self, original_node: cst.CSTNode) -> None:
        """Call `leave_<Node>`."""
        method = getattr(self, f"leave_{type(original_node).__name__}", None)
        if method is not None:
            method(original_node)


class FunctionBodyVisitor(Visitor):
    """A visitor of one function's own body: it does not enter the functions, classes and lambdas
    nested in it."""

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


@lru_cache(maxsize=None)
def _visitor_plan(visitor_type: type) -> tuple[bool, frozenset[type]]:
    """Whether a `Visitor` class overrides `on_visit`/`on_leave` (then it is called at every node),
    and the node classes it has visit or leave methods for."""
    handled = frozenset(_method_target(visitor_type, name)[1] for name in visitor_names(visitor_type))
    return _overrides(visitor_type, "on_visit", "on_leave"), handled


def walk(root: cst.CSTNode, entry_for: Callable[[type], Entry], *, skip_on_false: bool = False) -> None:
    """Walk `root` and its descendants, pre-order, children in source order, with an explicit stack.

    `entry_for(node class)` (asked once per class) says what to call at a node and which of its
    fields to walk into. With `skip_on_false`, a visit method returning False skips the children.
    An exception in a method (other than RecursionError) is raised as `VisitorFailed`.
    """
    table: dict[type, Entry] = {}
    stack: list[Any] = [root]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        node = pop()
        kind = type(node)
        if kind is tuple:  # (leave methods, node): its children are done
            try:
                for method in node[0]:
                    method(node[1])
            except RecursionError:
                raise
            except Exception as error:
                raise _failed(method, node[1], error) from error
            continue
        entry = table.get(kind)
        if entry is None:
            entry = table[kind] = entry_for(kind)
        visits, leaves, fields = entry
        try:
            for method in visits:
                if method(node) is False and skip_on_false:
                    fields = ()
        except RecursionError:
            raise
        except Exception as error:
            raise _failed(method, node, error) from error
        if leaves:
            push((leaves, node))
        if not fields:
            continue
        found = children(node, fields)
        found.reverse()
        extend(found)


def _method_target(visitor: object, name: str) -> tuple[str, type]:
    """("visit" or "leave", node class) of a `visit_<Node>`/`leave_<Node>` method name of `visitor`
    (an instance or a class)."""
    kind, _, type_name = name.partition("_")
    node_type = getattr(cst, type_name, None)
    if kind not in ("visit", "leave") or not (isinstance(node_type, type) and issubclass(node_type, cst.CSTNode)):
        owner = visitor if isinstance(visitor, type) else type(visitor)
        raise TypeError(
            f"{owner.__name__}.{name} is not a visit_<Node> or leave_<Node> method "
            "(attribute visitors are not supported)"
        )
    return kind, node_type


def _overrides(visitor_type: type, *names: str) -> bool:
    return any(getattr(visitor_type, name) is not getattr(Visitor, name) for name in names)


@lru_cache(maxsize=None)
def visitor_names(visitor_type: type) -> tuple[str, ...]:
    """Names of the `visit_<Node>`/`leave_<Node>` methods of `visitor_type`, sorted."""
    return tuple(
        sorted(
            {
                name
                for klass in visitor_type.__mro__
                for name in vars(klass)
                if name.startswith(("visit_", "leave_")) and callable(getattr(visitor_type, name))
            }
        )
    )


def fields_to_walk(node_type: type, handled: frozenset[type]) -> tuple[str, ...]:
    """The child fields of `node_type`, or none when no class in `handled` can occur below it."""
    return child_fields(node_type) if node_type in _containers(handled) else ()


@lru_cache(maxsize=64)
def _containers(handled: frozenset[type]) -> frozenset[type]:
    """Every node class below which a node of a class in `handled` can occur."""
    fields = _child_field_types()
    found: set[type] = set()
    targets = set(handled)
    while True:
        more = {
            kind for kind, held in fields.items()
            if kind not in found and any(not types.isdisjoint(targets) for types in held)
        }
        if not more:
            return frozenset(found)
        found |= more
        targets |= more


@lru_cache(maxsize=1)
def _child_field_types() -> dict[type, tuple[frozenset[type], ...]]:
    """For each concrete node class, the classes each of its child fields may hold directly (by the
    fields' annotations; an over-approximation: an annotated base class stands for its subclasses)."""
    found = {}
    for kind in _subclasses(cst.CSTNode):
        fields = kind.__dataclass_fields__ if dataclasses.is_dataclass(kind) else {}
        found[kind] = tuple(_node_types(fields[name].type) for name in child_fields(kind))
    return found


@lru_cache(maxsize=None)
def _node_types(annotation: Any) -> frozenset[type]:
    """The node classes a value annotated `annotation` may be."""
    if isinstance(annotation, (str, typing.ForwardRef)):  # a LibCST class named before its definition
        name = annotation if isinstance(annotation, str) else annotation.__forward_arg__
        annotation = getattr(cst, name, cst.CSTNode)  # an unknown name may be any node
    if isinstance(annotation, type):
        # (`issubclass` would ask every registered subclass of the ABC about a foreign class)
        return _subclasses(annotation) if cst.CSTNode in annotation.__mro__ else frozenset()
    if typing.get_origin(annotation) is typing.Literal:
        return frozenset()
    return frozenset(kind for argument in typing.get_args(annotation) for kind in _node_types(argument))


@lru_cache(maxsize=None)
def _subclasses(base: type) -> frozenset[type]:
    """`base` and every class derived from it that can be instantiated."""
    found: set[type] = set()
    pending = [base]
    while pending:
        kind = pending.pop()
        if kind not in found:
            found.add(kind)
            pending.extend(kind.__subclasses__())
    return frozenset(kind for kind in found if not getattr(kind, "__abstractmethods__", None))

