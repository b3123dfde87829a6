"""pytest plugin: ``pytest --span-guard=raise|warn|off`` sets the guard mode for the run (through
SPANLINT_GUARD) and lists every violation the guard reported in the terminal summary.

Without the option the plugin does nothing: each guard keeps its own mode and nothing is listed."""

from __future__ import annotations

import os

import pytest

from runtime_guard.guard import ENV_MODES, ENV_VAR, ViolationReport, violation_listeners

PLUGIN_NAME = "span-guard-session"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("span-guard").addoption(
        "--span-guard", choices=ENV_MODES, default=None,
        help=f"runtime guard mode for this run (sets {ENV_VAR}); violations are listed at the end",
    )


class SpanGuardSession:
    """Holds the mode for the run and the violations reported during it."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.previous_env = os.environ.get(ENV_VAR)
        self.violations: list[tuple[str, ViolationReport]] = []

    def start(self) -> None:
        os.environ[ENV_VAR] = self.mode
        violation_listeners.append(self.record)

    def stop(self) -> None:
        violation_listeners.remove(self.record)
        if self.previous_env is None:
            os.environ.pop(ENV_VAR, None)
        else:
            os.environ[ENV_VAR] = self.previous_env

    def record(self, report: ViolationReport) -> None:
        test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0] or "(outside a test)"
        self.violations.append((test, report))

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not self.violations:
            return
        terminalreporter.section("span guard violations")
        for test, report in self.violations:
            terminalreporter.line(f"{test}: {report.error} ({report.mode}) in {report.operator}")
            terminalreporter.line(f"    {report.message}")
        terminalreporter.line(f"{len(self.violations)} span guard violation(s)")


def pytest_configure(config: pytest.Config) -> None:
    mode = config.getoption("--span-guard")
    if mode is None:
        return
    session = SpanGuardSession(mode)
    config.pluginmanager.register(session, PLUGIN_NAME)
    session.start()


def pytest_unconfigure(config: pytest.Config) -> None:
    session = config.pluginmanager.get_plugin(PLUGIN_NAME)
    if session is not None:
        session.stop()
        config.pluginmanager.unregister(session, PLUGIN_NAME)
