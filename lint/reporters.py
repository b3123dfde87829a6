"""Turn a run's findings into a report: text for people, JSON/SARIF/JUnit/GitHub/GitLab/Pylint for tools.

Each format is a function `(result, color) -> str`, registered in `FORMATS`; the text formats
(`full`, `concise`) also take `TextOptions`.
"""

from __future__ import annotations

import io
import json
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable
from urllib.parse import quote

from spanlint.diagnostics import Diagnostic, Location
from spanlint.source import Source, SourceError
from spanlint.runner import RunResult
from spanlint.rules import all_rules, find_rule

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


@dataclass(frozen=True)
class TextOptions:
    """How the text formats read: whether unsafe fixes apply (`--unsafe-fixes`: they count as fixable),
    whether each fix is shown under its finding (`--show-fixes`), and whether the summary is left out
    (`--quiet`)."""

    unsafe_fixes: bool = False
    show_fixes: bool = False
    quiet: bool = False

    def applies(self, diagnostic: Diagnostic) -> bool:
        """The finding has a fix that `--fix` would apply with these options."""
        fix = diagnostic.fix
        return fix is not None and (fix.applicability == "safe" or self.unsafe_fixes)

    def hidden(self, diagnostics: list[Diagnostic]) -> int:
        """How many of `diagnostics` have an unsafe fix that `--unsafe-fixes` would enable."""
        return sum(d.fix is not None and not self.applies(d) for d in diagnostics)


def hidden_fixes(count: int) -> str:
    """ruff's words for the unsafe fixes left out: `N hidden fixes can be enabled with ...`."""
    return f"{count} hidden fix{'es' * (count != 1)} can be enabled with the `--unsafe-fixes` option"


def render_full(result: RunResult, color: bool, options: TextOptions = TextOptions()) -> str:
    """Each finding with a code frame marking its exact span and its `help:` line, then a summary line."""
    from rich.text import Text

    console = _console(color)
    sources = _SourceCache(result.sources)
    for diagnostic in result.diagnostics:
        console.print(_headline(diagnostic, options))
        lines = sources.lines(diagnostic.path)
        frame = _code_frame(diagnostic, lines)
        if frame is not None:
            console.print(frame)
        if diagnostic.help is not None:
            console.print(Text.assemble("  = ", ("help", "bold cyan"), f": {visible(diagnostic.help)}"))
        if diagnostic.fix is not None and options.show_fixes and lines:
            console.print(_fix_frame(diagnostic, lines))
        console.print()
    if not options.quiet:
        console.print(_summary(result.diagnostics, options))
    return console.file.getvalue()  # type: ignore[attr-defined]


def render_concise(result: RunResult, color: bool, options: TextOptions = TextOptions()) -> str:
    """One line per finding: `path:line:col: CODE message`, then a summary line."""
    console = _console(color)
    for diagnostic in result.diagnostics:
        console.print(_headline(diagnostic, options))
    if not options.quiet:
        console.print(_summary(result.diagnostics, options))
    return console.file.getvalue()  # type: ignore[attr-defined]


def _console(color: bool) -> Console:
    from rich.console import Console

    return Console(
        file=io.StringIO(), force_terminal=color, no_color=not color, color_system="standard" if color else None,
        width=10_000, highlight=False, soft_wrap=True,
    )


def _headline(diagnostic: Diagnostic, options: TextOptions) -> Text:
    from rich.text import Text

    where = f"{visible(diagnostic.path)}:{diagnostic.location.line}:{diagnostic.location.column}:"
    style = "bold red" if diagnostic.severity == "error" else "bold yellow"
    fixable = " [*]" if options.applies(diagnostic) else ""
    return Text.assemble((where, "bold"), " ", (diagnostic.code, style), (fixable, "cyan"), " ", visible(diagnostic.message))


def _summary(diagnostics: list[Diagnostic], options: TextOptions) -> Text:
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
    fixable = sum(options.applies(d) for d in diagnostics)
    hidden = options.hidden(diagnostics)
    option = "`--fix --unsafe-fixes` options" if options.unsafe_fixes else "`--fix` option"
    tail = f"\n[*] {fixable} fixable with the {option}" if fixable else "\nNo fixes available" if hidden else ""
    if hidden:
        tail += f" ({hidden_fixes(hidden)})"
    return Text(f"Found {' and '.join(parts)}.{tail}{'.' if tail else ''}")


# Code frames are shown from files up to this size; a larger one is shown without them.
CODE_FRAME_MAX_BYTES = 16_000_000


class _SourceCache:
    """The lines code frames quote: of the run's sources (`RunResult.sources`), else of the file read
    now (its findings came from the cache, so the run did not read it)."""

    def __init__(self, sources: dict[str, Source]) -> None:
        self._sources = sources
        self._lines: dict[str, list[str]] = {}

    def lines(self, path: str) -> list[str] | None:
        if path not in self._lines:
            try:
                self._lines[path] = _text(self._sources.get(path) or Source.read(path, CODE_FRAME_MAX_BYTES)).splitlines()
            except SourceError:
                self._lines[path] = []
        return self._lines[path] or None


def _text(source: Source) -> str:
    """A file's text as it was linted (its declared encoding); undecodable bytes shown as `\ufffd`."""
    try:
        return source.text
    except SourceError:
        return source.data.decode("utf-8", errors="replace")


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


def _fix_frame(diagnostic: Diagnostic, lines: list[str]) -> Text:
    """The finding's fix as the lines it removes (`-`) and adds (`+`), labelled with its safety."""
    from rich.text import Text

    assert diagnostic.fix is not None
    frame = Text(f"  {diagnostic.fix.applicability.capitalize()} fix\n", style="bold cyan")
    for edit in diagnostic.fix.edits:
        removed = lines[edit.location.line - 1 : edit.end_location.line - 1]
        width = len(str(edit.location.line + max(len(removed), 1)))
        for number, line in enumerate(removed, edit.location.line):
            frame.append(f"{number:>{width}} - {visible(line)}\n", style="red")
        for number, line in enumerate(edit.content.splitlines(), edit.location.line):
            frame.append(f"{number:>{width}} + {visible(line)}\n", style="green")
    frame.rstrip()
    return frame


# --- tools ----------------------------------------------------------------------------------------


def _position(location: Location) -> dict[str, int]:
    return {"row": location.line, "column": location.column}


def diagnostic_to_json(diagnostic: Diagnostic) -> dict[str, Any]:
    """One finding with ruff-compatible keys, plus `name`, `help` (the advice, apart from the
    message; null when none), `severity` and `fingerprint` (and `runtime_test` for a finding of the
    runtime guard)."""
    fix = diagnostic.fix
    found = {
        "code": diagnostic.code,
        "name": diagnostic.name,
        "message": diagnostic.message,
        "help": diagnostic.help,
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
    if diagnostic.runtime_test is not None:
        found["runtime_test"] = diagnostic.runtime_test
    return found


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
    """JUnit XML as ruff writes it: a testsuite per file with findings, a failing testcase per finding
    (`org.spanlint.SPLxxx`, its help on a second line of the failure's text); a clean run is one
    passing testcase, "No errors found"."""
    import xml.etree.ElementTree as ET

    by_file: dict[str, list[Diagnostic]] = {}
    for d in result.diagnostics:
        by_file.setdefault(d.path, []).append(d)
    total = str(len(result.diagnostics))
    suites = ET.Element("testsuites", {"name": "spanlint", "tests": total or "1", "failures": total, "errors": "0"})
    if not by_file:
        suite = ET.SubElement(suites, "testsuite", {"name": "spanlint", "tests": "1", "disabled": "0", "errors": "0",
                                                    "failures": "0", "package": "org.spanlint"})
        ET.SubElement(suite, "testcase", {"name": "No errors found", "classname": "spanlint"})
        suites.set("tests", "1")
    for path, found in sorted(by_file.items()):  # XML cannot hold control characters at all
        count = str(len(found))
        suite = ET.SubElement(suites, "testsuite", {"name": visible(path), "tests": count, "disabled": "0", "errors": "0",
                                                    "failures": count, "package": "org.spanlint"})
        classname = path.removesuffix(".pyi").removesuffix(".py").replace("/", ".")
        for d in found:
            case = ET.SubElement(suite, "testcase", {
                "name": f"org.spanlint.{d.code}", "classname": visible(classname), "file": visible(path),
                "line": str(d.location.line), "column": str(d.location.column),
            })
            failure = ET.SubElement(case, "failure", {"message": visible(d.message), "type": d.code})
            failure.text = visible(f"line {d.location.line}, col {d.location.column}, {d.message}")
            if d.help is not None:
                failure.text += f"\nhelp: {visible(d.help)}"
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def render_gitlab(result: RunResult, color: bool) -> str:
    """GitLab Code Quality JSON (the Code Climate issue format: the help as `content.body`); paths
    relative to `CI_PROJECT_DIR` when it is set, fingerprints unique."""
    root = os.environ.get("CI_PROJECT_DIR")
    seen: Counter[str] = Counter()
    issues = []
    for d in result.diagnostics:
        seen[d.fingerprint] += 1
        repeat = seen[d.fingerprint]
        issue: dict[str, Any] = {
            "description": f"{d.code}: {d.message}",
            "check_name": d.code,
            "fingerprint": d.fingerprint if repeat == 1 else f"{d.fingerprint}-{repeat}",
            "severity": "major" if d.severity == "error" else "minor",
            "location": {
                "path": _relative_to(d.path, root),
                "lines": {"begin": d.location.line, "end": d.end_location.line},
            },
        }
        if d.help is not None:
            issue["content"] = {"body": d.help}
        issues.append(issue)
    return json.dumps(issues, indent=2, ensure_ascii=False) + "\n"


def _relative_to(path: str, root: str | None) -> str:
    if root is None:
        return path
    try:
        return Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        return path


def render_pylint(result: RunResult, color: bool) -> str:
    """Pylint's parseable format: `path:line: [CODE] message`."""
    return "".join(visible(f"{d.path}:{d.location.line}: [{d.code}] {d.message}") + "\n" for d in result.diagnostics)


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


def _sarif_message(d: Diagnostic) -> dict[str, str]:
    """The result's message: `text` is the message alone; `markdown`, which SARIF viewers that render
    Markdown show instead, adds the help on a line of its own (kept apart in `properties.help`)."""
    if d.help is None:
        return {"text": d.message}
    return {"text": d.message, "markdown": f"{_markdown_text(d.message)}\n\n**help:** {_markdown_text(d.help)}"}


def _markdown_text(text: str) -> str:
    """`text`, which marks code with backticks as Markdown does, with Markdown's other syntax escaped
    outside the code."""
    parts = text.split("`")
    parts[::2] = ["".join("\\" + c if c in _MARKDOWN_SYNTAX else c for c in part) for part in parts[::2]]
    return "`".join(parts)


_MARKDOWN_SYNTAX = frozenset("\\*_[]<>#|")


def _sarif_result(d: Diagnostic, index: dict[str, int]) -> dict[str, Any]:
    found: dict[str, Any] = {
        "ruleId": d.code,
        "level": _sarif_level(d.severity),
        "message": _sarif_message(d),
        "locations": [
            {"physicalLocation": {"artifactLocation": _artifact(d.path), "region": _region(d.location, d.end_location)}}
        ],
        "partialFingerprints": {"spanlint/v1": d.fingerprint},
    }
    if d.code in index:
        found["ruleIndex"] = index[d.code]
    properties: dict[str, Any] = {}
    if d.help is not None:
        properties["help"] = d.help
    if d.runtime_test is not None:  # found by the runtime guard in a test run, not by reading the code
        properties.update({"foundAt": "runtime", "test": d.runtime_test, "tags": ["runtime"]})
    if properties:
        found["properties"] = properties
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
            "fixable": any(TextOptions().applies(d) for d in diagnostics if d.code == code),
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
    "gitlab": render_gitlab,
    "pylint": render_pylint,
}
