"""Rolling conversation summary placed ahead of the recent turns."""

import uuid
from typing import Optional, Sequence

from llama_index.core.llms import LLM
from llama_index.core.prompts import PromptTemplate

from .records import SummaryRecord, TurnSpan

SUMMARY_PROMPT = PromptTemplate(
    "Summarize the support conversation below for an agent picking it up later. Keep ticket "
    "numbers, product names and any commitments made.\n\n{transcript}\n\nSummary:"
)
SHORTEN_PROMPT = PromptTemplate("Shorten this summary to at most {max_words} words:\n\n{summary}")


def _render(spans: Sequence[TurnSpan]) -> str:
    return "\n".join(f"{s.role.value}: {s.text}" for s in spans)


class ConversationSummarizer:
    def __init__(self, llm: LLM) -> None:
        self._llm = llm
        self.current: Optional[SummaryRecord] = None

    async def summarize(self, spans: Sequence[TurnSpan]) -> SummaryRecord:
        text = await self._llm.apredict(SUMMARY_PROMPT, transcript=_render(spans))
        rec = SummaryRecord(f"sum-{uuid.uuid4().hex[:8]}", text.strip(), source_span_ids=[s.span_id for s in spans])
        self.current = rec
        return rec

    async def fold_in(self, recent: Sequence[TurnSpan]) -> SummaryRecord:
        """Update the running summary with the turns that are about to be trimmed."""
        prior = self.current
        if prior is None:
            return await self.summarize(recent)
        body = f"Earlier summary:\n{prior.text}\n\nNew turns:\n{_render(recent)}"
        text = await self._llm.apredict(SUMMARY_PROMPT, transcript=body)
        sources = prior.source_span_ids + [s.span_id for s in recent]
        rec = SummaryRecord(f"sum-{uuid.uuid4().hex[:8]}", text.strip(), sources, parent_summary_id=prior.summary_id)
        self.current = rec
        return rec

    async def recompress(self, max_words: int = 120) -> Optional[SummaryRecord]:
        """Shorten the running summary when it outgrows its slot in the prompt."""
        cur = self.current
        if cur is None or len(cur.text.split()) <= max_words:
            return cur
        shorter = await self._llm.apredict(SHORTEN_PROMPT, max_words=str(max_words), summary=cur.text)
        cur.text = shorter.strip()
        return cur
