"""Rolling summary of what the team has learned so far."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Sequence

from autogen_core.models import ChatCompletionClient, SystemMessage, UserMessage

from .notes import NoteStore, ResearchNote

SUMMARY_PROMPT = (
    "You maintain the running brief for a research team. Write a compact summary of the "
    "material below. Keep every figure and every named source."
)


async def summarize_text(client: ChatCompletionClient, text: str) -> str:
    result = await client.create(
        [SystemMessage(content=SUMMARY_PROMPT), UserMessage(content=text, source="summarizer")]
    )
    return result.content if isinstance(result.content, str) else ""


@dataclass
class SummaryState:
    text: str = ""
    note_id: Optional[str] = None
    sources: List[str] = field(default_factory=list)
    generation: int = 0


class RollingSummary:
    def __init__(self, client: ChatCompletionClient, store: NoteStore) -> None:
        self._client = client
        self._store = store
        self.state = SummaryState()

    async def roll(self, new_turns: Sequence[str]) -> ResearchNote:
        material = "\n\n".join([self.state.text, *new_turns]) if self.state.text else "\n\n".join(new_turns)
        text = await summarize_text(self._client, material)
        note = self._store.add(text, produced_by="summary")
        self.state = SummaryState(text=text, note_id=note.note_id, generation=self.state.generation + 1)
        return note

    async def refresh(self) -> ResearchNote:
        sources = [n for n in self._store.live() if n.produced_by == "ingest"]
        material = "\n\n".join(f"[{n.note_id} v{n.version}] {n.text}" for n in sources)
        text = await summarize_text(self._client, material)
        note = self._store.add(text, produced_by="summary")
        note.derived_from = [n.note_id for n in sources]
        self.state = SummaryState(text=text, note_id=note.note_id, sources=list(note.derived_from), generation=1)
        return note

    async def extend(self, fresh: Sequence[ResearchNote]) -> ResearchNote:
        prior = self._store.get(self.state.note_id) if self.state.note_id else None
        parts = [prior.text] if prior is not None else []
        parts.extend(f"[{n.note_id} v{n.version}] {n.text}" for n in fresh)
        text = await summarize_text(self._client, "\n\n".join(parts))
        note = self._store.add(text, produced_by="summary")
        lineage = list(prior.derived_from) if prior is not None else []
        lineage.extend(n.note_id for n in fresh)
        note.derived_from = lineage + ([prior.note_id] if prior is not None else [])
        self.state = SummaryState(
            text=text, note_id=note.note_id, sources=lineage, generation=self.state.generation + 1
        )
        return note
