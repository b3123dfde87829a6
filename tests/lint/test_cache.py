"""The result cache: warm runs skip unchanged files, and nothing stale or corrupt ever reaches a report."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spanlint.runner
from spanlint.cache import CACHE_DIR_NAME, DATABASE_NAME
from spanlint.cli import app
from spanlint.config import ConfigResolver
from spanlint.runner import RunOptions, check_paths
from tests.lint.conftest import CLEAN, REWRITE, write_tree

SPAN_CLASS = "class DocSpan:\n    span_id: str\n    content: str\n    version: int\n"
NOT_A_SPAN = "class DocSpan:\n    title: str\n"
# `d` is span-like only through the class `DocSpan` of another file.
REWRITE_DOC = "def shorten(d: DocSpan):\n    d.content = d.content[:10]\n"
OLD = 1_600_000_000  # a modification time far enough in the past for the stat shortcut


def _run(root: Path, **options):
    return check_paths([root], ConfigResolver(), RunOptions(jobs=1, cache=True, **options))


@pytest.fixture
def linted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The display paths the runner actually lints (cache misses), in order."""
    seen: list[str] = []
    real = spanlint.runner.lint_file

    def recording(job, *args, **kwargs):
        seen.append(job.display)
        return real(job, *args, **kwargs)

    monkeypatch.setattr(spanlint.runner, "lint_file", recording)
    return seen


def _age(root: Path) -> None:
    for path in root.rglob("*.py"):
        os.utime(path, (OLD, OLD))


def test_warm_run_lints_nothing_and_reports_the_same(project: Path, linted: list[str]) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", "a.py": REWRITE, "b.py": CLEAN})
    cold = _run(project)
    assert sorted(linted) == ["a.py", "b.py"]
    linted.clear()
    warm = _run(project)
    assert linted == []
    assert warm.diagnostics == cold.diagnostics and [d.code for d in warm.diagnostics] == ["SPL101"]
    assert warm.diagnostics[0].snippet == cold.diagnostics[0].snippet


def test_a_changed_file_alone_is_linted_again(project: Path, linted: list[str]) -> None:
    # b.py's change leaves the project index as it was (it defines no class and no helper).
    write_tree(project, {".spanlint.yaml": "root: true\n", "a.py": REWRITE, "b.py": "x = 1\n"})
    _run(project)
    linted.clear()
    (project / "b.py").write_text(REWRITE)
    assert [d.path for d in _run(project).diagnostics] == ["a.py", "b.py"]
    assert linted == ["b.py"]


def test_a_touched_but_unchanged_file_is_not_linted_again(project: Path, linted: list[str]) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", "a.py": REWRITE})
    _age(project)
    _run(project)
    linted.clear()
    os.utime(project / "a.py")  # new mtime, same content: the content hash decides
    assert len(_run(project).diagnostics) == 1
    assert linted == []


def test_warm_run_reads_no_unchanged_file(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", "a.py": REWRITE, "b.py": CLEAN})
    _age(project)
    _run(project)
    read: list[str] = []
    real = Path.read_bytes

    def recording(self: Path) -> bytes:
        read.append(self.name)
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", recording)
    assert len(_run(project).diagnostics) == 1
    assert [name for name in read if name.endswith(".py")] == []


def test_a_span_class_changed_in_another_file_invalidates_the_findings(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", "models.py": SPAN_CLASS, "ops.py": REWRITE_DOC})
    assert [d.path for d in _run(project).diagnostics] == ["ops.py"]
    (project / "models.py").write_text(NOT_A_SPAN)
    assert _run(project).diagnostics == []
    (project / "models.py").write_text(SPAN_CLASS)
    assert [d.path for d in _run(project).diagnostics] == ["ops.py"]


def test_a_span_class_in_a_file_not_linted_counts_when_cached(project: Path) -> None:
    # As under pre-commit: only the changed file is named, the project's index is cached.
    write_tree(project, {".spanlint.yaml": "root: true\n", "models.py": SPAN_CLASS, "ops.py": REWRITE_DOC})
    for _ in range(2):
        found = check_paths([project / "ops.py"], ConfigResolver(), RunOptions(jobs=1, cache=True)).diagnostics
        assert [(d.path, d.code) for d in found] == [("ops.py", "SPL101")]


def test_moving_a_span_class_down_its_file_keeps_the_other_files_findings(project: Path, linted: list[str]) -> None:
    # The index holds what a class declares, not where: no other file's findings depend on its line.
    write_tree(project, {".spanlint.yaml": "root: true\n", "models.py": SPAN_CLASS, "ops.py": REWRITE_DOC})
    _run(project)
    linted.clear()
    (project / "models.py").write_text("import os\n\n\n" + SPAN_CLASS)
    assert [d.path for d in _run(project).diagnostics] == ["ops.py"]
    assert linted == ["models.py"]


def test_one_changed_file_is_linted_with_the_stored_index(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # As under pre-commit: the other files' summaries are neither decoded nor recomputed.
    files = {f"pkg/m{i}.py": f"class Model{i}:\n    name: str\n" for i in range(20)}
    write_tree(project, {".spanlint.yaml": "root: true\n", "models.py": SPAN_CLASS, "ops.py": "x = 1\n", **files})
    _run(project)
    (project / "ops.py").write_text(REWRITE_DOC)
    decoded: list[str] = []
    real = spanlint.runner.Cache.summary
    monkeypatch.setattr(spanlint.runner.Cache, "summary", lambda self, path, vocabulary: decoded.append(path) or real(self, path, vocabulary))
    recomputed: list[str] = []
    real_summarize = spanlint.runner.summarize_file
    monkeypatch.setattr(spanlint.runner, "summarize_file", lambda path, *more: recomputed.append(path) or real_summarize(path, *more))
    found = check_paths([project / "ops.py"], ConfigResolver(), RunOptions(jobs=1, cache=True)).diagnostics
    assert [(d.path, d.code) for d in found] == [("ops.py", "SPL101")]
    assert decoded == [] and [Path(p).name for p in recomputed] == ["ops.py"]


def test_a_cache_of_an_older_layout_is_replaced(project: Path, linted: list[str]) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", "a.py": REWRITE})
    (project / CACHE_DIR_NAME).mkdir()
    with sqlite3.connect(project / CACHE_DIR_NAME / DATABASE_NAME) as db:  # spanlint 0.1.0's tables
        db.execute("CREATE TABLE summaries (path TEXT PRIMARY KEY, key TEXT, value TEXT)")
        db.execute("CREATE TABLE indexes (summaries TEXT PRIMARY KEY, digest TEXT)")
    expected = [(d.path, d.code) for d in _run(project).diagnostics]
    assert expected == [("a.py", "SPL101")] and linted == ["a.py"]
    linted.clear()
    assert [(d.path, d.code) for d in _run(project).diagnostics] == expected
    assert linted == []


def test_a_configuration_change_invalidates_the_findings(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", "a.py": REWRITE})
    assert [d.severity for d in _run(project).diagnostics] == ["error"]
    (project / ".spanlint.yaml").write_text("root: true\nseverity: {SPL101: warn}\n")
    assert [d.severity for d in _run(project).diagnostics] == ["warn"]
    (project / ".spanlint.yaml").write_text("root: true\nvocabulary: {content_fields: [body]}\n")
    assert _run(project).diagnostics == []


def test_garbled_entries_are_ignored(project: Path, linted: list[str]) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", "a.py": REWRITE})
    expected = _run(project).diagnostics
    with sqlite3.connect(project / CACHE_DIR_NAME / DATABASE_NAME) as db:
        db.execute("UPDATE results SET value = substr(value, 1, 20)")
        db.execute("UPDATE summaries SET value = '{\"$\": \"os.system\", \"command\": \"true\"}'")
    linted.clear()
    assert _run(project).diagnostics == expected
    assert linted == ["a.py"]


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE indexes SET value = substr(value, 1, 40)",  # no longer matches its checksum
        # the checksum of what is written, but not tables of encoded values
        "UPDATE indexes SET value = '[1, 2]', checksum = '3a316d6d3226f84c1e46e4447fa8d5fd800bff4a1bc6498152523cd4a602b69b'",
    ],
)
def test_a_damaged_stored_index_is_rebuilt(project: Path, damage: str) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", "models.py": SPAN_CLASS, "ops.py": "x = 1\n"})
    _run(project)
    (project / "ops.py").write_text(REWRITE_DOC)  # linted again, with the index
    with sqlite3.connect(project / CACHE_DIR_NAME / DATABASE_NAME) as db:
        db.execute(damage)
    found = check_paths([project / "ops.py"], ConfigResolver(), RunOptions(jobs=1, cache=True)).diagnostics
    assert [(d.path, d.code) for d in found] == [("ops.py", "SPL101")]


@pytest.mark.parametrize("damage", [b"", b"garbage" * 100])
def test_a_truncated_or_overwritten_database_is_replaced(project: Path, damage: bytes, linted: list[str]) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", "a.py": REWRITE})
    expected = _run(project).diagnostics
    database = project / CACHE_DIR_NAME / DATABASE_NAME
    database.write_bytes(damage + database.read_bytes()[len(damage) : len(damage) + 100])
    assert _run(project).diagnostics == expected
    linted.clear()
    assert _run(project).diagnostics == expected
    assert linted == []  # the new database holds the results again


def test_cache_directory_has_its_own_gitignore(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", "a.py": CLEAN})
    _run(project)
    assert (project / CACHE_DIR_NAME / ".gitignore").read_text().splitlines()[-1] == "*"


def test_no_cache_and_cache_dir_options(project: Path, tmp_path: Path) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", "a.py": REWRITE})
    runner = CliRunner()
    assert runner.invoke(app, ["check", "--no-cache"]).exit_code == 1
    assert not (project / CACHE_DIR_NAME).exists()
    elsewhere = tmp_path / "elsewhere"
    assert runner.invoke(app, ["check", "--cache-dir", str(elsewhere)]).exit_code == 1
    assert (elsewhere / DATABASE_NAME).is_file() and not (project / CACHE_DIR_NAME).exists()
    assert runner.invoke(app, ["check"]).exit_code == 1
    assert (project / CACHE_DIR_NAME / DATABASE_NAME).is_file()


def test_concurrent_runs_share_the_cache(project: Path) -> None:
    files = {f"pkg/m{i}.py": REWRITE if i % 3 == 0 else CLEAN for i in range(40)}
    write_tree(project, {".spanlint.yaml": "root: true\n", **files})
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    command = [sys.executable, "-m", "spanlint", "check", "--output-format", "concise", "-j", "1"]
    runs = [subprocess.Popen(command, cwd=project, stdout=subprocess.PIPE, text=True, env=environment) for _ in range(3)]
    outputs = [run.communicate(timeout=120)[0] for run in runs]
    after = subprocess.run(command, cwd=project, capture_output=True, text=True, env=environment).stdout
    assert len(set(outputs + [after])) == 1 and "Found 14 errors." in after


def test_fixes_after_a_warm_run_that_linted_nothing(project: Path, linted: list[str]) -> None:
    # The warm run decodes no cached summary, yet the fix must see `DocSpan` from the other file.
    from spanlint.fix import fix_paths

    write_tree(project, {".spanlint.yaml": "root: true\n", "models.py": SPAN_CLASS, "ops.py": REWRITE_DOC})
    _age(project)
    _run(project)
    linted.clear()
    options = RunOptions(jobs=1, cache=True)
    run = fix_paths([str(project / "ops.py")], ConfigResolver(), options, frozenset({"safe", "unsafe"}), write=True)
    assert linted == [] and run.applied == 1
    assert "d.version += 1" in (project / "ops.py").read_text()


def test_stdin_uses_the_cached_project_index(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The span class lives in another file; its cached summary must be read, not recomputed.
    from spanlint.runner import check_stdin

    write_tree(project, {".spanlint.yaml": "root: true\n", "models.py": SPAN_CLASS, "ops.py": CLEAN})
    _age(project)
    _run(project)
    recomputed: list[str] = []
    real = spanlint.runner.summarize_file
    monkeypatch.setattr(spanlint.runner, "summarize_file", lambda path, *more: recomputed.append(path) or real(path, *more))
    result = check_stdin(REWRITE_DOC.encode(), str(project / "ops.py"), ConfigResolver(), RunOptions(jobs=1, cache=True))
    assert [d.code for d in result.diagnostics] == ["SPL101"] and recomputed == []


# A response class whose method grows its own content, called only on responses built by the caller.
RESPONSES = (
    "from dataclasses import dataclass\n\n@dataclass\nclass Reply:\n    id: str\n    content: str\n\n"
    "    def append_text(self, text: str) -> None:\n        self.content += text\n"
)
STREAM = "from responses import Reply\n\ndef parse(events):\n    for e in events:\n        r = Reply(id=e.id, content='')\n        r.append_text(e.text)\n        yield r\n"
# A function building a new message; its result, stripped in place, is not a rewrite.
MAKER = (
    "from dataclasses import dataclass\n\n@dataclass\nclass Note:\n    id: str\n    content: str\n\n"
    "def to_note(chunk: str) -> Note:\n    return Note(id=new_id(), content=chunk)\n"
)
USES_MAKER = "from maker import Note, to_note\n\ndef emit(chunk):\n    note: Note = to_note(chunk)\n    note.content = note.content.strip()\n    return note\n"


@pytest.mark.parametrize(
    "files, relinted",
    [({"responses.py": RESPONSES, "stream.py": STREAM}, "responses.py"), ({"maker.py": MAKER, "uses.py": USES_MAKER}, "uses.py")],
    ids=["calls-on-built-objects", "building-functions"],
)
def test_the_stored_index_keeps_what_makes_an_object_new(
    project: Path, linted: list[str], monkeypatch: pytest.MonkeyPatch, files: dict[str, str], relinted: str
) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", **files})
    assert _run(project).diagnostics == []
    linted.clear()
    (project / relinted).write_text("import os\n\n\n" + files[relinted])
    monkeypatch.setattr(spanlint.runner.ProjectIndex, "merge", lambda *args: pytest.fail("the index was not read from the cache"))
    assert _run(project).diagnostics == []
    assert linted == [relinted]
