"""An internal error on one file is that file's SPL000, the run goes on, and the exit code shows it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import lint.settings
from lint.cli import app
from rules.base import Rule
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
    real = lint.settings.all_rules
    monkeypatch.setattr(lint.settings, "all_rules", lambda: (*real(), ExplodingRule))


def test_rule_that_raises_is_an_spl000_for_that_file_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exploding: None
) -> None:
    (tmp_path / "calls.py").write_text("print(1)\n", encoding="utf-8")
    (tmp_path / "good.py").write_text(REWRITE, encoding="utf-8")
    (tmp_path / "clean.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["check", ".", "--select", "ALL", "--jobs", "1", "--output-format", "concise"])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert lines[0] == "calls.py:1:1: SPL000 internal error: ValueError: line one line two"
    assert lines[1].startswith("good.py:2:5: SPL101 ")
    assert not any(line.startswith("clean.py") for line in lines)


def test_internal_error_alone_still_fails_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exploding: None
) -> None:
    (tmp_path / "calls.py").write_text("print(1)\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["check", "calls.py", "--select", "ALL", "--output-format", "concise"])
    assert result.exit_code == 1
    assert result.output.startswith("calls.py:1:1: SPL000 internal error: ValueError")
