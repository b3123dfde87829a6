from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Annotated, NotRequired, TypedDict

from langgraph.graph import MessagesState


class CitationRef(TypedDict):
    article_id: str
    title: str
    start: int
    end: int


class MemoryRef(TypedDict):
    memory_id: str
    version: int
    content_hash: str
    start: int
    end: int


class HelpdeskState(MessagesState):
    summary: NotRequired[str]
    summarized_through: NotRequired[str]
    citations: Annotated[list[CitationRef], operator.add]
    memory_refs: NotRequired[list[MemoryRef]]
    recalled: NotRequired[list[str]]
    ticket_id: NotRequired[str]
    escalate: NotRequired[bool]


@dataclass
class HelpdeskContext:
    customer_id: str
    tenant: str = "default"
    agent_handle: str = "helpdesk-bot"
