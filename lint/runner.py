"""Lint many files: discover them, build the project index, lint each file, across processes.

A run has two passes over files. The first summarizes every Python file of the project (the
nearest ancestor with `.git`, `pyproject.toml` or a root `.spanlint.yaml`), not just the linted
ones, into the `ProjectIndex`: a span class defined in a file that is not being linted still
counts. The second lints the selected files, each with its own summary so its syntax check is not
repeated. Both passes run in a process pool when there are many files; a worker that dies (a
crash in a native parser) costs only the files it was on, which become SPL000 findings.

`lint_file` lints one file path and returns its findings: pure and picklable, the unit a
per-file cache or fix application works on. With the cache on (`lint.cache`), both passes skip the
files whose summaries and findings it already holds.

A run reads each file it needs once, in the main process (`lint.source.SourceStore`): the cache's
digest, the summary, the findings, the fixes and the code frames come from that `Source`, which
travels to the pool's workers with their work. The files that no pass still needs are let go (after
the project pass, the files only summarized; after the lint pass, those without findings); past
`HELD_BYTES_LIMIT` bytes held, the remaining files are read by each pass that needs them. A file the
run does not need (its summary and findings in the cache, its stat unchanged) is not read at all.
"""

from __future__ import annotations

import gc
import os
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence, TypeVar

from spanlint.cache import CACHE_DIR_NAME, Cache, code_fingerprint, part_digest
from spanlint.config import ConfigError, ConfigResolver
from spanlint.diagnostics import Diagnostic, sort_diagnostics
from spanlint.discovery import discover, is_force_excluded, project_root
from spanlint.engine import lint_source, parse_error
from spanlint.settings import Settings
from spanlint.source import Source, SourceError, SourceStore
from spanlint.rules.environment import FrameworkClasses, InterpreterError
from spanlint.rules.project import FileSummary, ProjectIndex, summarize_source

# Below this many files, a process pool costs more than it saves.
PARALLEL_THRESHOLD = 16
STDIN = "-"

Item = TypeVar("Item")
Result = TypeVar("Result")


@dataclass(frozen=True)
class FileJob:
    """One file to lint: where to read it, the path reports show, and its settings."""

    path: str
    display: str
    settings: Settings


@dataclass
class RunResult:
    """The findings of a run (sorted) and the files it linted (display paths, sorted)."""

    diagnostics: list[Diagnostic]
    files: list[str]
    # The files with findings as this run read them (stdin included), by display path, for the
    # reporters that quote code and for fixes; a file whose findings came from the cache is not read.
    sources: dict[str, Source] = field(default_factory=dict)
    # The project index the files were linted with (for fixes, which lint again).
    project: ProjectIndex | None = field(default=None, repr=False)
    # Rules that raised on a file (`Diagnostic.internal`): spanlint's bugs, not findings.
    internal_errors: list[Diagnostic] = field(default_factory=list)
    # One line each: what the user should know about the run (a cache not used, a pattern skipped).
    warnings: list[str] = field(default_factory=list)
    # The file each linted display path was read from (fixes write only these).
    paths: dict[str, str] = field(default_factory=dict, repr=False)
    # Said once at the end of the run (on stderr): e.g. imported modules not found in the environment.
    notes: tuple[str, ...] = ()

    @classmethod
    def of(cls, diagnostics: list[Diagnostic], files: list[str], **more: Any) -> "RunResult":
        """The result of linting `files`, `diagnostics` being their findings and internal errors."""
        findings = [d for d in diagnostics if not d.internal]
        errors = [d for d in diagnostics if d.internal]
        return cls(sort_diagnostics(findings), files, internal_errors=sort_diagnostics(errors), **more)


def display_path(path: str | Path, cwd: Path | None = None) -> str:
    """`path` relative to the current directory when under it, else absolute."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(cwd or Path.cwd()).as_posix()
    except ValueError:
        return absolute.as_posix()


def summarize_file(path: str, settings: Settings, source: Source | None = None) -> FileSummary | None:
    """The project-wide facts of the file at `path` (`source`, when it was read already); None when it
    cannot be read or decoded."""
    try:
        text = (source or Source.read(path, settings.max_file_bytes)).text
    except SourceError:
        return None
    return summarize_source(text, settings.vocabulary, path)


def lint_file(
    job: FileJob, project: ProjectIndex | Callable[[], ProjectIndex], summary: FileSummary | None = None, prescan: bool = True,
    source: Source | None = None,
) -> list[Diagnostic]:
    """Every finding in one file (`source`, when it was read already); a file that cannot be read or
    linted is an SPL000 finding."""
    try:
        source = source or Source.read(job.path, job.settings.max_file_bytes)
    except SourceError as error:
        return _failure(job, str(error))
    return _lint_read(source, job, project, summary, prescan)


def lint_bytes(
    data: bytes, job: FileJob, project: ProjectIndex, summary: FileSummary | None = None, prescan: bool = True
) -> list[Diagnostic]:
    """Every finding in a file's bytes (a file on disk or stdin)."""
    return _lint_read(Source(data), job, project, summary, prescan)


def _lint_read(
    source: Source, job: FileJob, project: ProjectIndex | Callable[[], ProjectIndex], summary: FileSummary | None, prescan: bool
) -> list[Diagnostic]:
    try:
        text = source.lintable_text(job.settings)
        return lint_source(text, job.display, job.settings, project, summary, prescan=prescan)
    except SourceError as error:
        return _failure(job, str(error))
    except Exception as error:  # noqa: BLE001 - one file's failure must not stop the run
        detail = " ".join(str(error).split())
        return _failure(job, f"internal error: {type(error).__name__}" + (f": {detail}" if detail else ""))


def _failure(job: FileJob, reason: str) -> list[Diagnostic]:
    if not any(rule.file_pass == "unlintable" for rule in job.settings.rules_for(job.display)):
        return []
    return [parse_error(job.display, reason)]


class Progress(Protocol):
    """Receives a run's progress: each pass's file count, then how many files are done."""

    def start(self, description: str, total: int) -> None: ...

    def advance(self, count: int) -> None: ...


@dataclass(frozen=True)
class RunOptions:
    """How to run: process count, pre-scan, whether excludes apply to files named explicitly, the
    result cache (`cache_dir` None: `.spanlint_cache` at the project root) and a progress display."""

    jobs: int = os.cpu_count() or 1
    prescan: bool = True
    force_exclude: bool = False
    cache: bool = False
    cache_dir: Path | None = None
    progress: Progress | None = None


def check_paths(paths: Sequence[str | Path], resolver: ConfigResolver, options: RunOptions = RunOptions()) -> RunResult:
    """Lint the Python files under `paths`."""
    warnings: list[str] = []
    files = discover([Path(p) for p in paths], resolver.settings_for, force_exclude=options.force_exclude, warnings=warnings)
    cwd = Path.cwd()
    jobs = [FileJob(str(f), display_path(f, cwd), resolver.settings_for_file(f)) for f in files]
    if not jobs:
        return RunResult([], [])
    root = project_root([Path(p) for p in paths])
    # Linting the project root itself: its files are the project's, no need to walk it twice.
    project_files = files if [Path(os.path.abspath(p)) for p in paths] == [root] else None
    root_settings = resolver.settings_for(root)
    vocabulary = root_settings.vocabulary
    store = SourceStore()  # each file is read once (see the module's docstring)
    with _open_cache(root, options) as cache:
        summaries = _project_summaries(root, jobs, resolver, options, cache, project_files, store, warnings)
        frameworks = _frameworks(root_settings, cache, root, summaries.paths())
        index = cache.index_digest(vocabulary, [*summaries.parts(), frameworks.fingerprint])

        @lru_cache(maxsize=None)
        def project() -> ProjectIndex:
            found = cache.index(index, vocabulary)
            if found is None:
                found = ProjectIndex.merge(vocabulary, summaries.all())
                cache.put_index(index, found)
            found.frameworks = frameworks
            return found

        found: dict[str, list[Diagnostic]] = {}
        for job in jobs:
            cached = cache.results(job.path, job.display, job.settings, index, options.prescan)
            if cached is not None:
                found[job.path] = cached
        items = [
            (job, summaries.get(job.path), store.read_if_room(job.path, job.settings.max_file_bytes))
            for job in jobs if job.path not in found
        ]
        frameworks.preload(i for _, summary, _ in items if summary is not None for i in summary.imports)
        _start(options, "Linting", len(items))
        results = _map(
            _lint_chunk, items, options.jobs, lambda item: _crashed(item[0]), options.progress,
            # Without a pool the index is made (or read from the cache) only if a file needs it.
            shared=_LintPass(project() if _in_pool(options.jobs, len(items)) else project, options.prescan),
        ) if items else []
        for (job, _, _), diagnostics in zip(items, results):
            found[job.path] = diagnostics
            cache.put_results(job.path, job.display, job.settings, index, options.prescan, diagnostics)
        if items and cache.enabled and not project.cache_info().currsize and not cache.has_index(index):
            project()  # made for the runs after this one, which may need it
        diagnostics = [d for job in jobs for d in found[job.path]]
        fixes = any(d.fix is not None for d in diagnostics)  # fixes lint again, with the index
        return RunResult.of(
            diagnostics, [job.display for job in jobs], project=project() if fixes else None,
            warnings=_prepended(warnings, cache.warnings), paths={job.display: job.path for job in jobs},
            notes=_notes(frameworks), sources=_sources_with_findings(jobs, store, found),
        )


def _in_pool(jobs: int, items: int) -> bool:
    """Whether `_map` runs `items` items in a process pool."""
    return jobs > 1 and items >= PARALLEL_THRESHOLD


def _sources_with_findings(jobs: list[FileJob], store: SourceStore, found: dict[str, list[Diagnostic]]) -> dict[str, Source]:
    """The source of each file held that has findings, by display path (what code frames quote)."""
    return {job.display: source for job in jobs if found[job.path] and (source := store.held(job.path)) is not None}


def _prepended(first: list[str], then: list[str]) -> list[str]:
    """`then` (a list others may still append to) with `first` put before its lines."""
    then[:0] = first
    return then


def _frameworks(settings: Settings, cache: Cache, root: Path, paths: list[str]) -> FrameworkClasses:
    """The framework classes of the environment the settings name, kept in the cache directory; the
    project's own packages (any directory or module name of its files) are not looked up there."""
    store = cache.directory / "frameworks" / code_fingerprint()[:16] if cache.enabled and cache.directory else None
    try:
        frameworks = FrameworkClasses.for_environment(settings.python, store)
    except InterpreterError as error:
        raise ConfigError(str(error)) from None
    own: set[str] = set()
    prefix = len(str(root)) + 1
    for path in paths:
        parts = path[prefix:].replace("\\", "/").split("/")
        own.update(parts[:-1])
        own.add(parts[-1].rsplit(".", 1)[0])
    frameworks.own_packages = frozenset(own)
    return frameworks


def _notes(frameworks: FrameworkClasses) -> tuple[str, ...]:
    note = frameworks.note()
    return (note,) if note else ()


def _open_cache(root: Path, options: RunOptions) -> Cache:
    if not options.cache:
        return Cache(None)
    return Cache(options.cache_dir or root / CACHE_DIR_NAME)


def _start(options: RunOptions, description: str, total: int) -> None:
    if options.progress is not None:
        options.progress.start(description, total)


def stdin_job(filename: str | None, resolver: ConfigResolver) -> FileJob:
    """The job of source read from stdin standing for the file `filename` (`-` without one)."""
    named = Path(os.path.abspath(filename)) if filename else None
    settings = resolver.settings_for(named or Path.cwd())
    return FileJob(str(named) if named else STDIN, display_path(named) if named else STDIN, settings)


def check_stdin(
    data: bytes, filename: str | None, resolver: ConfigResolver, options: RunOptions = RunOptions()
) -> RunResult:
    """Lint source read from stdin as if it were the file `filename` (reported as `-` without one)."""
    named = Path(os.path.abspath(filename)) if filename else None
    if named is not None and options.force_exclude and is_force_excluded(named, resolver.settings_for):
        return RunResult([], [])
    job = stdin_job(filename, resolver)
    source = Source(data)
    try:
        summary = summarize_source(source.lintable_text(job.settings), job.settings.vocabulary, job.path)
    except SourceError as error:
        return RunResult(_failure(job, str(error)), [job.display])
    root = project_root([named.parent if named else Path.cwd()])
    root_settings = resolver.settings_for(root)
    with _open_cache(root, options) as cache:
        warnings: list[str] = []
        summaries = _project_summaries(root, [], resolver, options, cache, warnings=warnings)
        summaries.add(job.path, summary)
        project = ProjectIndex.merge(root_settings.vocabulary, summaries.all())
        project.frameworks = _frameworks(root_settings, cache, root, summaries.paths())
        diagnostics = lint_file(job, project, summary, options.prescan, source)
    return RunResult.of(
        diagnostics, [job.display], sources={job.display: source}, project=project,
        warnings=_prepended(warnings, cache.warnings),
        notes=_notes(project.frameworks),
    )


class ProjectSummaries:
    """The summary of every project file, by absolute path; those the cache holds are decoded only when
    used (a warm run that lints nothing decodes none)."""

    def __init__(
        self, cache: Cache, settings: dict[str, Settings], known: dict[str, FileSummary | None], parts: dict[str, str],
        store: SourceStore,
    ) -> None:
        self._cache = cache
        self._store = store  # the files read already
        self._settings = settings
        self._known = known  # computed summaries (None: unreadable), and those decoded so far
        self._parts = parts  # index-part digests (`lint.cache.part_digest`) of the cached and computed summaries

    def paths(self) -> list[str]:
        """The files that have a summary, in path order."""
        paths = {*self._settings, *self._known}  # cached (not decoded yet), computed, or added
        return sorted(path for path in paths if path not in self._known or self._known[path] is not None)

    def parts(self) -> list[str]:
        """The index-part digests of the summaries, in path order (the order `ProjectIndex.merge` takes)."""
        return [self._parts[path] for path in self.paths()]

    def get(self, path: str) -> FileSummary | None:
        if path not in self._known:
            settings = self._settings[path]
            found = self._cache.summary(path, settings.vocabulary)
            if found is None:  # a cached summary that does not decode
                found = summarize_file(path, settings, self._store.read(path, settings.max_file_bytes))
            self._known[path] = found
        return self._known.get(path)

    def all(self) -> list[FileSummary]:
        return [summary for path in self.paths() if (summary := self.get(path)) is not None]

    def add(self, path: str, summary: FileSummary) -> None:
        self._known[path] = summary
        self._parts[path] = part_digest(summary)


def _project_summaries(
    root: Path,
    jobs: list[FileJob],
    resolver: ConfigResolver,
    options: RunOptions,
    cache: Cache,
    project_files: list[Path] | None = None,
    store: SourceStore | None = None,
    warnings: list[str] | None = None,
) -> ProjectSummaries:
    """Summaries of every project file (`project_files` when the caller has discovered them) and every
    linted file; those not in the cache are computed now. Each file is read into `store` when first
    needed (its digest, its summary); after this pass it holds only the linted files."""
    store = store or SourceStore()
    if project_files is None:
        project_files = discover([root], resolver.settings_for, warnings=warnings, skip_invalid_config=True)
    paths = {str(p): resolver.settings_for_file(p) for p in project_files}
    paths.update((job.path, job.settings) for job in jobs)
    parts: dict[str, str] = {}
    missing: list[tuple[str, Settings, Source | None]] = []
    for path, settings in sorted(paths.items()):
        part = cache.summary_part(path, settings.vocabulary, partial(store.read, path, settings.max_file_bytes))
        if part is None:
            missing.append((path, settings, store.read_if_room(path, settings.max_file_bytes)))
        else:
            parts[path] = part
    _start(options, "Indexing", len(missing))
    results = _map(_summarize_chunk, missing, options.jobs, lambda item: None, options.progress)
    known: dict[str, FileSummary | None] = {}
    for (path, settings, _), summary in zip(missing, results):
        known[path] = summary
        if summary is not None:
            parts[path] = cache.put_summary(path, settings.vocabulary, summary)
    linted = {job.path for job in jobs}
    for path in paths.keys() - linted:
        store.release(path)
    return ProjectSummaries(cache, paths, known, parts, store)


def _summarize_chunk(chunk: list[tuple[str, Settings, Source | None]], shared: None) -> list[FileSummary | None]:
    return [summarize_file(path, settings, source) for path, settings, source in chunk]


@dataclass(frozen=True)
class _LintPass:
    """What every file of the lint pass is linted with; sent to each worker process once."""

    project: ProjectIndex | Callable[[], ProjectIndex]  # without a pool, a function that makes it (`lint_source`)
    prescan: bool


def _lint_chunk(
    chunk: list[tuple[FileJob, FileSummary | None, Source | None]], lint_pass: _LintPass
) -> list[list[Diagnostic]]:
    return [lint_file(job, lint_pass.project, summary, lint_pass.prescan, source) for job, summary, source in chunk]


def _crashed(job: FileJob) -> list[Diagnostic]:
    return _failure(job, "internal error: the worker process crashed while linting this file")


def _map(
    function: Callable[[list[Item], Any], list[Result]],
    items: list[Item],
    jobs: int,
    on_crash: Callable[[Item], Result],
    progress: Progress | None = None,
    shared: Any = None,
) -> list[Result]:
    """`function(chunk, shared)` over `items` in chunks, in a process pool when worthwhile; results in
    item order. `shared` (what every chunk needs, such as the project index) reaches each worker
    process once, not with every chunk.

    If a worker dies, the chunks it took down are run again one pool at a time, halved until the
    item that kills its worker is alone; that item's result is `on_crash(item)`.
    """
    if not _in_pool(jobs, len(items)):
        if progress is None:
            return function(items, shared)
        done: list[Result] = []
        for chunk in _chunks(items, 1):
            done.extend(function(chunk, shared))
            progress.advance(len(chunk))
        return done
    # Imported here: a run of one or a few files, the pre-commit case, makes no pool (~5 ms of start-up).
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    chunks = _chunks(items, jobs)
    results: dict[int, list[Result]] = {}
    broken: list[int] = []
    with ProcessPoolExecutor(max_workers=min(jobs, len(chunks)), initializer=_start_worker, initargs=(shared,)) as pool:
        futures = [pool.submit(_run_chunk, function, chunk) for chunk in chunks]
        for index, future in enumerate(futures):
            try:
                results[index] = future.result()
            except BrokenProcessPool:
                broken.append(index)
            if progress is not None:
                progress.advance(len(chunks[index]))
    for index in broken:
        results[index] = _isolate(function, chunks[index], on_crash, shared)
    return [result for index in range(len(chunks)) for result in results[index]]


# In a worker process: the `shared` value of the pass it runs.
_shared: Any = None


def _start_worker(shared: Any) -> None:
    """Keep the pass's shared value; then freeze what the worker holds (the project index, the
    modules): the cyclic garbage collector no longer scans it, again and again, for the whole pass."""
    global _shared
    _shared = shared
    gc.freeze()


def _run_chunk(function: Callable[[list[Item], Any], list[Result]], chunk: list[Item]) -> list[Result]:
    return function(chunk, _shared)


def _isolate(
    function: Callable[[list[Item], Any], list[Result]],
    chunk: list[Item],
    on_crash: Callable[[Item], Result],
    shared: Any,
) -> list[Result]:
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    try:
        with ProcessPoolExecutor(max_workers=1, initializer=_start_worker, initargs=(shared,)) as pool:
            return pool.submit(_run_chunk, function, chunk).result()
    except BrokenProcessPool:
        if len(chunk) == 1:
            return [on_crash(chunk[0])]
        middle = len(chunk) // 2
        return _isolate(function, chunk[:middle], on_crash, shared) + _isolate(function, chunk[middle:], on_crash, shared)


def _chunks(items: list[Item], jobs: int) -> list[list[Item]]:
    size = max(1, min(64, -(-len(items) // (jobs * 4))))
    return [items[start : start + size] for start in range(0, len(items), size)]

