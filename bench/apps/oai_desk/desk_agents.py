"""Agent definitions, handoffs and model-input filters."""

from __future__ import annotations

from agents import Agent, RunConfig, handoff
from agents.extensions import handoff_filters
from agents.run_config import CallModelData, ModelInputData

from .context import DeskContext
from .guardrails import citations_still_valid, no_raw_secrets
from .settings import DeskSettings
from .tools import DESK_TOOLS


def with_ticket_banner(data: CallModelData[DeskContext]) -> ModelInputData:
    desk = data.context
    banner = f"Ticket {desk.ticket_id}." if desk is not None else "No ticket."
    instructions = f"{data.model_data.instructions or ''}\n\n{banner}".strip()
    return ModelInputData(input=list(data.model_data.input), instructions=instructions)


def build_agents(settings: DeskSettings) -> dict[str, Agent[DeskContext]]:
    profiles = settings.profiles
    summarizer = Agent[DeskContext](
        name="Summarizer",
        instructions=profiles["summarizer"].text,
        model=profiles["summarizer"].model,
        model_settings=settings.model_settings("summarizer"),
    )
    billing = Agent[DeskContext](
        name="Billing",
        instructions=profiles["billing"].text,
        model=profiles["billing"].model,
        tools=list(DESK_TOOLS),
        output_guardrails=[citations_still_valid],
    )
    triage = Agent[DeskContext](
        name="Triage",
        instructions=profiles["triage"].text,
        model=profiles["triage"].model,
        tools=list(DESK_TOOLS),
        input_guardrails=[no_raw_secrets],
        handoffs=[handoff(billing, input_filter=handoff_filters.remove_all_tools)],
    )
    return {"triage": triage, "billing": billing, "summarizer": summarizer}


def run_config() -> RunConfig:
    return RunConfig(workflow_name="oai_desk", call_model_input_filter=with_ticket_banner)
