"""Every rule's own VALID and INVALID examples, as the rule declares them."""

from __future__ import annotations

import re

import libcst as cst
import pytest

from spanlint import Settings, check_source
from spanlint.rules import all_rules
from spanlint.rules.base import Invalid, Rule, Valid

CASES = [
    pytest.param(rule, example, id=f"{rule.code}-{kind}-{i}")
    for rule in all_rules()
    for kind, examples in (("valid", rule.valid), ("invalid", rule.invalid))
    for i, example in enumerate(examples)
]


def _findings(rule: type[Rule], source: str):
    return [d for d in check_source(source, "example.py", Settings(select=(rule.code,))) if d.code == rule.code]


@pytest.mark.parametrize(("rule", "example"), CASES)
def test_rule_example(rule: type[Rule], example: Valid | Invalid) -> None:
    findings = _findings(rule, example.code)
    if isinstance(example, Valid):
        assert findings == [], f"{rule.code} reported on a valid example: {findings}"
        return
    assert [(d.location.line, d.location.column) for d in findings] == [(example.line, example.column)]
    assert example.message is not None, f"{rule.code}: an Invalid example names the message it expects"
    assert findings[0].message == example.message
    if example.help is not None:
        assert findings[0].help == example.help
    advice = findings[0].help or ""
    assert all(word not in findings[0].message for word in _ADVICE), f"{rule.code}: advice belongs in the help line"
    assert advice[:1].isupper() or not advice, f"{rule.code}: a help line reads as an imperative sentence"
    if example.fixed is not None:
        (finding,) = findings
        assert finding.fix is not None, f"{rule.code} offers no fix"
        fixed = _apply_edits(example.code, finding.fix.edits)
        assert fixed == example.fixed
        cst.parse_module(fixed)
        assert _findings(rule, fixed) == []


# Words of advice, which a message (the fact and the place) never holds: they go in the help line.
_ADVICE = ("give it", "key it on", "pass `", "instead", "exempt", "should", "consider")


def _apply_edits(source: str, edits) -> str:
    lines = source.splitlines(keepends=True)
    for edit in sorted(edits, key=lambda e: (e.location.line, e.location.column), reverse=True):
        start, end = edit.location.line - 1, edit.end_location.line - 1
        lines[start:end] = [edit.content]
    return "".join(lines)


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_rule_metadata(rule: type[Rule]) -> None:
    assert rule.code.startswith("SPL") and len(rule.code) == 6
    assert rule.name == rule.name.lower() and " " not in rule.name
    for section in ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Fix safety"):
        assert section in rule.docs, f"{rule.code} docs lack {section!r}"
    if rule.fix_applicability is not None:
        assert any(isinstance(e, Invalid) and e.fixed is not None for e in rule.invalid)


_DOCS_EXAMPLE = re.compile(r"## Example\n```python\n(.*?)```", re.DOTALL)


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_the_example_in_the_docs_gives_the_rules_finding(rule) -> None:  # type: ignore[no-untyped-def]
    (example,) = _DOCS_EXAMPLE.findall(rule.docs)
    assert rule.code in {d.code for d in check_source(example, "example.py", Settings(select=("ALL",)))}
