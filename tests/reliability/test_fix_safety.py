"""`--fix` never loses work: fixes that converge and can run, writes that keep the file what it was
(owner, mode, links) and never overwrite an edit saved meanwhile, findings of the text on disk."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest

import spanlint.fix
from spanlint.config import ConfigResolver
from spanlint.diagnostics import Diagnostic, Edit, FixSummary, Location
from spanlint.fix import fix_paths, fix_source
from spanlint.runner import FileJob, RunOptions, check_paths
from spanlint.settings import Settings
from spanlint.source import Source
from spanlint.rules.project import ProjectIndex
from runtime_guard.vocabulary import Vocabulary
from tests.reliability.helpers import spanlint as run_spanlint

SPAN = (
    "from dataclasses import dataclass\n\n\n@dataclass\nclass Turn:\n    id: str\n    messages: list\n"
    "    version: int = 0\n\n\n"
)
FIXABLE = SPAN + "def trim(turn: Turn) -> None:\n    turn.messages = turn.messages[-10:]\n"
UNSAFE = frozenset({"safe", "unsafe"})


def _fix(path: Path, **options) -> spanlint.fix.FixRun:
    return fix_paths([str(path)], ConfigResolver(isolated=True), RunOptions(jobs=1, **options), UNSAFE, write=True)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / ".git").mkdir()
    monkeypatch.chdir(root)
    return root


@pytest.mark.parametrize(
    ("body", "fixed"),
    [
        ("    return turn.messages.pop()\n", "    turn.version += 1\n    return turn.messages.pop()\n"),
        ("    turn.messages = []; return turn\n", "    turn.messages = []; turn.version += 1; return turn\n"),
        ("    if turn.id: return turn.messages.pop()\n", "    if turn.id: turn.version += 1; return turn.messages.pop()\n"),
    ],
    ids=["return", "return-on-the-line", "return-inline"],
)
def test_an_unsafe_fix_never_lands_after_a_return_or_raise(project: Path, body: str, fixed: str) -> None:
    path = project / "turns.py"
    path.write_text(SPAN + "def drop(turn: Turn):\n" + body)
    run = _fix(path)
    assert path.read_text() == SPAN + "def drop(turn: Turn):\n" + fixed
    assert run.applied == 1 and [d.code for d in run.result.diagnostics if d.code == "SPL101"] == []


def test_spl102_fix_never_makes_the_digest_module_import_itself(project: Path) -> None:
    (project / ".spanlint.yaml").write_text("root: true\nvocabulary: {digest_function: spans.digest}\n")
    module = (
        "import hashlib\nfrom dataclasses import dataclass\n\n\n@dataclass\nclass Span:\n    id: str\n    content: str\n"
        "    content_hash: str = ''\n\n\ndef edit(span: Span, text: str) -> None:\n    span.content = text\n\n\n"
        "def digest(text: str) -> str:\n    return hashlib.sha256(text.encode()).hexdigest()\n"
    )
    (project / "spans.py").write_text(module)
    run = fix_paths(["spans.py"], ConfigResolver(), RunOptions(jobs=1), UNSAFE, write=True)
    text = (project / "spans.py").read_text()
    assert run.applied == 1 and "span.content_hash = digest(span.content)" in text
    assert "from spans import" not in text
    done = subprocess.run([sys.executable, "-c", "import spans; s = spans.Span('1', 'a'); spans.edit(s, 'b'); print(s.content_hash[:8])"],
                          cwd=project, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_fix_that_leaves_its_finding_is_not_applied_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # A (buggy) fix that adds a comment line and resolves nothing: applied once at most, and said so.
    stuck = Diagnostic("a.py", Location(1, 1), Location(1, 2), "SPL101", "x", "stuck", fix=FixSummary(
        "Add a comment", "safe", (Edit("# note\n", Location(1, 1), Location(1, 1)),)), snippet="x = 1")
    monkeypatch.setattr(spanlint.fix, "lint_source", lambda *args, **kwargs: [stuck])
    job = FileJob("a.py", "a.py", Settings())
    done = fix_source(Source(b"x = 1\n"), job, ProjectIndex(Vocabulary()), UNSAFE)
    assert done.applied == 0 and done.fixed == "x = 1\n"
    assert done.skipped == ["a.py:1:1: SPL101 fix not applied: the finding is still there after it"]


def test_an_edit_saved_while_fixing_wins(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = project / "turns.py"
    path.write_text(FIXABLE)
    before = check_paths([str(path)], ConfigResolver(isolated=True), RunOptions(jobs=1)).diagnostics
    real = spanlint.fix.tempfile.mkstemp

    def saved_meanwhile(*args, **kwargs):  # the user saves between spanlint's read and its write
        path.write_text(FIXABLE + "# my edit\n")
        return real(*args, **kwargs)

    monkeypatch.setattr(spanlint.fix.tempfile, "mkstemp", saved_meanwhile)
    run = _fix(path)
    assert path.read_text() == FIXABLE + "# my edit\n"
    assert run.fixes[0].skipped == ["turns.py: not fixed: the file changed while spanlint was fixing it"]
    assert run.result.diagnostics == before  # what was linted, not the fixed text never written
    assert [p.name for p in project.iterdir() if p.name.endswith(".spanlint")] == []


def test_a_file_that_cannot_be_written_reports_its_own_findings(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = project / "turns.py"
    path.write_text(FIXABLE + "".join(f"\n\ndef trim{i}(turn: Turn) -> None:\n    turn.messages = []\n" for i in range(10)))
    before = check_paths([str(path)], ConfigResolver(isolated=True), RunOptions(jobs=1)).diagnostics

    def refuse(*args):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(spanlint.fix.os, "replace", refuse)
    run = _fix(path)
    assert run.result.diagnostics == before and len(before) > 10  # each once, at lines that exist
    assert run.fixes[0].skipped == ["turns.py: not fixed: Permission denied"]


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_a_fix_keeps_owner_and_mode(project: Path) -> None:
    path = project / "turns.py"
    path.write_text(FIXABLE)
    os.chown(path, 4321, 4321)
    os.chmod(path, 0o640)
    assert _fix(path).applied == 1
    after = os.stat(path)
    assert (after.st_uid, after.st_gid, after.st_mode & 0o7777) == (4321, 4321, 0o640)


def test_a_file_with_hard_links_is_not_split(project: Path, tmp_path: Path) -> None:
    path = project / "turns.py"
    path.write_text(FIXABLE)
    other = tmp_path / "other-link.py"
    os.link(path, other)
    run = _fix(path)
    assert path.read_text() == FIXABLE and os.stat(path).st_ino == os.stat(other).st_ino
    assert run.fixes[0].skipped == ["turns.py: not fixed: it has 2 hard links; replacing it would split them"]


def test_a_symbolic_link_out_of_the_fixed_paths_is_not_followed(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text(FIXABLE)
    (project / "turns.py").symlink_to(outside)
    inside = project / "real.py"
    inside.write_text(FIXABLE)
    (project / "alias.py").symlink_to(inside)
    run = fix_paths(["."], ConfigResolver(isolated=True), RunOptions(jobs=1), UNSAFE, write=True)
    assert outside.read_text() == FIXABLE and (project / "turns.py").is_symlink()
    assert "turns.py: not fixed: it is a symbolic link to a file outside the paths being fixed" in [
        line for fix in run.fixes for line in fix.skipped
    ]
    assert "turn.version += 1" in inside.read_text() and (project / "alias.py").is_symlink()


def test_temporary_files_of_a_killed_run_are_removed(project: Path) -> None:
    path = project / "turns.py"
    path.write_text(FIXABLE)
    stale = project / ".turns.py.k2x9q0ab.spanlint"
    stale.write_text("half a file")
    busy = project / ".turns.py.busy0001.spanlint"  # a running spanlint holds it locked
    busy.write_text("being written")
    mine = project / ".notes.spanlint"  # not a name spanlint makes
    mine.write_text("mine")
    with open(busy) as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert _fix(path).applied == 1
    assert not stale.exists() and busy.exists() and mine.exists()


def test_fix_through_the_cli_says_what_it_skipped(project: Path, tmp_path: Path) -> None:
    path = project / "turns.py"
    path.write_text(FIXABLE)
    os.link(path, tmp_path / "link.py")
    run = run_spanlint(project, "--fix", "--unsafe-fixes", "--no-cache", "--isolated")
    assert "spanlint: warning: turns.py: not fixed: it has 2 hard links" in run.stderr
    assert "SPL101" in [f["code"] for f in run.findings] and path.read_text() == FIXABLE
