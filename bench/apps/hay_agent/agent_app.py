from __future__ import annotations

from haystack.components.agents import Agent
from haystack.components.generators.chat import OpenAIChatGenerator
from haystack.dataclasses import ChatMessage

from .settings import load_settings
from .tools import MEMORY, compact_history, recall


def build_agent() -> Agent:
    s = load_settings()
    return Agent(chat_generator=OpenAIChatGenerator(model=s.model), tools=[compact_history, recall], system_prompt="Be concise.")


def ask(agent: Agent, question: str) -> str:
    MEMORY.add(ChatMessage.from_user(question))
    result = agent.run(messages=MEMORY.messages())
    reply: ChatMessage = result["messages"][-1]
    MEMORY.add(ChatMessage.from_assistant(reply.text or "", meta={"kind": "answer"}))
    return reply.text or ""
