"""`spanlint server`: a Language Server (pygls, the `spanlint[server]` extra) over stdio.

Diagnostics are published when a document is opened, changed (after `DEBOUNCE_SECONDS` without
another change) and saved, with what `spanlint check FILE` uses: the configuration files that apply
to the file, its suppressions, and the project's cross-file span-class index. The index is built
once per project (from the result cache when it holds the files) and kept in memory; an open
document's classes and helpers replace those of its file on disk as it is edited, and a change to
them re-lints every open document of that project. Code actions: each finding's fix (an unsafe
fix labelled so), a `# noqa` for the finding's rule on its line, and the rule's documentation;
hovering over a finding shows its rule's documentation.

pygls is imported only here, and only when the server starts: `spanlint check` never loads it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spanlint.config import ConfigResolver
from spanlint.diagnostics import Diagnostic
from spanlint.discovery import is_force_excluded, project_root
from spanlint.docs import rule_markdown
from spanlint.noqa import NOT_SUPPRESSIBLE, suppress_lines
from spanlint.reporters import rule_url, version
from spanlint.runner import FileJob, RunOptions, _frameworks, _open_cache, _project_summaries, display_path, lint_bytes
from spanlint.rules import find_rule
from spanlint.rules.environment import FrameworkClasses
from spanlint.rules.project import FileSummary, ProjectIndex, summarize_source

DEBOUNCE_SECONDS = 0.2
SHOW_DOCUMENTATION = "spanlint.showDocumentation"
MISSING_EXTRA = 3  # exit code: the `server` extra is not installed
# Files whose change on disk the server hears of (when the client can watch files): sources and configuration.
CONFIG_FILES = (".spanlint.yaml", "pyproject.toml")
WATCHED = ("*.py", "*.pyi", *CONFIG_FILES)


@dataclass
class _Project:
    """One project's index parts (classes and helpers) by absolute path, and the index they make."""

    root: Path
    parts: dict[str, FileSummary | None]
    frameworks: FrameworkClasses
    index: ProjectIndex | None = None
    open_paths: set[str] = field(default_factory=set)


class Linter:
    """What the server lints with: settings, each project's span-class index, open documents."""

    def __init__(self, resolver: ConfigResolver | None = None) -> None:
        self.resolver = resolver or ConfigResolver()
        self._projects: dict[Path, _Project] = {}

    def project(self, path: Path) -> _Project:
        root = project_root([path])
        if root not in self._projects:
            options = RunOptions(jobs=1, cache=True)
            with _open_cache(root, options) as cache:
                summaries = _project_summaries(root, [], self.resolver, options, cache)
                parts = {p: summary.index_part() if (summary := summaries.get(p)) else None for p in summaries.paths()}
                frameworks = _frameworks(self.resolver.settings_for(root), cache, root, summaries.paths())
            self._projects[root] = _Project(root, parts, frameworks)
        return self._projects[root]

    def update(self, path: Path, source: str) -> tuple[FileSummary, bool]:
        """Take `source` as the file's text in the index: its summary, and whether that changed the
        project's classes or helpers."""
        project = self.project(path)
        summary = summarize_source(source, self.resolver.settings_for_file(path).vocabulary, str(path))
        part = summary.index_part()
        if project.parts.get(str(path)) == part:
            return summary, False
        project.parts[str(path)] = part
        project.index = None
        return summary, True

    def index(self, path: Path) -> ProjectIndex:
        project = self.project(path)
        if project.index is None:
            vocabulary = self.resolver.settings_for(project.root).vocabulary
            project.index = ProjectIndex.merge(vocabulary, [p for _, p in sorted(project.parts.items()) if p is not None])
            project.index.frameworks = project.frameworks
        return project.index

    def lint(self, path: Path, source: str) -> tuple[list[Diagnostic], bool]:
        """The findings `spanlint check` reports for the file at `path` holding `source` (none when
        the configuration excludes it), and whether the text changed the project's classes or helpers
        (then the project's other open documents must be linted again)."""
        if is_force_excluded(path, self.resolver.settings_for):
            return [], False
        job = FileJob(str(path), display_path(path), self.resolver.settings_for_file(path))
        summary, changed = self.update(path, source)
        return lint_bytes(source.encode("utf-8"), job, self.index(path), summary), changed

    def file_changed(self, path: Path) -> bool:
        """A file changed on disk (not open): re-read it; True when its classes or helpers changed."""
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            source = ""
        return self.update(path, source)[1]

    def configuration_changed(self) -> None:
        """A configuration file changed: settings and indexes are read again."""
        self.resolver = ConfigResolver()
        self._projects.clear()


def serve() -> int:
    """Run the server over stdio until the client exits; `MISSING_EXTRA` without pygls."""
    try:
        server = create_server()
    except ImportError as error:
        import sys

        print(f"spanlint: error: `spanlint server` needs the server extra ({error.name} is missing): "
              f"pip install 'spanlint[server]'", file=sys.stderr)
        return MISSING_EXTRA
    server.start_io()
    return 0


def create_server(linter: Linter | None = None) -> Any:
    """The pygls LanguageServer serving `linter`'s findings."""
    from lsprotocol import types as lsp
    from pygls.lsp.server import LanguageServer
    from pygls.uris import to_fs_path

    server = LanguageServer("spanlint", version())
    state = _State(linter or Linter())

    def path_of(uri: str) -> Path | None:
        path = to_fs_path(uri)
        return Path(path) if path else None

    async def publish(uri: str, delay: float = 0.0) -> None:
        if delay:
            await asyncio.sleep(delay)
        document = server.workspace.get_text_document(uri)
        path = path_of(uri)
        if path is None:
            return
        async with state.lock:
            source = document.source
            found, dependants_stale = await asyncio.to_thread(state.linter.lint, path, source)
        if uri not in server.workspace.text_documents:  # closed while it was linted
            return
        state.findings[uri] = (source, found)
        lines = source.splitlines()
        server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri=uri, version=document.version,
            diagnostics=[_to_lsp(d, lines, document.position_codec, lsp) for d in found],
        ))
        if dependants_stale:
            relint_all(but=uri)

    def relint_all(but: str | None = None) -> None:
        for uri in list(state.findings):
            if uri != but:
                schedule(uri, 0.0)

    def schedule(uri: str, delay: float) -> None:
        pending = state.pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        state.pending[uri] = asyncio.ensure_future(publish(uri, delay))

    @server.feature(lsp.INITIALIZED)
    async def initialized(ls: Any, params: lsp.InitializedParams) -> None:
        """Ask the client to report changes to Python and configuration files on disk."""
        watched = server.client_capabilities.workspace and server.client_capabilities.workspace.did_change_watched_files
        if not (watched and watched.dynamic_registration):
            return
        watchers = [lsp.FileSystemWatcher(glob_pattern=f"**/{glob}") for glob in WATCHED]
        await server.client_register_capability_async(lsp.RegistrationParams(registrations=[lsp.Registration(
            id="spanlint-watched-files", method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=lsp.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
        )]))

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: Any, params: lsp.DidOpenTextDocumentParams) -> None:
        schedule(params.text_document.uri, 0.0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: Any, params: lsp.DidChangeTextDocumentParams) -> None:
        schedule(params.text_document.uri, DEBOUNCE_SECONDS)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: Any, params: lsp.DidSaveTextDocumentParams) -> None:
        schedule(params.text_document.uri, 0.0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: Any, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        pending = state.pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        state.findings.pop(uri, None)
        server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        path = path_of(uri)
        if path is not None:  # the file on disk counts again in the index
            async with state.lock:
                stale = await asyncio.to_thread(state.linter.file_changed, path)
            if stale:
                relint_all()

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def did_change_watched_files(ls: Any, params: lsp.DidChangeWatchedFilesParams) -> None:
        stale = False
        async with state.lock:
            for change in params.changes:
                path = path_of(change.uri)
                if path is None or change.uri in state.findings:
                    continue
                if path.name in CONFIG_FILES:
                    state.linter.configuration_changed()
                    stale = True
                elif path.suffix in (".py", ".pyi"):
                    stale = await asyncio.to_thread(state.linter.file_changed, path) or stale
        if stale:
            relint_all()

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix], resolve_provider=False),
    )
    def code_action(ls: Any, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        uri = params.text_document.uri
        if uri not in state.findings:
            return []
        source, found = state.findings[uri]
        codec = server.workspace.get_text_document(uri).position_codec
        lines = source.splitlines()
        actions = []
        for d in found:
            as_lsp = _to_lsp(d, lines, codec, lsp)
            if not _overlaps(as_lsp.range, params.range):
                continue
            if d.fix is not None:
                unsafe = d.fix.applicability == "unsafe"
                actions.append(lsp.CodeAction(
                    title=f"{d.code}: {d.fix.message}" + (" (unsafe fix)" if unsafe else ""),
                    kind=lsp.CodeActionKind.QuickFix, diagnostics=[as_lsp], is_preferred=not unsafe,
                    edit=lsp.WorkspaceEdit(changes={uri: [
                        _text_edit(e.location.line, e.end_location.line, e.content, lsp) for e in d.fix.edits
                    ]}),
                ))
            if d.code not in NOT_SUPPRESSIBLE:
                suppressed, added, _ = suppress_lines(source, [d])
                if added:
                    actions.append(lsp.CodeAction(
                        title=f"Suppress {d.code} on this line", kind=lsp.CodeActionKind.QuickFix,
                        diagnostics=[as_lsp], edit=lsp.WorkspaceEdit(changes={uri: [_line_diff(source, suppressed, lsp)]}),
                    ))
            actions.append(lsp.CodeAction(
                title=f"Open the documentation of {d.code}", kind=lsp.CodeActionKind.QuickFix, diagnostics=[as_lsp],
                command=lsp.Command(title=f"Open the documentation of {d.code}", command=SHOW_DOCUMENTATION,
                                    arguments=[d.code]),
            ))
        return actions

    @server.command(SHOW_DOCUMENTATION)
    async def show_documentation(ls, code):  # noqa: ANN001 - pygls converts untyped arguments as they are
        await server.window_show_document_async(lsp.ShowDocumentParams(uri=rule_url(code), external=True))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: Any, params: lsp.HoverParams) -> lsp.Hover | None:
        uri = params.text_document.uri
        if uri not in state.findings:
            return None
        source, found = state.findings[uri]
        codec = server.workspace.get_text_document(uri).position_codec
        lines = source.splitlines()
        for d in found:
            as_lsp = _to_lsp(d, lines, codec, lsp)
            if _contains(as_lsp.range, params.position):
                rule = find_rule(d.code)
                if rule is not None:
                    text = f"{rule_markdown(rule)}\n[{d.code} documentation]({rule_url(d.code)})"
                    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text),
                                     range=as_lsp.range)
        return None

    return server


@dataclass
class _State:
    linter: Linter
    # Each open document's last linted text and its findings, by URI.
    findings: dict[str, tuple[str, list[Diagnostic]]] = field(default_factory=dict)
    pending: dict[str, "asyncio.Future[None]"] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def _to_lsp(d: Diagnostic, lines: list[str], codec: Any, lsp: Any) -> Any:
    """`d` as an LSP diagnostic, its columns in the client's position encoding, its help on the
    message's second line: LSP has no field for advice that clients show (`data` is never shown,
    `relatedInformation` lists other places), and editors show a message's every line."""
    start = lsp.Position(d.location.line - 1, d.location.column - 1)
    end = lsp.Position(d.end_location.line - 1, d.end_location.column - 1)
    return lsp.Diagnostic(
        range=codec.range_to_client_units(lines, lsp.Range(start, end)),
        message=d.message if d.help is None else f"{d.message}\nhelp: {d.help}",
        severity=lsp.DiagnosticSeverity.Error if d.severity == "error" else lsp.DiagnosticSeverity.Warning,
        code=d.code,
        code_description=lsp.CodeDescription(href=rule_url(d.code)),
        source="spanlint",
    )


def _text_edit(first_line: int, end_line: int, content: str, lsp: Any) -> Any:
    """Replace lines `first_line` up to (not including) `end_line` (1-based) with `content`."""
    return lsp.TextEdit(range=lsp.Range(lsp.Position(first_line - 1, 0), lsp.Position(end_line - 1, 0)), new_text=content)


def _line_diff(old: str, new: str, lsp: Any) -> Any:
    """The one edit, in whole lines, that turns `old` into `new`."""
    before, after = old.splitlines(keepends=True), new.splitlines(keepends=True)
    head = 0
    while head < min(len(before), len(after)) and before[head] == after[head]:
        head += 1
    tail = 0
    while tail < min(len(before), len(after)) - head and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    return _text_edit(head + 1, len(before) - tail + 1, "".join(after[head : len(after) - tail]), lsp)


def _before(a: Any, b: Any) -> bool:
    return (a.line, a.character) <= (b.line, b.character)


def _overlaps(a: Any, b: Any) -> bool:
    return _before(a.start, b.end) and _before(b.start, a.end)


def _contains(r: Any, position: Any) -> bool:
    return _before(r.start, position) and _before(position, r.end)
