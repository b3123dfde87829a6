"""Tools exposed to the model."""

from typing import Annotated

from langchain_core.tools import BaseTool, tool
from langgraph.config import get_config
from langgraph.prebuilt import InjectedStore
from langgraph.store.base import BaseStore
from langmem import create_manage_memory_tool, create_search_memory_tool

from graph_memory.settings import NOTES_NS, memory_ns


def note_tools() -> list[BaseTool]:
    namespace = (NOTES_NS, "{langgraph_user_id}")
    manage = create_manage_memory_tool(namespace=namespace, actions_permitted=("create",))
    return [manage, create_search_memory_tool(namespace=namespace)]


def _user_id() -> str:
    return get_config()["configurable"]["langgraph_user_id"]


@tool
async def amend_memory(key: str, correction: str, store: Annotated[BaseStore, InjectedStore()]) -> str:
    """Apply the user's correction to one stored memory, identified by key."""
    ns = memory_ns(_user_id())
    item = await store.aget(ns, key)
    if item is None or item.value.get("tombstoned"):
        return f"No memory {key}."
    value = dict(item.value)
    value["content"] = correction.strip()
    value["version"] = int(value.get("version", 0)) + 1
    await store.aput(ns, key, value)
    return f"Memory {key} updated (v{value['version']})."
