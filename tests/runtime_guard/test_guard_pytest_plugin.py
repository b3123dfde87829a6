"""The pytest plugin: --span-guard sets the mode for the run and violations are summarised."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parents[2]

TEST_FILE = '''
from dataclasses import dataclass
from runtime_guard import guard

@dataclass
class Span:
    span_id: str
    content: str
    version: int = 1

@guard("rewrite")
def edit(spans):
    spans[0].content = "edited"

def test_edits():
    spans = [Span("task-7", "old")]
    edit(spans)
    assert spans[0].content == "edited"
'''


@pytest.fixture
def run(pytester, monkeypatch):
    # load the plugin by module, whether or not the package's entry point is installed
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    monkeypatch.delenv("SPANLINT_GUARD", raising=False)
    pytester.makepyfile(test_span=TEST_FILE)

    def run(*options):
        return pytester.runpytest_subprocess("-p", "runtime_guard.pytest_plugin", "-p", "no:cacheprovider",
                                             *options)

    return run


def test_raise_mode_fails_the_test_and_lists_the_violation(run):
    result = run("--span-guard=raise")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*span guard violations*",
        "test_span.py::test_edits: StaleSpanError (raise) in test_span.edit",
        "*span 'task-7' changed content*",
        "1 span guard violation(s)",
    ])


def test_warn_mode_passes_the_test_and_still_lists_the_violation(run):
    result = run("--span-guard=warn")
    result.assert_outcomes(passed=1, warnings=1)
    result.stdout.fnmatch_lines(["*span guard violations*", "*StaleSpanError (warn) in test_span.edit*"])


def test_off_mode_checks_nothing(run):
    result = run("--span-guard=off")
    result.assert_outcomes(passed=1)
    result.stdout.no_fnmatch_line("*span guard violations*")


def test_without_the_option_the_decorated_mode_applies_and_nothing_is_listed(run):
    result = run()
    result.assert_outcomes(failed=1)
    result.stdout.no_fnmatch_line("*span guard violations*")


def test_option_rejects_unknown_modes(run):
    result = run("--span-guard=loud")
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*invalid choice: 'loud'*"])


def test_entry_point_is_declared():
    pyproject = (REPO / "pyproject.toml").read_text()
    assert '[project.entry-points.pytest11]\nspan_guard = "runtime_guard.pytest_plugin"' in pyproject
