"""SPL401-SPL403 and SPL501 follow the configured vocabulary, and their pre-scans never hide a finding."""

from __future__ import annotations

import pytest

from spanlint import Settings, check_source
from spanlint.engine import lint_source
from spanlint.rules import find_rule
from runtime_guard.vocabulary import Vocabulary

CUSTOM_LOG = Vocabulary.from_mapping({"decision_log_names": ["rationale_store"]})


def _lines(source: str, code: str, vocabulary: Vocabulary | None = None) -> list[int]:
    settings = Settings(select=(code,), vocabulary=vocabulary) if vocabulary else Settings(select=(code,))
    return [d.location.line for d in check_source(source, "example.py", settings) if d.code == code]


def test_custom_decision_log_name_is_protected_from_mutation() -> None:
    source = "def undo(self):\n    self.rationale_store.pop()\n    self.decision_log.pop()\n"
    assert _lines(source, "SPL402", CUSTOM_LOG) == [2]
    assert _lines(source, "SPL402") == [3]


def test_custom_decision_log_name_counts_as_a_record_before_pruning() -> None:
    source = (
        "def evict(self, budget):\n"
        "    while self.token_count() > budget:\n"
        "        self.rationale_store.append(self.spans[0].id)\n"
        "        self.spans.pop(0)\n"
    )
    assert _lines(source, "SPL401", CUSTOM_LOG) == []
    assert _lines(source, "SPL401") == [4]


def test_custom_prune_words_make_a_pruning_pass() -> None:
    source = "def winnow(self, span_id):\n    del self.spans[span_id]\n"
    assert _lines(source, "SPL401") == []
    winnowing = Vocabulary.from_mapping({"prune_words": ["winnow"]})
    assert _lines(source, "SPL401", winnowing) == [2]


def test_custom_liveness_words_count_as_a_holder_check() -> None:
    source = (
        "def collect(self, now):\n"
        "    for sid, stone in list(self.tombstones.items()):\n"
        "        if now - stone.at > self.ttl and not self.backlinks_of(sid):\n"
        "            del self.tombstones[sid]\n"
    )
    assert _lines(source, "SPL403") == [4]
    citing = Vocabulary.from_mapping({"liveness_words": ["backlinks"]})
    assert _lines(source, "SPL403", citing) == []


def test_custom_content_field_is_sliced() -> None:
    source = "def quote(span, cit):\n    return span.payload[cit.start:cit.end]\n"
    assert _lines(source, "SPL501") == []
    payload = Vocabulary.from_mapping({"content_fields": ["payload"]})
    assert _lines(source, "SPL501", payload) == [2]


@pytest.mark.parametrize("code", ["SPL401", "SPL402", "SPL403", "SPL501"])
def test_prescan_never_hides_an_example_finding(code: str) -> None:
    rule = find_rule(code)
    assert rule is not None
    for example in rule.invalid:
        with_scan = lint_source(example.code, "example.py", Settings(select=(code,)))
        without_scan = lint_source(example.code, "example.py", Settings(select=(code,)), prescan=False)
        assert with_scan == without_scan != []
