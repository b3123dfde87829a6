"""graph_memory: a LangGraph support assistant with long-term memory."""

from graph_memory.graph import build_graph
from graph_memory.memory_store import MemoryRepo
from graph_memory.records import AgentState, GraphContext
from graph_memory.settings import AgentSettings

__all__ = ["AgentSettings", "AgentState", "GraphContext", "MemoryRepo", "build_graph"]
