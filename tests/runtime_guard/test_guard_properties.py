"""Property-based tests over random buffers and random good and bad operators."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guard_spans import Span, sha
from runtime_guard import DecisionLog, SpanInvariantError, guard

texts = st.text(min_size=0, max_size=30)
buffers = st.lists(texts, min_size=1, max_size=12).map(
    lambda contents: [Span(f"s{i}", text) for i, text in enumerate(contents)])

# one edit: (span index, what to do, new text); bad edits forget the version, the hash or both
EDITS = ["good", "no_version", "no_hash", "bare", "prune_logged", "prune_unlogged", "append", "noop"]
edits = st.lists(st.tuples(st.integers(0, 11), st.sampled_from(EDITS), texts), max_size=6)


class OperatorFailed(Exception):
    pass


def apply(spans, log, plan, fail):
    for index, action, text in plan:
        if not spans:
            break
        span = spans[index % len(spans)]
        if action == "good":
            span.rewrite(text)
        elif action in ("no_version", "no_hash", "bare"):
            span.content = text
            if action == "no_hash":
                span.version += 1
            if action == "no_version":
                span.content_hash = sha(text)
        elif action.startswith("prune"):
            spans.remove(span)
            if action == "prune_logged":
                log.record(action="prune", span_id=span.span_id)
        elif action == "append":
            spans.append(Span(f"new{len(spans)}-{index}", text))
    if fail:
        raise OperatorFailed("operator failed on its own")


@guard("rewrite")
def guarded_rewrite(spans, decision_log, plan, fail):
    apply(spans, decision_log, plan, fail)


@guard("prune")
def guarded_prune(spans, decision_log, plan, fail):
    apply(spans, decision_log, plan, fail)


def state(spans):
    return [(s.span_id, s.content, s.version, s.content_hash, s.embedding, s.tombstoned) for s in spans]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(buffer=buffers, plan=edits, use_prune=st.booleans())
def test_accepted_calls_keep_invariants_and_rejected_calls_restore_exactly(buffer, plan, use_prune):
    operator = guarded_prune if use_prune else guarded_rewrite
    before = copy.deepcopy(buffer)
    originals = list(buffer)
    log = DecisionLog()
    try:
        operator(buffer, log, plan, False)
    except SpanInvariantError:
        assert state(buffer) == state(before)
        assert all(a is b for a, b in zip(buffer, originals)) and len(buffer) == len(originals)
        if use_prune:  # a prune guard rolls its decision log back too
            assert len(log) == 0
        return
    old = {s.span_id: s for s in before}
    if use_prune:
        logged = {entry["span_id"] for entry in log}
        assert set(old) - {s.span_id for s in buffer} <= logged
        return
    for span in buffer:
        if span.span_id in old and span.content != old[span.span_id].content:
            assert span.version > old[span.span_id].version
            assert span.content_hash == sha(span.content)


@settings(max_examples=100, deadline=None)
@given(buffer=buffers, plan=edits, use_prune=st.booleans())
def test_operator_failure_surfaces_unchanged_with_no_false_report(buffer, plan, use_prune):
    operator = guarded_prune if use_prune else guarded_rewrite
    with pytest.raises(OperatorFailed, match="operator failed on its own"):
        operator(buffer, DecisionLog(), plan, True)


@settings(max_examples=100, deadline=None)
@given(buffer=buffers, plan=st.lists(st.tuples(st.integers(0, 11), st.just("good"), texts), max_size=6))
def test_good_operators_are_never_rejected(buffer, plan):
    guarded_rewrite(buffer, DecisionLog(), plan, False)


@settings(max_examples=100, deadline=None)
@given(buffer=buffers, index=st.integers(0, 11), text=texts)
def test_a_bare_content_change_is_always_rejected(buffer, index, text):
    span = buffer[index % len(buffer)]
    if text == span.content:
        return
    before = state(buffer)
    with pytest.raises(SpanInvariantError):
        guarded_rewrite(buffer, DecisionLog(), [(index, "bare", text)], False)
    assert state(buffer) == before
