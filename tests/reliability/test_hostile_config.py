"""Hostile configuration files: a one-line error naming the file, exit 2, no traceback, nothing run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reliability.helpers import REWRITE, spanlint

DEEP_YAML = "select: " + "[" * 10_000 + "]" * 10_000 + "\n"
DEEP_MAPPING = "vocabulary: " + "{a: " * 10_000 + "1" + "}" * 10_000 + "\n"


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        (".spanlint.yaml", "select: [SPL1\n", "invalid YAML"),
        (".spanlint.yaml", b"select: [SPL1]\n# caf\xe9\n", "cannot read configuration"),
        (".spanlint.yaml", "select: SPL101\n", "expected a list of strings"),
        (".spanlint.yaml", "max-file-bytes: [1]\n", "expected a positive integer"),
        (".spanlint.yaml", "select: [SPL999]\n", "unknown rule selector"),
        (".spanlint.yaml", "colour: red\n", "unknown key 'colour'"),
        (".spanlint.yaml", DEEP_YAML, "nested too deeply"),
        (".spanlint.yaml", DEEP_MAPPING, "nested too deeply"),
        (".spanlint.yaml", "# padding\n" * 5_000_000, "larger than"),
        ("pyproject.toml", "[tool.spanlint\nselect = []\n", "invalid TOML"),
        ("pyproject.toml", "[tool.spanlint]\nselect = " + "[" * 10_000 + "]" * 10_000 + "\n", "nested too deeply"),
    ],
    ids=[
        "yaml-syntax", "not-utf8", "wrong-type", "wrong-type-int", "unknown-code", "unknown-key", "deep-list",
        "deep-mapping", "50-mb", "toml-syntax", "deep-toml",
    ],
)
def test_bad_configuration_is_a_clear_error(tmp_path: Path, name: str, content: str | bytes, reason: str) -> None:
    config = tmp_path / name
    config.write_bytes(content if isinstance(content, bytes) else content.encode())
    (tmp_path / "a.py").write_text(REWRITE, encoding="utf-8")
    run = spanlint(tmp_path, "a.py")
    assert run.code == 2
    assert run.findings == []
    (line,) = run.stderr.splitlines()
    assert line.startswith(f"spanlint: error: {config}") and reason in line, line


def test_yaml_python_tags_are_refused_and_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    (tmp_path / ".spanlint.yaml").write_text(f'select: !!python/object/apply:os.system ["touch {marker}"]\n')
    (tmp_path / "a.py").write_text(REWRITE, encoding="utf-8")
    run = spanlint(tmp_path, "a.py")
    assert run.code == 2 and "invalid YAML" in run.stderr and "Traceback" not in run.stderr
    assert not marker.exists()


# 329 bytes: nine levels of nine aliases, 387 million strings once expanded.
BILLION_LAUGHS = (
    "a: &a [x,x,x,x,x,x,x,x,x]\n"
    + "".join(f"{n}: &{n} [{','.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi"))
    + "severity: {SPL101: *i}\n"
)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (BILLION_LAUGHS, "over 100,000 values once its aliases are expanded"),
        ("vocabulary: " + "{a: " * 150 + "1" + "}" * 150 + "\n", "nested too deeply (over 100 levels)"),
        ("severity: {SPL101: '" + "x" * 200_000 + "'}\n", "expected one of error, warn, off"),
        ("x" * 200_000 + ": 1\n", "invalid YAML"),  # the parser quotes the line: cut short
    ],
    ids=["billion-laughs", "deep", "long-value", "long-key"],
)
def test_a_configuration_error_is_one_short_line(tmp_path: Path, content: str, reason: str) -> None:
    (tmp_path / ".spanlint.yaml").write_text(content)
    (tmp_path / "a.py").write_text(REWRITE, encoding="utf-8")
    run = spanlint(tmp_path, "a.py")
    (line,) = run.stderr.splitlines()
    assert run.code == 2 and reason in line and len(line) < 500, line
