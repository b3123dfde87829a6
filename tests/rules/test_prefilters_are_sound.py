"""No rule's pre-filter hides a finding: every rule runs with and without its pre-filter on every
corpus file, example, rule example and generated span program, and the findings must agree.

A rule's pre-filter has three parts, each named when it hides a finding: its text test
(`Rule.may_match`), its shape test over the `ast` tree (`Rule.prefilter`, in the rule's module),
and, for a rule local to definitions, the cut of the file to the definitions holding that shape.

Each source is parsed once by LibCST, and the rules whose pre-filters reject or cut it visit it in
one batched traversal, as the engine does with `prescan=False` (a rule whose pre-filter lets it see
the whole file sees the same tree either way). A rule with findings there that its pre-filter cuts
the file for then visits the tree LibCST makes of the cut (one parse per distinct cut). Findings
are compared as the rules report them (message and the code of the node reported on); positions
are computed only to describe a disagreement.
"""

from __future__ import annotations

import inspect
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from spanlint.rules import all_rules, traversal
from spanlint.rules.base import FileContext, Report, Rule
from spanlint.rules.libcst_backend import cst, parse_module, positions, run_with_deep_stack
from spanlint.rules.prescan import cut_to_definitions
from spanlint.rules.project import FileSummary, ProjectIndex, summarize_source
from runtime_guard.vocabulary import DEFAULT_VOCABULARY
from tests.rules.span_programs import span_program

REPO = Path(__file__).resolve().parents[2]
RULES = [r for r in all_rules() if r.prefilter is not None or r.may_match.__func__ is not Rule.may_match.__func__]
GENERATED = 24


def _files() -> list[tuple[str, str]]:
    return [
        (str(path.relative_to(REPO)), path.read_text(encoding="utf-8"))
        for base in ("tests/rules/corpus", "examples")
        for path in sorted((REPO / base).rglob("*.py"))
    ]


def _programs() -> list[tuple[str, str]]:
    """The rules' own examples and the generated span programs."""
    examples = [
        (f"{rule.code} example {i}", example.code)
        for rule in all_rules()
        for i, example in enumerate([*rule.valid, *rule.invalid])
    ]
    return examples + [(f"generated span program {seed}", span_program(seed)) for seed in range(GENERATED)]


@dataclass
class _Visited:
    """The reports of some rules over the tree LibCST makes of the file, or of a cut of it."""

    module: cst.Module
    reports: list[Report]

    def messages(self, rule: type[Rule]) -> list[str]:
        return [r.message for r in self.reports if r.rule is rule]

    def of(self, rule: type[Rule]) -> Counter[tuple[str, str]]:
        """`rule`'s findings: each one's message and the code of the node it is reported on."""
        return Counter((r.message, self.module.code_for_node(r.node)) for r in self.reports if r.rule is rule)

    def where(self, rule: type[Rule]) -> str:
        located = positions(self.module)
        return "; ".join(
            f"{located[r.node].start.line}:{located[r.node].start.column + 1} {r.message}"
            for r in self.reports if r.rule is rule
        ) or "none"


def _visit(parsed: str, source: str, name: str, rules: list[type[Rule]], project: ProjectIndex) -> _Visited:
    """`rules` run over `parsed` as the engine runs them: one shared context, one batched traversal;
    the rules see the whole file's text as `source`."""
    module = parse_module(parsed)
    context = FileContext(name, source, module, DEFAULT_VOCABULARY, project)
    traversal.visit_batched(module, [rule(context) for rule in rules])
    return _Visited(module, context.reports)


def _prefilter_name(rule: type[Rule]) -> str:
    prefilter = rule.prefilter
    if prefilter is None:
        return "(none)"
    return f"{prefilter.__name__} (shape {prefilter.shape!r}, {inspect.getsourcefile(prefilter)})"


def _kept(summary: FileSummary, rule: type[Rule]) -> frozenset[int]:
    if rule.prefilter is None:
        return frozenset()
    return frozenset().union(*(summary.shape_definitions.get(shape, frozenset()) for shape in rule.prefilter.shapes()))


def prefilter_failures(name: str, source: str, rules: list[type[Rule]], found: set[str] | None = None) -> list[str]:
    """For each rule whose pre-filter hides some of its findings in `source`, what hid them.

    With `found`, every rule runs on `source` without its pre-filter, and the codes of those with
    findings there are added to `found`. LibCST needs a deep stack (`run_with_deep_stack`)."""
    summary = summarize_source(source, DEFAULT_VOCABULARY, name)
    if summary.syntax_error is not None:
        return []
    # What each rule's pre-filter does to the file; a rule it lets see the whole file is left out.
    hidden_by: dict[type[Rule], str] = {}
    cuts: dict[frozenset[int], list[type[Rule]]] = {}  # rules LibCST sees a cut of the file for, by what is kept
    for rule in rules:
        if not rule.may_match(source, DEFAULT_VOCABULARY):
            hidden_by[rule] = f"{rule.code}'s text pre-filter `{rule.__name__}.may_match` rejects {name}"
        elif not rule.may_match_summary(summary):
            hidden_by[rule] = f"{rule.code}'s pre-filter {_prefilter_name(rule)} finds no shape in {name}"
        elif not rule.may_match_project(summary, lambda: ProjectIndex.merge(DEFAULT_VOCABULARY, [summary])):
            hidden_by[rule] = f"{rule.code}'s `{rule.__name__}.may_match_project` rules out {name}"
        elif rule.local_to_definitions:
            kept = _kept(summary, rule)
            if cut_to_definitions(source, summary.definitions, kept) != source:
                cuts.setdefault(kept, []).append(rule)
    judged = rules if found is not None else [*hidden_by, *(rule for group in cuts.values() for rule in group)]
    if not judged:
        return []
    project = ProjectIndex.merge(DEFAULT_VOCABULARY, [summary])
    try:
        unfiltered = _visit(source, source, name, judged, project)
    except cst.ParserSyntaxError:
        return []  # SPL000 with and without pre-filters
    if found is not None:
        found |= {report.rule.code for report in unfiltered.reports}
    failures = [
        f"{reason}, where the rule reports {unfiltered.where(rule)}"
        for rule, reason in hidden_by.items() if unfiltered.messages(rule)
    ]
    for kept, group in cuts.items():
        group = [rule for rule in group if unfiltered.messages(rule)]  # a cut can hide only a finding
        if not group:
            continue
        cut = cut_to_definitions(source, summary.definitions, kept)
        filtered = _visit(cut, source, name, group, project)
        for rule in group:
            if filtered.of(rule) != unfiltered.of(rule):
                failures.append(
                    f"{rule.code}: the cut to the definitions where its pre-filter {_prefilter_name(rule)} found "
                    f"its shape changes its findings in {name}: without the cut {unfiltered.where(rule)}; "
                    f"with it {filtered.where(rule)}"
                )
    return failures


def test_no_prefilter_hides_a_finding() -> None:
    assert {r.code for r in RULES} >= {"SPL101", "SPL201", "SPL202", "SPL301", "SPL401", "SPL402", "SPL403", "SPL501"}
    found: set[str] = set()

    def compare() -> list[str]:
        return [
            *(failure for name, source in _files() for failure in prefilter_failures(name, source, RULES)),
            *(failure for name, source in _programs() for failure in prefilter_failures(name, source, RULES, found)),
        ]

    failures = run_with_deep_stack(compare)
    assert not failures, "a pre-filter hides findings:\n" + "\n".join(failures)
    # The programs compared hold findings of every rule with a pre-filter (else this could not fail for it).
    assert {r.code for r in RULES} <= found


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_a_prefilter_that_finds_nothing_is_named(rule: type[Rule], monkeypatch: pytest.MonkeyPatch) -> None:
    """A pre-filter that stops finding its shape fails the soundness check with its name."""
    example = rule.invalid[0]
    if rule.prefilter is not None:
        monkeypatch.setattr(rule.prefilter, "mark", lambda self, node, shape=None: None)
        named = rule.prefilter.__name__
    else:
        monkeypatch.setattr(rule, "may_match", classmethod(lambda cls, source, vocabulary: False))
        named = f"{rule.__name__}.may_match"
    (failure,) = run_with_deep_stack(lambda: prefilter_failures("example.py", example.code, [rule]))
    assert rule.code in failure and named in failure
