"""Each rule's pre-scans (text and project-pass shapes) never change its findings.

For every rule and every corpus file, example and rule example, the findings with the pre-scans
equal the findings without them. The shape tests in `rules.candidates` name the rules' method and
field sets by supersets of their own; the last tests keep them supersets as the rules change.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lint.engine import lint_source
from lint.settings import Settings
from rules import all_rules, candidates, evidence
from rules.project import summarize_source
from runtime_guard.vocabulary import DEFAULT_VOCABULARY

REPO = Path(__file__).resolve().parents[2]
RULES = [r for r in all_rules() if r.code not in ("SPL000", "SPL900")]
SOURCES = [
    (str(path.relative_to(REPO)), path.read_text(encoding="utf-8"))
    for base in ("tests/rules/corpus", "examples")
    for path in sorted((REPO / base).rglob("*.py"))
]


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_prescan_keeps_every_finding(rule) -> None:  # type: ignore[no-untyped-def]
    settings = Settings(select=(rule.code,))
    examples = [(f"{rule.code}-example-{i}", e.code) for i, e in enumerate([*rule.valid, *rule.invalid])]
    assert len(SOURCES) > 10
    found = 0
    for name, source in [*SOURCES, *examples]:
        without = lint_source(source, name, settings, prescan=False)
        assert lint_source(source, name, settings, prescan=True) == without, name
        found += len(without)
    assert found > 0  # the comparison covers findings, not only empty results


def test_prescan_skips_code_without_the_shapes() -> None:
    plain = (
        "class Config:\n"
        "    name: str\n\n"
        "def load(path, cache):\n"
        "    data = open(path).read()\n"
        "    cache['last'] = data\n"
        "    return data[:10]\n"
    )
    summary = summarize_source(plain, DEFAULT_VOCABULARY)
    assert summary.syntax_error is None
    assert [r.code for r in RULES if r.may_match_summary(summary)] == []


def test_shape_name_sets_cover_the_rules() -> None:
    from rules import spl201_derived_cache_keyed_on_span_id as spl201
    from rules import spl202_derived_artifact_without_version as spl202
    from rules import spl402_decision_log_mutated as spl402
    from rules import spl403_tombstone_gc_by_age as spl403

    assert evidence.REMOVING_METHODS <= candidates.REMOVAL_METHODS
    assert spl403._DROPPING_METHODS <= candidates.REMOVAL_METHODS
    assert evidence.MUTATING_METHODS <= candidates.LOG_MUTATING_METHODS
    assert evidence.ENTRY_ATTRIBUTES <= candidates.LOG_ENTRY_ATTRIBUTES
    assert spl201._WRITERS | spl201._READERS | {"setdefault", "update"} <= candidates.CACHE_METHODS
    assert spl202._FACTORIES <= candidates.RECORD_FACTORIES
    assert candidates.LOG_BUILDERS <= spl402._BUILDERS  # the scan skips these functions


CUT_SOURCE = (
    "import dataclasses\r\n"
    "LIMIT = 3\r\n"
    "\r\n"
    "@dataclasses.dataclass\r\n"
    "class Span:\r\n"
    "    id: str\r\n"
    "    content: str\r\n"
    "    version: int = 0\r\n"
    "\r\n"
    "    @property\r\n"
    "    def size(self):\r\n"
    "        return len(self.content)\r\n"
    "\r\n"
    "    def redact(self, text):\r\n"
    "        self.content = text\r\n"
    "\r\n"
    "def helper(spans):\r\n"
    "    return [s.id for s in spans]\r\n"
)


def test_cut_blanks_other_definitions_and_keeps_every_position() -> None:
    summary = summarize_source(CUT_SOURCE, DEFAULT_VOCABULARY)
    keep = summary.shape_definitions[candidates.CONTENT_WRITE]
    cut = candidates.cut_to_definitions(CUT_SOURCE, summary.definitions, keep)
    assert [first for first, _, _ in summary.definitions] == [10, 14, 17]
    assert keep == {1}  # only `redact` writes content
    assert cut.split("\r\n") == [
        *CUT_SOURCE.split("\r\n")[:9], "    pass", "", "", "",
        *CUT_SOURCE.split("\r\n")[13:16], "pass", "", "",
    ]
    compile(cut, "cut.py", "exec")


def test_cut_keeps_findings_and_their_positions() -> None:
    settings = Settings(select=("SPL101",))
    with_cut = lint_source(CUT_SOURCE, "spans.py", settings)
    assert [(d.code, d.location.line, d.location.column) for d in with_cut] == [("SPL101", 15, 9)]
    assert with_cut == lint_source(CUT_SOURCE, "spans.py", settings, prescan=False)


def test_a_file_with_other_line_breaks_is_never_cut() -> None:
    source = CUT_SOURCE.replace("LIMIT = 3", "LIMIT = 3  # \x0c form feed")
    summary = summarize_source(source, DEFAULT_VOCABULARY)
    assert candidates.cut_to_definitions(source, summary.definitions, frozenset()) == source
