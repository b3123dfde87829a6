"""Long-term memory tools exposed to the model (store injected by ToolNode)."""

from __future__ import annotations

import uuid
from typing import Annotated

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool
from langgraph.prebuilt import InjectedStore
from langgraph.store.base import BaseStore

from .operators import canonical_query
from .settings import load_settings

SETTINGS = load_settings()


def _memory_ns(config: RunnableConfig) -> tuple[str, ...]:
    user_id = config.get("configurable", {}).get("user_id", "anonymous")
    return (SETTINGS.memory_namespace, str(user_id))


@tool
def save_memory(
    text: str,
    config: RunnableConfig,
    store: Annotated[BaseStore, InjectedStore()],
    tags: list[str] | None = None,
) -> str:
    """Remember a fact about the user for later conversations."""
    memory_id = uuid.uuid4().hex
    store.put(_memory_ns(config), memory_id, {"text": text, "tags": tags or []}, index=["text"])
    return memory_id


@tool
async def edit_memory(
    memory_id: str,
    text: str,
    config: RunnableConfig,
    store: Annotated[BaseStore, InjectedStore()],
) -> str:
    """Correct a previously saved memory."""
    ns = _memory_ns(config)
    existing = await store.aget(ns, memory_id)
    if existing is None:
        return f"no memory {memory_id}"
    await store.aput(ns, memory_id, {**existing.value, "text": text}, index=["text"])
    return f"updated {memory_id}"


@tool
def recall_memories(
    query: str,
    config: RunnableConfig,
    store: Annotated[BaseStore, InjectedStore()],
    limit: int = 5,
) -> list[dict]:
    """Look up saved memories relevant to the query."""
    hits = store.search(_memory_ns(config), query=canonical_query(query), limit=limit)
    return [{"id": h.key, "text": h.value.get("text", ""), "score": h.score} for h in hits]


TOOLS = [save_memory, edit_memory, recall_memories]
