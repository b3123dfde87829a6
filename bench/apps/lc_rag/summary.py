"""Rolling conversation summaries and per-document digests."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Sequence

from langchain_core.documents import Document
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, get_buffer_string
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate

TURN_PROMPT = ChatPromptTemplate.from_messages(
    [
        ("system", "You maintain a short running summary of a support conversation."),
        ("human", "Summary so far:\n{summary}\n\nNew turns:\n{turns}\n\nWrite the updated summary."),
    ]
)

SOURCE_PROMPT = ChatPromptTemplate.from_messages(
    [
        ("system", "Summarize the conversation below for a colleague taking over."),
        ("human", "{turns}"),
    ]
)

DOC_PROMPT = ChatPromptTemplate.from_messages(
    [
        ("system", "Summarize the following company document text in five bullet points."),
        ("human", "{text}"),
    ]
)


@dataclass
class ConversationSummary:
    summary_id: str
    text: str
    source_message_ids: tuple[str, ...] = ()
    parent_summary_id: str | None = None
    root_summary_id: str | None = None
    generation: int = 0


@dataclass
class SummaryBook:
    """Every summary ever produced for a session, addressable by id."""

    items: dict[str, ConversationSummary] = field(default_factory=dict)
    latest: str | None = None

    def add(self, s: ConversationSummary) -> ConversationSummary:
        self.items[s.summary_id] = s
        self.latest = s.summary_id
        return s

    def current(self) -> ConversationSummary | None:
        return self.items.get(self.latest) if self.latest else None


class ConversationSummarizer:
    def __init__(self, llm: BaseChatModel) -> None:
        self.turn_chain = TURN_PROMPT | llm | StrOutputParser()
        self.source_chain = SOURCE_PROMPT | llm | StrOutputParser()

    def roll(self, previous: str, new_turns: Sequence[BaseMessage]) -> str:
        """Fold the newest turns into the running summary string."""
        return self.turn_chain.invoke(
            {"summary": previous or "(none)", "turns": get_buffer_string(list(new_turns))}
        )

    def rebuild(self, messages: Sequence[BaseMessage]) -> ConversationSummary:
        """Summarize straight from the retained messages."""
        text = self.source_chain.invoke({"turns": get_buffer_string(list(messages))})
        sid = f"sum_{uuid.uuid4().hex[:10]}"
        return ConversationSummary(
            summary_id=sid,
            text=text,
            source_message_ids=tuple(m.id or "" for m in messages),
            root_summary_id=sid,
        )

    def extend(
        self, book: SummaryBook, new_turns: Sequence[BaseMessage]
    ) -> ConversationSummary:
        """Fold new turns into the latest summary, keeping the chain addressable."""
        parent = book.current()
        text = self.turn_chain.invoke(
            {
                "summary": parent.text if parent else "(none)",
                "turns": get_buffer_string(list(new_turns)),
            }
        )
        sid = f"sum_{uuid.uuid4().hex[:10]}"
        return book.add(
            ConversationSummary(
                summary_id=sid,
                text=text,
                source_message_ids=(parent.source_message_ids if parent else ())
                + tuple(m.id or "" for m in new_turns),
                parent_summary_id=parent.summary_id if parent else None,
                root_summary_id=(parent.root_summary_id if parent else sid),
                generation=(parent.generation + 1) if parent else 0,
            )
        )


class DocumentDigester:
    """Produces a short digest per source document for the library page."""

    def __init__(self, llm: BaseChatModel) -> None:
        self.chain = DOC_PROMPT | llm | StrOutputParser()

    def digest_chunks(self, chunks: Sequence[Document]) -> list[Document]:
        return [
            Document(
                id=f"dig_{c.id}",
                page_content=self.chain.invoke({"text": c.page_content}),
                metadata={"source": c.metadata.get("source"), "digest_of": [c.id]},
            )
            for c in chunks
        ]

    async def adigest_document(self, chunks: Sequence[Document]) -> Document:
        partials = [await self.chain.ainvoke({"text": c.page_content}) for c in chunks]
        while len(partials) > 1:
            merged = []
            for i in range(0, len(partials), 4):
                merged.append(await self.chain.ainvoke({"text": "\n\n".join(partials[i : i + 4])}))
            partials = merged
        source = chunks[0].metadata.get("source") if chunks else None
        return Document(page_content=partials[0] if partials else "", metadata={"source": source})
