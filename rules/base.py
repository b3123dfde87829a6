"""The common interface of every rule: metadata, examples, and the visitor that reports findings."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Generic, Literal, Mapping, Sequence, TypeVar, Union

from spanlint.rules.libcst_backend import cst
from spanlint.rules.traversal import visitor_names
from runtime_guard.vocabulary import Vocabulary

if TYPE_CHECKING:
    from spanlint.rules.analysis import ProjectIndex, SpanAnalysis
    from spanlint.rules.prescan import Prefilter
    from spanlint.rules.project import FileSummary

    Replacement = Union[cst.CSTNode, cst.FlattenSentinel, cst.RemovalSentinel]

Severity = Literal["error", "warn"]
Applicability = Literal["safe", "unsafe"]
State = TypeVar("State")


@dataclass(frozen=True)
class Valid:
    """An example source on which the rule must report nothing."""

    code: str


@dataclass(frozen=True)
class Invalid:
    """An example source on which the rule must report exactly one finding at `line`:`column` (1-based).

    `fixed` is the whole source after the rule's fix, for a rule that has one; `message`, the
    finding's message; `help`, its advice, checked when given.
    """

    code: str
    line: int
    column: int
    fixed: str | None = None
    message: str | None = None
    help: str | None = None


@dataclass(frozen=True)
class Fix:
    """A tree edit that resolves a finding: each original node maps to what replaces it."""

    message: str
    applicability: Applicability
    replacements: Mapping[cst.CSTNode, Replacement]


@dataclass(frozen=True)
class Report:
    """A finding as a rule reports it: a node, not yet a position. `message` states what is wrong
    and where; `help`, what to do about it."""

    rule: type["Rule"]
    node: cst.CSTNode
    message: str
    fix: Fix | None = None
    # (line, column, end line, end column), 1-based, when the finding is not where `node` is
    # (a directive inside a comment).
    place: tuple[int, int, int, int] | None = None
    help: str | None = None


@dataclass
class FileContext:
    """What a rule may know about the file it visits. One per file, shared by every rule."""

    path: str
    source: str
    module: cst.Module
    vocabulary: Vocabulary
    project: "ProjectIndex"
    reports: list[Report] = field(default_factory=list)
    _analysis: "SpanAnalysis | None" = None

    @property
    def analysis(self) -> "SpanAnalysis":
        """The span analysis of this file, computed on first use and shared by all rules."""
        if self._analysis is None:
            from spanlint.rules.analysis import SpanAnalysis

            self._analysis = SpanAnalysis(self.module, self.vocabulary, self.project, self.path, self.source)
        return self._analysis


class Rule:
    """Base class of every spanlint rule.

    A subclass sets the class attributes below, defines `visit_<Node>`/`leave_<Node>` methods for
    LibCST node classes (`rules.traversal.visit_batched` calls them) and calls `self.report(node)`
    for each finding. `docs` holds the sections *What it does*, *Why is this bad?*,
    *Example*, *Use instead* and *Fix safety*.

    A finding's message states the fact and the place (`` `span.content` rewritten in place without
    bumping `span.version` ``); advice goes in its help (`help`, or the report's own), printed as a
    separate `help:` line and carried apart from the message by the machine formats.
    """

    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    message: ClassVar[str]
    # The advice of a finding whose report gives none and has no fix; None: no advice.
    help: ClassVar[str | None] = None
    docs: ClassVar[str]
    severity: ClassVar[Severity] = "error"
    fix_applicability: ClassVar[Applicability | None] = None
    default_enabled: ClassVar[bool] = True
    valid: ClassVar[Sequence[Valid]] = ()
    invalid: ClassVar[Sequence[Invalid]] = ()
    # The rule's test over the file's stdlib `ast` tree (`rules.prescan`): the file must hold its
    # `shape` for the rule to have a finding in it. None: every file may.
    prefilter: ClassVar["type[Prefilter] | None"] = None
    # A rule that does not visit the tree runs in one of the engine's file-level passes: "unlintable"
    # (each file that cannot be read, decoded or parsed is its finding, the reason as message) or
    # "suppressions" (after every other rule, `check_suppressions(unused)` gets the file's unused ones).
    file_pass: ClassVar[Literal["unlintable", "suppressions"] | None] = None
    # True when a finding inside a function or method depends only on that definition, the file's
    # statements outside definitions, the file's text and the project index: LibCST then parses only
    # the definitions where the pre-filter found its shape (`rules.prescan.cut_to_definitions`).
    local_to_definitions: ClassVar[bool] = False

    def __init__(self, context: FileContext) -> None:
        self.context = context

    @classmethod
    def may_match(cls, source: str, vocabulary: Vocabulary) -> bool:
        """Cheap text test: False only when this rule can have no finding in `source`."""
        return True

    @classmethod
    def may_match_summary(cls, summary: "FileSummary") -> bool:
        """Cheap test on the file's project-pass summary (the shapes its pre-filters found):
        False only when this rule can have no finding in the file."""
        return cls.prefilter is None or not summary.shapes.isdisjoint(cls.prefilter.shapes())

    @classmethod
    def may_match_project(cls, summary: "FileSummary", project: Callable[[], "ProjectIndex"]) -> bool:
        """A test with the project's index (`project()` makes it), after `may_match_summary`, for a
        rule whose finding in a file depends on other files: False only when it can have none."""
        return True

    def get_visitors(self) -> Mapping[str, Callable[[cst.CSTNode], Any]]:
        """The `visit_*`/`leave_*` methods (as LibCST's `BatchableCSTVisitor` would list them); the
        names are looked up once per class."""
        return {name: getattr(self, name) for name in visitor_names(type(self))}

    def report(
        self, node: cst.CSTNode, message: str | None = None, *, help: str | None = None, fix: Fix | None = None,
        place: tuple[int, int, int, int] | None = None,
    ) -> None:
        """Record a finding at `node` (or at `place`). Its help is `help`, else what the fix does,
        else the rule's `help`."""
        advice = help or (fix.message if fix is not None else self.help)
        self.context.reports.append(Report(type(self), node, message or self.message, fix, place, advice))


def words_pattern(words: Sequence[str]) -> re.Pattern[str]:
    """A regex that finds any of `words` anywhere in a text (for `may_match` pre-scans)."""
    return re.compile("|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True)))


def metadata_of(rule: type[Rule]) -> dict[str, Any]:
    """The rule's metadata as plain data (for listings, JSON and docs)."""
    return {
        "code": rule.code,
        "name": rule.name,
        "summary": rule.summary,
        "severity": rule.severity,
        "fix": rule.fix_applicability,
        "default_enabled": rule.default_enabled,
        "docs": rule.docs.strip(),
    }


class ScopedRule(Rule):
    """A rule that knows the function it is in.

    `self.function` and `self.facts` (the shared analysis of that function) describe the innermost
    enclosing function; both are None at module or class level. Subclasses overriding these
    visit/leave methods must call `super()`.
    """

    def __init__(self, context: FileContext) -> None:
        super().__init__(context)
        # Innermost last: a class name (str) or a (function, enclosing class name or None) pair.
        self._scopes: list[Any] = []

    @property
    def function(self) -> cst.FunctionDef | None:
        for scope in reversed(self._scopes):
            if isinstance(scope, tuple):
                return scope[0]
            return None
        return None

    @property
    def facts(self) -> Any:
        """The shared `FunctionFacts` of the innermost function, computed on first use (a function
        nested in another knows the names of the one enclosing it)."""
        if not self._scopes or not isinstance(self._scopes[-1], tuple):
            return None
        return self._facts_of(len(self._scopes) - 1)

    def _facts_of(self, at: int) -> Any:
        function, owner = self._scopes[at]
        nested = at > 0 and isinstance(self._scopes[at - 1], tuple)
        return self.context.analysis.facts(function, owner, (lambda: self._facts_of(at - 1)) if nested else None)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._scopes.append(node.name.value)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._scopes.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        owner = self._scopes[-1] if self._scopes and isinstance(self._scopes[-1], str) else None
        self._scopes.append((node, owner))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._scopes.pop()


class FunctionStateRule(ScopedRule, Generic[State]):
    """A scoped rule that keeps a `State` for each function it is in.

    `start_function(node)` makes the state on entering a function, `finish_function(state, node)`
    receives it on leaving (before the scope is left: `self.function` and `self.facts` still describe
    that function). `self.state` is the innermost enclosing function's state, also in the body of a
    class nested in it; None outside any function.
    """

    def __init__(self, context: FileContext) -> None:
        super().__init__(context)
        self._states: list[State] = []

    @property
    def state(self) -> State | None:
        """The innermost enclosing function's state."""
        return self._states[-1] if self._states else None

    def start_function(self, node: cst.FunctionDef) -> State:
        """The new state of the function `node`, being entered."""
        raise NotImplementedError

    def finish_function(self, state: State, node: cst.FunctionDef) -> None:
        """Conclude on one function; by default nothing."""

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        super().visit_FunctionDef(node)
        self._states.append(self.start_function(node))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.finish_function(self._states.pop(), original_node)
        super().leave_FunctionDef(original_node)
