"""Every output format, as the tools that read them expect."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from spanlint import Settings
from spanlint.config import ConfigResolver
from spanlint.reporters import FORMATS, escape_data, escape_property, render_full, render_statistics
from spanlint.runner import RunOptions, RunResult, check_paths
from tests.lint.conftest import REWRITE, write_tree

SCHEMA = Path(__file__).resolve().parents[1] / "data" / "sarif-schema-2.1.0.json"
# The help of REWRITE's finding (SPL101, the span's class unknown).
ADVICE = "Bump its version after the write, or copy the span under a new id"


@pytest.fixture
def result(project: Path) -> RunResult:
    write_tree(project, {
        "pkg/a.py": REWRITE,
        "pkg/b.py": "x = 1  # noqa: SPL101\n",
        "clean.py": "x = 1\n",
        "dir with space/c.py": REWRITE,
    })
    return check_paths(["."], ConfigResolver.fixed(Settings(extend_select=("SPL900",))), RunOptions(jobs=1))


def test_json_has_ruff_compatible_keys(result: RunResult) -> None:
    found = json.loads(FORMATS["json"](result, False))
    assert [f["filename"] for f in found] == ["dir with space/c.py", "pkg/a.py", "pkg/b.py"]
    first = found[1]
    assert set(first) == {"code", "name", "message", "help", "severity", "filename", "location", "end_location", "fix",
                          "url", "fingerprint"}
    assert first["code"] == "SPL101" and first["location"] == {"row": 2, "column": 5}
    assert first["message"] == "`span.content` rewritten in place without bumping its version"
    assert first["help"] == ADVICE
    assert found[2]["help"] == "Remove the unused suppression" == found[2]["fix"]["message"]
    assert first["end_location"] == {"row": 2, "column": 38}
    assert first["fix"] is None and first["url"].endswith("/docs/rules/SPL101.md")
    fix = found[2]["fix"]
    assert fix["applicability"] == "safe" and fix["edits"] == [
        {"content": "x = 1\n", "location": {"row": 1, "column": 1}, "end_location": {"row": 2, "column": 1}}
    ]
    assert len({f["fingerprint"] for f in found}) == 3


def test_json_lines_is_one_object_per_finding(result: RunResult) -> None:
    lines = FORMATS["json-lines"](result, False).splitlines()
    assert [json.loads(line) for line in lines] == json.loads(FORMATS["json"](result, False))


def test_sarif_is_valid_against_the_official_schema(result: RunResult) -> None:
    document = json.loads(FORMATS["sarif"](result, False))
    jsonschema.validate(document, json.loads(SCHEMA.read_text(encoding="utf-8")))
    (run,) = document["runs"]
    rule_ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert {"SPL000", "SPL101", "SPL900"} <= set(rule_ids)
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == Path.cwd().as_uri() + "/"
    first = run["results"][0]
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "dir%20with%20space/c.py", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 2, "startColumn": 5, "endLine": 2, "endColumn": 38}
    assert rule_ids[first["ruleIndex"]] == first["ruleId"] == "SPL101"
    assert first["message"] == {
        "text": "`span.content` rewritten in place without bumping its version",
        "markdown": f"`span.content` rewritten in place without bumping its version\n\n**help:** {ADVICE}",
    }
    assert first["properties"] == {"help": ADVICE}
    assert first["partialFingerprints"]
    assert "fixes" in run["results"][2]


def test_sarif_without_findings_is_valid(project: Path) -> None:
    document = json.loads(FORMATS["sarif"](RunResult([], []), False))
    jsonschema.validate(document, json.loads(SCHEMA.read_text(encoding="utf-8")))


def test_github_annotations(result: RunResult) -> None:
    lines = FORMATS["github"](result, False).splitlines()
    assert lines[1] == (
        "::error title=spanlint (SPL101),file=pkg/a.py,line=2,col=5,endLine=2,endColumn=38::"
        "SPL101 `span.content` rewritten in place without bumping its version"
    )
    assert lines[2].startswith("::warning title=spanlint (SPL900),file=pkg/b.py,")


def test_github_escaping() -> None:
    assert escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"


def test_junit_has_a_failing_testcase_per_finding_in_a_testsuite_per_file(project: Path) -> None:
    write_tree(project, {"a.py": REWRITE + REWRITE.replace("compress", "shorten"), "pkg/b.py": REWRITE, "ok.py": ""})
    found = check_paths(["."], ConfigResolver.fixed(Settings()), RunOptions(jobs=1))
    root = ET.fromstring(FORMATS["junit"](found, False))
    assert root.get("tests") == root.get("failures") == "3"
    suites = {suite.get("name"): suite for suite in root.findall("testsuite")}
    assert sorted(suites) == ["a.py", "pkg/b.py"]
    cases = suites["a.py"].findall("testcase")
    assert suites["a.py"].get("failures") == "2" and len(cases) == 2
    assert {(c.get("name"), c.get("classname"), c.get("line")) for c in cases} == {
        ("org.spanlint.SPL101", "a", "2"), ("org.spanlint.SPL101", "a", "4")
    }
    failure = cases[0].find("failure")
    assert failure.get("message") == "`span.content` rewritten in place without bumping its version"
    assert failure.text == f"line 2, col 5, `span.content` rewritten in place without bumping its version\nhelp: {ADVICE}"
    assert suites["pkg/b.py"].find("testcase").get("classname") == "pkg.b"


def test_junit_of_a_clean_run_is_one_passing_testcase() -> None:
    root = ET.fromstring(FORMATS["junit"](RunResult([], ["a.py"]), False))
    (case,) = root.iter("testcase")
    assert case.get("name") == "No errors found" and case.find("failure") is None
    assert root.get("failures") == "0"


def test_concise(result: RunResult) -> None:
    lines = FORMATS["concise"](result, False).splitlines()
    assert lines[1] == "pkg/a.py:2:5: SPL101 `span.content` rewritten in place without bumping its version"
    assert "Found 2 errors and 1 warning." in lines


def test_full_marks_the_exact_span(result: RunResult) -> None:
    text = render_full(result, False)
    assert "\x1b[" not in text
    lines = text.splitlines()
    code_line = lines.index("2 |     span.content = span.content[:100]")
    marker = lines[code_line + 1]
    assert marker == "  |     " + "^" * len("span.content = span.content[:100]") + " SPL101"
    assert lines[code_line + 2 : code_line + 4] == ["  |", f"  = help: {ADVICE}"]
    assert "  = help: Remove the unused suppression" in lines


def test_the_code_frame_of_a_latin1_file_shows_its_text(project: Path) -> None:
    source = '# -*- coding: latin-1 -*-\ndef label(span):\n    span.content = "caf\u00e9 " + span.content\n'
    write_tree(project, {"cafe.py": source.encode("latin-1")})
    result = check_paths([project], ConfigResolver(isolated=True), RunOptions(jobs=1, cache=False))
    text = render_full(result, False)
    assert '3 |     span.content = "caf\u00e9 " + span.content' in text.splitlines(), text


def test_full_with_color_uses_ansi_codes(result: RunResult) -> None:
    assert "\x1b[" in render_full(result, True)


def test_clean_run_says_so() -> None:
    assert render_full(RunResult([], ["a.py"]), False).strip() == "All checks passed!"


def test_statistics(result: RunResult) -> None:
    assert render_statistics(result, as_json=False).splitlines() == [
        "2\tSPL101\t[ ] in-place-rewrite-without-version-bump",
        "1\tSPL900\t[*] unused-suppression",
    ]
    rows = json.loads(render_statistics(result, as_json=True))
    assert rows[0] == {"code": "SPL101", "name": "in-place-rewrite-without-version-bump", "count": 2, "fixable": False}
