"""A cache is a hint: crafted, damaged or foreign cache files never change what a run reports or
writes, and spanlint alters no file it did not create."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

import spanlint.runner
from spanlint.cache import CACHE_DIR_NAME, DATABASE_NAME, _canonical, _checked, decode, encode
from spanlint.config import ConfigResolver
from spanlint.runner import RunOptions, check_paths
from tests.reliability.helpers import REWRITE, spanlint as run_spanlint

FOREIGN_TABLES = ("stats", "summaries", "results", "indexes")
# One SPL101 with an (unsafe) fix: the class says which field is the version.
FIXABLE = (
    "from dataclasses import dataclass\n\n\n@dataclass\nclass Span:\n    id: str\n    content: str\n"
    "    version: int = 0\n\n\ndef trim(span: Span) -> None:\n    span.content = span.content[:100]\n"
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / ".spanlint.yaml").write_text("root: true\n")
    (root / "a.py").write_text(REWRITE)
    (root / "b.py").write_text("x = 1\n")
    return root


def _rewrite_results(project: Path, change) -> None:
    """Replace each stored results row by `change(findings)`, with a checksum that verifies."""
    with sqlite3.connect(project / CACHE_DIR_NAME / DATABASE_NAME) as db:
        for path, config, key, value in db.execute("SELECT path, config, key, value FROM results").fetchall():
            new = change(decode(value), value)
            db.execute("DELETE FROM results WHERE path = ? AND config = ?", (path, config))
            db.execute("INSERT INTO results VALUES (?, ?, ?, ?, ?)", _checked(path, config, key, new))


def test_a_crafted_finding_about_an_outside_file_is_never_fixed(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text(FIXABLE)
    (project / "a.py").write_text(FIXABLE)
    expected = run_spanlint(project, "--no-cache")
    run_spanlint(project)  # fills the cache
    _rewrite_results(project, lambda found, _: _canonical(encode([
        type(d)(**{**d.__dict__, "path": str(outside)}) for d in found
    ])) if found else _)
    run = run_spanlint(project, "--fix", "--unsafe-fixes")
    assert outside.read_text() == FIXABLE
    assert "span.version += 1" in (project / "a.py").read_text()  # the linted file itself is fixed
    assert run.code == 0 and expected.code == 1 and "Traceback" not in run.stderr


@pytest.mark.parametrize(
    "value",
    [
        '[{"$": "Diagnostic", "path": "a.py", "location": "1:1", "end_location": 7, "code": "SPL101", '
        '"name": "x", "message": "y"}]',
        '{"$": "Location", "line": 1, "column": 1}',
        '[{"$": "Diagnostic", "path": "a.py", "location": {"$": "Location", "line": "1", "column": 1}, '
        '"end_location": {"$": "Location", "line": 1, "column": 1}, "code": "SPL101", "name": "x", "message": "y", '
        '"severity": "fatal"}]',
        "[" * 100_000 + "]" * 100_000,
    ],
    ids=["wrong-field-types", "not-a-list", "wrong-literal", "deep"],
)
def test_a_row_of_an_unexpected_shape_is_a_miss(project: Path, value: str) -> None:
    expected = run_spanlint(project, "--no-cache")
    run_spanlint(project)
    _rewrite_results(project, lambda found, _: value)
    for _ in range(2):  # the miss is recomputed and stored again
        run = run_spanlint(project)
        assert (run.code, run.findings, run.stderr) == (expected.code, expected.findings, "")


def test_a_flipped_byte_in_a_stored_finding_is_a_miss(project: Path) -> None:
    expected = run_spanlint(project, "--no-cache")
    run_spanlint(project)
    with sqlite3.connect(project / CACHE_DIR_NAME / DATABASE_NAME) as db:
        db.execute("UPDATE results SET value = replace(value, 'rewritten', 'rewrItten')")
        assert db.total_changes >= 1
    assert run_spanlint(project).findings == expected.findings


def test_a_cache_directory_that_is_a_symbolic_link_is_not_used(project: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / DATABASE_NAME).write_bytes(b"precious data, not a database")
    (project / CACHE_DIR_NAME).symlink_to(elsewhere)
    expected = run_spanlint(project, "--no-cache")
    run = run_spanlint(project)
    assert run.findings == expected.findings
    assert (elsewhere / DATABASE_NAME).read_bytes() == b"precious data, not a database"
    assert sorted(os.listdir(elsewhere)) == [DATABASE_NAME]  # no .gitignore written there
    (line,) = run.stderr.splitlines()
    assert line.startswith("spanlint: warning: ") and "symbolic link" in line


def _foreign_database(path: Path, columns: str = "name TEXT, secret TEXT") -> None:
    with sqlite3.connect(path) as db:
        for table in FOREIGN_TABLES:
            db.execute(f"CREATE TABLE {table} ({columns})")
            db.execute(f"INSERT INTO {table} VALUES ('row', 'kept')")


def _foreign_rows(path: Path) -> list:
    with sqlite3.connect(path) as db:
        return [db.execute(f"SELECT * FROM {table}").fetchall() for table in FOREIGN_TABLES]


def test_a_database_link_to_another_applications_database_is_not_touched(project: Path, tmp_path: Path) -> None:
    foreign = tmp_path / "app.db"
    _foreign_database(foreign)
    (project / CACHE_DIR_NAME).mkdir()
    (project / CACHE_DIR_NAME / DATABASE_NAME).symlink_to(foreign)
    before = foreign.read_bytes()
    run = run_spanlint(project)
    assert run.findings == run_spanlint(project, "--no-cache").findings
    assert foreign.read_bytes() == before and "not a regular file" in run.stderr


def test_another_applications_database_in_the_cache_directory_is_not_altered(project: Path) -> None:
    (project / CACHE_DIR_NAME).mkdir()
    database = project / CACHE_DIR_NAME / DATABASE_NAME
    _foreign_database(database)
    run = run_spanlint(project)
    assert run.findings == run_spanlint(project, "--no-cache").findings
    assert _foreign_rows(database) == [[("row", "kept")]] * 4
    (line,) = run.stderr.splitlines()
    assert "not a spanlint cache database" in line


@pytest.mark.parametrize("offset", [4096, 8192, 16384, 24576])
def test_a_database_damaged_inside_is_replaced(project: Path, offset: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Damage is found when a run reads a damaged page: that run reports what --no-cache does, and
    # replaces the database, so the runs after it are warm again (never every run cold).
    monkeypatch.chdir(project)
    for i in range(30):  # enough rows for several pages
        (project / f"m{i}.py").write_text(REWRITE.replace("compress", f"compress{i}"))
    expected = check_paths([project], ConfigResolver(), RunOptions(jobs=1)).diagnostics
    cached = RunOptions(jobs=1, cache=True)
    check_paths([project], ConfigResolver(), cached)
    database = project / CACHE_DIR_NAME / DATABASE_NAME
    data = bytearray(database.read_bytes())
    assert len(data) > offset + 4096
    data[offset : offset + 4096] = os.urandom(4096)
    database.write_bytes(bytes(data))
    linted: list[str] = []
    real = spanlint.runner.lint_file
    monkeypatch.setattr(spanlint.runner, "lint_file", lambda job, *args, **kwargs: linted.append(job.display) or real(job, *args, **kwargs))
    for _ in range(3):  # the first run that reads (or writes) a damaged page replaces the database
        linted.clear()
        assert check_paths([project], ConfigResolver(), cached).diagnostics == expected
    assert linted == []  # warm again (damage in a page no run reads may stay: it changes nothing)


def test_json_of_the_cache_rows_is_only_data(project: Path) -> None:
    # A row naming a type spanlint does not cache is a miss, not an object built from it.
    run_spanlint(project)
    _rewrite_results(project, lambda found, _: json.dumps([{"$": "Path", "args": ["/etc/passwd"]}]))
    assert run_spanlint(project).findings == run_spanlint(project, "--no-cache").findings
