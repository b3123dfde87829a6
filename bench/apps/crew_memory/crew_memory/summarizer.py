"""Turn-level summaries of the shared context."""

from dataclasses import dataclass, field

from crewai import LLM

from crew_memory.spans import Span, SpanStore

PROMPT = "Summarize for a support engineer; keep ticket numbers and decisions. Max {n} words."


@dataclass
class SummaryLineage:
    summary_id: str
    parent_id: str | None
    source_ids: list[str] = field(default_factory=list)


def _excerpt(span: Span, limit: int = 1800) -> str:
    excerpt = span.content.strip()
    if len(excerpt) > limit:
        excerpt = excerpt[:limit] + " ..."
    return f"[{span.span_id}] {excerpt}"


class Summarizer:
    def __init__(self, store: SpanStore, llm: LLM | None = None, words: int = 180) -> None:
        self.store = store
        self.llm = llm or LLM(model="gpt-4o-mini", temperature=0.1)
        self.words = words
        self.lineage: dict[str, SummaryLineage] = {}
        self.current: str | None = None

    async def _write(self, body: str, words: int) -> Span:
        text = await self.llm.acall([{"role": "system", "content": PROMPT.format(n=words)},
                                     {"role": "user", "content": body}])
        out = self.store.add(str(text), kind="summary", produced_by="summarize")
        self.current = out.span_id
        return out

    async def summarize_sources(self, spans: list[Span]) -> Span:
        sources = [s for s in spans if s.kind != "summary"]
        out = await self._write("\n\n".join(_excerpt(s) for s in sources), self.words)
        self.lineage[out.span_id] = SummaryLineage(out.span_id, None, [s.span_id for s in sources])
        return out

    async def roll_up(self) -> Span | None:
        """Fold the running summary into a shorter one when it grows too long."""
        if self.current is None:
            return None
        prior = self.store.spans[self.current]
        out = await self._write(prior.content, self.words // 2)
        self.store.tombstone(prior.span_id)
        return out

    async def extend(self, new_spans: list[Span]) -> Span:
        """Merge new turns into the running summary, keeping the chain to sources."""
        if self.current is None:
            return await self.summarize_sources(new_spans)
        prior = self.store.spans[self.current]
        out = await self._write("\n\n".join(_excerpt(s) for s in [prior, *new_spans]), self.words)
        parent = self.lineage.get(prior.span_id)
        roots = parent.source_ids if parent else []
        self.lineage[out.span_id] = SummaryLineage(
            out.span_id, prior.span_id, roots + [s.span_id for s in new_spans])
        return out
