"""`spanlint check --add-noqa[=reason]`: a `# noqa: SPLxxx` comment on each line with a finding.

A comment goes at the end of the finding's first line, merged into a spanlint suppression already
there (`# noqa: SPL101` becomes `# noqa: SPL101, SPL104`). Where that line ends inside a
multi-line string, the comment goes alone on the line before (a suppression on its own line covers
the next one). Files are rewritten as fixes are: atomically, keeping encoding and permissions.
"""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

from spanlint.config import ConfigResolver
from spanlint.diagnostics import Diagnostic
from spanlint.source import Source, SourceError
from spanlint.fix import FileFix, write_fixed
from spanlint.runner import FileJob, RunResult
from spanlint.suppression import Suppression, find_suppressions
from spanlint.rules import all_rules

# Findings a suppression cannot or should not silence: those of the file-level passes (unreadable
# files, unused suppressions).
NOT_SUPPRESSIBLE = frozenset(rule.code for rule in all_rules() if rule.file_pass)
_LINE_END = re.compile(r"[ \t]*(\r\n|\r|\n)?$")


@dataclass
class NoqaRun:
    """How many directives were added, and one line per finding that could not be suppressed."""

    added: int
    skipped: list[str]


def add_noqa(result: RunResult, resolver: ConfigResolver, reason: str, paths: list[str]) -> NoqaRun:
    """Add suppressions for every finding of `result` and write the files: only files the run linted,
    and never through a link out of `paths` (the paths the user named)."""
    by_path: dict[str, list[Diagnostic]] = {}
    for diagnostic in result.diagnostics:
        if diagnostic.code not in NOT_SUPPRESSIBLE and diagnostic.path in result.paths:
            by_path.setdefault(diagnostic.path, []).append(diagnostic)
    roots = [os.path.realpath(p) for p in paths]
    run = NoqaRun(0, [])
    for display, diagnostics in sorted(by_path.items()):
        path = Path(result.paths[display])
        job = FileJob(str(path), display, resolver.settings_for_file(path))
        try:  # as the run linted it; read here when its findings came from the cache
            source = result.sources.get(display) or Source.read(job.path, job.settings.max_file_bytes)
            text = source.lintable_text(job.settings)
        except SourceError as error:
            run.skipped.append(f"{display}: no noqa added: {error}")
            continue
        updated, added, skipped = suppress_lines(text, diagnostics, reason)
        run.skipped += [f"{display}:{line}: no noqa added: {why}" for line, why in skipped]
        if added:
            written = write_fixed(FileFix(job, source, updated, added, []), roots)
            run.skipped += written.skipped
            run.added += written.applied
    return run


def suppress_lines(source: str, diagnostics: list[Diagnostic], reason: str = "") -> tuple[str, int, list[tuple[int, str]]]:
    """`source` with a suppression for each finding's code on its line; the number of directives
    added and the lines that could not take one (line, why)."""
    codes_by_line: dict[int, list[str]] = {}
    for d in diagnostics:
        codes = codes_by_line.setdefault(d.location.line, [])
        if d.code not in codes:
            codes.append(d.code)
    lines = source.splitlines(keepends=True)
    inside = _lines_inside_strings(source)
    existing = {s.line: s for s in find_suppressions(source) if not s.own_line}
    skipped: list[tuple[int, str]] = []
    inserted: list[tuple[int, str]] = []
    added = 0
    for number, codes in sorted(codes_by_line.items()):
        if number > len(lines):
            continue
        line = lines[number - 1]
        if number not in inside.ends:
            lines[number - 1] = _with_trailing(line, existing.get(number), codes, reason)
        elif number not in inside.starts:
            indent = line[: len(line) - len(line.lstrip(" \t"))]
            newline = _LINE_END.search(line).group(1) or "\n"  # type: ignore[union-attr]
            inserted.append((number, f"{indent}# noqa: {', '.join(codes)}{_reason(reason)}{newline}"))
        else:
            skipped.append((number, "the line starts and ends inside a string"))
            continue
        added += 1
    for number, comment in reversed(inserted):
        lines.insert(number - 1, comment)
    updated = "".join(lines)
    try:
        ast.parse(updated)
    except (SyntaxError, ValueError):
        return source, 0, skipped + [(n, "the result would not parse") for n in codes_by_line]
    return updated, added, skipped


def _reason(reason: str) -> str:
    return f" {' '.join(reason.split())}" if reason.strip() else ""


def _with_trailing(line: str, suppression: Suppression | None, codes: list[str], reason: str) -> str:
    match = _LINE_END.search(line)
    assert match is not None
    body, newline = line[: match.start()], match.group(1) or ""
    if suppression is not None and suppression.selectors:
        start, end = suppression.column - 1, suppression.end_column - 1
        merged = list(suppression.selectors) + [c for c in codes if c not in suppression.selectors]
        directive = (
            f"# noqa: {', '.join(merged)}" if suppression.is_noqa else f"# spanlint: ignore[{', '.join(merged)}]"
        )
        return body[:start] + directive + body[end:] + newline
    return f"{body}  # noqa: {', '.join(codes)}{_reason(reason)}{newline}"


@dataclass(frozen=True)
class _StringLines:
    ends: frozenset[int]  # lines whose end is inside a string token
    starts: frozenset[int]  # lines whose start is inside a string token


def _lines_inside_strings(source: str) -> _StringLines:
    ends: set[int] = set()
    starts: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            first, last = token.start[0], token.end[0]
            if last > first and token.type not in (tokenize.NEWLINE, tokenize.NL):
                ends.update(range(first, last))
                starts.update(range(first + 1, last + 1))
    except (tokenize.TokenError, SyntaxError):
        pass
    # A comment cannot follow a backslash continuation either.
    ends.update(n for n, line in enumerate(source.splitlines(), 1) if line.rstrip().endswith("\\"))
    return _StringLines(frozenset(ends), frozenset(starts))
