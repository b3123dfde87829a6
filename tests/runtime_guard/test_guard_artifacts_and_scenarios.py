"""SpanCache, check_artifact, and the seed scenarios of issue 4 (each caught; each safe variant passes)."""

from __future__ import annotations

import pytest

from guard_spans import Buffer, Context, Message, Span, make_spans, sha
from runtime_guard import DecisionLog, ProvenanceError, SpanCache, StaleSpanError, SummaryChainError
from runtime_guard import check_artifact, guard


def test_span_cache_rederives_after_a_proper_rewrite():
    derived = []
    cache = SpanCache(lambda span: derived.append(span.version) or len(span.content))
    span = Span("a", "four")
    assert cache.get(span) == 4 and cache.get(span) == 4
    span.rewrite("eight ch")
    assert cache.get(span) == 8
    assert derived == [1, 2] and len(cache) == 1


def test_span_cache_raises_when_content_moved_under_the_same_key():
    cache = SpanCache(lambda span: span.content.split())
    span = Span("a", "alpha beta")
    cache.get(span)
    span.content = "gamma"
    with pytest.raises(StaleSpanError, match="span 'a' changed content .* kept version 1"):
        cache.get(span)


def test_span_cache_keys_unhashed_spans_on_their_content_digest():
    cache = SpanCache(lambda message: message.content.upper())
    message = Message("m", "hi")
    assert cache.get(message) == "HI"
    message.content = "bye"
    assert cache.get(message) == "BYE"


def test_check_artifact_version_hash_id_and_offsets():
    span = Span("task", "write the report")
    artifact = {"span_id": "task", "version": 1, "content_hash": sha("write the report"),
                "offsets": {"verb": (0, 5), "object": (10, 16)}}
    check_artifact(artifact, span)
    span.rewrite("write it")
    with pytest.raises(StaleSpanError, match="records version 1; the span is at version 2"):
        check_artifact(artifact, span)
    with pytest.raises(StaleSpanError, match="records hash"):
        check_artifact({"content_hash": artifact["content_hash"]}, span)
    with pytest.raises(StaleSpanError, match="offset 16 past the span's current length 8"):
        check_artifact({"version": 2, "offsets": artifact["offsets"]}, span)
    with pytest.raises(StaleSpanError, match="derived from span 'other'"):
        check_artifact({"span_id": "other", "version": 2}, span)
    with pytest.raises(TypeError, match="neither a version nor a content hash"):
        check_artifact({"offsets": [1]}, span)


class RetrievalStage:
    """Holds an offset map into the current task span, as a retrieval stage does."""

    def __init__(self, span):
        self.offset_map = {"span_id": span.span_id, "version": span.version,
                           "content_hash": span.content_hash,
                           "offsets": [(0, 8), (len(span.content) - 6, len(span.content))]}

    def quote(self, span):
        check_artifact(self.offset_map, span)
        start, end = self.offset_map["offsets"][-1]
        return span.content[start:end]


def test_scenario_planner_rewrites_task_in_place_under_a_retrieval_offset_map():
    buffer = Buffer([Span("current-task", "Summarise the Q3 incident report for the board")] + make_spans(5))
    retrieval = RetrievalStage(buffer["current-task"])

    @guard("rewrite")
    def plan_in_place(buffer):
        buffer["current-task"].content = "Draft apology"

    with pytest.raises(StaleSpanError, match="'current-task'"):
        plan_in_place(buffer)
    assert retrieval.quote(buffer["current-task"]) == " board"  # restored: the offset map still holds

    @guard("rewrite")
    def plan_properly(buffer):
        buffer["current-task"].rewrite("Draft apology")

    plan_properly(buffer)
    with pytest.raises(StaleSpanError):  # the retrieval stage now notices instead of quoting garbage
        retrieval.quote(buffer["current-task"])

    @guard("rewrite", copy_on_rewrite=True)
    def plan_copy(buffer):
        buffer._spans["current-task-2"] = Span("current-task-2", "Draft apology")

    buffer = Buffer([Span("current-task", "Summarise the Q3 incident report for the board")])
    retrieval = RetrievalStage(buffer["current-task"])
    plan_copy(buffer)
    assert retrieval.quote(buffer["current-task"]) == " board"


def test_scenario_compaction_prunes_the_span_that_carried_its_own_rationale():
    def context_with_rationale():
        rationale = Span("rationale", "Keep tool outputs until the user confirms")
        return Context([rationale] + make_spans(3))

    @guard("prune", on_violation="raise")
    def compact(context, log, edit_id):
        context.spans[:] = [s for s in context.spans if s.span_id not in ("rationale", edit_id)]
        log.record(action="prune", span_id=edit_id, reason="tool output confirmed")

    context, log = context_with_rationale(), DecisionLog()
    with pytest.raises(ProvenanceError, match="span 'rationale'"):
        compact(context, log, "s1")
    assert [s.span_id for s in context.spans] == ["rationale", "s0", "s1", "s2"] and len(log) == 0

    @guard("prune", on_violation="raise")
    def compact_with_provenance(context, log, edit_id):
        context.spans[:] = [s for s in context.spans if s.span_id not in ("rationale", edit_id)]
        log.record(action="prune", span_ids=["rationale", edit_id], reason="rationale consumed")

    compact_with_provenance(context, log, "s1")
    assert [s.span_id for s in context.spans] == ["s0", "s2"]


def test_scenario_fourth_pass_summarizes_its_own_summary():
    @guard("summarize")
    def rolling_summary(window, archive=None, lineage=None):
        return Span(f"summary-{len(window)}", " ".join(s.content[:4] for s in window))

    turns = make_spans(8, prefix="turn")
    summary = rolling_summary(turns[0:2])
    summary = rolling_summary([turns[2], turns[3]])
    summary = rolling_summary([turns[4], turns[5], turns[6]])
    with pytest.raises(SummaryChainError, match="is itself a summary"):
        rolling_summary([summary, turns[7]])
    fourth = rolling_summary([summary, turns[7]], archive=turns, lineage=["turn4", "turn5", "turn6"])
    assert fourth.span_id == "summary-2"
