"""Prune provenance: every pruned span named by a new decision-log entry; the log append-only."""

from __future__ import annotations

import copy
from types import SimpleNamespace

import pytest

from guard_spans import Context, make_spans
from runtime_guard import DecisionLog, ProvenanceError, guard


@guard("prune")
def compact(context, log, drop_ids, logged_ids):
    context.spans[:] = [s for s in context.spans if s.span_id not in drop_ids]
    for span_id in logged_ids:
        log.record(action="prune", span_id=span_id, reason="superseded")


def test_removal_named_in_a_decision_log_entry_passes():
    context, log = Context(make_spans(4)), DecisionLog()
    compact(context, log, {"s1", "s2"}, ["s1", "s2"])
    assert [s.span_id for s in context.spans] == ["s0", "s3"] and len(log) == 2


def test_removal_without_an_entry_is_rejected_and_fully_restored():
    context, log = Context(make_spans(4)), DecisionLog()
    log.record(action="prune", span_id="s2", reason="an older decision does not count")
    before = copy.deepcopy(context.spans)
    with pytest.raises(ProvenanceError, match=r"span 's2' .*removed with no decision-log entry") as caught:
        compact(context, log, {"s1", "s2"}, ["s1"])
    assert "Restored" in str(caught.value) and "decision log" in str(caught.value)
    assert context.spans == before and len(log) == 1


@pytest.mark.parametrize("entry", [
    {"action": "prune", "span_id": "s1"},
    {"action": "prune", "ids": ["s0", "s1"]},
    ("prune", "s1", "duplicate"),
    SimpleNamespace(action="prune", target="s1"),
    {"action": "prune", "targets": {"s1"}},
])
def test_an_entry_names_a_span_by_value_attribute_or_collection_member(entry):
    @guard("prune")
    def drop(spans, decision_log):
        del spans[1]
        decision_log.append(entry)

    drop(make_spans(3), [])


def test_an_id_inside_free_text_does_not_name_the_span():
    @guard("prune")
    def drop(spans, decisions):
        del spans[1]
        decisions.append({"note": "pruned s1 because it was stale"})

    with pytest.raises(ProvenanceError):
        drop(make_spans(3), [])


@pytest.mark.parametrize("how", ["tombstone", "flag"])
def test_tombstoned_and_flagged_spans_count_as_pruned(how):
    @guard("prune")
    def retire(spans, journal, record):
        if how == "tombstone":
            spans[0].content = "[pruned]"
        else:
            spans[0].tombstoned = True
        if record:
            journal.append({"op": "prune", "span": "s0"})

    spans = make_spans(2)
    with pytest.raises(ProvenanceError, match="span 's0'"):
        retire(spans, [], False)
    assert spans[0].content.startswith("000000") and spans[0].tombstoned is False
    retire(spans, [], True)


def test_log_must_be_append_only():
    @guard("prune")
    def rewrite_history(spans, audit_log):
        audit_log.pop(0)
        audit_log.append({"span_id": "s0"})
        del spans[0]

    log = [{"span_id": "old"}]
    with pytest.raises(ProvenanceError, match="replaced or changed"):
        rewrite_history(make_spans(2), log)
    assert log == [{"span_id": "old"}]

    @guard("prune")
    def edit_entry(spans, audit_log):
        audit_log[0]["span_id"] = "s0"
        del spans[0]

    log = [{"span_id": "old"}]
    with pytest.raises(ProvenanceError, match="replaced or changed"):
        edit_entry(make_spans(2), log)
    assert log == [{"span_id": "old"}]


def test_log_found_on_a_holder_attribute():
    context = Context(make_spans(3))

    @guard("prune")
    def drop_first(context):
        removed = context.spans.pop(0)
        context.decision_log.append({"pruned": removed.span_id})

    drop_first(context)
    assert len(context.decision_log) == 1


def test_log_passed_to_the_guard_as_object_or_callable():
    app = SimpleNamespace(history=DecisionLog())

    @guard("prune", decision_log=lambda: app.history)
    def drop(spans):
        spans.pop()
        app.history.record(span_id="s2")

    drop(make_spans(3))

    history = DecisionLog()

    @guard("prune", decision_log=history)
    def drop_unlogged(spans):
        spans.pop()

    with pytest.raises(ProvenanceError):
        drop_unlogged(make_spans(3))


def test_pruning_with_no_decision_log_anywhere_is_a_violation():
    @guard("prune")
    def drop(spans):
        spans.pop()

    with pytest.raises(ProvenanceError, match="no decision log was found"):
        drop(make_spans(2))


def test_prune_that_removes_nothing_needs_no_log():
    @guard("prune")
    def keep_all(spans):
        return len(spans)

    assert keep_all(make_spans(2)) == 2


def test_decision_log_is_read_only_and_its_repr_shows_only_a_count():
    log = DecisionLog()
    entry = log.record(span_id="s1", reason="very private reason")
    with pytest.raises(TypeError):
        entry["span_id"] = "other"
    assert repr(log) == "DecisionLog(1 entries)"
    assert list(log) == [entry] and log[0]["span_id"] == "s1"
    assert not hasattr(log, "remove") and not hasattr(log, "pop")


def test_prune_warn_mode_keeps_the_removal():
    @guard("prune", on_violation="warn")
    def drop(spans):
        spans.pop()

    spans = make_spans(2)
    with pytest.warns(Warning, match="ProvenanceError"):
        drop(spans)
    assert len(spans) == 1
