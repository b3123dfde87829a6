"""Wiring: the ChatAgent with span memory and the context toolkit."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from camel.agents import ChatAgent
from camel.messages import BaseMessage
from camel.models import ModelFactory
from camel.toolkits import MemoryToolkit
from camel.types import OpenAIBackendRole
from camel.utils import OpenAITokenCounter

from .buffer import ContextBuffer
from .citations import CitationBuilder
from .context import PreviewContextCreator
from .decision_log import DecisionLog
from .memory import SpanMemory
from .settings import Settings
from .store import NoteStore
from .tools import ContextToolkit

SYSTEM_PROMPT = (
    "You are a research assistant. Ground every claim in the notes in your "
    "context and cite spans with the `cite` tool."
)


@dataclass
class App:
    settings: Settings
    agent: ChatAgent
    buffer: ContextBuffer
    notes: NoteStore
    citations: CitationBuilder
    log: DecisionLog
    model: object


def build_app(settings: Settings) -> App:
    model = ModelFactory.create(
        model_platform=settings.model_platform,
        model_type=settings.model_type,
    )
    counter = OpenAITokenCounter(settings.model_type)
    memory = SpanMemory(
        token_counter=counter,
        token_limit=settings.token_limit,
        window_size=settings.window_size,
        context_creator=PreviewContextCreator(counter, settings.token_limit),
    )
    buffer = ContextBuffer(memory)
    notes = NoteStore()
    citations = CitationBuilder(buffer)
    toolkit = ContextToolkit(buffer, notes, citations)
    agent = ChatAgent(
        system_message=BaseMessage.make_system_message(SYSTEM_PROMPT),
        model=model,
        memory=memory,
        tools=toolkit.get_tools(),
        token_limit=settings.token_limit,
    )
    agent.add_tools(MemoryToolkit(agent).get_tools())
    return App(
        settings=settings,
        agent=agent,
        buffer=buffer,
        notes=notes,
        citations=citations,
        log=DecisionLog(Path(settings.decision_log_path)),
        model=model,
    )


def ingest(app: App, text: str, topic: str = "") -> str:
    extra = {"topic": topic} if topic else None
    record = app.buffer.add(text, role=OpenAIBackendRole.USER, extra_info=extra)
    return str(record.uuid)


def ask(app: App, question: str) -> str:
    response = app.agent.step(question)
    return response.msg.content
