"""Crew factories used by the flow."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from crewai import LLM, Agent, Crew, Process, Task
from crewai.knowledge.source.base_knowledge_source import BaseKnowledgeSource
from crewai.memory import Memory

from crew_flow.settings import AppSettings
from crew_flow.spans import ContextBuffer
from crew_flow.tools import EvidenceTool, FetchUrlTool, RedactSpanTool


def _llm(settings: AppSettings, temperature: float = 0.2) -> LLM:
    return LLM(model=settings.model, temperature=temperature, timeout=settings.llm_timeout_s)


def research_crew(
    settings: AppSettings,
    buffer: ContextBuffer,
    knowledge: Sequence[BaseKnowledgeSource],
    memory: Memory | None,
    step_callback: Callable[[Any], None] | None = None,
    task_callback: Callable[[Any], None] | None = None,
) -> tuple[Crew, EvidenceTool]:
    evidence = EvidenceTool(buffer)
    researcher = Agent(
        role="Senior research analyst",
        goal="Answer {question} using only evidence present in the working context",
        backstory=(
            "You work from a shared context of numbered spans. Cite spans by id and quote "
            "evidence with the quote_evidence tool."
        ),
        tools=[evidence, FetchUrlTool(max_chars=settings.fetch_max_chars), RedactSpanTool(buffer)],
        llm=_llm(settings),
        max_iter=settings.max_iter,
        allow_delegation=False,
    )
    writer = Agent(
        role="Technical writer",
        goal="Turn the analyst's findings into a short, cited answer",
        backstory="You never add claims that are not backed by a cited span.",
        llm=_llm(settings, temperature=0.4),
        allow_delegation=False,
    )
    findings = Task(
        description=(
            "Question: {question}\n\nWorking notes:\n{notes}\n\nContext spans:\n{context}\n\n"
            "List the findings that answer the question, each with the span ids that support it."
        ),
        expected_output="A bullet list of findings with span ids in brackets.",
        agent=researcher,
    )
    answer = Task(
        description="Write the final answer to {question} from the findings.",
        expected_output="Three to six paragraphs, with [span_id] citations.",
        agent=writer,
        context=[findings],
    )
    crew = Crew(
        agents=[researcher, writer],
        tasks=[findings, answer],
        process=Process.sequential,
        knowledge_sources=list(knowledge),
        memory=memory if memory is not None else False,
        step_callback=step_callback,
        task_callback=task_callback,
        verbose=settings.verbose,
    )
    return crew, evidence


def notes_crew(settings: AppSettings) -> Crew:
    editor = Agent(
        role="Notes editor",
        goal="Keep the working notes short and faithful",
        backstory="You compress research notes without dropping open questions or decisions.",
        llm=_llm(settings, temperature=0.0),
        allow_delegation=False,
    )
    condense = Task(
        description=(
            "Rewrite these working notes in at most {words} words. Keep every open question, "
            "decision and reason.\n\n{notes}"
        ),
        expected_output="The condensed notes as plain text.",
        agent=editor,
    )
    return Crew(agents=[editor], tasks=[condense], process=Process.sequential)
