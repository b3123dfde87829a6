"""Runtime violations in the static report: a real pytest run with `--span-guard-report` over a
generated project, merged by `spanlint check --runtime-report` into SARIF (validated against the
schema) and the other formats."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from spanlint.cli import app

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "tests" / "data" / "sarif-schema-2.1.0.json"
SECRET = "sk-live-4242-do-not-print"

OPS = '''\
from dataclasses import dataclass, field
from runtime_guard import DecisionLog, guard


@dataclass
class Span:
    span_id: str
    content: str
    version: int = 1
    embedding: list | None = None


@dataclass
class Message:
    id: str
    content: str


@guard.rewrite
def redact(span):
    span.content = span.content.upper()


@guard.rewrite
def tidy(message):
    message.content = message.content.strip()


@guard.rewrite
def reword(span):
    span.content = "reworded"
    span.version += 1


@guard.prune
def drop(spans, decision_log):
    spans.pop()


@guard.prune
def forget(spans, decision_log):
    decision_log.pop()
'''

TESTS = f'''\
from ops import DecisionLog, Message, Span, drop, forget, redact, reword, tidy


def test_redact():
    redact(Span("s1", "key {SECRET}"))


def test_tidy():
    tidy(Message("m1", " {SECRET} "))


def test_reword():
    reword(Span("s2", "{SECRET}", embedding=[0.1]))


def test_prune():
    drop([Span("s3", "a"), Span("s4", "b")], [])
    forget([Span("s5", "c")], [{{"action": "prune", "span_id": "s0"}}])


def test_clean():
    span = Span("s6", "a")
    span.content = "b"
'''

STATIC = "def shorten(span):\n    span.content = span.content[:10]\n"


def _environment() -> dict[str, str]:
    environment = {**os.environ, "PYTHONPATH": str(REPO), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    for name in ("SPANLINT_GUARD", "SPANLINT_OUTPUT_FORMAT", "PYTEST_ADDOPTS"):
        environment.pop(name, None)
    return environment


@pytest.fixture(scope="module")
def guarded_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose test run breaks each invariant once, its runtime report written by pytest."""
    root = tmp_path_factory.mktemp("guarded")
    (root / "pyproject.toml").write_text("[project]\nname = 'guarded'\n")
    (root / "ops.py").write_text(OPS)
    (root / "static.py").write_text(STATIC)
    (root / "tests").mkdir()
    (root / "tests" / "test_ops.py").write_text(TESTS)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "runtime_guard.pytest_plugin", "-p", "no:cacheprovider",
         "--span-guard=warn", "--span-guard-report", "reports/guard.json", "-q", "-W", "ignore", "tests"],
        cwd=root, capture_output=True, text=True, env=_environment(), timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "span guard report: 5 violation(s) written to" in done.stdout
    return root


def _spanlint(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "spanlint", "check", "--no-cache", *args], cwd=root, capture_output=True, text=True,
        env=_environment(), timeout=120,
    )


def _def_line(root: Path, name: str) -> int:
    return next(i for i, line in enumerate((root / "ops.py").read_text().splitlines(), 1) if line.startswith(f"def {name}("))


def test_pytest_writes_each_violation_as_a_finding(guarded_project: Path) -> None:
    text = (guarded_project / "reports" / "guard.json").read_text()
    assert SECRET not in text
    found = {(f["code"], f["path"], f["line"], f["test"]) for f in json.loads(text)["findings"]}
    assert found == {
        ("SPL101", "ops.py", _def_line(guarded_project, "redact"), "tests/test_ops.py::test_redact"),
        ("SPL103", "ops.py", _def_line(guarded_project, "tidy"), "tests/test_ops.py::test_tidy"),
        ("SPL104", "ops.py", _def_line(guarded_project, "reword"), "tests/test_ops.py::test_reword"),
        ("SPL401", "ops.py", _def_line(guarded_project, "drop"), "tests/test_ops.py::test_prune"),
        ("SPL402", "ops.py", _def_line(guarded_project, "forget"), "tests/test_ops.py::test_prune"),
    }


def test_the_runtime_findings_are_merged_into_valid_sarif(guarded_project: Path) -> None:
    done = _spanlint(guarded_project, "--runtime-report", "reports/guard.json", "--output-format", "sarif")
    assert done.returncode == 1, done.stderr
    assert SECRET not in done.stdout
    document = json.loads(done.stdout)
    jsonschema.validate(document, json.loads(SCHEMA.read_text(encoding="utf-8")))
    results = document["runs"][0]["results"]
    runtime = [r for r in results if r.get("properties", {}).get("foundAt") == "runtime"]
    static = [r for r in results if r.get("properties", {}).get("foundAt") != "runtime"]
    assert sorted(r["ruleId"] for r in runtime) == ["SPL101", "SPL103", "SPL104", "SPL401", "SPL402"]
    assert ("SPL101", "static.py") in {
        (r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]) for r in static
    }
    assert len(static) == len(json.loads(_spanlint(guarded_project, "--output-format", "json").stdout))
    redact = next(r for r in runtime if r["ruleId"] == "SPL101")
    location = redact["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "ops.py", "uriBaseId": "%SRCROOT%"}
    assert location["region"]["startLine"] == _def_line(guarded_project, "redact")
    assert redact["properties"]["test"] == "tests/test_ops.py::test_redact"
    assert redact["message"]["text"].startswith("StaleSpanError at run time in `tests/test_ops.py::test_redact`: ")


def test_the_runtime_findings_reach_every_format(guarded_project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(guarded_project)

    def check(*args: str) -> str:
        return CliRunner().invoke(app, ["check", "--no-cache", *args]).stdout

    concise = check("--runtime-report", "reports/guard.json", "--output-format", "concise")
    assert f"ops.py:{_def_line(guarded_project, 'tidy')}:1: SPL103 StaleSpanError at run time" in concise
    static = len(json.loads(check("--output-format", "json")))
    assert f"Found {static + 5} errors." in concise
    for output_format in ("full", "json", "json-lines", "github", "junit", "gitlab", "pylint"):
        text = check("--runtime-report", "reports/guard.json", "--output-format", output_format)
        assert "test_ops.py::test_prune" in text and SECRET not in text, output_format
    ignored = check("--runtime-report", "reports/guard.json", "--ignore", "SPL4", "--output-format", "json")
    assert {f["code"] for f in json.loads(ignored) if "runtime_test" in f} == {"SPL101", "SPL103", "SPL104"}


def test_a_bad_runtime_report_is_a_usage_error(guarded_project: Path, tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "other.json").write_text('{"findings": []}')
    for path in (tmp_path / "bad.json", tmp_path / "other.json", tmp_path / "missing.json"):
        done = _spanlint(guarded_project, "--runtime-report", str(path))
        assert done.returncode == 2 and done.stderr.startswith(f"spanlint: error: {path}") and "Traceback" not in done.stderr
