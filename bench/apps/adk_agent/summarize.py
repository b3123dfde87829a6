"""Summaries: rolling session summary, compaction summarizer, digests."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any
from typing import MutableMapping
from typing import Optional
from typing import Sequence

from google import genai
from google.adk.apps.base_events_summarizer import BaseEventsSummarizer
from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.events.event_actions import EventCompaction
from google.adk.memory import BaseMemoryService
from google.adk.memory.memory_entry import MemoryEntry
from google.genai import types

from .models import content_text
from .models import event_text


class TextGenerator:
    def __init__(self, client: genai.Client, model: str) -> None:
        self._client = client
        self._model = model

    async def __call__(self, prompt: str) -> str:
        response = await self._client.aio.models.generate_content(
            model=self._model, contents=prompt
        )
        return (response.text or "").strip()


def _transcript(events: Sequence[Event]) -> str:
    lines = []
    for ev in events:
        text = event_text(ev)
        if text:
            lines.append(f"{ev.author}: {text}")
    return "\n".join(lines)


class RollingSummary:
    STATE_KEY = "rolling_summary"

    def __init__(self, generate: TextGenerator) -> None:
        self._generate = generate

    async def update(
        self, state: MutableMapping[str, Any], new_events: Sequence[Event]
    ) -> str:
        previous = state.get(self.STATE_KEY, "")
        transcript = _transcript(new_events)
        if not transcript:
            return previous
        prompt = (
            "Update the running summary of this research session.\n\n"
            f"Summary so far:\n{previous}\n\nNew turns:\n{transcript}"
        )
        summary = await self._generate(prompt)
        state[self.STATE_KEY] = summary
        return summary


class SourceEventsSummarizer(BaseEventsSummarizer):
    """Compaction summarizer for EventsCompactionConfig."""

    def __init__(self, generate: TextGenerator) -> None:
        self._generate = generate

    async def maybe_summarize_events(self, *, events: list[Event]) -> Optional[Event]:
        sources = [
            ev
            for ev in events
            if not (ev.actions and ev.actions.compaction) and event_text(ev)
        ]
        if not sources:
            return None
        text = await self._generate(
            "Summarize these conversation turns, keeping names, numbers and "
            "decisions verbatim:\n\n" + _transcript(sources)
        )
        if not text:
            return None
        compaction = EventCompaction(
            start_timestamp=sources[0].timestamp,
            end_timestamp=sources[-1].timestamp,
            compacted_content=types.Content(
                role="model", parts=[types.Part.from_text(text=text)]
            ),
        )
        return Event(
            author="user",
            invocation_id=Event.new_id(),
            actions=EventActions(compaction=compaction),
            custom_metadata={"source_event_ids": [ev.id for ev in sources]},
        )


@dataclass(frozen=True)
class SummaryNode:
    summary_id: str
    text: str
    parent_id: Optional[str]
    root_id: str
    source_event_ids: tuple[str, ...]


class SummaryLineage:
    def __init__(self, generate: TextGenerator) -> None:
        self._generate = generate
        self._nodes: dict[str, SummaryNode] = {}

    async def extend(
        self, parent: Optional[SummaryNode], events: Sequence[Event]
    ) -> SummaryNode:
        base = parent.text if parent else ""
        text = await self._generate(
            f"Previous summary:\n{base}\n\nNew turns:\n{_transcript(events)}\n\n"
            "Write the updated summary."
        )
        summary_id = uuid.uuid4().hex
        node = SummaryNode(
            summary_id=summary_id,
            text=text,
            parent_id=parent.summary_id if parent else None,
            root_id=parent.root_id if parent else summary_id,
            source_event_ids=tuple(ev.id for ev in events),
        )
        self._nodes[summary_id] = node
        return node

    def chain(self, summary_id: str) -> list[SummaryNode]:
        out = []
        node = self._nodes.get(summary_id)
        while node is not None:
            out.append(node)
            node = self._nodes.get(node.parent_id) if node.parent_id else None
        return out

    def sources_of(self, summary_id: str) -> list[str]:
        return [eid for node in reversed(self.chain(summary_id)) for eid in node.source_event_ids]


async def roll_up_digests(
    memory_service: BaseMemoryService,
    generate: TextGenerator,
    *,
    app_name: str,
    user_id: str,
    topic: str,
) -> Optional[MemoryEntry]:
    found = await memory_service.search_memory(app_name=app_name, user_id=user_id, query=topic)
    digests = [m for m in found.memories if m.custom_metadata.get("kind") == "digest"]
    if len(digests) < 2:
        return None
    body = "\n\n".join(content_text(m.content) for m in digests)
    text = await generate(f"Merge these digests about {topic!r} into one:\n\n{body}")
    digest = MemoryEntry(
        content=types.Content(role="model", parts=[types.Part.from_text(text=text)]),
        author="digest",
        custom_metadata={"kind": "digest", "topic": topic},
    )
    await memory_service.add_memory(app_name=app_name, user_id=user_id, memories=[digest])
    return digest
