"""Apply the rules' fixes: one fix at a time, re-linting after each, never writing a broken file.

A fix is a LibCST tree edit; the engine reports it as line edits of the file's source
(`FixSummary.edits`, made by `lint.edits.apply_fix`, so formatting and comments are kept). Fixes
are applied one at a time because two fixes can interact (two findings in one function, each fixed
by bumping the version, must bump it once): after each fix the file is linted again, until no
fixable finding is left or `MAX_ITERATIONS` fixes were tried. A fix whose result does not parse, or
that leaves its finding in place (it would be applied again and again), is not applied and is reported.

A file is fixed from the `Source` the run linted (`RunResult.sources`; read here only when its
findings came from the cache). Files are written atomically (a temporary file in the same directory,
then `os.replace`), keeping their encoding, byte-order mark, permission bits and owner, and only if
they still hold the bytes that were linted (an edit saved meanwhile wins): the one read of a file
after the run's read of it is this compare-and-swap, just before the replace. A file with several hard links, or a symbolic link
to a file outside the paths being fixed, is not written. A temporary file left by a run that was
killed is deleted by the next run that fixes a file in its directory.
"""

from __future__ import annotations

import ast
import difflib
import errno
import os
import stat
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from spanlint.config import ConfigResolver
from spanlint.diagnostics import Diagnostic, Edit, sort_diagnostics
from spanlint.engine import lint_source
from spanlint.source import Source
from spanlint.runner import FileJob, RunOptions, RunResult, _map, check_paths, check_stdin, stdin_job
from spanlint.rules.project import ProjectIndex

MAX_ITERATIONS = 100


@dataclass
class FileFix:
    """The outcome of fixing one file: its source before and after, and what is left."""

    job: FileJob
    source: Source  # as read: its text is the original, its bytes what the file must still hold to be written
    fixed: str
    applied: int
    diagnostics: list[Diagnostic]
    # One line per fix that was not applied, saying why.
    skipped: list[str] = field(default_factory=list)

    @property
    def original(self) -> str:
        return self.source.text

    @property
    def changed(self) -> bool:
        return self.fixed != self.original

    def diff(self) -> str:
        """The change as a unified diff."""
        return "".join(
            difflib.unified_diff(
                self.original.splitlines(keepends=True), self.fixed.splitlines(keepends=True),
                fromfile=f"a/{self.job.display}", tofile=f"b/{self.job.display}",
            )
        )


@dataclass
class FixRun:
    """A run with fixes: the findings left, the files fixed, and the fixes applied."""

    result: RunResult
    fixes: list[FileFix]

    @property
    def applied(self) -> int:
        return sum(f.applied for f in self.fixes)

    @property
    def changed(self) -> list[FileFix]:
        return [f for f in self.fixes if f.changed]


def apply_edits(source: str, edits: tuple[Edit, ...]) -> str:
    """`source` with line edits applied (each replaces whole lines; later edits first)."""
    lines = source.splitlines(keepends=True)
    for edit in sorted(edits, key=lambda e: e.location, reverse=True):
        lines[edit.location.line - 1 : edit.end_location.line - 1] = [edit.content]
    return "".join(lines)


def _parses(source: str) -> bool:
    try:
        ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def fix_source(
    source: Source, job: FileJob, project: ProjectIndex, allowed: frozenset[str], prescan: bool = True
) -> FileFix:
    """Apply the fixes of `allowed` applicability ("safe", "unsafe") to `source`, one at a time; raise
    `SourceError` for a source that cannot be linted."""
    current = source.lintable_text(job.settings)
    diagnostics = lint_source(current, job.display, job.settings, project, prescan=prescan)
    applied = 0
    rejected: set[tuple[str, str, str]] = set()
    skipped = []
    for _ in range(MAX_ITERATIONS):
        candidate = next(
            (d for d in diagnostics if d.fix and d.fix.applicability in allowed and _identity(d) not in rejected),
            None,
        )
        if candidate is None:
            break
        assert candidate.fix is not None
        identity = _identity(candidate)
        fixed = apply_edits(current, candidate.fix.edits)
        reason = "the fixed source does not parse" if fixed == current or not _parses(fixed) else _unencodable(source, fixed)
        if reason is None:
            after = lint_source(fixed, job.display, job.settings, project, prescan=prescan)
            if _count(after, identity) >= _count(diagnostics, identity):
                reason = "the finding is still there after it"
        if reason is not None:
            rejected.add(identity)
            skipped.append(f"{job.display}:{candidate.location.line}:{candidate.location.column}: {candidate.code} fix not applied: {reason}")
            continue
        current, applied, diagnostics = fixed, applied + 1, after
    return FileFix(job, source, current, applied, diagnostics, skipped)


def _unencodable(source: Source, fixed: str) -> str | None:
    """Why the fixed text cannot be written in the file's encoding; None when it can."""
    try:
        source.encode(fixed)
    except UnicodeEncodeError as error:
        return f"the fixed source cannot be written in the file's encoding ({error.encoding})"
    return None


def _count(diagnostics: list[Diagnostic], identity: tuple[str, str, str]) -> int:
    return sum(1 for d in diagnostics if d.fix is not None and _identity(d) == identity)


def _identity(diagnostic: Diagnostic) -> tuple[str, str, str]:
    """What identifies a finding across re-lints (positions move as fixes are applied)."""
    assert diagnostic.fix is not None
    return (diagnostic.code, diagnostic.fix.message, " ".join(diagnostic.snippet.split()))


@dataclass(frozen=True)
class _FixPass:
    """What every file of a fix run is fixed with; sent to each worker process once."""

    project: ProjectIndex
    allowed: frozenset[str]
    prescan: bool


def _fix_chunk(chunk: list[tuple[FileJob, Source | None]], fix_pass: _FixPass) -> list[FileFix | None]:
    return [_fix_file(job, source, fix_pass.project, fix_pass.allowed, fix_pass.prescan) for job, source in chunk]


def _fix_file(job: FileJob, source: Source | None, project: ProjectIndex, allowed: frozenset[str], prescan: bool) -> FileFix | None:
    """The fixes of the file from `source` as the run linted it (read now when the run did not)."""
    try:
        return fix_source(source or Source.read(job.path, job.settings.max_file_bytes), job, project, allowed, prescan)
    except Exception:  # noqa: BLE001 - a file that cannot be fixed keeps its findings as they were
        return None


def fix_paths(
    paths: list[str], resolver: ConfigResolver, options: RunOptions, allowed: frozenset[str], write: bool
) -> FixRun:
    """Lint `paths`, fix the files that have fixable findings, and write them when `write` is set."""
    result = check_paths(paths, resolver, options)
    # Only the files this run linted (a finding's path is data: it may come from the cache).
    fixable = sorted(
        {d.path for d in result.diagnostics if d.fix is not None and d.fix.applicability in allowed} & result.paths.keys()
    )
    if not fixable or result.project is None:
        return FixRun(result, [])
    jobs = [FileJob(result.paths[p], p, resolver.settings_for_file(Path(result.paths[p]))) for p in fixable]
    fix_pass = _FixPass(result.project, allowed, options.prescan)
    items = [(job, result.sources.get(job.display)) for job in jobs]
    fixes = [f for f in _map(_fix_chunk, items, options.jobs, lambda item: None, shared=fix_pass) if f is not None]
    if write:
        roots = [os.path.realpath(p) for p in paths]
        for directory in {os.path.dirname(job.path) for job in jobs}:
            remove_stale_temporaries(directory)
        fixes = [write_fixed(f, roots) for f in fixes]
    # The findings of the text on disk: the fixed text's where it was written, else the original's.
    by_path = {f.job.display: f for f in fixes if f.changed}
    diagnostics = [d for d in result.diagnostics if d.path not in by_path]
    diagnostics += [d for f in by_path.values() for d in f.diagnostics if not d.internal]
    # what code frames quote: the fixed text as written (or, with --diff, as it would be)
    sources = {**result.sources, **{path: Source(f.source.encode(f.fixed)) for path, f in by_path.items()}}
    return FixRun(replace(result, diagnostics=sort_diagnostics(diagnostics), sources=sources), fixes)


def fix_stdin(
    data: bytes, filename: str | None, resolver: ConfigResolver, options: RunOptions, allowed: frozenset[str]
) -> FixRun:
    """Lint source read from stdin and fix it in memory (nothing is written): the fixed source is
    `fixes[0].fixed`; no fixes when stdin is excluded or cannot be decoded."""
    result = check_stdin(data, filename, resolver, options)
    if result.project is None or not result.sources:
        return FixRun(result, [])
    job = stdin_job(filename, resolver)
    fix = fix_source(result.sources[job.display], job, result.project, allowed, options.prescan)
    fixed_source = Source(fix.source.encode(fix.fixed))
    fixed = replace(result, diagnostics=sort_diagnostics(fix.diagnostics), sources={job.display: fixed_source})
    return FixRun(fixed, [fix])


class _Changed(Exception):
    """The file no longer holds the text that was linted."""


def write_fixed(fix: FileFix, roots: list[str]) -> FileFix:
    """Write the fixed source over the file, unless it changed since it was read, or writing it would
    change more than its text (then say why)."""
    if not fix.changed:
        return fix
    target = os.path.realpath(fix.job.path)
    try:
        if not any(target == root or target.startswith(root.rstrip(os.sep) + os.sep) for root in roots):
            raise OSError("it is a symbolic link to a file outside the paths being fixed")
        links = os.stat(target).st_nlink
        if links > 1:
            raise OSError(f"it has {links} hard links; replacing it would split them")
        # Not read again here: the compare-and-swap of `write_atomically` checks that the file still
        # holds the bytes that were linted.
        write_atomically(target, fix.source.encode(fix.fixed), expected=fix.source.data)
    except _Changed:
        fix.skipped.append(f"{fix.job.display}: not fixed: the file changed while spanlint was fixing it")
        return replace(fix, fixed=fix.original, applied=0)
    except (OSError, UnicodeEncodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        fix.skipped.append(f"{fix.job.display}: not fixed: {reason}")
        return replace(fix, fixed=fix.original, applied=0)
    return fix


# Temporary files of `write_atomically`: `.NAME.XXXXXXXX.spanlint` beside the file NAME.
TEMPORARY_SUFFIX = ".spanlint"


def write_atomically(path: str, data: bytes, expected: bytes | None = None) -> None:
    """Replace the file at `path` with `data` in one step, keeping its permission bits and owner;
    with `expected`, only if the file still holds `expected` (else raise `_Changed`).

    The temporary file is locked while it exists (`remove_stale_temporaries` deletes only unlocked ones).
    """
    before = os.stat(path)
    if not stat.S_ISREG(before.st_mode):
        raise OSError(errno.EINVAL, "it is no longer a regular file")
    directory, name = os.path.split(path)
    handle, temporary = tempfile.mkstemp(dir=directory or ".", prefix=f".{name}.", suffix=TEMPORARY_SUFFIX)
    try:
        _lock(handle)
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
            os.fchmod(stream.fileno(), before.st_mode & 0o7777)
            made = os.fstat(stream.fileno())
            if (made.st_uid, made.st_gid) != (before.st_uid, before.st_gid):
                try:
                    os.fchown(stream.fileno(), before.st_uid, before.st_gid)
                except OSError:
                    raise OSError(errno.EPERM, "spanlint cannot give the fixed file its owner") from None
                os.fchmod(stream.fileno(), before.st_mode & 0o7777)  # chown clears set-user-id bits
            if expected is not None:
                with open(path, "rb") as current:
                    if os.fstat(current.fileno()).st_ino != before.st_ino or current.read() != expected:
                        raise _Changed()
            os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def remove_stale_temporaries(directory: str) -> None:
    """Delete the temporary files `write_atomically` left in `directory` when its run was killed:
    those no running spanlint holds locked."""
    try:
        entries = [e for e in os.scandir(directory) if e.name.startswith(".") and e.name.endswith(TEMPORARY_SUFFIX)]
    except OSError:
        return
    for entry in entries:
        stem = entry.name[1:-len(TEMPORARY_SUFFIX)]
        name, _, random = stem.rpartition(".")
        if not name or len(random) != 8 or not entry.is_file(follow_symlinks=False):
            continue
        try:
            handle = os.open(entry.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            if _lock(handle):
                os.unlink(entry.path)
        except OSError:
            pass
        finally:
            os.close(handle)


def _lock(handle: int) -> bool:
    """Lock the open file exclusively, without waiting; whether it was locked (always True where
    there are no such locks)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return True
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True
