"""Lint one file: decode, pre-scan, parse once, run every selected rule in one batched traversal.

The pre-scans come first (each rule's candidate shape in the file's project-pass summary, then its
text test); a file no rule can match is never parsed by LibCST. When every rule left is local to
definitions, LibCST parses the file cut down to the functions and methods that hold the rules'
shapes (`rules.candidates.cut_to_definitions`), with every line and column kept.
Positions are computed only for files that have findings: LibCST's PositionProvider costs several
times the parse itself.

LibCST recurses once per level of the tree, in its native parser and in Python (visitors, metadata,
code generation). Real files reach ~2,200 levels (the implicitly concatenated strings of the
standard library's `pydoc_data/topics.py`), past the default recursion limit, so each file's LibCST
work runs in a thread with a large stack and a raised recursion limit. Files nested deeper than
`rules.project.MAX_NESTING` never reach LibCST (its native parser overflows the stack on them).
"""

from __future__ import annotations

import bisect
import codecs
import difflib
import errno
import io
import os
import re
import stat
import sys
import threading
import tokenize
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Sequence, TypeVar

from lint.diagnostics import Diagnostic, Edit, FixSummary, Location, sort_diagnostics
from lint.settings import PARSE_ERROR, Settings
from lint.suppression import Suppression, UnusedSuppression, find_suppressions, unused_suppressions
from rules import all_rules, find_rule
from rules.base import FileContext, Fix, Rule
from rules.candidates import cut_to_definitions
from rules.lazy_libcst import cst
from rules.project import FileSummary, ProjectIndex, summarize_source
from rules import traversal

if TYPE_CHECKING:
    from libcst.metadata import CodeRange

UNUSED_SUPPRESSION = "SPL900"
# The stack and recursion limit LibCST gets for one file (virtual memory: only what it touches is used).
LINT_STACK_BYTES = 512 * 1024 * 1024
LINT_RECURSION_LIMIT = 60_000
# Rules the engine computes itself rather than by visiting the tree.
ENGINE_RULES = frozenset({PARSE_ERROR, UNUSED_SUPPRESSION})


class SourceError(Exception):
    """A file's bytes cannot be turned into Python source; the message is the reason."""


def decode_source(data: bytes) -> str:
    """Decode `data` as Python source (PEP 263 cookie, BOM, else UTF-8); raise `SourceError`."""
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise SourceError(
            "file is UTF-16 or UTF-32 (byte order mark): Python source must be UTF-8 or an ASCII-compatible encoding"
        )
    if b"\0" in data:
        raise SourceError("file contains NUL bytes (binary file?)")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError) as error:
        raise SourceError(f"cannot decode file: {error}") from None
    return text[1:] if text.startswith("\ufeff") else text


@dataclass
class _Linted:
    module: cst.Module
    context: FileContext


def lint_source(
    source: str,
    path: str,
    settings: Settings,
    project: ProjectIndex | None = None,
    summary: FileSummary | None = None,
    *,
    prescan: bool = True,
) -> list[Diagnostic]:
    """Every finding in `source`, suppressions applied, sorted.

    `summary` is this file's project-wide summary when the caller has it (it holds the standard
    parser's verdict, so a file the pre-scan skips still gets its SPL000). `prescan=False` runs
    every selected rule even where its pre-scans (text, and the summary's shapes) say it cannot match
    (for testing the pre-scans).
    """
    if summary is None:
        summary = summarize_source(source, settings.vocabulary, path)
    rules = settings.rules_for(path)
    codes = {r.code for r in rules}
    if summary.syntax_error is not None:
        return [parse_error(path, *summary.syntax_error)] if PARSE_ERROR in codes else []
    if project is None:
        project = ProjectIndex.merge(settings.vocabulary, [summary])
    visiting = tuple(
        r for r in rules
        if r.code not in ENGINE_RULES
        and (not prescan or (r.may_match_summary(summary) and r.may_match(source, settings.vocabulary)))
    )
    own_suppressions = UNUSED_SUPPRESSION in codes and _names_spanlint(source)
    if not visiting and not own_suppressions:
        return []  # no finding to report or suppress, and no spanlint suppression that could be unused
    parsed = _parsed_part(source, summary, visiting) if prescan else source

    def lint() -> list[Diagnostic]:
        module: cst.Module | None = None
        diagnostics: list[Diagnostic] = []
        if visiting:
            linted = _visit(source, parsed, path, visiting, settings, project)
            module = linted.module if parsed is source else None
            diagnostics = _to_diagnostics(linted, settings)
        if not diagnostics and not own_suppressions:
            return []
        suppressions = find_suppressions(source)
        diagnostics = _apply_suppressions(suppressions, diagnostics)
        if own_suppressions:
            diagnostics += _unused_suppressions(source, path, module, suppressions, settings, codes)
        return diagnostics

    try:
        return sort_diagnostics(run_with_deep_stack(lint))
    except _Unparsable as error:
        return [parse_error(path, str(error), error.line, error.column)] if PARSE_ERROR in codes else []


def _parsed_part(source: str, summary: FileSummary, rules: Sequence[type[Rule]]) -> str:
    """What LibCST parses: `source` cut to the definitions holding the rules' shapes when every rule
    is local to definitions, else all of it. Lines and columns are those of `source` either way."""
    if not rules or not all(rule.local_to_definitions for rule in rules):
        return source
    keep = frozenset().union(*(summary.shape_definitions.get(rule.shape or "", frozenset()) for rule in rules))
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


Result = TypeVar("Result")
_recursion_lock = threading.Lock()
_deep_threads = 0
_saved_recursion_limit = 0


def run_with_deep_stack(function: Callable[[], Result]) -> Result:
    """`function()` run in a thread with `LINT_STACK_BYTES` of stack and `LINT_RECURSION_LIMIT`.

    The recursion limit is process-wide: it is raised while any such thread runs and restored after
    the last one ends. An exception in `function` is raised here.
    """
    global _deep_threads, _saved_recursion_limit
    outcome: list[Result] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(function())
        except BaseException as error:  # noqa: BLE001 - handed back to the caller's thread
            failure.append(error)

    with _recursion_lock:
        if _deep_threads == 0:
            _saved_recursion_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_saved_recursion_limit, LINT_RECURSION_LIMIT))
        _deep_threads += 1
    try:
        with _recursion_lock:  # the stack size, like the limit, is process-wide
            previous_stack = threading.stack_size(LINT_STACK_BYTES)
            try:
                thread = threading.Thread(target=run, name="spanlint-lint", daemon=True)
                thread.start()
            finally:
                threading.stack_size(previous_stack)
        thread.join()
    finally:
        with _recursion_lock:
            _deep_threads -= 1
            if _deep_threads == 0:
                sys.setrecursionlimit(_saved_recursion_limit)
    if failure:
        raise failure[0]
    return outcome[0]


def read_source(data: bytes, settings: Settings) -> str:
    """The source text of a file's bytes; raise `SourceError` for one spanlint cannot lint."""
    _check_size(len(data), settings.max_file_bytes)
    return decode_source(data)


def read_file(path: str, max_bytes: int) -> bytes:
    """The bytes of the regular file at `path`; raise `SourceError` for anything else.

    A FIFO, device or directory is refused without reading it (opening never blocks), and a file
    over `max_bytes` without loading it.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        reason = "broken symbolic link" if os.path.islink(path) and error.errno == errno.ENOENT else error.strerror
        raise SourceError(f"cannot read file: {reason or error}") from None
    with open(descriptor, "rb", closefd=True) as file:
        mode = os.fstat(descriptor)
        if not stat.S_ISREG(mode.st_mode):
            raise SourceError(f"not a regular file ({_file_kind(mode.st_mode)})")
        _check_size(mode.st_size, max_bytes)
        try:
            return file.read()
        except OSError as error:
            raise SourceError(f"cannot read file: {error.strerror or error}") from None


def _check_size(size: int, max_bytes: int) -> None:
    if size > max_bytes:
        raise SourceError(f"file too large: {size:,} bytes, over the limit of {max_bytes:,} (max-file-bytes)")


def _file_kind(mode: int) -> str:
    kinds = {stat.S_ISDIR: "directory", stat.S_ISFIFO: "FIFO", stat.S_ISSOCK: "socket",
             stat.S_ISCHR: "character device", stat.S_ISBLK: "block device"}
    return next((kind for is_kind, kind in kinds.items() if is_kind(mode)), "unknown file type")


def parse_error(path: str, reason: str, line: int = 1, column: int = 1) -> Diagnostic:
    """The SPL000 finding for a file that could not be linted."""
    rule = find_rule(PARSE_ERROR)
    assert rule is not None
    where = Location(line, column)
    return Diagnostic(path, where, where, rule.code, rule.name, reason, "error")


def _no_validation(node: cst.CSTNode) -> None:
    """Stands in for `CSTNode.__post_init__` while the parser builds nodes."""


class _Unparsable(Exception):
    def __init__(self, reason: str, line: int = 1, column: int = 1) -> None:
        super().__init__(reason)
        self.line, self.column = line, column


_parse_lock = threading.Lock()


def _parse(source: str) -> cst.Module:
    """`source` parsed by LibCST, without re-validating each node the parser builds.

    LibCST validates every node on construction (`CSTNode.__post_init__`), which is about a fifth of
    `parse_module`; the parser's own output is valid by construction (LibCST's source says as much).
    Validation is switched off only for the duration of the parse; the lock keeps one thread's parse
    from restoring it while another's runs. Nodes built outside a parse (fixes) are validated.
    """
    try:
        with _parse_lock:
            validate = cst.CSTNode.__post_init__
            cst.CSTNode.__post_init__ = _no_validation  # type: ignore[method-assign]
            try:
                return cst.parse_module(source)
            finally:
                cst.CSTNode.__post_init__ = validate  # type: ignore[method-assign]
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
    context = FileContext(path, source, module, settings.vocabulary, project)
    visitors = [rule(context) for rule in rules]
    try:
        traversal.visit_batched(module, visitors)
    except RecursionError:
        raise _Unparsable("nesting too deep to analyse (recursion limit)") from None
    return _Linted(module, context)


def _to_diagnostics(linted: _Linted, settings: Settings) -> list[Diagnostic]:
    reports = linted.context.reports
    if not reports:
        return []
    try:
        positions = _positions(linted.module)
    except RecursionError:
        raise _Unparsable("nesting too deep to compute positions (recursion limit)") from None
    lines = linted.context.source.splitlines()
    statements = (
        _TopLevel.of(linted.module, linted.context.source, positions) if any(r.fix for r in reports) else None
    )
    diagnostics = []
    seen: set[tuple[str, int, int]] = set()
    for report in reports:
        where = positions[report.node]
        key = (report.rule.code, where.start.line, where.start.column)
        if key in seen:
            continue
        seen.add(key)
        diagnostics.append(
            Diagnostic(
                path=linted.context.path,
                location=Location(where.start.line, where.start.column + 1),
                end_location=Location(where.end.line, where.end.column + 1),
                code=report.rule.code,
                name=report.rule.name,
                message=report.message,
                severity="warn" if settings.severity_of(report.rule) == "warn" else "error",
                fix=_summarize_fix(linted.module, report.fix, statements) if report.fix else None,
                snippet="\n".join(lines[where.start.line - 1 : where.end.line]),
            )
        )
    return diagnostics


def _positions(module: cst.Module) -> Mapping[cst.CSTNode, CodeRange]:
    """The position of every node of `module` (LibCST's `PositionProvider`)."""
    from libcst.metadata import MetadataWrapper, PositionProvider

    return MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)


def apply_fix(module: cst.Module, fix: Fix) -> str:
    """The source of `module` with `fix` applied (a tree edit: comments and spacing kept)."""
    replacements = dict(fix.replacements)

    class Replacer(cst.CSTTransformer):  # defined here: a module-level subclass would load LibCST on import
        def on_leave(self, original_node, updated_node):  # type: ignore[no-untyped-def]
            return replacements.get(original_node, updated_node)

    return module.visit(Replacer()).code


def _summarize_fix(module: cst.Module, fix: Fix, statements: _TopLevel | None = None) -> FixSummary:
    return FixSummary(fix.message, fix.applicability, tuple(_fix_edits(module, fix, statements)))


def _fix_edits(module: cst.Module, fix: Fix, statements: _TopLevel | None) -> Iterable[Edit]:
    """The line edits of `fix`: made from the one top-level statement it changes when `statements`
    can tell which (the cost of a fix then does not grow with the file), else from the whole module."""
    index = statements.holding(fix.replacements) if statements is not None else None
    if index is None:
        yield from text_edits(module.code, apply_fix(module, fix))
        return
    alone = module.with_changes(header=(), body=(module.body[index],), footer=(), has_trailing_newline=True)
    offset = statements.starts[index] - 1
    for edit in text_edits(alone.code, apply_fix(alone, fix)):
        yield Edit(edit.content, Location(edit.location.line + offset, 1), Location(edit.end_location.line + offset, 1))


# Characters `str.splitlines` breaks lines at that LibCST does not (fix edits count `splitlines` lines).
_OTHER_LINE_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


class _TopLevel:
    """The lines where a module's top-level statements start (each with its leading blank and comment
    lines), to find which statement a fix changes."""

    def __init__(self, module: cst.Module, positions: Mapping[cst.CSTNode, CodeRange]) -> None:
        self._positions = positions
        line = 1 + sum(len(module.code_for_node(empty).splitlines()) for empty in module.header)
        self.starts = []
        for statement in module.body:
            self.starts.append(line)
            line += len(module.code_for_node(statement).splitlines())
        self.starts.append(line)  # the footer's first line

    @classmethod
    def of(cls, module: cst.Module, source: str, positions: Mapping[cst.CSTNode, CodeRange]) -> _TopLevel | None:
        """None for a source whose lines LibCST and `splitlines` count differently."""
        return None if _OTHER_LINE_BREAKS.search(source) else cls(module, positions)

    def holding(self, nodes: Iterable[cst.CSTNode]) -> int | None:
        """The index of the top-level statement that holds every node; None when not one statement does."""
        found = set()
        for node in nodes:
            where = self._positions.get(node) if not isinstance(node, cst.Module) else None
            if where is None:
                return None
            found.add(bisect.bisect_right(self.starts, where.start.line) - 1)
            if len(found) > 1:
                return None
        index = found.pop() if found else None
        return index if index is not None and 0 <= index < len(self.starts) - 1 else None


def text_edits(before: str, after: str) -> Iterable[Edit]:
    """The line-level edits that turn `before` into `after`."""
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            yield Edit("".join(new[j1:j2]), Location(i1 + 1, 1), Location(i2 + 1, 1))


def _apply_suppressions(suppressions: list[Suppression], diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics no suppression covers; marks each suppression with the codes it suppressed."""
    if not diagnostics or not suppressions:
        return diagnostics
    by_line: dict[int, list[Suppression]] = {}
    for suppression in suppressions:
        by_line.setdefault(suppression.applies_to_line, []).append(suppression)
    kept = []
    for diagnostic in diagnostics:
        covering = by_line.get(diagnostic.location.line, [])
        matched = next((s for s in covering if _suppresses(s.selectors, diagnostic)), None)
        if matched is None:
            kept.append(diagnostic)
        else:
            matched.used.add(diagnostic.code)
    return kept


def _suppresses(selectors: tuple[str, ...], diagnostic: Diagnostic) -> bool:
    return not selectors or any(s.upper() == diagnostic.code or s.lower() == diagnostic.name for s in selectors)


def _rule_code(selector: str) -> str | None:
    rule = find_rule(selector)
    return rule.code if rule is not None else None


def _unused_suppressions(
    source: str,
    path: str,
    module: cst.Module | None,
    suppressions: list[Suppression],
    settings: Settings,
    enabled: set[str],
) -> list[Diagnostic]:
    """SPL900: spanlint suppressions that suppressed nothing or name no rule, each with a safe fix."""
    found = unused_suppressions(suppressions, _rule_code, enabled)
    if not found:
        return []
    rule = find_rule(UNUSED_SUPPRESSION)
    assert rule is not None
    module = module or _parse(source)
    comments = _CommentFinder.locate(module)
    lines = source.splitlines()
    diagnostics = []
    for unused in found:
        suppression = unused.suppression
        column = suppression.column - 1
        fix = next(
            (
                _summarize_fix(module, _remove_directive(unused, column - start, comment, holder))
                for start, comment, holder in comments.get(suppression.line, [])
                if start <= column < start + len(comment.value)
            ),
            None,
        )
        diagnostics.append(
            Diagnostic(
                path=path,
                location=Location(suppression.line, suppression.column),
                end_location=Location(suppression.line, suppression.end_column),
                code=rule.code,
                name=rule.name,
                message=unused.message,
                severity="warn" if settings.severity_of(rule) == "warn" else "error",
                fix=fix,
                snippet=lines[suppression.line - 1] if suppression.line <= len(lines) else "",
            )
        )
    return diagnostics


class _CommentFinder(traversal.Visitor):
    """Every comment with the line node that holds it (a trailing comment or a comment line)."""

    def __init__(self) -> None:
        self.found: list[tuple[cst.Comment, cst.TrailingWhitespace | cst.EmptyLine]] = []

    def visit_TrailingWhitespace(self, node: cst.TrailingWhitespace) -> None:
        if node.comment is not None:
            self.found.append((node.comment, node))

    def visit_EmptyLine(self, node: cst.EmptyLine) -> None:
        if node.comment is not None:
            self.found.append((node.comment, node))

    @classmethod
    def locate(cls, module: cst.Module) -> dict[int, list[tuple[int, cst.Comment, cst.CSTNode]]]:
        """For each line, its comments as (0-based start column, comment, holder)."""
        finder = cls()
        traversal.visit(module, finder)
        if not finder.found:
            return {}
        positions = _positions(module)
        located: dict[int, list[tuple[int, cst.Comment, cst.CSTNode]]] = {}
        for comment, holder in finder.found:
            start = positions[comment].start
            located.setdefault(start.line, []).append((start.column, comment, holder))
        return located


def _remove_directive(unused: UnusedSuppression, offset: int, comment: cst.Comment, holder: cst.CSTNode) -> Fix:
    """The tree edit that rewrites or removes one suppression directive inside `comment`."""
    text = comment.value
    end = offset + len(unused.suppression.text)
    if unused.replacement:
        message = "Remove " + ", ".join(f"`{s}`" for s in (*unused.unused, *unused.unknown)) + " from the suppression"
        new_text = text[:offset] + unused.replacement + text[end:]
    else:
        message = "Remove the unused suppression"
        new_text = text[:offset].rstrip()  # a reason written after the directive goes with it
    replacement: cst.CSTNode | cst.RemovalSentinel
    if new_text.strip("# \t"):
        replacement, target = comment.with_changes(value=new_text), comment
    elif isinstance(holder, cst.EmptyLine):
        replacement, target = cst.RemovalSentinel.REMOVE, holder
    else:
        replacement, target = holder.with_changes(whitespace=cst.SimpleWhitespace(""), comment=None), holder
    return Fix(message, "safe", {target: replacement})
