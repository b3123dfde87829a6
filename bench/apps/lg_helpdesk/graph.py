from __future__ import annotations

import functools

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, trim_messages
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from .citations import build_citations
from .decision_log import DecisionLog
from .kb_index import KnowledgeBase
from .memory_store import LongTermMemory
from .pruning import acompress_tool_results, trim_history
from .redaction import redact_and_archive, redact_pii
from .settings import HelpdeskSettings, load_settings
from .state import HelpdeskContext, HelpdeskState
from .summarizer import summarize_conversation

SYSTEM = (
    "You are the support assistant for {tenant}. Be concise and accurate. "
    "Only promise refunds the policy allows.\n\n"
    "What we know about this customer:\n{memories}\n\n"
    "Conversation so far (summary):\n{summary}\n\n"
    "Relevant help-center articles:\n{articles}"
)


def load_memories(state: HelpdeskState, runtime: Runtime[HelpdeskContext]) -> dict:
    memory = LongTermMemory(runtime.store, DecisionLog(runtime.store))
    last = next((m for m in reversed(state["messages"]) if isinstance(m, HumanMessage)), None)
    if last is None:
        return {}
    hits = memory.recall(runtime.context.customer_id, last.text, limit=6)
    return {"recalled": [h.text for h in hits]}


def make_agent_node(model: BaseChatModel, kb: KnowledgeBase, settings: HelpdeskSettings):
    def call_model(state: HelpdeskState, runtime: Runtime[HelpdeskContext]) -> dict:
        question = next(
            (m.text for m in reversed(state["messages"]) if isinstance(m, HumanMessage)), ""
        )
        docs = kb.rerank(question, kb.search(question, k=8), top=3) if question else []
        system = SystemMessage(
            content=SYSTEM.format(
                tenant=runtime.context.tenant,
                memories="\n".join(f"- {t}" for t in state.get("recalled", [])) or "(none)",
                summary=state.get("summary") or "(new conversation)",
                articles="\n\n".join(f"# {d.metadata['title']}\n{d.page_content}" for d in docs),
            )
        )
        window = trim_messages(
            state["messages"],
            max_tokens=settings.max_history_tokens,
            token_counter="approximate",
            strategy="last",
            start_on="human",
            include_system=False,
        )
        reply = model.invoke([system, *window])
        return {"messages": [reply], "citations": build_citations(reply.text, docs)}

    return call_model


def write_memories(state: HelpdeskState, runtime: Runtime[HelpdeskContext], *, model) -> dict:
    turn = [m for m in state["messages"][-4:] if isinstance(m, (HumanMessage, AIMessage))]
    if not turn:
        return {}
    extraction = model.invoke(
        [
            SystemMessage(
                content="List durable facts or preferences about the customer stated in these "
                "messages, one per line. Reply NONE if there are none."
            ),
            *turn,
        ]
    )
    if extraction.text.strip().upper() == "NONE":
        return {}
    memory = LongTermMemory(runtime.store, DecisionLog(runtime.store))
    ids = [m.id for m in turn if m.id]
    for line in extraction.text.splitlines():
        if line := line.strip("-• ").strip():
            memory.remember(runtime.context.customer_id, line, source_ids=ids)
    return {}


def should_summarize(state: HelpdeskState, settings: HelpdeskSettings) -> str:
    last = state["messages"][-1]
    if isinstance(last, AIMessage) and last.tool_calls:
        return "tools"
    if len(state["messages"]) > settings.summarize_after_messages:
        return "summarize"
    return "remember"


def build_graph(
    model: BaseChatModel,
    embeddings: Embeddings,
    kb: KnowledgeBase,
    *,
    settings: HelpdeskSettings | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    store: BaseStore | None = None,
    strict_redaction: bool = False,
    tools_node=None,
) -> CompiledStateGraph:
    settings = settings or load_settings()
    store = store or InMemoryStore(
        index={"dims": settings.embedding_dims, "embed": embeddings, "fields": ["text"]}
    )
    builder = StateGraph(HelpdeskState, context_schema=HelpdeskContext)
    builder.add_node("redact", redact_and_archive if strict_redaction else redact_pii)
    builder.add_node("load_memories", load_memories)
    builder.add_node("compress_tools", acompress_tool_results)
    builder.add_node("agent", make_agent_node(model, kb, settings))
    builder.add_node("summarize", functools.partial(summarize_conversation, model=model))
    builder.add_node("trim", functools.partial(trim_history, settings=settings))
    builder.add_node("remember", functools.partial(write_memories, model=model))
    if tools_node is not None:
        builder.add_node("tools", tools_node)
        builder.add_edge("tools", "compress_tools")

    builder.add_edge(START, "redact")
    builder.add_edge("redact", "load_memories")
    builder.add_edge("load_memories", "compress_tools")
    builder.add_edge("compress_tools", "agent")
    builder.add_conditional_edges(
        "agent",
        functools.partial(should_summarize, settings=settings),
        {"tools": "tools" if tools_node is not None else "remember", "summarize": "summarize",
         "remember": "remember"},
    )
    builder.add_edge("summarize", "trim")
    builder.add_edge("trim", "remember")
    builder.add_edge("remember", END)
    return builder.compile(checkpointer=checkpointer or InMemorySaver(), store=store)


def thread_config(thread_id: str) -> RunnableConfig:
    return {"configurable": {"thread_id": thread_id}}
