"""Wiring: the triage agent, its tools, session and model-input filter."""

from __future__ import annotations

from agents import Agent, RunConfig, Runner, RunContextWrapper, SQLiteSession, function_tool
from agents.run_config import CallModelData, ModelInputData

from .compaction import TriageModelContext
from .decision_log import AuditLog
from .hooks import DeskContext, TriageHooks
from .redaction import normalize_query, scrub_session_input
from .settings import load_settings
from .spans import SpanStore

settings = load_settings()
store = SpanStore()
audit = AuditLog()
model_context = TriageModelContext(buffer_size=settings.max_context_items, audit=audit)


@function_tool
def lookup_ticket(ctx: RunContextWrapper[DeskContext], ticket_id: str) -> str:
    """Look up a helpdesk ticket by id."""
    span = ctx.context.store.get(f"ticket:{ticket_id}")
    return span.content if span else f"ticket {ticket_id} not found"


def trim_model_input(data: CallModelData[DeskContext]) -> ModelInputData:
    items = data.model_data.input
    if len(items) > settings.max_context_items:
        items = items[-settings.max_context_items :]
    return ModelInputData(input=items, instructions=data.model_data.instructions)


triage_agent = Agent[DeskContext](name="triage", instructions=settings.system_prompt, model=settings.model, tools=[lookup_ticket])


async def handle(user_id: str, text: str) -> str:
    session = SQLiteSession(user_id, settings.db_path)
    config = RunConfig(session_input_callback=scrub_session_input, call_model_input_filter=trim_model_input)
    result = await Runner.run(triage_agent, normalize_query(text), context=DeskContext(store), hooks=TriageHooks(), run_config=config, session=session)
    return str(result.final_output)
