"""Hostile text and names in a repository: control characters never reach the terminal or a report
raw, and a pathological `.gitignore` pattern never makes the walk exponential."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import spanlint.discovery
from spanlint.discovery import discover
from spanlint.settings import Settings
from tests.reliability.helpers import REPO

CONTROL = "\x1b]0;owned\x07\x1b[2J\x7f\x9b"
RAW = "\x00\x07\x1b\x7f\x9b"
# A rewrite whose line holds terminal escapes (retitle the window, clear the screen).
HOSTILE = f'def compress(span):\n    span.content = "{CONTROL}"\n'


def _cli(cwd: Path, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "spanlint", "check", "--no-cache", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)
    return done.stdout + done.stderr


@pytest.mark.parametrize("output_format", ["full", "concise", "github", "junit", "json", "sarif", "json-lines"])
def test_control_characters_are_never_printed_raw(tmp_path: Path, output_format: str) -> None:
    name = "odd\x1b[31mname.py"
    (tmp_path / name).write_text(HOSTILE, encoding="utf-8")
    (tmp_path / "nul.py").write_bytes(b"x = 1  # \x00\x07\n")  # SPL000, its code frame shows the line
    output = _cli(tmp_path, "--output-format", output_format, "--isolated")
    assert not any(c in output for c in RAW), repr(output)
    assert "SPL101" in output and "SPL000" in output
    if output_format == "full":
        assert "␛]0;owned␇␛[2J␡\ufffd" in output and "␀" in output  # shown as visible symbols, as ruff does
    if output_format == "json":
        found = {f["filename"] for f in json.loads(output[: output.rindex("]") + 1])}
        assert name in found  # JSON escapes: the name itself is kept


def test_a_pathological_gitignore_pattern_is_matched_in_linear_time(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("*a" * 20 + "*b\n")
    for name in ("a" * 200 + ".py", "a" * 100 + "b" * 20 + "x.py"):
        (tmp_path / name).write_text("x = 1\n")
    (tmp_path / ("a" * 40 + "b")).mkdir()
    (tmp_path / ("a" * 40 + "b") / "ignored.py").write_text("x = 1\n")
    found = discover([tmp_path], lambda path: Settings())  # before: hours (git itself: as long)
    assert sorted(p.name for p in found) == sorted(["a" * 200 + ".py", "a" * 100 + "b" * 20 + "x.py"])


def test_without_re2_a_pathological_pattern_is_skipped_with_a_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spanlint.discovery, "_has_re2", lambda: False)
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("*.pyc\n" + "*a" * 20 + "*b\n**/build/*_*.py\n")
    (tmp_path / ("a" * 200 + ".py")).write_text("x = 1\n")
    (tmp_path / "x_y.py").write_text("x = 1\n")
    warnings: list[str] = []
    found = discover([tmp_path], lambda path: Settings(), warnings=warnings)
    assert sorted(p.name for p in found) == ["a" * 200 + ".py", "x_y.py"]
    (line,) = warnings
    assert line.startswith(f"{tmp_path / '.gitignore'}:2: pattern '*a*a") and "skipped" in line
