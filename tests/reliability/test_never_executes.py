"""Linted code is read, never imported or executed."""

from __future__ import annotations

from pathlib import Path

from tests.reliability.helpers import REWRITE, relative, spanlint


def _writes_marker(marker: Path) -> str:
    return f"from pathlib import Path\nPath({str(marker)!r}).write_text('executed')\n"


def test_linting_a_package_runs_none_of_its_code(tmp_path: Path) -> None:
    markers = {name: tmp_path / f"marker-{name}" for name in ("init", "conftest", "setup", "module", "main")}
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text(_writes_marker(markers["init"]))
    (package / "__main__.py").write_text(_writes_marker(markers["main"]))
    (tmp_path / "conftest.py").write_text(_writes_marker(markers["conftest"]))
    (tmp_path / "setup.py").write_text(_writes_marker(markers["setup"]))
    (package / "rewrite.py").write_text(_writes_marker(markers["module"]) + "import pkg\n" + REWRITE)
    run = spanlint(tmp_path, ".", "--select", "ALL", "--jobs", "1")
    assert [m.name for m in markers.values() if m.exists()] == []
    # The files were linted all the same: the rewrite is found where it is.
    assert [(code, line) for code, line, _, _ in relative(run, tmp_path)["pkg/rewrite.py"]] == [("SPL101", 5)]
