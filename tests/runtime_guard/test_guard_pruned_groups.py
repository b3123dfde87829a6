"""After a prune, a buffer that is its old members in their order with some taken out is read by
identity (SpanGroup.pruned) instead of span by span: which members count as taken out, when that
reading is refused, and that the guard's verdicts and restores are the same either way."""

from __future__ import annotations

import pytest

from guard_spans import Span, make_spans
from runtime_guard import DecisionLog, ProvenanceError, StaleSpanError, guard
from runtime_guard.schema import SpanReader
from runtime_guard.snapshot import MAX_PRUNED, CallSnapshot, SpanGroup


def group_of(spans: list) -> SpanGroup:
    snapshot = CallSnapshot(SpanReader())
    snapshot.add_argument(spans)
    assert len(snapshot.groups) == 1
    return snapshot.groups[0]


@pytest.mark.parametrize("taken", [[0], [1], [19], [0, 19], [3, 4, 5], [2, 7, 11, 18], list(range(MAX_PRUNED))])
def test_the_members_taken_out_are_found(taken):
    spans = make_spans(20)
    group = group_of(spans)
    for index in reversed(taken):
        del spans[index]
    assert group.pruned()
    assert group.removed == tuple(taken)


@pytest.mark.parametrize("change", ["nothing", "added", "replaced", "reordered", "too many", "id changed",
                                    "emptied"])
def test_anything_but_members_taken_out_is_refused(change):
    spans = make_spans(40)
    group = group_of(spans)
    if change == "added":
        del spans[3]
        del spans[5]
        spans.insert(4, Span("new", "new span"))
    elif change == "replaced":
        del spans[3]
        spans[6] = Span(spans[6].span_id, "another object at that id")
    elif change == "reordered":
        del spans[3]
        spans[6], spans[7] = spans[7], spans[6]
    elif change == "too many":
        del spans[:MAX_PRUNED + 1]
    elif change == "id changed":
        del spans[3]
        spans[10].span_id = "renamed"
    elif change == "emptied":
        spans.clear()
    assert not group.pruned()
    assert group.removed == ()


def test_a_pruned_list_of_holders_is_read_through_their_attribute():
    llama = pytest.importorskip("llama_index.core.schema")
    hits = [llama.NodeWithScore(node=llama.TextNode(id_=f"n{i}", text=f"text {i}"), score=0.5) for i in range(30)]
    snapshot = CallSnapshot(SpanReader())
    snapshot.add_argument(hits)
    group = snapshot.groups[0]
    assert group.holders is not None
    del hits[4]
    del hits[20]
    assert group.pruned() and group.removed == (4, 21)
    hits[7].node = llama.TextNode(id_="n8", text="a node swapped in under the holder")
    assert not group.pruned()


@guard("prune")
def prune_logged(spans, decision_log, positions):
    for position in sorted(positions, reverse=True):
        removed = spans.pop(position)
        decision_log.record(action="prune", span_id=removed.span_id, reason="stale")


@guard("prune")
def prune_one_unlogged(spans, decision_log, positions):
    for position in sorted(positions, reverse=True):
        removed = spans.pop(position)
        if position != positions[0]:
            decision_log.record(action="prune", span_id=removed.span_id, reason="stale")


@pytest.mark.parametrize("positions", [[1], [0, 39], [5, 6, 7], [2, 9, 30]])
def test_logged_prunes_pass_and_an_unlogged_one_is_restored_exactly(positions):
    spans = make_spans(40)
    prune_logged(spans, DecisionLog(), positions)
    assert len(spans) == 40 - len(positions)

    spans = make_spans(40)
    before, states = list(spans), [dict(vars(span)) for span in spans]
    log = DecisionLog()
    with pytest.raises(ProvenanceError) as raised:
        prune_one_unlogged(spans, log, positions)
    assert f"span 's{positions[0]}'" in str(raised.value)
    assert "exact pre-call state (verified)" in str(raised.value)
    assert all(map(lambda a, b: a is b, spans, before)) and len(spans) == len(before)
    assert [dict(vars(span)) for span in spans] == states


def test_a_pruned_span_kept_in_another_argument_is_still_seen_there():
    @guard("prune")
    def archive(spans, archived, decision_log):
        archived.append(spans.pop(2))  # moved, not removed: nothing to log

    spans, archived = make_spans(30), make_spans(3, prefix="a")
    archive(spans, archived, DecisionLog())
    assert [span.span_id for span in archived] == ["a0", "a1", "a2", "s2"]


def test_a_rewrite_that_also_prunes_checks_the_members_it_kept():
    @guard("rewrite")
    def rewrite_and_drop(spans):
        del spans[0]
        spans[5].content = "changed without a new version"

    spans = make_spans(30)
    before = list(spans)
    with pytest.raises(StaleSpanError, match="'s6'"):
        rewrite_and_drop(spans)
    assert len(spans) == 30 and all(map(lambda a, b: a is b, spans, before))
    assert spans[6].content == before[6].content and spans[6].version == 1


def test_a_tombstoned_member_of_a_pruned_group_is_still_found():
    @guard("prune")
    def drop_and_tombstone(spans, decision_log):
        removed = spans.pop(0)
        decision_log.record(action="prune", span_id=removed.span_id, reason="stale")
        spans[3].tombstoned = True

    with pytest.raises(ProvenanceError, match="'s4'"):
        drop_and_tombstone(make_spans(30), DecisionLog())
