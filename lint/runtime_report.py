"""`spanlint check --runtime-report PATH`: the runtime guard's violations (written by
`pytest --span-guard-report PATH` or `runtime_guard.report`) merged into a run's findings, so one
report holds what was found statically and what was found at run time."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from spanlint.config import ConfigResolver
from spanlint.diagnostics import Diagnostic, Location, sort_diagnostics
from spanlint.runner import RunResult, display_path
from spanlint.rules import find_rule

FORMAT = "spanlint-runtime-report"  # `runtime_guard.report.FORMAT`: lint never imports runtime_guard
_FIELDS = {"code": str, "path": str, "line": int, "test": str, "operator": str, "error": str, "message": str}


class RuntimeReportError(Exception):
    """A runtime report that cannot be read: names the file and what is wrong."""


def read_runtime_report(path: Path) -> list[Diagnostic]:
    """The findings of the runtime report at `path`, with paths as the run displays them."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise RuntimeReportError(f"{path}: cannot read the runtime report: {error.strerror or error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise RuntimeReportError(f"{path}: not a runtime report (invalid JSON: {error})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT or not isinstance(document.get("findings"), list):
        raise RuntimeReportError(f"{path}: not a runtime report (written by `pytest --span-guard-report`)")
    root = Path(str(document.get("root") or path.parent))
    return [_diagnostic(finding, index, root, path) for index, finding in enumerate(document["findings"])]


def _diagnostic(finding: object, index: int, root: Path, path: Path) -> Diagnostic:
    if not isinstance(finding, dict) or any(not isinstance(finding.get(k), t) for k, t in _FIELDS.items()):
        wanted = ", ".join(_FIELDS)
        raise RuntimeReportError(f"{path}: finding {index} is not an object with {wanted}")
    rule = find_rule(finding["code"])
    if rule is None:
        raise RuntimeReportError(f"{path}: finding {index} has no rule code known to spanlint: {finding['code']!r}")
    where = Location(max(1, finding["line"]), 1)
    test = finding["test"]
    return Diagnostic(
        path=display_path(root / finding["path"]) if finding["path"] else str(path),
        location=where,
        end_location=where,
        code=rule.code,
        name=rule.name,
        message=f"{finding['error']} at run time in `{test}`: {finding['message']}",
        snippet=f"runtime {finding['operator']} {finding['error']} {test}",
        runtime_test=test,
    )


def merge_runtime_findings(result: RunResult, path: Path, resolver: ConfigResolver) -> RunResult:
    """`result` with the runtime report's findings added: those of rules the file's settings enable."""
    found = []
    for diagnostic in read_runtime_report(path):
        enabled = {r.code for r in resolver.settings_for_file(Path(diagnostic.path).absolute()).rules_for(diagnostic.path)}
        if diagnostic.code in enabled:
            found.append(diagnostic)
    return dataclasses.replace(result, diagnostics=sort_diagnostics(result.diagnostics + found))
