"""Wiring: the planner agent, its thread, and the per-turn loop."""

from __future__ import annotations

from dataclasses import dataclass, field

from semantic_kernel import Kernel
from semantic_kernel.agents import ChatCompletionAgent, ChatHistoryAgentThread
from semantic_kernel.connectors.ai.open_ai import OpenAIChatCompletion, OpenAITextEmbedding
from semantic_kernel.connectors.in_memory import InMemoryCollection

from sk_agents.context_plugin import ContextPlugin
from sk_agents.dashboard import StatusPanel, Widget
from sk_agents.decision_log import DecisionLog
from sk_agents.history import shrink_tool_results, span_id_of
from sk_agents.indexer import SpanIndexer
from sk_agents.maintenance import JobQueue, compact_tombstones
from sk_agents.operators import normalize_spans
from sk_agents.records import PassageRecord, SpanChunk
from sk_agents.reducers import RollingSummaryReducer
from sk_agents.settings import AgentSettings
from sk_agents.spans import ContextSpan, SpanStore
from sk_agents.tokens import TokenBudget

INSTRUCTIONS = """You are the planning agent for the platform team.
Work from the context spans you are given. Cite span ids for every claim.
Use the context tools to redact personal data, drop spans that no longer matter,
and keep the task summary short."""


@dataclass
class Session:
    settings: AgentSettings
    agent: ChatCompletionAgent
    thread: ChatHistoryAgentThread
    store: SpanStore
    log: DecisionLog
    indexer: SpanIndexer
    budget: TokenBudget
    panel: StatusPanel = field(default_factory=StatusPanel)
    jobs: JobQueue = field(default_factory=JobQueue)
    turn: int = 0


def build_session(settings: AgentSettings | None = None) -> Session:
    settings = settings or AgentSettings()
    chat = OpenAIChatCompletion(ai_model_id=settings.model_id, service_id="planner")
    embedder = OpenAITextEmbedding(ai_model_id=settings.embedding_model_id, service_id="embed")
    kernel = Kernel()
    kernel.add_service(chat)
    kernel.add_service(embedder)

    store = SpanStore()
    log = DecisionLog(max_entries=settings.decision_log_max_entries)
    store.add(ContextSpan(span_id=settings.summary_span_id, text="(no summary yet)", role="system", is_summary=True))

    agent = ChatCompletionAgent(
        kernel=kernel,
        service=chat,
        name="Planner",
        instructions=INSTRUCTIONS,
        plugins=[ContextPlugin(store, log, chat, settings)],
    )
    reducer = RollingSummaryReducer(
        service=chat,
        decision_log=log,
        target_count=settings.target_count,
        threshold_count=settings.threshold_count,
    )
    thread = ChatHistoryAgentThread(chat_history=reducer)
    indexer = SpanIndexer(
        embedder,
        InMemoryCollection(record_type=SpanChunk, embedding_generator=embedder),
        InMemoryCollection(record_type=PassageRecord, embedding_generator=embedder),
    )
    session = Session(settings, agent, thread, store, log, indexer, TokenBudget(limit=96_000))
    for wid in ("turn", "budget", "last_answer"):
        session.panel.mount(Widget(widget_id=wid, kind="label"))
    return session


async def run_turn(session: Session, user_text: str) -> str:
    session.turn += 1
    response = await session.agent.get_response(messages=user_text, thread=session.thread)
    session.thread = response.thread

    span = ContextSpan(span_id=span_id_of(response.message), text=response.message.content, role="assistant")
    session.store.add(span)
    await session.indexer.index_span(span)

    normalize_spans(session.store.live())
    await shrink_tool_results(session.thread, session.settings.tool_result_limit)
    await session.thread.reduce()
    compact_tombstones(session.store, session.log, session.settings.tombstone_ttl_s)

    session.panel.show_turn(session.turn, session.budget.used(session.store.live()), session.budget.limit)
    session.panel.set_text("last_answer", response.message.content[:280])
    return response.message.content
