"""A rule that raises on a file is an internal error (exit 2): the other rules' findings stay, the run goes on."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import spanlint.settings
from spanlint.cli import app
from spanlint.rules.base import Rule
from tests.reliability.helpers import REWRITE


class ExplodingRule(Rule):
    """A rule with a bug: it raises on every call."""

    code = "SPL999"
    name = "exploding"
    summary = "Raises on every call"
    message = "never reported"

    def visit_Call(self, node) -> None:  # noqa: N802 - LibCST's naming
        raise ValueError("line one\nline two")


@pytest.fixture
def exploding(monkeypatch: pytest.MonkeyPatch) -> None:
    real = spanlint.settings.all_rules
    monkeypatch.setattr(spanlint.settings, "all_rules", lambda: (*real(), ExplodingRule))


def test_a_rule_that_raises_leaves_the_other_rules_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exploding: None
) -> None:
    (tmp_path / "good.py").write_text(REWRITE + "print(1)\n", encoding="utf-8")
    (tmp_path / "clean.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["check", ".", "--select", "ALL", "--jobs", "1", "--output-format", "concise"])
    assert result.exit_code == 2, result.output
    findings = result.stdout.splitlines()
    assert findings[0].startswith("good.py:2:5: SPL101 ")
    assert not any("SPL000" in line or "SPL999" in line or line.startswith("clean.py") for line in findings)
    line = REWRITE.count("\n") + 1
    assert result.stderr.splitlines() == [
        f"spanlint: internal error: rule SPL999 (exploding) failed on good.py:{line}: ValueError: line one line two",
        "spanlint: this is a bug in spanlint; please report it at https://github.com/spanlint/spanlint/issues",
    ]


def test_internal_error_alone_fails_the_run_with_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exploding: None
) -> None:
    (tmp_path / "calls.py").write_text("print(1)\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["check", "calls.py", "--select", "ALL", "--output-format", "concise", "--exit-zero"])
    assert result.exit_code == 2
    assert "rule SPL999 (exploding) failed on calls.py:1: ValueError" in result.stderr