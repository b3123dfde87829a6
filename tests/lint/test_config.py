"""Configuration files: validation errors that name the key and file, and which file wins."""

from __future__ import annotations

from pathlib import Path

import pytest

from spanlint.config import ConfigError, ConfigResolver, load_config_file
from spanlint.runner import check_paths
from tests.lint.conftest import REWRITE, write_tree


def _codes(root: Path, resolver: ConfigResolver | None = None, paths: tuple[str, ...] = (".",)) -> list[tuple[str, str]]:
    result = check_paths([root / p for p in paths], resolver or ConfigResolver())
    return [(Path(d.path).name, d.code) for d in result.diagnostics]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("selct: [SPL101]\n", "unknown key 'selct'"),
        ("select: SPL101\n", "key 'select': expected a list of strings"),
        ("select: [SPL999]\n", "key 'select': unknown rule selector: 'SPL999'"),
        ("max-file-bytes: big\n", "key 'max-file-bytes': expected a positive integer"),
        ("severity: {SPL101: loud}\n", "key 'severity'"),
        ("vocabulary: {span_nounz: [x]}\n", "unknown vocabulary field 'span_nounz'"),
        ("vocabulary: {span_nouns: doc}\n", "key 'vocabulary'"),
        ("per-file-ignores: {'tests/*': [NOPE]}\n", "key 'per-file-ignores'"),
        ("root: yes please\n", "key 'root'"),
        ("- a\n- b\n", "expected a mapping"),
        ("select: !!python/object/apply:os.system ['echo hi']\n", "invalid YAML"),
    ],
)
def test_invalid_yaml_config_names_file_and_key(project: Path, text: str, expected: str) -> None:
    path = write_tree(project, {".spanlint.yaml": text}) / ".spanlint.yaml"
    with pytest.raises(ConfigError) as error:
        load_config_file(path)
    assert expected in str(error.value)
    assert str(path) in str(error.value)


def test_invalid_pyproject_table_names_the_table(project: Path) -> None:
    path = write_tree(project, {"pyproject.toml": "[tool.spanlint]\nignore = 'SPL101'\n"}) / "pyproject.toml"
    with pytest.raises(ConfigError, match=r"pyproject.toml \[tool.spanlint\]: key 'ignore'"):
        load_config_file(path)


def test_pyproject_without_table_is_not_a_config(project: Path) -> None:
    write_tree(project, {"pyproject.toml": "[project]\nname = 'x'\n", "a.py": REWRITE})
    assert load_config_file(project / "pyproject.toml") is None
    assert _codes(project) == [("a.py", "SPL101")]


def test_pyproject_table_applies(project: Path) -> None:
    write_tree(project, {"pyproject.toml": "[tool.spanlint]\nignore = ['SPL101']\n", "a.py": REWRITE})
    assert _codes(project) == []


def test_nearest_file_wins_per_key_and_root_stops_the_walk(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        ".spanlint.yaml": "ignore: [SPL101]\n",
        "top.py": REWRITE,
        "inner/.spanlint.yaml": "ignore: []\n",
        "inner/a.py": REWRITE,
        "cascade/.spanlint.yaml": "max-file-bytes: 100000\n",
        "cascade/b.py": REWRITE,
        "rooted/.spanlint.yaml": "root: true\n",
        "rooted/c.py": REWRITE,
    })
    assert _codes(tmp_path) == [("a.py", "SPL101"), ("c.py", "SPL101")]


def test_config_option_uses_that_file_alone(tmp_path: Path) -> None:
    write_tree(tmp_path, {".spanlint.yaml": "ignore: [SPL101]\n", "a.py": REWRITE, "other.yaml": "select: [SPL101]\n"})
    assert _codes(tmp_path) == []
    assert _codes(tmp_path, ConfigResolver(config_file=tmp_path / "other.yaml")) == [("a.py", "SPL101")]


def test_isolated_ignores_every_file(tmp_path: Path) -> None:
    write_tree(tmp_path, {".spanlint.yaml": "ignore: [SPL101]\n", "a.py": REWRITE})
    assert _codes(tmp_path, ConfigResolver(isolated=True)) == [("a.py", "SPL101")]


def test_missing_config_option_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        ConfigResolver(config_file=tmp_path / "nope.yaml")


def test_per_file_ignores_are_relative_to_the_config(tmp_path: Path) -> None:
    write_tree(tmp_path, {".spanlint.yaml": "per-file-ignores: {'tests/*.py': [in-place-rewrite-without-version-bump]}\n",
                          "tests/t.py": REWRITE, "src/s.py": REWRITE})
    assert _codes(tmp_path) == [("s.py", "SPL101")]


def test_severity_warn_and_off(tmp_path: Path) -> None:
    write_tree(tmp_path, {"warn/.spanlint.yaml": "severity: {SPL1: warn}\n", "warn/a.py": REWRITE,
                          "off/.spanlint.yaml": "severity: {SPL101: off}\n", "off/b.py": REWRITE})
    result = check_paths([tmp_path], ConfigResolver())
    assert [(Path(d.path).name, d.severity) for d in result.diagnostics] == [("a.py", "warn")]


def test_vocabulary_override_reaches_the_rules(tmp_path: Path) -> None:
    source = "def compress(doc):\n    doc.content = doc.content[:100]\n"
    write_tree(tmp_path, {"default/a.py": source, "custom/.spanlint.yaml": "vocabulary: {span_nouns: [doc]}\n",
                          "custom/b.py": source})
    assert _codes(tmp_path) == [("b.py", "SPL101")]


def test_max_file_bytes_makes_an_spl000(tmp_path: Path) -> None:
    write_tree(tmp_path, {".spanlint.yaml": "max-file-bytes: 10\n", "a.py": REWRITE})
    (finding,) = check_paths([tmp_path], ConfigResolver()).diagnostics
    assert finding.code == "SPL000" and "max-file-bytes" in finding.message
