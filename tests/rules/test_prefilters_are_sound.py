"""No rule's pre-filter hides a finding: every rule runs with and without its pre-filter on every
corpus file, example, rule example and generated span program, and the findings must agree.

A rule's pre-filter has three parts, each named when it hides a finding: its text test
(`Rule.may_match`), its shape test over the `ast` tree (`Rule.prefilter`, in the rule's module),
and, for a rule local to definitions, the cut of the file to the definitions holding that shape.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from spanlint.diagnostics import Diagnostic
from spanlint.engine import lint_source
from spanlint.settings import Settings
from spanlint.rules import all_rules
from spanlint.rules.base import Rule
from spanlint.rules.prescan import cut_to_definitions
from spanlint.rules.project import FileSummary, summarize_source
from runtime_guard.vocabulary import DEFAULT_VOCABULARY
from tests.rules.span_programs import span_program

REPO = Path(__file__).resolve().parents[2]
RULES = [r for r in all_rules() if r.prefilter is not None or r.may_match.__func__ is not Rule.may_match.__func__]
GENERATED = 24


def _sources() -> list[tuple[str, str]]:
    files = [
        (str(path.relative_to(REPO)), path.read_text(encoding="utf-8"))
        for base in ("tests/rules/corpus", "examples")
        for path in sorted((REPO / base).rglob("*.py"))
    ]
    examples = [
        (f"{rule.code} example {i}", example.code)
        for rule in all_rules()
        for i, example in enumerate([*rule.valid, *rule.invalid])
    ]
    generated = [(f"generated span program {seed}", span_program(seed)) for seed in range(GENERATED)]
    return files + examples + generated


def _prefilter_name(rule: type[Rule]) -> str:
    prefilter = rule.prefilter
    if prefilter is None:
        return "(none)"
    return f"{prefilter.__name__} (shape {prefilter.shape!r}, {inspect.getsourcefile(prefilter)})"


def _where(findings: list[Diagnostic]) -> str:
    return "; ".join(f"{d.location.line}:{d.location.column} {d.message}" for d in findings)


def _kept(summary: FileSummary, rule: type[Rule]) -> frozenset[int]:
    return summary.shape_definitions.get(rule.prefilter.shape, frozenset()) if rule.prefilter else frozenset()


def prefilter_failures(name: str, source: str, rules: list[type[Rule]]) -> list[str]:
    """For each rule whose pre-filter changes its findings in `source`, what hid them."""
    summary = summarize_source(source, DEFAULT_VOCABULARY, name)
    if summary.syntax_error is not None:
        return []
    every = Settings(select=tuple(r.code for r in rules))
    unfiltered = lint_source(source, name, every, summary=summary, prescan=False)
    failures = []
    cuts: dict[frozenset[int], list[type[Rule]]] = {}  # rules LibCST sees a cut of the file for, by what is kept
    for rule in rules:
        expected = [d for d in unfiltered if d.code == rule.code]
        if not rule.may_match(source, DEFAULT_VOCABULARY):
            if expected:
                failures.append(
                    f"{rule.code}'s text pre-filter `{rule.__name__}.may_match` rejects {name}, where the rule "
                    f"reports {_where(expected)}"
                )
        elif not rule.may_match_summary(summary):
            if expected:
                failures.append(
                    f"{rule.code}'s pre-filter {_prefilter_name(rule)} finds no shape in {name}, where the rule "
                    f"reports {_where(expected)}"
                )
        elif rule.local_to_definitions and cut_to_definitions(source, summary.definitions, _kept(summary, rule)) != source:
            cuts.setdefault(_kept(summary, rule), []).append(rule)
        # else the rule runs on the whole file, as without the pre-filter
    for group in cuts.values():
        filtered = lint_source(source, name, Settings(select=tuple(r.code for r in group)), summary=summary)
        for rule in group:
            expected = [d for d in unfiltered if d.code == rule.code]
            found = [d for d in filtered if d.code == rule.code]
            if found != expected:
                failures.append(
                    f"{rule.code}: the cut to the definitions where its pre-filter {_prefilter_name(rule)} found "
                    f"its shape changes its findings in {name}: without the cut {_where(expected) or 'none'}; "
                    f"with it {_where(found) or 'none'}"
                )
    return failures


def test_no_prefilter_hides_a_finding() -> None:
    sources = _sources()
    rules = RULES
    assert {r.code for r in rules} >= {"SPL101", "SPL201", "SPL202", "SPL301", "SPL401", "SPL402", "SPL403", "SPL501"}
    failures = [failure for name, source in sources for failure in prefilter_failures(name, source, rules)]
    assert not failures, "a pre-filter hides findings:\n" + "\n".join(failures)


def test_the_comparison_covers_findings_of_every_rule() -> None:
    """The programs compared hold findings of every rule with a pre-filter (else the test above
    could not fail for it)."""
    found = set()
    settings = Settings(select=tuple(r.code for r in RULES))
    for seed in range(GENERATED):
        found |= {d.code for d in lint_source(span_program(seed), "generated.py", settings, prescan=False)}
    for rule in RULES:
        found |= {d.code for e in rule.invalid for d in lint_source(e.code, "example.py", settings, prescan=False)}
    assert {r.code for r in RULES} <= found


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_a_prefilter_that_finds_nothing_is_named(rule: type[Rule], monkeypatch: pytest.MonkeyPatch) -> None:
    """A pre-filter that stops finding its shape fails the soundness check with its name."""
    example = rule.invalid[0]
    if rule.prefilter is not None:
        monkeypatch.setattr(rule.prefilter, "mark", lambda self, node: None)
        named = rule.prefilter.__name__
    else:
        monkeypatch.setattr(rule, "may_match", classmethod(lambda cls, source, vocabulary: False))
        named = f"{rule.__name__}.may_match"
    (failure,) = prefilter_failures("example.py", example.code, [rule])
    assert rule.code in failure and named in failure
