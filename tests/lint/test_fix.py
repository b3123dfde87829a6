"""`spanlint check --fix / --unsafe-fixes / --diff`: fixes applied one at a time, files never corrupted."""

from __future__ import annotations

import codecs
import os
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spanlint.fix
from spanlint.cli import app
from spanlint.diagnostics import Diagnostic, Edit, FixSummary, Location
from spanlint.config import ConfigResolver
from spanlint.fix import fix_paths, fix_source
from spanlint.runner import PARALLEL_THRESHOLD, FileJob, RunOptions
from spanlint.settings import Settings
from spanlint.source import Source
from spanlint.rules import find_rule
from spanlint.rules.project import ProjectIndex
from tests.lint.conftest import Opens, forked_workers, write_tree

SPL900_ON = "root: true\nextend-select: [SPL900]\n"
# Two unused suppressions and a comment that must survive the fix untouched.
UNUSED = "x = 1  # noqa: SPL999\n# keep me\ny = [\n    2,  # noqa: E501, SPL998\n]\n"
FIXED = "x = 1\n# keep me\ny = [\n    2,  # noqa: E501\n]\n"
SPAN_DATACLASS = (
    "from dataclasses import dataclass\n\n\n@dataclass\nclass Span:\n"
    "    span_id: str\n    content: str\n    version: int\n\n\n"
)

runner = CliRunner()


def _check(*args: str):
    return runner.invoke(app, ["check", "--no-cache", *args])


def test_fix_applies_safe_fixes_keeping_formatting(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": SPL900_ON, "a.py": UNUSED})
    outcome = _check("--fix")
    assert outcome.exit_code == 0, outcome.output
    assert (project / "a.py").read_text() == FIXED
    assert "Fixed 2 errors, 0 remaining." in outcome.stderr
    again = _check("--fix")
    assert "Fixed 0 errors, 0 remaining." in again.stderr and (project / "a.py").read_text() == FIXED


@forked_workers
def test_a_fix_in_a_pool_fixes_the_text_the_run_read(project: Path, opened: Opens) -> None:
    files = [f"mod{i:02}.py" for i in range(PARALLEL_THRESHOLD + 2)]
    write_tree(project, {".spanlint.yaml": SPL900_ON, **{name: UNUSED for name in files}})
    opened.clear()
    run = fix_paths([str(project)], ConfigResolver(), RunOptions(jobs=2), frozenset({"safe"}), write=True)
    assert run.applied == 2 * len(files) and run.result.diagnostics == []
    # the run's read, and the compare-and-swap just before the fixed file replaces it
    assert {opened.count(project / name) for name in files} == {2}
    assert {(project / name).read_text() for name in files} == {FIXED}


def test_diff_prints_the_fixes_and_writes_nothing(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": SPL900_ON, "a.py": UNUSED})
    outcome = _check("--diff")
    assert outcome.exit_code == 1
    assert outcome.stdout.startswith("--- a/a.py\n+++ b/a.py\n")
    assert "-x = 1  # noqa: SPL999\n+x = 1\n" in outcome.stdout
    assert "Would fix 2 errors." in outcome.stderr
    assert (project / "a.py").read_text() == UNUSED
    (project / "a.py").write_text(FIXED)
    clean = _check("--diff")
    assert (clean.exit_code, clean.stdout) == (0, "")


def test_remaining_findings_are_reported_and_fail_the_run(project: Path) -> None:
    write_tree(project, {
        ".spanlint.yaml": SPL900_ON,
        "a.py": "def f(span):\n    span.content = 'x'  # noqa: SPL999\n",
    })
    outcome = _check("--fix", "--output-format", "concise")
    assert outcome.exit_code == 1
    assert outcome.stdout.startswith("a.py:2:5: SPL101 ")
    assert "Fixed 1 error, 1 remaining." in outcome.stderr
    assert (project / "a.py").read_text() == "def f(span):\n    span.content = 'x'\n"


def test_fixed_file_keeps_encoding_bom_and_permissions(project: Path) -> None:
    latin = "# -*- coding: latin-1 -*-\nname = 'café'  # noqa: SPL999\n"
    write_tree(project, {
        ".spanlint.yaml": SPL900_ON,
        "latin.py": latin.encode("latin-1"),
        "bom.py": codecs.BOM_UTF8 + "s = 'ü'  # noqa: SPL999\r\nt = 2\r\n".encode(),
    })
    os.chmod(project / "latin.py", 0o640)
    assert _check("--fix").exit_code == 0
    assert (project / "latin.py").read_bytes() == "# -*- coding: latin-1 -*-\nname = 'café'\n".encode("latin-1")
    assert (project / "bom.py").read_bytes() == codecs.BOM_UTF8 + "s = 'ü'\r\nt = 2\r\n".encode()
    assert stat.S_IMODE(os.stat(project / "latin.py").st_mode) == 0o640
    assert sorted(p.name for p in project.iterdir()) == [".spanlint.yaml", "bom.py", "latin.py"]


def test_fix_writes_through_a_symlink(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": SPL900_ON, "real/a.py": UNUSED})
    (project / "link.py").symlink_to(project / "real" / "a.py")
    assert _check("--fix", "link.py").exit_code == 0
    assert (project / "link.py").is_symlink() and (project / "real" / "a.py").read_text() == FIXED


def test_a_fix_whose_result_does_not_parse_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    source = "x = 1\ny = 2\n"
    job = FileJob("a.py", "a.py", Settings())
    where = Location(1, 1)
    breaking = FixSummary("Break it", "safe", (Edit("x = (\n", Location(1, 1), Location(2, 1)),))
    found = [Diagnostic("a.py", where, where, "SPL900", "unused-suppression", "m", "warn", breaking, "x = 1")]
    monkeypatch.setattr(spanlint.fix, "lint_source", lambda *args, **kwargs: found)
    outcome = fix_source(Source(source.encode()), job, ProjectIndex(Settings().vocabulary), frozenset({"safe"}))
    assert (outcome.fixed, outcome.applied) == (source, 0)
    assert outcome.skipped == ["a.py:1:1: SPL900 fix not applied: the fixed source does not parse"]


def test_unsafe_fixes_need_the_option(project: Path) -> None:
    assert _check("--unsafe-fixes").exit_code == 2


@pytest.mark.skipif(getattr(find_rule("SPL101"), "fix_applicability", None) is None, reason="SPL101 has no fix yet")
def test_spl101_unsafe_fix_bumps_the_version(project: Path) -> None:
    source = SPAN_DATACLASS + "def f(span: Span, x: str) -> None:\n    span.content = x\n"
    write_tree(project, {".spanlint.yaml": "root: true\n", "a.py": source})
    safe_only = _check("--fix", "--select", "SPL101")
    assert safe_only.exit_code == 1 and (project / "a.py").read_text() == source
    outcome = _check("--fix", "--unsafe-fixes", "--select", "SPL101")
    assert outcome.exit_code == 0, outcome.output
    assert (project / "a.py").read_text() == source + "    span.version += 1\n"
    assert "Fixed 1 error, 0 remaining." in outcome.stderr
