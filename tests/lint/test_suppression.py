"""Suppression comments in every form, and SPL900 for the ones that suppress nothing."""

from __future__ import annotations

import libcst as cst
import pytest

from spanlint import Settings, check_source
from tests.lint.conftest import REWRITE

WITH_SPL900 = Settings(extend_select=("SPL900",))


def _apply(source: str, edits) -> str:
    lines = source.splitlines(keepends=True)
    for edit in sorted(edits, key=lambda e: e.location.line, reverse=True):
        lines[edit.location.line - 1 : edit.end_location.line - 1] = [edit.content]
    return "".join(lines)


def _rewrite(comment: str = "", line_before: str = "") -> str:
    before = f"    {line_before}\n" if line_before else ""
    trailing = f"  {comment}" if comment else ""
    return f"def compress(span):\n{before}    span.content = span.content[:100]{trailing}\n"


def test_unsuppressed_finding() -> None:
    assert [d.code for d in check_source(_rewrite(), "a.py")] == ["SPL101"]


@pytest.mark.parametrize(
    "comment",
    [
        "# noqa: SPL101",
        "# noqa:SPL101,E501",
        "# NOQA: spl101",
        "# noqa",
        "# noqa: in-place-rewrite-without-version-bump",
        "# spanlint: ignore[SPL101]",
        "# spanlint: ignore[in-place-rewrite-without-version-bump] content is never shared",
        "# spanlint: ignore",
        "# type: ignore  # noqa: SPL101",
    ],
)
def test_trailing_suppression(comment: str) -> None:
    assert check_source(_rewrite(comment), "a.py", WITH_SPL900) == []


@pytest.mark.parametrize("comment", ["# noqa: SPL101", "# spanlint: ignore[SPL101] reviewed", "# spanlint: ignore"])
def test_suppression_on_the_line_before(comment: str) -> None:
    assert check_source(_rewrite(line_before=comment), "a.py", WITH_SPL900) == []


@pytest.mark.parametrize("comment", ["# noqa: SPL102", "# noqa: E501", "# spanlint: ignore[SPL000]"])
def test_suppression_of_another_code_does_not_apply(comment: str) -> None:
    assert [d.code for d in check_source(_rewrite(comment), "a.py")] == ["SPL101"]


def test_suppression_in_a_string_is_not_a_comment() -> None:
    source = 'def compress(span):\n    span.content = "# noqa: SPL101"\n'
    assert [d.code for d in check_source(source, "a.py")] == ["SPL101"]


def test_suppression_two_lines_above_does_not_apply() -> None:
    source = "def compress(span):\n    # noqa: SPL101\n    x = 1\n    span.content = span.content[:100]\n"
    assert [d.code for d in check_source(source, "a.py")] == ["SPL101"]


def test_spl900_is_off_by_default() -> None:
    assert check_source("x = 1  # noqa: SPL101\n", "a.py") == []


@pytest.mark.parametrize(
    ("source", "message", "fixed"),
    [
        ("x = 1  # noqa: SPL101\n", "unused: `SPL101`", "x = 1\n"),
        ("x = 1  # noqa: SPL101, E501\n", "unused: `SPL101`", "x = 1  # noqa: E501\n"),
        ("x = 1  # spanlint: ignore[SPL999]\n", "unknown: `SPL999`", "x = 1\n"),
        ("x = 1  # spanlint: ignore[no-such-rule] reason\n", "unknown: `no-such-rule`", "x = 1\n"),
        ("# spanlint: ignore\nx = 1\n", "Unused blanket", "x = 1\n"),
        ("def f():\n    # keep me\n    # noqa: SPL101\n    return 1\n", "unused", "def f():\n    # keep me\n    return 1\n"),
        ("x = (  # noqa: SPL101\n    1\n)\n", "unused", "x = (\n    1\n)\n"),
    ],
)
def test_unused_suppression_and_its_fix(source: str, message: str, fixed: str) -> None:
    (finding,) = check_source(source, "a.py", WITH_SPL900)
    assert finding.code == "SPL900" and message in finding.message
    assert finding.fix is not None and finding.fix.applicability == "safe"
    after = _apply(source, finding.fix.edits)
    assert after == fixed
    cst.parse_module(after)
    assert check_source(after, "a.py", WITH_SPL900) == []


def test_spl900_position_is_the_directive() -> None:
    (finding,) = check_source("x = 1  # type: ignore  # noqa: SPL101\n", "a.py", WITH_SPL900)
    assert (finding.location.line, finding.location.column, finding.end_location.column) == (1, 24, 38)


@pytest.mark.parametrize("comment", ["# noqa", "# noqa: E501, W291", "# noqa: SPL101"])
def test_comments_that_are_not_ours_or_still_used(comment: str) -> None:
    source = _rewrite(comment) if comment.endswith("SPL101") else f"x = 1  {comment}\n"
    assert check_source(source, "a.py", WITH_SPL900) == []


def test_suppression_of_a_rule_that_did_not_run_is_kept() -> None:
    source = REWRITE.replace("[:100]\n", "[:100]  # noqa: SPL101\n")
    assert check_source(source, "a.py", Settings(select=("SPL900",))) == []


@pytest.mark.parametrize(
    ("comment", "fixed"),
    [
        ("# noqa: SPL101, SPL000", "# noqa: SPL101"),
        ("# spanlint: ignore[SPL000, SPL101] reviewed", "# spanlint: ignore[SPL101] reviewed"),
        ("# spanlint: ignore[SPL101, SPL1]", "# spanlint: ignore[SPL101]"),
    ],
)
def test_partly_used_suppression_reports_only_the_unused_code(comment: str, fixed: str) -> None:
    source = _rewrite(comment)
    (finding,) = check_source(source, "a.py", WITH_SPL900)
    assert "SPL101" not in finding.message
    assert _apply(source, finding.fix.edits) == _rewrite(fixed)
