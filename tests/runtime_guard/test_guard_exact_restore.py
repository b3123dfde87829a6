"""Property: a rejected call leaves every object the call could reach exactly as it was: equal
(`model_dump`, `__dict__`), and the same objects at the same places in every container."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import pydantic
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage
from llama_index.core.schema import TextNode

from guard_spans import sha
from runtime_guard import SpanInvariantError, StaleSpanError, guard


@dataclass
class Span:
    span_id: str
    content: str
    version: int = 1
    content_hash: str = ""
    metadata: dict = field(default_factory=dict)
    embedding: list | None = None


class ModelSpan(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="allow")
    span_id: str
    content: str
    version: int = 1
    metadata: dict = {}


KINDS = ["dataclass", "pydantic", "llama", "langchain"]


def make(kind, i, text):
    if kind == "dataclass":
        return Span(f"s{i}", text, content_hash=sha(text), metadata={"tags": [i]}, embedding=[0.5, float(i)])
    if kind == "pydantic":
        return ModelSpan(span_id=f"s{i}", content=text, metadata={"tags": [i]})
    if kind == "llama":
        return TextNode(id_=f"s{i}", text=text, metadata={"tags": [i]}, start_char_idx=0, end_char_idx=len(text))
    return AIMessage(content=[{"type": "text", "text": text}], id=f"s{i}")


def text_of(span):
    return span.text if isinstance(span, TextNode) else span.content


def fingerprint(span):
    """Everything observable about a span: its fields (with nested values) and pydantic state."""
    if isinstance(span, pydantic.BaseModel):
        return (span.model_dump(), span.model_dump(exclude_unset=True), set(span.model_fields_set),
                copy.deepcopy(span.__pydantic_extra__))
    return copy.deepcopy(span.__dict__)


# one edit: (span index, what it does, text)
EDITS = ["content", "metadata_in_place", "nested_in_place", "extra_field", "remove", "insert", "rebind_metadata"]
edits = st.lists(st.tuples(st.integers(0, 7), st.sampled_from(EDITS), st.text(max_size=12)), min_size=1, max_size=5)


def is_new(span):
    return getattr(span, "span_id", "").startswith("new")


def apply(spans, plan):
    for index, action, text in plan:
        if not spans:
            return
        span = spans[index % len(spans)]
        if action == "content":
            if isinstance(span, TextNode):
                span.set_content(text + "!")
            elif isinstance(span, AIMessage):
                span.content[0]["text"] = text + "!"  # list content changed in place
            else:
                span.content = text + "!"
        elif action == "metadata_in_place" and hasattr(span, "metadata"):
            span.metadata["note"] = text
        elif action == "nested_in_place" and hasattr(span, "metadata"):
            span.metadata.setdefault("tags", []).append(text)
        elif action == "extra_field" and isinstance(span, ModelSpan):
            span.surprise = text
        elif action == "remove" and sum(not is_new(s) for s in spans if s is not span) >= 1:
            spans.remove(span)
        elif action == "insert":
            spans.insert(0, Span(f"new{index}", text, content_hash=sha(text)))
        elif action == "rebind_metadata" and hasattr(span, "metadata"):
            span.metadata = {"replaced": text}
    # make sure the call breaks an invariant: a content change at a kept id with no version bump
    first = next(span for span in spans if not is_new(span))
    if isinstance(first, TextNode):
        first.set_content(text_of(first) + " (changed)")
    elif isinstance(first, AIMessage):
        first.content.append("(changed)")
    else:
        first.content = text_of(first) + " (changed)"


@guard("rewrite")
def rejected_rewrite(spans, plan):
    apply(spans, plan)


@guard("prune")
def rejected_prune(spans, decision_log, plan):
    apply(spans, plan)
    if spans:
        spans.pop()  # never recorded
    decision_log.append({"note": "no span named"})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), texts=st.lists(st.text(min_size=1, max_size=15), min_size=1, max_size=6),
       plan=edits, prune=st.booleans())
def test_a_rejected_call_leaves_every_reachable_object_as_it_was(kind, texts, plan, prune):
    spans = [make(kind, i, text) for i, text in enumerate(texts)]
    originals = list(spans)
    before = [fingerprint(span) for span in spans]
    nested = [(span.__dict__.get("metadata"), span.__dict__.get("embedding")) for span in spans]
    log: list = []
    try:
        if prune:
            rejected_prune(spans, log, plan)
        else:
            rejected_rewrite(spans, plan)
    except SpanInvariantError as error:
        assert "(verified)" in str(error)
    else:
        raise AssertionError("the call broke an invariant and was accepted")
    assert len(spans) == len(originals) and all(a is b for a, b in zip(spans, originals))
    assert [fingerprint(span) for span in spans] == before
    assert all(span.__dict__.get("metadata") is metadata and span.__dict__.get("embedding") is embedding
               for span, (metadata, embedding) in zip(spans, nested))
    assert log == []


class PlainSpan:
    """A plain class whose instances get their attributes in one of two orders, some one more."""

    def __init__(self, i, text, swapped, extra):
        if swapped:
            self.content, self.span_id = text, f"s{i}"
        else:
            self.span_id, self.content = f"s{i}", text
        self.version, self.content_hash, self.tags = 1, sha(text), [i]
        if extra:
            self.note = "kept"


@guard("rewrite")
def rewrite_carelessly(same_fields, some_with_more):
    for spans in (same_fields, some_with_more):
        spans[0].content = "changed"  # no version bump: rejected
        spans[1].version = 7
        spans[2].tags.append("added")
        spans[3].note = "new attribute"
        del spans[4].content_hash
        spans[5].__dict__.pop("span_id")
        spans[5].span_id = "s5"  # same attributes, now in another order


def test_spans_whose_attributes_differ_in_order_or_number_are_restored_key_by_key():
    same_fields = [PlainSpan(i, f"text {i}", swapped=i % 3 == 0, extra=False) for i in range(12)]
    some_with_more = [PlainSpan(i, f"text {i}", swapped=False, extra=i % 4 == 0) for i in range(12)]
    before = [copy.deepcopy(list(vars(span).items())) for span in same_fields + some_with_more]
    with pytest.raises(StaleSpanError, match=r"\(verified\)"):
        rewrite_carelessly(same_fields, some_with_more)
    assert [list(vars(span).items()) for span in same_fields + some_with_more] == before
