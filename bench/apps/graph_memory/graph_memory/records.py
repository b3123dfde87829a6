"""Typed records shared across the graph nodes and the memory layer."""

from dataclasses import dataclass
from typing import Annotated, NotRequired, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import BaseModel, Field


class MemoryValue(TypedDict):
    content: str
    kind: str
    version: int
    content_hash: str
    source_ids: list[str]
    embedding: NotRequired[list[float] | None]
    tombstoned: NotRequired[bool]


class AgentState(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]
    citations: NotRequired[list["Citation"]]
    digest_key: NotRequired[str | None]


@dataclass
class GraphContext:
    user_id: str
    thread_id: str
    max_context_messages: int = 40


@dataclass(frozen=True)
class Citation:
    message_id: str
    start: int
    end: int
    label: str = ""


@dataclass(frozen=True)
class PinnedQuote:
    message_id: str
    content_hash: str
    start: int
    end: int


class OffsetMap(BaseModel):
    """Sentence boundaries computed for one version of a stored memory."""

    memory_key: str
    version: int
    content_hash: str
    sentences: list[tuple[int, int]] = Field(default_factory=list)

    @property
    def store_key(self) -> str:
        return f"{self.memory_key}:{self.version}:{self.content_hash[:16]}"
