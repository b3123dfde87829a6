"""`--write-baseline` / `--baseline`: adopt spanlint on existing code, report only new findings."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from spanlint.cli import app
from tests.lint.conftest import REWRITE, write_tree

runner = CliRunner()
OTHER = "def trim(span):\n    span.content = span.content.strip()\n"


def _check(*args: str):
    return runner.invoke(app, ["check", "--no-cache", "--output-format", "concise", *args])


def test_baseline_hides_recorded_findings(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", "a.py": REWRITE, "b.py": OTHER})
    recorded = _check("--write-baseline", "baseline.json")
    assert recorded.exit_code == 0 and "Recorded 2 findings" in recorded.stderr
    outcome = _check("--baseline", "baseline.json")
    assert (outcome.exit_code, outcome.stdout.strip()) == (0, "All checks passed!")
    assert "2 findings in the baseline not shown." in outcome.stderr


def test_baseline_file_is_sorted_stable_json_without_line_numbers(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", "b.py": OTHER, "a.py": REWRITE + "\n" + REWRITE})
    _check("--write-baseline", "baseline.json")
    first = (project / "baseline.json").read_bytes()
    document = json.loads(first)
    assert [(f["path"], f["code"], f["count"]) for f in document["findings"]] == [
        ("a.py", "SPL101", 2), ("b.py", "SPL101", 1)
    ]
    assert all(set(f) == {"path", "code", "fingerprint", "count"} for f in document["findings"])
    (project / "a.py").write_text("import os\n\n" + REWRITE + "\n" + REWRITE)
    _check("--write-baseline", "baseline.json")
    assert (project / "baseline.json").read_bytes() == first


def test_moved_code_stays_suppressed(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", "a.py": REWRITE})
    _check("--write-baseline", "baseline.json")
    (project / "a.py").write_text("import os\nimport sys\n\n\n" + "x = 1\n" * 20 + REWRITE)
    assert _check("--baseline", "baseline.json").exit_code == 0


def test_a_new_identical_finding_is_reported(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", "a.py": REWRITE})
    _check("--write-baseline", "baseline.json")
    (project / "a.py").write_text(REWRITE + "\n\n" + REWRITE.replace("compress", "compress_again"))
    outcome = _check("--baseline", "baseline.json")
    assert outcome.exit_code == 1
    assert len(outcome.stdout.strip().splitlines()) == 2  # one finding and the summary line
    assert "1 finding in the baseline not shown." in outcome.stderr


def test_a_new_finding_in_another_file_is_reported(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", "a.py": REWRITE})
    _check("--write-baseline", "baseline.json")
    (project / "b.py").write_text(REWRITE)
    assert _check("--baseline", "baseline.json").stdout.startswith("b.py:2:5: SPL101")


def test_baseline_paths_are_relative_to_the_baseline_file(project: Path, monkeypatch) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", "src/a.py": REWRITE})
    _check("--write-baseline", "baseline.json")
    monkeypatch.chdir(project / "src")
    assert _check("--baseline", "../baseline.json").exit_code == 0


def test_an_invalid_baseline_is_a_usage_error(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": "root: true\n", "a.py": REWRITE, "bad.json": "[1, 2]"})
    outcome = _check("--baseline", "bad.json")
    assert outcome.exit_code == 2 and "not a spanlint baseline" in outcome.stderr
    assert _check("--baseline", "missing.json").exit_code == 2
