"""The research assistant agent and its wiring."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import instructor
import openai
from atomic_agents import AgentConfig, AtomicAgent
from atomic_agents.context import SystemPromptGenerator

from .context_providers import CitationsProvider, DecisionLogProvider, PinnedSpansProvider
from .decision_log import DecisionLog
from .models import AnswerOutput, QuestionInput
from .settings import AppSettings
from .store import SpanHistory
from .textutil import normalize_whitespace
from .tools import AnnotateSpanTool, LookupSpanTool, RedactSpanTool, ReviseNoteTool

log = logging.getLogger(__name__)


@dataclass
class Assistant:
    agent: AtomicAgent[QuestionInput, AnswerOutput]
    history: SpanHistory
    decisions: DecisionLog
    pinned: PinnedSpansProvider
    citations: CitationsProvider
    tools: dict


def build_assistant(settings: AppSettings) -> Assistant:
    decisions = DecisionLog()
    history = SpanHistory(max_messages=settings.max_messages, decision_log=decisions)
    client = instructor.from_openai(openai.OpenAI())
    pinned = PinnedSpansProvider(history)
    citations = CitationsProvider(history)
    agent = AtomicAgent[QuestionInput, AnswerOutput](
        AgentConfig(
            client=client,
            model=settings.model,
            name="research-assistant",
            history=history,
            max_context_tokens=settings.max_context_tokens,
            system_prompt_generator=SystemPromptGenerator(
                background=["You answer questions from the retained notes and cite span ids."],
                steps=["Find the notes that answer the question.", "Quote them exactly."],
                output_instructions=["List every span id you relied on in cited_span_ids."],
                context_providers={"pinned": pinned, "citations": citations},
            ),
        )
    )
    agent.register_context_provider("decisions", DecisionLogProvider(decisions))
    agent.register_hook("completion:error", lambda err: log.warning("completion failed: %s", err))
    agent.register_hook("parse:error", lambda err: log.warning("parse failed: %s", err))
    tools = {
        t.tool_name: t
        for t in (RedactSpanTool(history), AnnotateSpanTool(history), ReviseNoteTool(history), LookupSpanTool(history))
    }
    return Assistant(agent, history, decisions, pinned, citations, tools)


def tidy_last_answer(history: SpanHistory) -> None:
    for msg in reversed(history.history):
        if msg.role == "assistant" and isinstance(msg.content, AnswerOutput):
            msg.content = AnswerOutput(
                answer=normalize_whitespace(msg.content.answer),
                cited_span_ids=sorted(set(msg.content.cited_span_ids)),
            )
            return


def ask(assistant: Assistant, question: str) -> AnswerOutput:
    answer = assistant.agent.run(QuestionInput(question=question))
    tidy_last_answer(assistant.history)
    for span_id in answer.cited_span_ids:
        assistant.history.hold(span_id, f"answer:{assistant.history.current_turn_id}")
    return answer


async def ask_async(assistant: Assistant, question: str) -> AnswerOutput:
    answer = await assistant.agent.run_async(QuestionInput(question=question))
    tidy_last_answer(assistant.history)
    return answer
