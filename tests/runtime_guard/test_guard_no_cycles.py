"""A guarded call leaves no reference cycle among the guard's own objects: its snapshot (which holds
references to every value of every span) is freed when the call returns, not when the garbage
collector next runs (and then has to walk it)."""

from __future__ import annotations

import gc
import hashlib

import pytest

from guard_spans import Span, make_spans, sha
from runtime_guard import DecisionLog, StaleSpanError, guard


def _guard_garbage(run) -> list[str]:
    """The names of runtime_guard objects that only the garbage collector would free after `run()`."""
    gc.collect()
    enabled, flags = gc.isenabled(), gc.get_debug()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        run()
        gc.collect()
        return sorted({type(o).__qualname__ for o in gc.garbage
                       if type(o).__module__.startswith("runtime_guard")})
    finally:
        gc.set_debug(flags)
        gc.garbage.clear()
        if enabled:
            gc.enable()


@guard("rewrite")
def rewrite(spans):
    spans[1].rewrite(spans[1].content[::-1])


@guard("rewrite")
def bad_rewrite(spans):
    spans[1].content = "changed without a new version"


@guard("prune")
def prune(spans, decision_log):
    removed = spans.pop(1)
    decision_log.record(action="prune", span_id=removed.span_id, reason="stale")


@guard("summarize")
def summarize(spans):
    return Span("summary", "summary")


def test_calls_on_a_buffer_of_dataclasses_leave_no_cycle():
    spans = make_spans(50)

    def run():
        rewrite(spans)
        prune(spans, DecisionLog())
        summarize(spans)

    assert _guard_garbage(run) == []


def test_a_rejected_call_and_its_restore_leave_no_cycle():
    spans = make_spans(50)
    before = spans[1].content

    def run():
        with pytest.raises(StaleSpanError):
            bad_rewrite(spans)

    assert _guard_garbage(run) == []
    assert spans[1].content == before


def test_calls_on_pydantic_models_and_llama_index_nodes_leave_no_cycle():
    pydantic = pytest.importorskip("pydantic")

    class Model(pydantic.BaseModel):
        span_id: str
        content: str
        version: int = 1
        content_hash: str = ""

    def digest(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()

    models = [Model(span_id=f"m{i}", content=f"text {i}", content_hash=sha(f"text {i}")) for i in range(50)]

    @guard("rewrite")
    def rewrite_model(spans):
        spans[1].content = text = "new text"
        spans[1].version += 1
        spans[1].content_hash = digest(text)

    buffers = [(rewrite_model, models)]
    try:
        from llama_index.core.schema import TextNode
    except ImportError:
        TextNode = None
    if TextNode is not None:
        nodes = [TextNode(id_=f"n{i}", text=f"text {i}") for i in range(50)]

        @guard("rewrite")
        def rewrite_node(spans):
            spans[1].set_content("new text")
            spans[1].start_char_idx = spans[1].end_char_idx = None

        buffers.append((rewrite_node, nodes))

    def run():
        for operator, spans in buffers:
            operator(spans)
            operator(spans)

    assert _guard_garbage(run) == []
