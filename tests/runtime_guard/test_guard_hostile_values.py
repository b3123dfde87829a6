"""Values that fight back (a raising `__eq__`, `__repr__`, `__getattr__` or property, numpy arrays)
never break the check or the rollback, never leak content; and transactional guards undo a call
whose operator raised."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from guard_spans import SECRET, Span, make_spans, sha
from runtime_guard import DecisionLog, ProvenanceError, StaleSpanError, SummaryChainError, guard


class Poison:
    """A value whose comparisons, hash, truth and repr all raise."""

    def __eq__(self, other):
        raise TypeError("no comparing")

    __ne__ = __eq__

    def __hash__(self):
        raise TypeError("no hashing")

    def __bool__(self):
        raise ValueError("no truth")

    def __repr__(self):
        raise RuntimeError("no repr")


class BadId(str):
    def __repr__(self):
        raise RuntimeError("repr of an id fails")


@dataclass
class ArraySpan:
    span_id: str
    content: str
    version: int = 1
    embedding: object = None
    extra: object = None


def test_a_raising_eq_and_a_numpy_array_in_a_span_do_not_stop_the_rollback():
    span = ArraySpan("a", SECRET, embedding=np.ones(4), extra=Poison())
    originals = (span.embedding, span.extra)

    @guard("rewrite")
    def edit(span):
        span.content = "changed"
        span.embedding = np.zeros(4)
        span.extra = Poison()

    with pytest.raises(StaleSpanError, match=r"span 'a'.*\(verified\)") as caught:
        edit(span)
    assert span.content == SECRET and span.embedding is originals[0] and span.extra is originals[1]
    assert SECRET not in str(caught.value)


def test_an_array_changed_in_place_is_restored_by_reference_and_a_valid_rewrite_passes():
    span = ArraySpan("a", "text", embedding=np.ones(4))

    @guard("rewrite")
    def good(span):
        span.content, span.version, span.embedding = "new", 2, None

    good(span)
    assert span.version == 2


def test_an_id_whose_repr_raises_still_gets_a_message_and_a_rollback():
    span = Span(BadId("weird"), "text")

    @guard("rewrite")
    def edit(span):
        span.content = "changed"

    with pytest.raises(StaleSpanError, match="repr failed"):
        edit(span)
    assert span.content == "text"


class RaisingGetattr:
    """A span whose `__getattr__` raises something other than AttributeError for missing names."""

    def __init__(self, span_id, content):
        self.span_id, self.content, self.version = span_id, content, 1

    def __getattr__(self, name):
        raise ValueError(f"no attribute {name}")


def test_a_getattr_raising_other_errors_does_not_crash_any_guard():
    spans = [RaisingGetattr("r1", "text"), RaisingGetattr("r2", "more")]

    @guard("summarize")
    def summarize(spans):
        return Span("sum", "summary")

    @guard("rewrite")
    def edit(spans):
        spans[0].content = "changed"

    assert summarize(spans).span_id == "sum"
    with pytest.raises(StaleSpanError, match="span 'r1'"):
        edit(spans)
    assert spans[0].content == "text"


class LazySpan:
    """A span whose content is loaded on access; loading fails for some instances."""

    def __init__(self, span_id, fails):
        self.span_id, self.version, self.fails = span_id, 1, fails

    @property
    def content(self):
        if self.fails:
            raise RuntimeError("content unavailable")
        return "loaded"


def test_a_raising_content_property_on_an_untouched_span_does_not_stop_the_call():
    buffer = make_spans(2) + [LazySpan("lazy-ok", False), LazySpan("lazy-broken", True)]

    @guard("rewrite")
    def good(buffer):
        buffer[0].rewrite("new")

    good(buffer)
    assert buffer[0].version == 2


# --- transactional -------------------------------------------------------------------------------------

class PartWayFailure(Exception):
    pass


def test_transactional_prune_restores_a_partial_prune_and_reraises_the_same_exception():
    error = PartWayFailure("disk full")

    @guard("prune", transactional=True)
    def compact(spans, decision_log):
        spans.pop(0)
        decision_log.record(action="prune", span_id="s0")
        spans.pop(0)
        raise error

    spans, log = make_spans(4), DecisionLog()
    originals = list(spans)
    with pytest.raises(PartWayFailure) as caught:
        compact(spans, log)
    assert caught.value is error
    assert spans == originals and all(a is b for a, b in zip(spans, originals)) and len(log) == 0


def test_without_transactional_a_failing_operator_keeps_its_changes():
    @guard("prune")
    def compact(spans, decision_log):
        spans.pop(0)
        raise PartWayFailure("disk full")

    spans = make_spans(3)
    with pytest.raises(PartWayFailure):
        compact(spans, DecisionLog())
    assert len(spans) == 2


def test_transactional_rewrite_restores_nested_values():
    span = Span("s", "text", embedding=[0.1, 0.2])

    @guard("rewrite", transactional=True)
    def edit(span):
        span.embedding.append(0.3)
        span.rewrite("new")
        raise PartWayFailure("model timeout")

    with pytest.raises(PartWayFailure):
        edit(span)
    assert (span.content, span.version, span.embedding, span.content_hash) == ("text", 1, [0.1, 0.2], sha("text"))


# --- no content in any message --------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["rewrite", "prune", "summarize"])
def test_secret_content_never_appears_in_messages_about_real_and_hostile_objects(kind):
    from langchain_core.messages import AIMessage
    from llama_index.core.schema import NodeWithScore, TextNode

    node = TextNode(id_="n", text=SECRET, start_char_idx=0, end_char_idx=len(SECRET))
    message = AIMessage(SECRET, id="m")
    hostile = ArraySpan(BadId("b"), SECRET, embedding=np.ones(2), extra=Poison())
    summary = Span("sum", SECRET, produced_by="rewrite:summarize")

    @guard(kind)
    def operate(hits, messages, hostile, summary):
        hits[0].node.set_content(SECRET + " edited")
        messages[0].content = SECRET + " edited"
        hostile.content = SECRET + " edited"
        if kind == "prune":
            messages.pop()

    with pytest.raises((StaleSpanError, ProvenanceError, SummaryChainError)) as caught:
        operate([NodeWithScore(node=node)], [message], hostile, summary)
    assert SECRET not in str(caught.value) and "TOPSECRET" not in str(caught.value)
