"""Summary chains: a summary summarized again needs lineage to addressable sources."""

from __future__ import annotations

import gc
import weakref

import pytest

from guard_spans import Span, make_spans
from runtime_guard import SummaryChainError, guard
from runtime_guard.lineage import LINEAGE


@guard("summarize")
def summarize_turns(spans):
    text = " / ".join(s.content[:6] for s in spans)
    return Span("summary-" + "-".join(s.span_id for s in spans), text)


def test_summarizing_an_earlier_guarded_summary_is_rejected():
    turns = make_spans(4)
    first = summarize_turns(turns[:2])
    with pytest.raises(SummaryChainError, match=r"input span 'summary-s0-s1' .*is itself a summary") as caught:
        summarize_turns([first, turns[2]])
    assert "not called" in str(caught.value)


@pytest.mark.parametrize("field, value", [("produced_by", "rewrite:summarize@v2"), ("is_summary", True)])
def test_spans_flagged_as_summaries_by_provenance_are_rejected(field, value):
    flagged = Span("p", "x")
    setattr(flagged, field, value)
    with pytest.raises(SummaryChainError, match="input span 'p'"):
        summarize_turns([flagged])


def test_provenance_in_metadata_counts():
    class Node:
        def __init__(self, id_, text, metadata):
            self.id_, self.text, self.metadata = id_, text, metadata

    @guard("summarize")
    def condense(nodes):
        return None

    with pytest.raises(SummaryChainError):
        condense([Node("n", "t", {"produced_by": "rewrite:summarize"})])
    condense([Node("n", "t", {"produced_by": "user"})])


def test_tracked_chain_passes_when_lineage_reaches_addressable_sources():
    @guard("summarize")
    def resummarize(spans, archive, sources):
        return Span("summary-2", "shorter")

    turns = make_spans(4)
    first = summarize_turns(turns[:2])
    resummarize([first, turns[2]], archive=turns[:2], sources=["s0", "s1"])
    with pytest.raises(SummaryChainError, match="no longer addressable"):
        resummarize([first, turns[2]], archive=turns[:1], sources=["s0", "s1"])
    with pytest.raises(SummaryChainError, match="misses its sources"):
        resummarize([first, turns[2]], archive=turns[:2], sources=["s0"])


def test_outputs_added_to_the_buffer_are_recorded_too():
    @guard("summarize")
    def summarize_in_buffer(buffer):
        buffer.append(Span("rolled", "summary of " + str(len(buffer))))

    buffer = make_spans(3)
    summarize_in_buffer(buffer)
    with pytest.raises(SummaryChainError, match="'rolled'"):
        summarize_in_buffer(buffer)


def test_a_method_summarizing_its_arguments_does_not_treat_self_as_input():
    class Summarizer:
        def __init__(self):
            self.spans = [Span("old-summary", "x", produced_by="rewrite:summarize")]

        @guard("summarize")
        def summarize(self, spans):
            return Span("new", "y")

    Summarizer().summarize(make_spans(2))


def test_lineage_is_weak_and_keeps_no_summary_alive():
    gc.collect()
    summary = summarize_turns(make_spans(2))
    reference = weakref.ref(summary)
    assert LINEAGE.sources(summary) == frozenset({"s0", "s1"})
    size = len(LINEAGE)
    del summary
    gc.collect()
    assert reference() is None and len(LINEAGE) == size - 1


def test_warn_mode_lets_the_chain_through():
    first = summarize_turns(make_spans(2))

    @guard("summarize", on_violation="warn")
    def lenient(spans):
        return Span("next", "z")

    with pytest.warns(Warning, match="SummaryChainError"):
        assert lenient([first]).span_id == "next"
