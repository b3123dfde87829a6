"""Real LlamaIndex, LangChain, pydantic and attrs objects, the holders they come in, and the
restore on them being exact."""

from __future__ import annotations

import copy
import gc
import weakref
from dataclasses import dataclass, field

import attrs
import pydantic
import pytest
from langchain_core.messages import AIMessage, HumanMessage
from llama_index.core.schema import NodeWithScore, TextNode

from guard_spans import SECRET, Span, make_spans, sha
from runtime_guard import ProvenanceError, StaleSpanError, SummaryChainError, guard


def reset_derived(node):
    node.start_char_idx = node.end_char_idx = None
    node.embedding = None


# --- LlamaIndex ------------------------------------------------------------------------------------

def hits():
    nodes = [TextNode(id_=f"n{i}", text=f"passage {i} " + "x" * 30, start_char_idx=0, end_char_idx=40,
                      metadata={"file": f"f{i}.md"}) for i in range(3)]
    return [NodeWithScore(node=node, score=0.5) for node in nodes]


def test_node_with_score_is_a_holder_and_the_safe_rewrite_of_its_node_passes():
    @guard("rewrite")
    def reword(results):
        results[1].node.set_content("reworded")
        reset_derived(results[1].node)

    results = hits()
    reword(results)
    assert results[1].node.text == "reworded"


def test_an_unsafe_rewrite_of_a_held_node_is_rejected_and_its_text_restored():
    @guard("rewrite")
    def reword(results):
        results[1].node.set_content("reworded " + SECRET)
        results[1].node.metadata["file"] = "changed.md"

    results = hits()
    before = [hit.node.model_dump() for hit in results]
    with pytest.raises(StaleSpanError, match=r"span 'n1'.*derived field 'start_char_idx'.*\(verified\)") as caught:
        reword(results)
    assert [hit.node.model_dump() for hit in results] == before
    assert SECRET not in str(caught.value)


def test_pruning_a_hit_needs_an_entry_naming_its_node():
    @guard("prune")
    def drop(results, decision_log, record):
        removed = results.pop(0)
        if record:
            decision_log.append({"action": "prune", "node_id": removed.node.node_id})

    results = hits()
    with pytest.raises(ProvenanceError, match="span 'n0'"):
        drop(results, [], False)
    assert [hit.node.node_id for hit in results] == ["n0", "n1", "n2"]
    drop(results, [], True)


# --- LangChain and graph state ---------------------------------------------------------------------

def test_graph_state_messages_are_checked_and_restored():
    state = {"messages": [HumanMessage("hi", id="h1"), AIMessage("hello", id="a1")], "step": 3}

    @guard("rewrite")
    def edit(state):
        state["messages"][1].content = "changed"

    with pytest.raises(StaleSpanError, match="span 'a1'.*neither a version nor a hash"):
        edit(state)
    assert state["messages"][1].content == "hello"


def test_list_content_changed_in_place_is_seen_and_restored_whichever_message_type_came_first():
    for first in (HumanMessage("plain text", id="h0"), AIMessage([{"type": "text", "text": "x"}], id="a0")):
        messages = [first, AIMessage([{"type": "text", "text": "blocks"}], id="a1")]

        @guard("rewrite")
        def edit(messages):
            messages[1].content[0]["text"] = "changed in place"

        with pytest.raises(StaleSpanError, match="span 'a1'"):
            edit(messages)
        assert messages[1].content == [{"type": "text", "text": "blocks"}]


def test_messages_with_the_default_id_none_can_be_pruned_when_recorded():
    messages = [HumanMessage("one"), AIMessage("two"), HumanMessage("three")]
    assert messages[0].id is None

    @guard("prune")
    def trim(messages, decision_log):
        removed = messages.pop(0)
        decision_log.append({"action": "prune", "message": removed})

    trim(messages, [])
    assert [m.content for m in messages] == ["two", "three"]


# --- spans reached through holders ------------------------------------------------------------------

@dataclass
class Hit:
    span: Span
    score: float = 0.0


class Store:
    def __init__(self):
        self._spans = {span.span_id: span for span in make_spans(3)}


class Agent:
    def __init__(self):
        self.buffer = Store()

    @guard("rewrite")
    def edit(self, span_id):
        self.buffer._spans[span_id].content = "changed"


def test_spans_two_attributes_deep_from_self_are_checked():
    agent = Agent()
    with pytest.raises(StaleSpanError, match="span 's1'"):
        agent.edit("s1")
    assert agent.buffer._spans["s1"].content.startswith("000001")


def test_hits_holding_spans_are_checked_and_a_rebound_span_restored():
    results = [Hit(span) for span in make_spans(2)]
    originals = [hit.span for hit in results]

    @guard("rewrite")
    def swap(results):
        results[0].span = Span("s0", "different", version=1)  # same id, new content, same version

    with pytest.raises(StaleSpanError, match="span 's0'"):
        swap(results)
    assert [hit.span for hit in results] == originals and results[0].span is originals[0]


# --- exact restore on pydantic, attrs, frozen and slotted dataclasses --------------------------------

class PydanticSpan(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="allow")
    span_id: str
    content: str
    version: int = 1
    metadata: dict = {}
    _cache: dict = pydantic.PrivateAttr(default_factory=dict)


def test_pydantic_extra_fields_set_and_private_state_are_restored_exactly():
    span = PydanticSpan(span_id="p1", content="text", metadata={"tags": ["a"]})
    before = (span.model_dump(), span.model_dump(exclude_unset=True), span.model_fields_set,
              span.__pydantic_extra__, dict(span._cache))

    @guard("rewrite")
    def edit(span):
        span.content = "changed"
        span.version = 1
        span.extra_note = "added"            # pydantic extra
        span.metadata["tags"].append("b")    # nested, in place
        span._cache["k"] = 1                  # private state

    with pytest.raises(StaleSpanError, match=r"\(verified\)"):
        edit(span)
    after = (span.model_dump(), span.model_dump(exclude_unset=True), span.model_fields_set,
             span.__pydantic_extra__, dict(span._cache))
    assert after == before and not hasattr(span, "extra_note")


@attrs.define
class AttrsSpan:
    span_id: str
    content: str
    version: int = 1


@dataclass(frozen=True, slots=True)
class FrozenSlottedSpan:
    span_id: str
    content: str
    version: int = 1
    embedding: list = field(default_factory=list)


@pytest.mark.parametrize("make", [
    lambda: AttrsSpan("x", "text"),
    lambda: FrozenSlottedSpan("x", "text", embedding=[0.1, 0.2]),
])
def test_attrs_and_frozen_slotted_spans_are_restored_exactly(make):
    span = make()
    before = copy.deepcopy(span)

    @guard("rewrite")
    def edit(span):
        object.__setattr__(span, "content", "changed")
        if isinstance(span, FrozenSlottedSpan):
            span.embedding.append(9.9)

    with pytest.raises(StaleSpanError, match=r"\(verified\)"):
        edit(span)
    assert span == before


# --- per-type caches hold their types weakly ----------------------------------------------------------

@pytest.mark.parametrize("factory", ["pydantic.create_model", "type"])
def test_span_types_made_at_run_time_are_collectable(factory):
    @guard("rewrite")
    def good(span):
        span.content, span.version, span.content_hash = "new", span.version + 1, sha("new")

    references = []
    for i in range(20):
        if factory == "type":
            kind = type(f"RuntimeSpan{i}", (), {"__init__": lambda self, **kw: self.__dict__.update(kw)})
        else:
            kind = pydantic.create_model(f"RuntimeSpan{i}", span_id=(str, ...), content=(str, ...),
                                         version=(int, 1), content_hash=(str, ""))
        span = kind(span_id="s", content="old", version=1, content_hash=sha("old"))
        good(span)
        references.append(weakref.ref(kind))
        del kind, span
    gc.collect()
    assert [reference() for reference in references] == [None] * 20


# --- one span among many: buffers are read column by column ----------------------------------------

def many_nodes():
    return [TextNode(id_=f"n{i}", text=f"passage {i}") for i in range(50)]


def many_models():
    return [PydanticSpan(span_id=f"p{i}", content=f"turn {i}") for i in range(50)]


def node_summary_in_metadata(spans):
    spans[37].metadata["produced_by"] = "rewrite:summarize"
    return "n37"


def model_summary_in_extra(spans):
    spans[37] = PydanticSpan(span_id="p37", content="turn 37", produced_by="rewrite:summarize")
    return "p37"


@pytest.mark.parametrize("make, mark", [(many_nodes, node_summary_in_metadata), (many_models, model_summary_in_extra)])
def test_a_summary_among_many_framework_spans_is_an_input_the_summarize_guard_rejects(make, mark):
    @guard("summarize")
    def condense(spans):
        return None

    spans = make()
    condense(spans)
    marked = mark(spans)
    with pytest.raises(SummaryChainError, match=f"input span '{marked}' .*is itself a summary"):
        condense(spans)


class FlaggedSpan(pydantic.BaseModel):
    span_id: str
    content: str
    deleted: bool = False


def test_a_flag_set_on_one_of_many_pydantic_spans_is_a_prune_needing_an_entry():
    @guard("prune")
    def drop(spans, decision_log, record):
        spans[20].deleted = True
        if record:
            decision_log.append({"span_id": "f20", "reason": "stale"})

    spans = [FlaggedSpan(span_id=f"f{i}", content=f"turn {i}") for i in range(50)]
    with pytest.raises(ProvenanceError, match="span 'f20' .*flagged deleted with no decision-log entry"):
        drop(spans, [], record=False)
    assert not spans[20].deleted and spans[20].model_fields_set == {"span_id", "content"}
    drop(spans, [], record=True)
    assert spans[20].deleted
