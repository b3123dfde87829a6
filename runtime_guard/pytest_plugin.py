"""pytest plugin: ``pytest --span-guard=raise|warn|off`` sets the guard mode for the run (through
SPANLINT_GUARD) and lists every violation the guard reported in the terminal summary;
``--span-guard-report PATH`` writes them to PATH as findings (`runtime_guard.report`) that
``spanlint check --runtime-report PATH`` merges into its report.

Without either option the plugin does nothing: each guard keeps its own mode and nothing is listed."""

from __future__ import annotations

import os

import pytest

from runtime_guard.guard import ENV_MODES, ENV_VAR
from runtime_guard.report import ViolationRecorder

PLUGIN_NAME = "span-guard-session"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("span-guard")
    group.addoption(
        "--span-guard", choices=ENV_MODES, default=None,
        help=f"runtime guard mode for this run (sets {ENV_VAR}); violations are listed at the end",
    )
    group.addoption(
        "--span-guard-report", metavar="PATH", default=None,
        help="write the guard violations of the run to PATH (JSON) for `spanlint check --runtime-report`",
    )


def _current_test() -> str:
    return os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0] or "(outside a test)"


class SpanGuardSession:
    """Holds the mode for the run (None: each guard's own) and the violations reported during it."""

    def __init__(self, mode: str | None, root: str, report_path: str | None) -> None:
        self.mode = mode
        self.report_path = report_path
        self.previous_env = os.environ.get(ENV_VAR)
        self.recorder = ViolationRecorder(root, _current_test)

    def start(self) -> None:
        if self.mode is not None:
            os.environ[ENV_VAR] = self.mode
        self.recorder.start()

    def stop(self) -> None:
        self.recorder.stop()
        if self.mode is None:
            return
        if self.previous_env is None:
            os.environ.pop(ENV_VAR, None)
        else:
            os.environ[ENV_VAR] = self.previous_env

    @pytest.hookimpl(tryfirst=True)  # before the terminal summary says it is written
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.report_path is not None:
            self.recorder.write(self.report_path)

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        findings = self.recorder.findings
        if self.report_path is not None:
            terminalreporter.line(f"span guard report: {len(findings)} violation(s) written to {self.report_path}")
        if not findings:
            return
        terminalreporter.section("span guard violations")
        for finding in findings:
            terminalreporter.line(f"{finding.test}: {finding.error} ({finding.mode}) in {finding.operator}")
            terminalreporter.line(f"    {finding.message}")
        terminalreporter.line(f"{len(findings)} span guard violation(s)")


def pytest_configure(config: pytest.Config) -> None:
    mode = config.getoption("--span-guard")
    report_path = config.getoption("--span-guard-report")
    if mode is None and report_path is None:
        return
    if report_path is not None:
        report_path = os.path.join(str(config.invocation_params.dir), report_path)
    session = SpanGuardSession(mode, str(config.rootpath), report_path)
    config.pluginmanager.register(session, PLUGIN_NAME)
    session.start()


def pytest_unconfigure(config: pytest.Config) -> None:
    session = config.pluginmanager.get_plugin(PLUGIN_NAME)
    if session is not None:
        session.stop()
        config.pluginmanager.unregister(session, PLUGIN_NAME)
