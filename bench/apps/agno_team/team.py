"""Builds the Agno agents and team."""
from __future__ import annotations

from agno.agent import Agent
from agno.db.sqlite import SqliteDb
from agno.memory import MemoryManager
from agno.models.openai import OpenAIChat
from agno.team import Team, TeamMode

from agno_team.buffer import SpanBuffer
from agno_team.decision_log import DecisionLog
from agno_team.hooks import audit_tool_call, note_input_size, scrub_run_output
from agno_team.settings import Settings, load_presets
from agno_team.tools import ContextTools


def build_db(settings: Settings) -> SqliteDb:
    return SqliteDb(db_file=settings.db_file)


def build_team(settings: Settings, buffer: SpanBuffer, log: DecisionLog) -> Team:
    db = build_db(settings)
    presets = load_presets()
    model = OpenAIChat(id=settings.model_id)
    memory_manager = MemoryManager(model=model, db=db)

    researcher = Agent(
        name="Researcher",
        model=model,
        db=db,
        instructions=presets["researcher"].text,
        tools=[ContextTools(buffer, log)],
        tool_hooks=[audit_tool_call],
        pre_hooks=[note_input_size],
        add_history_to_context=True,
        num_history_runs=settings.num_history_runs,
    )
    writer = Agent(
        name="Writer",
        model=model,
        db=db,
        instructions=presets["writer"].text,
        post_hooks=[scrub_run_output],
    )
    return Team(
        name="Context Team",
        members=[researcher, writer],
        model=model,
        mode=TeamMode.coordinate,
        db=db,
        memory_manager=memory_manager,
        update_memory_on_run=True,
        enable_session_summaries=True,
        add_history_to_context=True,
    )


def build_summarizer(settings: Settings) -> Agent:
    return Agent(
        name="Summarizer",
        model=OpenAIChat(id=settings.model_id),
        instructions="Summarize faithfully. Never add facts that are not in the input.",
    )
