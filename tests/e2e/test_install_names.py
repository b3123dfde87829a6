"""Installed, spanlint takes no import name a user's project may use for itself (`lint`, `rules`).

A project with its own `lint.py` and `rules/` package, each of which would leave a marker file if it
were ever imported, is linted with the `spanlint` script and with `python -m spanlint`, and tested
with the pytest plugin loaded: spanlint works in all three and neither of the project's modules runs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).with_name("spanlint")
MARKER = "imported.marker"
# Each of the project's own modules leaves a marker when imported and then fails, as a stale or
# unrelated module of that name would.
SHADOW = f"open({MARKER!r}, 'a').write(__name__ + '\\n')\nraise ImportError('the project\\'s own ' + __name__)\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "lint.py").write_text(SHADOW)
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "__init__.py").write_text(SHADOW)
    (tmp_path / "ops.py").write_text("def compress(span):\n    span.content = span.content[:100]\n")
    (tmp_path / "test_ops.py").write_text(
        "from runtime_guard import guard\n\n\ndef test_guard_imports():\n    assert callable(guard)\n"
    )
    return tmp_path


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("how", ["script", "module"])
def test_lint_of_a_project_with_its_own_lint_and_rules_modules(project: Path, how: str) -> None:
    if how == "script" and not SCRIPT.exists():
        pytest.skip("no installed spanlint script next to this interpreter")
    command = [str(SCRIPT)] if how == "script" else [sys.executable, "-m", "spanlint"]
    done = _run([*command, "check", "--no-cache", "--output-format", "concise", "ops.py"], project)
    assert done.returncode == 1, done.stderr
    assert "ops.py:2:5: SPL101" in done.stdout
    assert not (project / MARKER).exists(), (project / MARKER).read_text()


def test_pytest_plugin_in_a_project_with_its_own_lint_and_rules_modules(project: Path) -> None:
    done = _run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--span-guard=raise", "test_ops.py"], project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
    assert not (project / MARKER).exists(), (project / MARKER).read_text()


def test_spanlint_does_not_install_lint_or_rules() -> None:
    probe = "import importlib.util as u; print([n for n in ('lint', 'rules') if u.find_spec(n)])"
    done = _run([sys.executable, "-I", "-c", probe], Path(sys.executable).parent)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
