"""The habits ruff users bring: fix hints, quiet and silent runs, colour, --add-noqa, --show-files,
stdin fixes, and the gitlab and pylint formats."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spanlint.cli import app
from tests.lint.conftest import CLEAN, REWRITE, write_tree

runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]
# A span class with a version field: SPL101 on `compress` then has an unsafe fix (bump the version).
VERSIONED = (
    "from dataclasses import dataclass\n\n\n@dataclass\nclass Span:\n    span_id: str\n    content: str\n"
    "    version: int = 0\n\n\ndef compress(span: Span) -> None:\n    span.content = span.content[:10]\n"
)
HIDDEN = "1 hidden fix can be enabled with the `--unsafe-fixes` option"


def _check(*args: str, **kwargs):
    return runner.invoke(app, ["check", "--no-cache", *args], **kwargs)


def test_an_unsafe_fix_is_not_offered_as_fixable(project: Path) -> None:
    write_tree(project, {"ops.py": VERSIONED})
    text = _check("--output-format", "concise").stdout
    assert "SPL101 [*]" not in text and "SPL101 `span.content`" in text
    assert text.endswith(f"Found 1 error.\nNo fixes available ({HIDDEN}).\n")
    unsafe = _check("--output-format", "concise", "--diff", "--unsafe-fixes")
    assert unsafe.exit_code == 1 and "+    span.version += 1" in unsafe.stdout


def test_fix_and_diff_say_how_to_enable_the_hidden_fixes(project: Path) -> None:
    write_tree(project, {"ops.py": VERSIONED})
    fixed = _check("--fix")
    assert "Fixed 0 errors, 1 remaining." in fixed.stderr and f"{HIDDEN}." in fixed.stderr
    diff = _check("--diff")
    assert diff.exit_code == 0 and diff.stdout == "" and f"No fixes available ({HIDDEN})." in diff.stderr
    fixed = _check("--fix", "--unsafe-fixes")
    assert "Fixed 1 error, 0 remaining." in fixed.stderr and "hidden" not in fixed.stderr
    assert "span.version += 1" in (project / "ops.py").read_text()


def test_show_fixes_prints_the_fix_under_its_finding(project: Path) -> None:
    write_tree(project, {"ops.py": VERSIONED})
    lines = _check("--show-fixes").stdout.splitlines()
    start = lines.index("  Unsafe fix")
    assert lines[start + 1] == "13 +     span.version += 1"
    assert "Unsafe fix" not in _check().stdout


@pytest.mark.parametrize("tree", [{}, {"notes.txt": "x"}, {".spanlint.yaml": "exclude: ['*.py']\n", "a.py": REWRITE}])
def test_no_python_files_is_a_warning_and_exit_0(project: Path, tree: dict[str, str]) -> None:
    write_tree(project, tree)
    outcome = _check()
    assert outcome.exit_code == 0
    assert outcome.stderr == "spanlint: warning: No Python files found under the given path(s)\n"
    assert _check("-q").stderr == ""


def test_dash_h_is_help() -> None:
    outcome = runner.invoke(app, ["check", "-h"])
    assert outcome.exit_code == 0 and "--add-noqa" in outcome.stdout
    assert runner.invoke(app, ["-h"]).stdout == runner.invoke(app, ["--help"]).stdout


def test_color_option(project: Path) -> None:
    write_tree(project, {"a.py": REWRITE})
    assert "\x1b[" in _check("--color", "always").stdout
    assert "\x1b[" not in _check("--color", "never").stdout
    assert "\x1b[" not in _check().stdout  # auto: not a terminal
    assert _check("--color", "sometimes").exit_code == 2


def test_quiet_prints_only_the_findings_and_silent_nothing(project: Path) -> None:
    write_tree(project, {"a.py": REWRITE, "b.py": CLEAN})
    quiet = _check("-q", "--output-format", "concise")
    assert quiet.exit_code == 1 and quiet.stdout.splitlines() == [
        "a.py:2:5: SPL101 `span.content` rewritten in place without bumping its version"
    ]
    assert _check("--quiet", "b.py").stdout == ""
    silent = _check("-s", "--fix")
    assert (silent.exit_code, silent.stdout, silent.stderr) == (1, "", "")
    assert _check("--silent", "b.py").exit_code == 0


def test_show_files_lists_what_would_be_linted(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": "exclude: ['gen/']\n", "a.py": "", "pkg/b.pyi": "", "gen/c.py": "", "d.txt": ""})
    outcome = _check("--show-files")
    assert outcome.exit_code == 0 and outcome.stdout.splitlines() == ["a.py", "pkg/b.pyi"]


def test_add_noqa_suppresses_each_finding_in_spanlints_own_syntax(project: Path) -> None:
    write_tree(project, {
        "a.py": REWRITE,
        "b.py": "def f(span):\n    span.content = 'x'  # noqa: E501\n",
        "c.py": 'def f(span):\n    span.content = """one\ntwo"""\n',
        "d.py": "def f(span):\n    span.content = 'x'  # spanlint: ignore[SPL102]\n",
    })
    outcome = _check("--add-noqa=legacy, reviewed")
    assert outcome.exit_code == 0 and "Added 4 noqa directives." in outcome.stderr
    assert (project / "a.py").read_text() == REWRITE.replace("[:100]\n", "[:100]  # noqa: SPL101 legacy, reviewed\n")
    assert (project / "b.py").read_text().endswith("= 'x'  # noqa: E501, SPL101\n")
    assert (project / "c.py").read_text() == 'def f(span):\n    # noqa: SPL101 legacy, reviewed\n    span.content = """one\ntwo"""\n'
    assert (project / "d.py").read_text().endswith("# spanlint: ignore[SPL102, SPL101]\n")
    assert _check().exit_code == 0
    assert "Added 0 noqa directives." in _check("--add-noqa=").stderr


def test_add_noqa_without_a_reason_leaves_the_next_argument_a_path(project: Path) -> None:
    write_tree(project, {"a.py": REWRITE, "b.py": REWRITE})
    done = subprocess.run(
        [sys.executable, "-m", "spanlint", "check", "--no-cache", "--add-noqa", "a.py"], cwd=project,
        capture_output=True, text=True, env={"PYTHONPATH": str(REPO), "PATH": ""}, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert (project / "a.py").read_text().endswith("[:100]  # noqa: SPL101\n")
    assert (project / "b.py").read_text() == REWRITE


def test_fix_with_stdin_writes_the_fixed_source_to_stdout(project: Path) -> None:
    write_tree(project, {"ops.py": VERSIONED})
    outcome = _check("-", "--stdin-filename", "ops.py", "--fix", "--unsafe-fixes", input=VERSIONED)
    assert outcome.exit_code == 0
    assert outcome.stdout == VERSIONED + "    span.version += 1\n"
    assert "Fixed 1 error, 0 remaining." in outcome.stderr and "All checks passed!" in outcome.stderr
    assert (project / "ops.py").read_text() == VERSIONED  # nothing written
    unchanged = _check("-", "--fix", "--output-format", "concise", input=REWRITE)
    assert unchanged.exit_code == 1 and unchanged.stdout == REWRITE
    assert "-:2:5: SPL101" in unchanged.stderr
    write_tree(project, {".spanlint.yaml": "exclude: ['gen/']\n"})
    excluded = _check("-", "--fix", "--stdin-filename", "gen/x.py", "--force-exclude", input=REWRITE)
    assert (excluded.exit_code, excluded.stdout) == (0, REWRITE)


def test_gitlab_code_quality(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_tree(project, {"pkg/a.py": REWRITE + REWRITE})  # the same code twice: one fingerprint each
    monkeypatch.setenv("CI_PROJECT_DIR", str(project.parent))
    issues = json.loads(_check("--output-format", "gitlab").stdout)
    assert len(issues) == 2 and len({i["fingerprint"] for i in issues}) == 2
    assert issues[0] == {
        "description": "SPL101: `span.content` rewritten in place without bumping its version",
        "check_name": "SPL101",
        "fingerprint": issues[0]["fingerprint"],
        "severity": "major",
        "location": {"path": f"{project.name}/pkg/a.py", "lines": {"begin": 2, "end": 2}},
        "content": {"body": "Bump its version after the write, or copy the span under a new id"},
    }


def test_pylint_format(project: Path) -> None:
    write_tree(project, {"a.py": REWRITE})
    assert _check("--output-format", "pylint").stdout == (
        "a.py:2: [SPL101] `span.content` rewritten in place without bumping its version\n"
    )
