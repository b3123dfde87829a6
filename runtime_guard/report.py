"""Guard violations as findings for spanlint's reports. Standard library only.

Any test runner can collect them:

    from runtime_guard.report import ViolationRecorder

    with ViolationRecorder(root=".", test=lambda: current_test_id) as recorder:
        run_the_tests()
    recorder.write("span-guard.json")

`spanlint check --runtime-report span-guard.json` then merges them into its own report, in every
output format. Each finding has the rule code the violation corresponds to, the operator's source
location (the decorated function's `def` line, relative to `root`), the test it happened in and
the guard's message, which never holds span content.
"""

from __future__ import annotations

import inspect
import json
import linecache
import os
import sys
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from types import FrameType
from typing import Any, Callable, Iterable

from runtime_guard import errors
from runtime_guard.guard import ViolationReport, violation_listeners

FORMAT = "spanlint-runtime-report"
FORMAT_VERSION = 1
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))

# The static rule each kind of broken invariant corresponds to: the first whose words the guard's
# message holds, else the kind's default.
_CODES: dict[str, tuple[tuple[str, str], ...]] = {
    errors.StaleSpanError.__name__: (
        ("has neither a version nor a hash", "SPL103"),
        ("is not greater", "SPL101"),
        ("copy_on_rewrite", "SPL101"),
        ("stored hash", "SPL102"),
        ("derived field", "SPL104"),
    ),
    errors.ProvenanceError.__name__: (("must be append-only", "SPL402"),),
    errors.SummaryChainError.__name__: (),
}
_DEFAULT_CODES = {
    errors.StaleSpanError.__name__: "SPL101",
    errors.ProvenanceError.__name__: "SPL401",
    errors.SummaryChainError.__name__: "SPL301",
}


@dataclass(frozen=True)
class RuntimeFinding:
    """One guard violation, as a finding: `path` is relative to the report's root when under it."""

    code: str
    path: str
    line: int
    test: str
    operator: str
    error: str
    mode: str
    message: str


def rule_code(error: str, message: str) -> str:
    """The static rule a violation corresponds to (SPL101/102/103/104 rewrites, SPL401/402 prunes,
    SPL301 summaries), from its error class name and message."""
    for words, code in _CODES.get(error, ()):
        if words in message:
            return code
    return _DEFAULT_CODES.get(error, "SPL101")


def operator_location(operator: str, caller: FrameType | None = None) -> tuple[str, int] | None:
    """The file and `def` line of the operator named `module.qualname`; for one that cannot be
    reached by name (defined inside a function), the first frame of `caller`'s stack outside the
    guard: where it was called."""
    function = _resolve(operator)
    code = getattr(inspect.unwrap(function), "__code__", None) if function is not None else None
    if code is not None:
        return os.path.abspath(code.co_filename), _def_line(code.co_filename, code.co_firstlineno)
    frame = caller
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _PACKAGE_DIR:
        frame = frame.f_back
    if frame is None:
        return None
    return os.path.abspath(frame.f_code.co_filename), frame.f_lineno


def _resolve(operator: str) -> Any:
    parts = operator.split(".")
    for split in range(len(parts) - 1, 0, -1):
        module = sys.modules.get(".".join(parts[:split]))
        if module is None:
            continue
        found: Any = module
        for name in parts[split:]:
            found = getattr(found, name, None)
            if found is None:
                return None
        return getattr(found, "__func__", found)
    return None


def _def_line(filename: str, first: int) -> int:
    """The line of the `def` a decorated function's code starts above (at its first decorator)."""
    for number in range(first, first + 50):
        text = linecache.getline(filename, number).lstrip()
        if not text:
            break
        if text.startswith(("def ", "async def ")):
            return number
    return first


class ViolationRecorder:
    """Collects every guard violation while started (whatever the guards' modes) as RuntimeFindings.

    root: paths are written relative to it. test: returns the id of the test running now."""

    def __init__(self, root: str | os.PathLike[str] = ".", test: Callable[[], str] = lambda: "") -> None:
        self.root = Path(os.path.abspath(root))
        self.test = test
        self.findings: list[RuntimeFinding] = []
        self._lock = threading.Lock()

    def start(self) -> None:
        violation_listeners.append(self.record)

    def stop(self) -> None:
        if self.record in violation_listeners:
            violation_listeners.remove(self.record)

    def __enter__(self) -> ViolationRecorder:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def record(self, report: ViolationReport) -> None:
        """A guard's listener: add `report` as a finding."""
        location = operator_location(report.operator, sys._getframe(1))
        path, line = location if location is not None else ("", 1)
        finding = RuntimeFinding(
            code=rule_code(report.error, report.message), path=self._relative(path), line=line,
            test=self.test(), operator=report.operator, error=report.error, mode=report.mode,
            message=report.message,
        )
        with self._lock:
            self.findings.append(finding)

    def _relative(self, path: str) -> str:
        try:
            return Path(path).relative_to(self.root).as_posix()
        except ValueError:
            return Path(path).as_posix()

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the findings so far to `path` (JSON), creating its directory."""
        write_report(path, self.root, self.findings)


def write_report(path: str | os.PathLike[str], root: str | os.PathLike[str], findings: Iterable[RuntimeFinding]) -> None:
    """Write `findings` (paths relative to `root`) as a runtime report."""
    document = {
        "format": FORMAT, "version": FORMAT_VERSION, "root": os.path.abspath(root),
        "findings": [asdict(finding) for finding in findings],
    }
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
