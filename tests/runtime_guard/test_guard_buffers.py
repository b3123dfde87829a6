"""A rejected rewrite on a whole buffer restores every span exactly, whichever way the guard took
the buffer's state: lists of one or several span types (LangChain's AIMessage and HumanMessage),
dicts, tuples and lists of holders (LlamaIndex NodeWithScore), spans holding odd containers."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage
from llama_index.core.schema import NodeWithScore, TextNode
import pytest

from guard_spans import Span
from runtime_guard import StaleSpanError, guard


def _dumps(messages):
    return [(type(m), m.model_dump(), m.model_dump(exclude_unset=True), m.__pydantic_fields_set__)
            for m in messages]


def test_a_list_of_two_message_types_is_restored_exactly():
    messages = [(AIMessage if i % 2 else HumanMessage)(f"m{i}", id=f"m{i}", additional_kwargs={"k": [i]})
                for i in range(6)]
    members, before = list(messages), _dumps(messages)

    @guard("rewrite")
    def edit(messages):
        messages[3].content = "changed"
        messages[2].additional_kwargs["k"].append("x")
        messages[4].response_metadata["model"] = "y"
        messages[5] = HumanMessage("new", id="m5")

    with pytest.raises(StaleSpanError, match=r"span 'm3'.*\(verified\)"):
        edit(messages)
    assert all(a is b for a, b in zip(messages, members)) and _dumps(messages) == before


def test_a_dict_and_a_tuple_of_spans_are_restored_exactly():
    spans = {f"s{i}": Span(f"s{i}", f"text {i}", embedding=[0.5] * 3) for i in range(4)}
    row = tuple(Span(f"t{i}", f"row {i}", embedding=[]) for i in range(3))
    before = ({key: vars(span).copy() for key, span in spans.items()}, [vars(span).copy() for span in row])
    embeddings = [span.embedding for span in (*spans.values(), *row)]

    @guard("rewrite")
    def edit(spans, row):
        spans["s1"].content = "changed"
        spans["s2"].embedding.append(9.0)
        row[0].embedding.append(1.0)
        del spans["s3"]

    with pytest.raises(StaleSpanError, match=r"span 's1'"):
        edit(spans, row)
    assert ({key: vars(span) for key, span in spans.items()}, [vars(span) for span in row]) == before
    assert [span.embedding for span in (*spans.values(), *row)] == embeddings
    assert all(a is b for a, b in zip((s.embedding for s in (*spans.values(), *row)), embeddings))


def test_a_list_of_holders_is_restored_exactly():
    hits = [NodeWithScore(node=TextNode(id_=f"n{i}", text=f"text {i}", start_char_idx=0, end_char_idx=6),
                          score=0.5) for i in range(4)]
    holders, nodes = list(hits), [hit.node for hit in hits]
    before = [(hit.node.model_dump(), hit.node.model_fields_set) for hit in hits]

    @guard("rewrite")
    def edit(hits):
        hits[1].node.text = "changed"
        hits[1].node.metadata["k"] = 1
        hits[0].node = TextNode(id_="other", text="other")
        hits[2] = NodeWithScore(node=hits[2].node, score=0.1)

    with pytest.raises(StaleSpanError, match=r"span 'n1'.*\(verified\)"):
        edit(hits)
    assert all(a is b for a, b in zip(hits, holders)) and all(h.node is n for h, n in zip(hits, nodes))
    assert [(hit.node.model_dump(), hit.node.model_fields_set) for hit in hits] == before


@pytest.mark.parametrize("count", [1, 3])
def test_a_span_holding_a_list_that_holds_itself_is_snapshotted_and_restored(count):
    spans = [Span(f"s{i}", f"text {i}", embedding=[1.0]) for i in range(count)]
    for span in spans:
        span.embedding.append(span.embedding)
    lengths = [len(span.embedding) for span in spans]

    @guard("rewrite")
    def edit(target):
        span = target[0] if isinstance(target, list) else target
        span.content = "changed"
        span.embedding.append(2.0)

    with pytest.raises(StaleSpanError, match=r"\(verified\)"):
        edit(spans if count > 1 else spans[0])
    assert [len(span.embedding) for span in spans] == lengths and spans[0].content == "text 0"
