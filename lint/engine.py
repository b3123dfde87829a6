"""Lint one file: pre-filter, parse once, run every selected rule in one batched traversal, then the
file-level rules (unused suppressions), and turn the rules' reports into diagnostics.

The pre-filters come first (each rule's shape in the file's project-pass summary, then its text
test); a file no rule can match is never parsed by LibCST. When every rule left is local to
definitions, LibCST parses the file cut down to the functions and methods where their pre-filters
found their shapes (`rules.prescan.cut_to_definitions`), with every line and column kept.
Positions are computed only for files that have findings: LibCST's PositionProvider costs several
times the parse itself. LibCST runs with a deep stack (`rules.libcst_backend.run_with_deep_stack`).
A rule that raises is reported as an internal error (`Diagnostic.internal`); the others run on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Sequence

from spanlint.diagnostics import Diagnostic, Location, sort_diagnostics
from spanlint.edits import TopLevel, fix_summary
from spanlint.settings import Settings
from spanlint.suppression import apply_suppressions, find_suppressions, unused_suppressions
from spanlint.rules import all_rules, find_rule
from spanlint.rules.base import FileContext, Rule
from spanlint.rules.libcst_backend import cst, parse_module, positions, run_with_deep_stack
from spanlint.rules.prescan import cut_to_definitions
from spanlint.rules.project import FileSummary, ProjectIndex, summarize_source
from spanlint.rules import traversal



@dataclass
class _Linted:
    module: cst.Module
    context: FileContext
    failures: list[Diagnostic]  # the rules that raised on the file (`Diagnostic.internal`)


def lint_source(
    source: str,
    path: str,
    settings: Settings,
    project: ProjectIndex | Callable[[], ProjectIndex] | None = None,
    summary: FileSummary | None = None,
    *,
    prescan: bool = True,
) -> list[Diagnostic]:
    """Every finding in `source`, suppressions applied, sorted.

    `summary` is this file's project-wide summary when the caller has it (it holds the standard
    parser's verdict, so a file the pre-scan skips still gets its SPL000). `prescan=False` runs
    every selected rule even where its pre-scans (text, and the summary's shapes) say it cannot match
    (for testing the pre-scans). `project` may be a function that makes the index: it is called only
    when a rule runs (a file the pre-filters rule out never needs the project's index).
    """
    if summary is None:
        summary = summarize_source(source, settings.vocabulary, path)
    rules = settings.rules_for(path)
    reports_unlintable = any(r.file_pass == "unlintable" for r in rules)
    if summary.syntax_error is not None:
        return [parse_error(path, *summary.syntax_error)] if reports_unlintable else []
    indexes: list[ProjectIndex] = []

    def project_index() -> ProjectIndex:  # made once, and only when a rule needs it
        if not indexes:
            given = project
            indexes.append(
                ProjectIndex.merge(settings.vocabulary, [summary]) if given is None
                else given() if callable(given) else given
            )
        return indexes[0]

    visiting = tuple(
        r for r in rules
        if r.file_pass is None
        and (not prescan or (
            r.may_match_summary(summary) and r.may_match(source, settings.vocabulary)
            and r.may_match_project(summary, project_index)
        ))
    )
    checking_suppressions = [r for r in rules if r.file_pass == "suppressions"]
    own_suppressions = bool(checking_suppressions) and _names_spanlint(source)
    if not visiting and not own_suppressions:
        return []  # no finding to report or suppress, and no spanlint suppression that could be unused
    project = project_index()
    parsed = _parsed_part(source, summary, visiting) if prescan else source

    def lint() -> list[Diagnostic]:
        module: cst.Module | None = None
        diagnostics: list[Diagnostic] = []
        failures: list[Diagnostic] = []
        if visiting:
            linted = _visit(source, parsed, path, visiting, settings, project)
            module = linted.module if parsed is source else None
            diagnostics = _to_diagnostics(linted, settings)
            failures = linted.failures
        if not diagnostics and not own_suppressions:
            return failures
        suppressions = find_suppressions(source)
        diagnostics = apply_suppressions(suppressions, diagnostics)
        if own_suppressions:
            unused = unused_suppressions(suppressions, _rule_code, {r.code for r in rules})
            if unused:
                module = module or _parse(source)
                context = FileContext(path, source, module, settings.vocabulary, project)
                for rule in checking_suppressions:
                    rule(context).check_suppressions(unused)
                diagnostics += _to_diagnostics(_Linted(module, context, []), settings)
        return diagnostics + failures

    try:
        return sort_diagnostics(run_with_deep_stack(lint))
    except _Unparsable as error:
        return [parse_error(path, str(error), error.line, error.column)] if reports_unlintable else []


def _rule_code(selector: str) -> str | None:
    rule = find_rule(selector)
    return rule.code if rule is not None else None


def _parsed_part(source: str, summary: FileSummary, rules: Sequence[type[Rule]]) -> str:
    """What LibCST parses: `source` cut to the definitions holding the rules' shapes when every rule
    is local to definitions, else all of it. Lines and columns are those of `source` either way."""
    if not rules or not all(rule.local_to_definitions for rule in rules):
        return source
    shapes = [shape for rule in rules if rule.prefilter is not None for shape in rule.prefilter.shapes()]
    keep = frozenset().union(*(summary.shape_definitions.get(shape, frozenset()) for shape in shapes))
    return cut_to_definitions(source, summary.definitions, keep)


_RULE_CODE = re.compile(r"spl\d{3}")


def _names_spanlint(source: str) -> bool:
    """`source` may hold one of spanlint's own suppressions: it names spanlint, a rule code or a rule."""
    text = source.lower()
    return (
        "spanlint" in text
        or ("spl" in text and _RULE_CODE.search(text) is not None)
        or any(rule.name in text for rule in all_rules())
    )


def parse_error(path: str, reason: str, line: int = 1, column: int = 1) -> Diagnostic:
    """The finding of the rule that reports unlintable files (SPL000) for a file that could not be linted."""
    rule = next(r for r in all_rules() if r.file_pass == "unlintable")
    where = Location(line, column)
    return Diagnostic(path, where, where, rule.code, rule.name, reason, "error")


class _Unparsable(Exception):
    def __init__(self, reason: str, line: int = 1, column: int = 1) -> None:
        super().__init__(reason)
        self.line, self.column = line, column


def _parse(source: str) -> cst.Module:
    """`source` parsed by LibCST; raise `_Unparsable` for a source it rejects."""
    try:
        return parse_module(source)
    except cst.ParserSyntaxError as error:
        raise _Unparsable(
            f"syntax error: {error.message}", error.raw_line, error.raw_column + 1
        ) from None
    except RecursionError:
        raise _Unparsable("nesting too deep to parse (recursion limit)") from None


def _visit(
    source: str, parsed: str, path: str, rules: Sequence[type[Rule]], settings: Settings, project: ProjectIndex
) -> _Linted:
    """Run `rules` over the module LibCST makes of `parsed` (`source`, or a cut of it that keeps its
    lines); the rules see the whole file's text as `source`."""
    module = _parse(parsed)
    failures: list[Diagnostic] = []
    while True:
        context = FileContext(path, source, module, settings.vocabulary, project)
        visitors = [rule(context) for rule in rules]
        try:
            traversal.visit_batched(module, visitors)
        except RecursionError:
            raise _Unparsable("nesting too deep to analyse (recursion limit)") from None
        except traversal.VisitorFailed as failure:
            # One rule raised: it is reported as an internal error, the others run again without it
            # (on a fresh context: the shared analysis may be half-built).
            failed = type(failure.visitor)
            if failed not in rules:
                raise failure.error from None
            failures.append(_rule_failure(failed, path, module, failure))
            rules = [rule for rule in rules if rule is not failed]
            continue
        return _Linted(module, context, failures)


def _rule_failure(rule: type[Rule], path: str, module: cst.Module, failure: traversal.VisitorFailed) -> Diagnostic:
    """The internal error of `rule` raising on the file at `path`, at the line of the node it raised at."""
    try:
        line = positions(module)[failure.node].start.line
    except (KeyError, RecursionError):
        line = 1
    error = failure.error
    detail = " ".join(str(error).split())
    message = f"{type(error).__name__}" + (f": {detail}" if detail else "")
    where = Location(line, 1)
    return Diagnostic(path, where, where, rule.code, rule.name, message, "error", internal=True)


def _to_diagnostics(linted: _Linted, settings: Settings) -> list[Diagnostic]:
    reports = linted.context.reports
    if not reports:
        return []
    fixing = any(r.fix for r in reports)
    try:
        located = positions(linted.module) if fixing or any(r.place is None for r in reports) else {}
    except RecursionError:
        raise _Unparsable("nesting too deep to compute positions (recursion limit)") from None
    lines = linted.context.source.splitlines()
    statements = TopLevel.of(linted.module, linted.context.source, located) if fixing else None
    diagnostics = []
    seen: set[tuple[str, int, int]] = set()
    for report in reports:
        if report.place is None:
            where = located[report.node]
            start = Location(where.start.line, where.start.column + 1)
            end = Location(where.end.line, where.end.column + 1)
        else:
            start, end = Location(*report.place[:2]), Location(*report.place[2:])
        key = (report.rule.code, start.line, start.column)
        if key in seen:
            continue
        seen.add(key)
        diagnostics.append(
            Diagnostic(
                path=linted.context.path,
                location=start,
                end_location=end,
                code=report.rule.code,
                name=report.rule.name,
                message=report.message,
                severity="warn" if settings.severity_of(report.rule) == "warn" else "error",
                fix=fix_summary(linted.module, report.fix, statements) if report.fix else None,
                help=report.help,
                snippet="\n".join(lines[start.line - 1 : end.line]),
            )
        )
    return diagnostics
