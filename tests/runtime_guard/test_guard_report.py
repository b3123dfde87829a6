"""runtime_guard.report: the API other runners use to collect violations as findings."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest

from runtime_guard import SpanGuardWarning, guard
from runtime_guard.report import ViolationRecorder, rule_code

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Span:
    span_id: str
    content: str
    version: int = 1
    content_hash: str = ""


@guard("rewrite", on_violation="warn")
def stamp(span):
    span.content += "!"
    span.version += 1


def test_a_recorder_collects_violations_with_the_operators_location(tmp_path: Path) -> None:
    with ViolationRecorder(root=REPO, test=lambda: "suite::case") as recorder, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        stamp(Span("a", "x", content_hash="0" * 64))

        @guard("summarize", on_violation="warn")
        def resummarize(spans):
            return Span("s2", "summary")

        resummarize([Span("s1", "not a summary")])  # no violation
        first = resummarize([Span("s3", "t")])
        resummarize([first])
    with pytest.warns(SpanGuardWarning):
        stamp(Span("b", "y", content_hash="0" * 64))  # after the recorder stopped: not recorded
    (rewrite, summary) = recorder.findings
    assert (rewrite.code, rewrite.path, rewrite.test, rewrite.mode) == (
        "SPL102", "tests/runtime_guard/test_guard_report.py", "suite::case", "warn"
    )
    assert rewrite.line == next(
        n for n, line in enumerate(Path(__file__).read_text().splitlines(), 1) if line.startswith("def stamp(")
    )
    # Defined inside a function, the operator cannot be found by name: its call site is the location.
    assert (summary.code, summary.error, summary.path) == ("SPL301", "SummaryChainError", rewrite.path)
    assert Path(__file__).read_text().splitlines()[summary.line - 1].strip() == "resummarize([first])"
    recorder.write(tmp_path / "out" / "report.json")
    document = json.loads((tmp_path / "out" / "report.json").read_text())
    assert document["format"] == "spanlint-runtime-report" and document["root"] == str(REPO)
    assert [f["code"] for f in document["findings"]] == ["SPL102", "SPL301"]


@pytest.mark.parametrize(("error", "message", "code"), [
    ("StaleSpanError", "span 'a' changed content at a kept id (len 3 -> 4); version 1 -> 1 is not greater", "SPL101"),
    ("StaleSpanError", "...; its type Message has neither a version nor a hash, so no holder can notice", "SPL103"),
    ("StaleSpanError", "...; derived field 'embedding' was neither reset nor recomputed", "SPL104"),
    ("ProvenanceError", "span 's3' (version 1, len 1) was removed with no decision-log entry naming it", "SPL401"),
    ("ProvenanceError", "decision log lost 1 entries (it must be append-only)", "SPL402"),
    ("SummaryChainError", "input span 's' is itself a summary; the call passes no lineage", "SPL301"),
])
def test_each_violation_maps_to_its_rule(error: str, message: str, code: str) -> None:
    assert rule_code(error, message) == code


def test_the_report_module_imports_only_the_standard_library() -> None:
    program = (
        "import sys\nimport runtime_guard.report\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'spanlint', 'lint', 'rules', 'libcst', 'pytest', 'typer'}))"
    )
    done = subprocess.run([sys.executable, "-c", program], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done.stderr
