"""Turn a run's findings into a report: text for people, JSON/SARIF/JUnit/GitHub for tools.

Each format is a function `(result, color) -> str`, registered in `FORMATS`.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable
from urllib.parse import quote

from lint.diagnostics import Diagnostic, Location
from lint.engine import SourceError, read_file
from lint.runner import RunResult
from rules import all_rules, find_rule

if TYPE_CHECKING:  # rich is imported by the reporters that use it (~35 ms): not for JSON, SARIF...
    from rich.console import Console
    from rich.text import Text

DOCS_URL = "https://github.com/spanlint/spanlint/blob/main/docs/rules/{code}.md"
PROJECT_URL = "https://github.com/spanlint/spanlint"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
CONTEXT_LINES = 1
MAX_FRAME_LINES = 6


# Control characters as visible symbols, as ruff shows them: ␛ for ESC, ␇ for BEL, ␀ for NUL, ␡ for
# DEL; the C1 controls (a CSI byte starts a terminal escape too) as �. A linted file's text or name
# never reaches a terminal or a report as raw control bytes.
_VISIBLE = {**{c: chr(0x2400 + c) for c in range(0x20)}, 0x7F: "\u2421", **{c: "\ufffd" for c in range(0x80, 0xA0)}}


def visible(text: str) -> str:
    """`text` with its control characters replaced by visible symbols."""
    return text.translate(_VISIBLE)


def rule_url(code: str) -> str:
    """The documentation page of a rule."""
    return DOCS_URL.format(code=code)


def version() -> str:
    from importlib import metadata  # here: importing it costs ~10 ms of every start-up

    try:
        return metadata.version("spanlint")
    except metadata.PackageNotFoundError:
        return "0.0.0"


# --- people ---------------------------------------------------------------------------------------


def render_full(result: RunResult, color: bool) -> str:
    """Each finding with a code frame marking its exact span, then a summary line."""
    from rich.text import Text

    console = _console(color)
    sources = _SourceCache(result.sources)
    for diagnostic in result.diagnostics:
        console.print(_headline(diagnostic))
        frame = _code_frame(diagnostic, sources.lines(diagnostic.path))
        if frame is not None:
            console.print(frame)
        if diagnostic.fix is not None:
            console.print(Text.assemble("  = ", ("help", "bold cyan"), f": {visible(diagnostic.fix.message)}"))
        console.print()
    console.print(_summary(result.diagnostics))
    return console.file.getvalue()  # type: ignore[attr-defined]


def render_concise(result: RunResult, color: bool) -> str:
    """One line per finding: `path:line:col: CODE message`, then a summary line."""
    console = _console(color)
    for diagnostic in result.diagnostics:
        console.print(_headline(diagnostic))
    console.print(_summary(result.diagnostics))
    return console.file.getvalue()  # type: ignore[attr-defined]


def _console(color: bool) -> Console:
    from rich.console import Console

    return Console(
        file=io.StringIO(), force_terminal=color, no_color=not color, color_system="standard" if color else None,
        width=10_000, highlight=False, soft_wrap=True,
    )


def _headline(diagnostic: Diagnostic) -> Text:
    from rich.text import Text

    where = f"{visible(diagnostic.path)}:{diagnostic.location.line}:{diagnostic.location.column}:"
    style = "bold red" if diagnostic.severity == "error" else "bold yellow"
    fixable = " [*]" if diagnostic.fix is not None else ""
    return Text.assemble((where, "bold"), " ", (diagnostic.code, style), (fixable, "cyan"), " ", visible(diagnostic.message))


def _summary(diagnostics: list[Diagnostic]) -> Text:
    from rich.text import Text

    if not diagnostics:
        return Text("All checks passed!", style="green")
    counts = Counter(d.severity for d in diagnostics)
    errors, warnings = counts["error"], counts["warn"]
    parts = []
    if errors:
        parts.append(f"{errors} error{'s' * (errors != 1)}")
    if warnings:
        parts.append(f"{warnings} warning{'s' * (warnings != 1)}")
    fixable = sum(d.fix is not None for d in diagnostics)
    tail = f"\n[*] {fixable} with an automatic fix." if fixable else ""
    return Text(f"Found {' and '.join(parts)}.{tail}")


# Code frames are shown from files up to this size; a larger one is shown without them.
CODE_FRAME_MAX_BYTES = 16_000_000


class _SourceCache:
    def __init__(self, sources: dict[str, str]) -> None:
        self._lines = {path: text.splitlines() for path, text in sources.items()}

    def lines(self, path: str) -> list[str] | None:
        if path not in self._lines:
            try:
                data = read_file(path, CODE_FRAME_MAX_BYTES)
                self._lines[path] = data.decode("utf-8", errors="replace").splitlines()
            except SourceError:
                self._lines[path] = []
        return self._lines[path] or None


def _code_frame(diagnostic: Diagnostic, lines: list[str] | None) -> Text | None:
    """The finding's lines with a line of `^` under the exact columns it covers."""
    from rich.text import Text

    if not lines:
        return None
    start, end = diagnostic.location, diagnostic.end_location
    if end.line > start.line and end.column == 1:  # a span ending at the start of a line ends before it
        end = Location(end.line - 1, len(lines[min(end.line - 2, len(lines) - 1)]) + 1)
    last = min(end.line, start.line + MAX_FRAME_LINES - 1, len(lines))
    first_shown = max(1, start.line - CONTEXT_LINES)
    last_shown = min(len(lines), last + CONTEXT_LINES)
    width = len(str(last_shown))
    gutter = " " * width + " |"
    frame = Text(gutter + "\n", style="blue")
    for number in range(first_shown, last_shown + 1):
        line = visible(lines[number - 1].replace("\t", " "))
        frame.append(f"{number:>{width}} | ", style="blue")
        frame.append(line + "\n")
        if start.line <= number <= last:
            begin = start.column if number == start.line else len(line) - len(line.lstrip()) + 1
            stop = end.column if number == end.line else len(line) + 1
            marker = "^" * max(1, stop - begin)
            frame.append(gutter + " " * begin, style="blue")
            style = "bold red" if diagnostic.severity == "error" else "bold yellow"
            frame.append(marker + (f" {diagnostic.code}" if number == last else ""), style=style)
            frame.append("\n")
    frame.append(gutter, style="blue")
    return frame


# --- tools ----------------------------------------------------------------------------------------


def _position(location: Location) -> dict[str, int]:
    return {"row": location.line, "column": location.column}


def diagnostic_to_json(diagnostic: Diagnostic) -> dict[str, Any]:
    """One finding with ruff-compatible keys, plus `name`, `severity` and `fingerprint`."""
    fix = diagnostic.fix
    return {
        "code": diagnostic.code,
        "name": diagnostic.name,
        "message": diagnostic.message,
        "severity": diagnostic.severity,
        "filename": diagnostic.path,
        "location": _position(diagnostic.location),
        "end_location": _position(diagnostic.end_location),
        "fix": None if fix is None else {
            "applicability": fix.applicability,
            "message": fix.message,
            "edits": [
                {"content": e.content, "location": _position(e.location), "end_location": _position(e.end_location)}
                for e in fix.edits
            ],
        },
        "url": rule_url(diagnostic.code),
        "fingerprint": diagnostic.fingerprint,
    }


def render_json(result: RunResult, color: bool) -> str:
    return json.dumps([diagnostic_to_json(d) for d in result.diagnostics], indent=2, ensure_ascii=False) + "\n"


def render_json_lines(result: RunResult, color: bool) -> str:
    return "".join(json.dumps(diagnostic_to_json(d), ensure_ascii=False) + "\n" for d in result.diagnostics)


def render_github(result: RunResult, color: bool) -> str:
    """GitHub Actions workflow commands, one annotation per finding."""
    lines = []
    for d in result.diagnostics:
        properties = {
            "title": f"spanlint ({d.code})",
            "file": d.path,
            "line": d.location.line,
            "col": d.location.column,
            "endLine": d.end_location.line,
            "endColumn": d.end_location.column,
        }
        command = "error" if d.severity == "error" else "warning"
        props = ",".join(f"{key}={escape_property(visible(str(value)))}" for key, value in properties.items())
        lines.append(f"::{command} {props}::{escape_data(visible(f'{d.code} {d.message}'))}\n")
    return "".join(lines)


def escape_data(value: str) -> str:
    """Escape a workflow command's message as the actions toolkit does."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    """Escape a workflow command's property value as the actions toolkit does."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def render_junit(result: RunResult, color: bool) -> str:
    """JUnit XML: one testsuite, a testcase per linted file, a failure per finding."""
    import xml.etree.ElementTree as ET

    by_file: dict[str, list[Diagnostic]] = {path: [] for path in result.files}
    for d in result.diagnostics:
        by_file.setdefault(d.path, []).append(d)
    failed = sum(1 for found in by_file.values() if found)
    counts = {"tests": str(len(by_file)), "failures": str(failed), "errors": "0", "skipped": "0"}
    suites = ET.Element("testsuites", {"name": "spanlint", **counts})
    suite = ET.SubElement(suites, "testsuite", {"name": "spanlint", **counts})
    for path, found in sorted(by_file.items()):  # XML cannot hold control characters at all
        case = ET.SubElement(suite, "testcase", {"name": visible(path), "classname": "spanlint", "file": visible(path)})
        for d in found:
            failure = ET.SubElement(case, "failure", {"message": visible(f"{d.code} {d.message}"), "type": d.code})
            failure.text = visible(f"{d.path}:{d.location.line}:{d.location.column}: {d.code} {d.message}")
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def render_sarif(result: RunResult, color: bool) -> str:
    """SARIF 2.1.0: every rule in `driver.rules`, results with paths relative to `%SRCROOT%`."""
    rules = all_rules()
    index = {rule.code: i for i, rule in enumerate(rules)}
    cwd = Path.cwd()
    run = {
        "tool": {
            "driver": {
                "name": "spanlint",
                "version": version(),
                "informationUri": PROJECT_URL,
                "rules": [_sarif_rule(rule) for rule in rules],
            }
        },
        "originalUriBaseIds": {SRCROOT: {"uri": cwd.as_uri().rstrip("/") + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": [_sarif_result(d, index) for d in result.diagnostics],
    }
    return json.dumps({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}, indent=2, ensure_ascii=False) + "\n"


def _sarif_level(severity: str) -> str:
    return "error" if severity == "error" else "warning"


def _sarif_rule(rule: Any) -> dict[str, Any]:
    docs = rule.docs.strip()
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": docs},
        "help": {"text": docs, "markdown": docs},
        "helpUri": rule_url(rule.code),
        "defaultConfiguration": {"level": _sarif_level(rule.severity), "enabled": bool(rule.default_enabled)},
    }


def _artifact(path: str) -> dict[str, str]:
    if Path(path).is_absolute():
        return {"uri": Path(path).as_uri()}
    return {"uri": quote(path), "uriBaseId": SRCROOT}


def _region(start: Location, end: Location) -> dict[str, int]:
    return {"startLine": start.line, "startColumn": start.column, "endLine": end.line, "endColumn": end.column}


def _sarif_result(d: Diagnostic, index: dict[str, int]) -> dict[str, Any]:
    found: dict[str, Any] = {
        "ruleId": d.code,
        "level": _sarif_level(d.severity),
        "message": {"text": d.message},
        "locations": [
            {"physicalLocation": {"artifactLocation": _artifact(d.path), "region": _region(d.location, d.end_location)}}
        ],
        "partialFingerprints": {"spanlint/v1": d.fingerprint},
    }
    if d.code in index:
        found["ruleIndex"] = index[d.code]
    if d.fix is not None:
        found["fixes"] = [
            {
                "description": {"text": d.fix.message},
                "artifactChanges": [
                    {
                        "artifactLocation": _artifact(d.path),
                        "replacements": [
                            {"deletedRegion": _region(e.location, e.end_location), "insertedContent": {"text": e.content}}
                            for e in d.fix.edits
                        ],
                    }
                ],
            }
        ]
    return found


# --- statistics -----------------------------------------------------------------------------------


def statistics(diagnostics: list[Diagnostic]) -> list[dict[str, Any]]:
    """Findings counted per rule, most frequent first."""
    counts = Counter(d.code for d in diagnostics)
    rows = []
    for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        rule = find_rule(code)
        rows.append({
            "code": code,
            "name": rule.name if rule else code,
            "count": count,
            "fixable": any(d.fix is not None for d in diagnostics if d.code == code),
        })
    return rows


def render_statistics(result: RunResult, as_json: bool) -> str:
    rows = statistics(result.diagnostics)
    if as_json:
        return json.dumps(rows, indent=2) + "\n"
    width = max((len(str(row["count"])) for row in rows), default=1)
    return "".join(
        f"{row['count']:>{width}}\t{row['code']}\t{'[*]' if row['fixable'] else '[ ]'} {row['name']}\n" for row in rows
    )


FORMATS: dict[str, Callable[[RunResult, bool], str]] = {
    "full": render_full,
    "concise": render_concise,
    "json": render_json,
    "json-lines": render_json_lines,
    "sarif": render_sarif,
    "github": render_github,
    "junit": render_junit,
}
