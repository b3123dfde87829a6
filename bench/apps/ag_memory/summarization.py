from typing import List

from autogen_core.models import ChatCompletionClient, SystemMessage, UserMessage

from .models import Span
from .store import SpanStore


async def _summarize(client: ChatCompletionClient, text: str) -> str:
    result = await client.create([SystemMessage(content="Summarize."), UserMessage(content=text, source="app")])
    return str(result.content)


async def roll_summary(client: ChatCompletionClient, store: SpanStore, new: List[Span]) -> Span:
    prev = store.get("summary")
    basis = (prev.content if prev else "") + "\n" + "\n".join(s.content for s in new)
    text = await _summarize(client, basis)
    span = Span("summary", text)
    store.put(span)
    return span


async def summary_from_sources(client: ChatCompletionClient, store: SpanStore, n: int) -> Span:
    sources = [s for s in store.live() if s.source != "summary"]
    text = await _summarize(client, "\n".join(s.content for s in sources))
    span = Span(f"summary-{n}", text, source="summary", parents=[s.span_id for s in sources])
    store.put(span)
    return span


async def resummarize_chain(client: ChatCompletionClient, store: SpanStore, prev: Span, n: int) -> Span:
    text = await _summarize(client, prev.content)
    root = prev.parents[0] if prev.parents else prev.span_id
    span = Span(f"summary-{n}", text, source="summary", parents=[root, prev.span_id])
    store.put(span)
    return span
