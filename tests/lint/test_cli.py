"""The `spanlint` command in-process: options, exit codes, commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spanlint.cli import app
from tests.lint.conftest import CLEAN, REWRITE, write_tree

runner = CliRunner()


def _check(*args: str, **kwargs):
    return runner.invoke(app, ["check", *args], **kwargs)


def test_exit_codes(project: Path) -> None:
    write_tree(project, {"clean/a.py": CLEAN, "dirty/b.py": REWRITE})
    assert _check("clean").exit_code == 0
    assert _check("dirty").exit_code == 1
    assert _check("dirty", "--exit-zero").exit_code == 0
    assert _check("missing").exit_code == 2


def test_default_path_is_the_current_directory(project: Path) -> None:
    write_tree(project, {"sub/b.py": REWRITE})
    outcome = _check("--output-format", "concise")
    assert outcome.exit_code == 1
    assert outcome.stdout.startswith("sub/b.py:2:5: SPL101 ")


def test_warnings_fail_only_with_strict(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": "severity: {SPL101: warn}\n", "b.py": REWRITE})
    assert _check().exit_code == 0
    assert _check("--strict").exit_code == 1


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (["--select", "SPL101"], 1),
        (["--select", "SPL1"], 1),
        (["--select", "in-place-rewrite-without-version-bump"], 1),
        (["--ignore", "SPL101"], 0),
        (["--ignore", "SPL0,SPL1"], 0),
        (["--select", "SPL900"], 0),
        (["--select", "SPL000", "--extend-select", "SPL101"], 1),
    ],
)
def test_selectors(project: Path, options: list[str], expected: int) -> None:
    write_tree(project, {"b.py": REWRITE})
    assert _check(*options).exit_code == expected


@pytest.mark.parametrize("option", ["--select", "--ignore", "--extend-select"])
def test_unknown_selector_is_a_usage_error(project: Path, option: str) -> None:
    write_tree(project, {"b.py": REWRITE})
    outcome = _check(option, "SPL9999")
    assert outcome.exit_code == 2
    assert "unknown rule selector" in outcome.output


def test_config_error_is_one_line_and_exit_2(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": "selct: [SPL101]\n", "b.py": REWRITE})
    outcome = _check()
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith("spanlint: error: ") and "'selct'" in outcome.stderr
    assert str(project / ".spanlint.yaml") in outcome.stderr
    assert "Traceback" not in outcome.output


def test_invalid_config_elsewhere_in_the_project_is_a_warning(project: Path) -> None:
    """A broken configuration in a directory the user did not name leaves that directory out of the
    project index with a warning and does not stop linting the file that was named; naming a file under
    it is still a configuration error."""
    write_tree(project, {
        "pyproject.toml": "[project]\nname = \"app\"\n", "app/b.py": REWRITE,
        "vendor/.spanlint.yaml": "selct: [SPL101]\n", "vendor/c.py": CLEAN,
    })
    outcome = _check("app/b.py", "--output-format", "concise")
    assert outcome.exit_code == 1
    assert outcome.stdout.startswith("app/b.py:2:5: SPL101 ")
    assert "vendor: left out of the project index" in outcome.stderr and "'selct'" in outcome.stderr
    named = _check("vendor/c.py")
    assert named.exit_code == 2 and named.stderr.startswith("spanlint: error: ")


def test_config_and_isolated_options(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": "ignore: [SPL101]\n", "strict.yaml": "select: [SPL101]\n", "b.py": REWRITE})
    assert _check().exit_code == 0
    assert _check("--isolated").exit_code == 1
    assert _check("--config", "strict.yaml").exit_code == 1


def test_stdin(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": "exclude: ['generated/']\n"})
    outcome = _check("-", "--stdin-filename", "src/x.py", "--output-format", "concise", input=REWRITE)
    assert outcome.exit_code == 1 and outcome.stdout.startswith("src/x.py:2:5: SPL101")
    outcome = _check("-", "--output-format", "json", input=REWRITE)
    assert json.loads(outcome.stdout)[0]["filename"] == "-"
    assert _check("-", "--stdin-filename", "generated/x.py", input=REWRITE).exit_code == 1
    assert _check("-", "--stdin-filename", "generated/x.py", "--force-exclude", input=REWRITE).exit_code == 0


def test_force_exclude_on_explicit_files(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": "exclude: ['generated/']\n", "generated/x.py": REWRITE})
    assert _check().exit_code == 0
    assert _check("generated/x.py").exit_code == 1
    assert _check("generated/x.py", "--force-exclude").exit_code == 0


def test_output_format_from_the_environment_and_output_file(project: Path) -> None:
    write_tree(project, {"b.py": REWRITE})
    outcome = _check(env={"SPANLINT_OUTPUT_FORMAT": "json-lines"})
    assert json.loads(outcome.stdout.splitlines()[0])["code"] == "SPL101"
    outcome = _check("--output-format", "sarif", "--output-file", "out/report.sarif")
    assert outcome.exit_code == 1 and outcome.stdout == ""
    assert json.loads((project / "out/report.sarif").read_text())["version"] == "2.1.0"
    assert _check("--output-format", "xml").exit_code == 2


def test_statistics(project: Path) -> None:
    write_tree(project, {"a.py": REWRITE, "b.py": REWRITE})
    assert _check("--statistics").stdout == "2\tSPL101\t[ ] in-place-rewrite-without-version-bump\n"
    rows = json.loads(_check("--statistics", "--output-format", "json").stdout)
    assert [(r["code"], r["count"]) for r in rows] == [("SPL101", 2)]


def test_no_prescan_is_hidden_and_works(project: Path) -> None:
    write_tree(project, {"b.py": REWRITE})
    assert _check("--no-prescan").exit_code == 1
    assert "prescan" not in runner.invoke(app, ["check", "--help"]).stdout


def test_rule_documentation(project: Path) -> None:
    outcome = runner.invoke(app, ["rule", "SPL101"])
    assert outcome.exit_code == 0
    for section in ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety"):
        assert f"## {section}" in outcome.stdout
    assert runner.invoke(app, ["rule", "in-place-rewrite-without-version-bump"]).stdout == outcome.stdout
    document = json.loads(runner.invoke(app, ["rule", "SPL900", "--json"]).stdout)
    assert document["code"] == "SPL900" and document["fix"] == "safe" and document["default_enabled"] is False
    everything = json.loads(runner.invoke(app, ["rule", "--all", "--json"]).stdout)
    assert {"SPL000", "SPL101", "SPL900"} <= {d["code"] for d in everything}
    assert runner.invoke(app, ["rule", "SPL999"]).exit_code == 2


def test_rules_listing(project: Path) -> None:
    lines = runner.invoke(app, ["rules"]).stdout.splitlines()
    assert lines[0].split() == ["CODE", "NAME", "SEVERITY", "FIX", "SUMMARY"]
    spl900 = next(line for line in lines if line.startswith("SPL900"))
    assert "unused-suppression" in spl900 and "warn (off)" in spl900 and "safe" in spl900
    listed = json.loads(runner.invoke(app, ["rules", "--json"]).stdout)
    assert {"code", "name", "summary", "severity", "fix"} <= set(listed[0])


def test_config_show(project: Path) -> None:
    import yaml

    write_tree(project, {".spanlint.yaml": "ignore: [SPL101]\n", "sub/.spanlint.yaml": "extend-select: [SPL900]\n",
                         "sub/a.py": ""})
    shown = yaml.safe_load(runner.invoke(app, ["config", "--show", "sub/a.py"]).stdout)
    assert shown["config-files"] == [str(project / "sub/.spanlint.yaml"), str(project / ".spanlint.yaml")]
    enabled = shown["enabled-rules"]
    assert "SPL101" not in enabled and {"SPL000", "SPL900"} <= set(enabled)
    assert "span" in shown["vocabulary"]["span_nouns"]
