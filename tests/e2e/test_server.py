"""`spanlint server` through a real LSP client session (pygls's LanguageClient over the server
process's stdio): diagnostics on open and change, code actions applied, hover, the cross-file index."""

from __future__ import annotations

import ast
import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

lsp = pytest.importorskip("lsprotocol.types")
from pygls.lsp.client import LanguageClient  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
MODEL = (
    "from dataclasses import dataclass\n\n\n@dataclass\nclass Doc:\n"
    "    span_id: str\n    content: str\n    version: int = 0\n"
)
# `d` is a span only because of `Doc`, defined in model.py: the finding needs the cross-file index.
OPS = "from model import Doc\n\n\ndef shorten(d: Doc) -> None:\n    d.content = d.content[:10]\n"
TIMEOUT = 30


class Session:
    """A client talking to `python -m spanlint server`, collecting the diagnostics it publishes."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.client = LanguageClient("spanlint-test", "1")
        self.published: dict[str, list[lsp.Diagnostic]] = {}
        self.changed = asyncio.Condition()
        self.versions: dict[str, int] = {}
        self.shown: list[str] = []

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        async def diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
            async with self.changed:
                self.published[params.uri] = params.diagnostics
                self.changed.notify_all()

        self.registrations: list[lsp.Registration] = []

        @self.client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
        def register(params: lsp.RegistrationParams) -> None:
            self.registrations += params.registrations

        @self.client.feature(lsp.WINDOW_SHOW_DOCUMENT)
        def show_document(params: lsp.ShowDocumentParams) -> lsp.ShowDocumentResult:
            self.shown.append(params.uri)
            return lsp.ShowDocumentResult(success=True)

    async def start(self) -> None:
        environment = {**os.environ, "PYTHONPATH": str(REPO)}
        await self.client.start_io(sys.executable, "-m", "spanlint", "server", cwd=str(self.root), env=environment)
        await self.client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(
                window=lsp.WindowClientCapabilities(show_document=lsp.ShowDocumentClientCapabilities(support=True)),
                workspace=lsp.WorkspaceClientCapabilities(
                    did_change_watched_files=lsp.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)
                ),
            ),
            root_uri=self.root.as_uri(),
        ))
        self.client.initialized(lsp.InitializedParams())

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    def uri(self, name: str) -> str:
        return (self.root / name).as_uri()

    def open(self, name: str) -> str:
        uri = self.uri(name)
        self.versions[uri] = 1
        self.published.pop(uri, None)
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="python", version=1, text=(self.root / name).read_text())
        ))
        return uri

    def change(self, uri: str, text: str) -> None:
        self.versions[uri] += 1
        self.published.pop(uri, None)
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            [lsp.TextDocumentContentChangeWholeDocument(text=text)],
        ))

    async def diagnostics(self, uri: str) -> list[lsp.Diagnostic]:
        """The next diagnostics published for `uri` (since it was last opened or changed)."""
        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(lambda: uri in self.published), TIMEOUT)
            return list(self.published[uri])


def _apply(text: str, edits: list[lsp.TextEdit]) -> str:
    """`text` with whole-line LSP edits applied, the last first."""
    lines = text.splitlines(keepends=True)
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        assert edit.range.start.character == edit.range.end.character == 0
        lines[edit.range.start.line : edit.range.end.line] = [edit.new_text]
    return "".join(lines)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "model.py").write_text(MODEL)
    (tmp_path / "ops.py").write_text(OPS)
    return tmp_path


def test_a_session(project: Path) -> None:
    """One server process for every scenario: its start (importing lsprotocol) is most of the time."""

    async def main() -> None:
        session = Session(project)
        await session.start()
        try:
            await diagnostics_code_actions_and_hover(session)
            await an_edit_to_a_span_class_relints_the_open_documents_that_use_it(session)
        finally:
            await session.stop()

    asyncio.run(main())


async def diagnostics_code_actions_and_hover(session: Session) -> None:
    uri = session.open("ops.py")
    (found,) = await session.diagnostics(uri)
    assert (found.code, found.source, found.severity) == ("SPL101", "spanlint", lsp.DiagnosticSeverity.Error)
    assert (found.range.start.line, found.range.start.character) == (4, 4)
    assert found.code_description.href.endswith("/docs/rules/SPL101.md")
    assert found.message == (  # the help on the message's second line
        "`d.content` rewritten in place without bumping `d.version`\n"
        "help: Bump `d.version` after the write, or copy the span under a new id"
    )

    actions = await session.client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=found.range,
        context=lsp.CodeActionContext(diagnostics=[found]),
    ))
    titles = [a.title for a in actions]
    assert titles == [
        "SPL101: Bump `d.version` after the write (unsafe fix)",
        "Suppress SPL101 on this line",
        "Open the documentation of SPL101",
    ]
    hover = await session.client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(4, 6),
    ))
    assert hover.contents.value.startswith("# SPL101 in-place-rewrite-without-version-bump")

    # lsprotocol's client side reads any result with a `command` key as a Command, the CodeAction's
    # command object as its (stringified) name: read it back. Editors read the JSON as sent.
    docs = actions[2].command if isinstance(actions[2], lsp.CodeAction) else ast.literal_eval(actions[2].command)
    assert docs == {"title": "Open the documentation of SPL101", "command": "spanlint.showDocumentation",
                    "arguments": ["SPL101"]}
    await session.client.workspace_execute_command_async(
        lsp.ExecuteCommandParams(command=docs["command"], arguments=docs["arguments"])
    )
    assert session.shown == [found.code_description.href]

    suppressed = _apply(OPS, actions[1].edit.changes[uri])
    assert suppressed.endswith("d.content = d.content[:10]  # noqa: SPL101\n")
    fixed = _apply(OPS, actions[0].edit.changes[uri])
    assert fixed == OPS + "    d.version += 1\n"
    session.change(uri, fixed)
    assert await session.diagnostics(uri) == []
    session.change(uri, OPS)
    assert [d.code for d in await session.diagnostics(uri)] == ["SPL101"]


async def an_edit_to_a_span_class_relints_the_open_documents_that_use_it(session: Session) -> None:
    ops = session.uri("ops.py")
    model = session.open("model.py")
    assert await session.diagnostics(model) == []
    session.published.pop(ops, None)
    session.change(model, MODEL.replace("class Doc:", "class Document:"))  # `Doc` is no span class now
    assert await session.diagnostics(model) == []
    assert await session.diagnostics(ops) == []
    session.published.pop(ops, None)
    session.client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(model)))
    assert [d.code for d in await session.diagnostics(ops)] == ["SPL101"]  # model.py on disk counts again


def test_without_the_extra_the_server_says_what_to_install(project: Path) -> None:
    # A meta-path finder that hides pygls, as in an environment without `spanlint[server]`.
    program = (
        "import sys, importlib.abc\n"
        "class Hide(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('pygls', 'lsprotocol'): raise ImportError(name=name)\n"
        "sys.meta_path.insert(0, Hide())\n"
        "sys.argv = ['spanlint', 'server']\n"
        "from lint.cli import main\nmain()\n"
    )
    done = subprocess.run([sys.executable, "-c", program], cwd=project, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60)
    assert done.returncode == 3
    assert "pip install 'spanlint[server]'" in done.stderr and "Traceback" not in done.stderr
