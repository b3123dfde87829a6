"""Entry point: wires the triage, billing and tech agents around the context store."""

from __future__ import annotations

import asyncio
import os
import uuid
from pathlib import Path

from pydantic import BaseModel

from agents import Agent, ModelSettings, Runner, SQLiteSession, handoff

from .compaction import collect_released_tombstones, compact_window_recorded, window_tokens
from .decision_log import DecisionLog
from .frontend import ConsolePanels, ReplyPayload, to_http
from .guardrails import citations_present, secret_scan
from .handoff_filters import billing_filter, tech_filter
from .hooks import BudgetAgentHooks, DeskContext, DeskRunHooks
from .jobs import Job, JobQueue
from .models import ContextSpan
from .session_store import DeskSession
from .store import ContextStore
from .summary import RollingSummary
from .tools import DESK_TOOLS


class DeskSettings(BaseModel):
    model: str = "gpt-4.1-mini"
    window_budget: int = 6000
    temperature: float = 0.2
    db_path: str = "desk.db"
    log_path: str = "decisions.jsonl"


def load_settings(overrides: dict[str, str] | None = None) -> DeskSettings:
    settings = DeskSettings()
    env = {k[5:].lower(): v for k, v in os.environ.items() if k.startswith("DESK_")}
    env.update(overrides or {})
    for key, value in env.items():
        if key in DeskSettings.model_fields:
            setattr(settings, key, type(getattr(settings, key))(value))
    return settings


def build_agents(settings: DeskSettings) -> Agent[DeskContext]:
    ms = ModelSettings(temperature=settings.temperature)
    billing = Agent[DeskContext](
        name="billing",
        instructions="Resolve billing questions. Cite KB spans for any policy statement.",
        model=settings.model,
        model_settings=ms,
        tools=DESK_TOOLS,
        output_guardrails=[citations_present],
    )
    tech = Agent[DeskContext](
        name="tech",
        instructions="Diagnose technical problems step by step and keep ticket notes current.",
        model=settings.model,
        model_settings=ms,
        tools=DESK_TOOLS,
        hooks=BudgetAgentHooks(),
    )
    return Agent[DeskContext](
        name="triage",
        instructions="Classify the ticket and hand off to billing or tech.",
        model=settings.model,
        model_settings=ms,
        handoffs=[
            handoff(billing, input_filter=billing_filter),
            handoff(tech, input_filter=tech_filter),
        ],
        input_guardrails=[secret_scan],
    )


async def handle_ticket(ticket_id: str, message: str, settings: DeskSettings) -> dict:
    store = ContextStore()
    decisions = DecisionLog(Path(settings.log_path))
    store.add(ContextSpan(span_id=f"{ticket_id}:msg:0", text=message, kind="turn"))
    ctx = DeskContext(ticket_id=ticket_id, store=store)
    session = DeskSession(ticket_id, settings.db_path)
    triage = build_agents(settings)

    result = await Runner.run(triage, message, context=ctx, session=session, hooks=DeskRunHooks())
    store.add(
        ContextSpan(span_id=f"{ticket_id}:msg:{uuid.uuid4().hex[:6]}", text=str(result.final_output))
    )

    if window_tokens(store) > settings.window_budget:
        compact_window_recorded(store, decisions, settings.window_budget)
    collect_released_tombstones(store, decisions)

    cited = [s for s in store.live() if s.span_id in ctx.cited_span_ids]
    payload = ReplyPayload(
        id=f"reply-{uuid.uuid4().hex[:8]}",
        ticket_id=ticket_id,
        content=str(result.final_output),
        footnotes=", ".join(s.span_id for s in cited),
    )
    return to_http(payload)


async def summarize_backlog(settings: DeskSettings) -> str:
    summarizer = Agent(name="summarizer", instructions="Summarize support conversations tersely.")
    session = SQLiteSession("backlog", settings.db_path)

    async def _summarize(text: str) -> str:
        res = await Runner.run(summarizer, text, session=session)
        return str(res.final_output)

    rolling = RollingSummary(ContextStore(), DecisionLog(), _summarize)
    record = await rolling.rebuild_from_sources([])
    return record.text


def main() -> None:
    settings = load_settings()
    panels = ConsolePanels()
    queue = JobQueue()
    queue.submit(Job(job_id=uuid.uuid4().hex, name="nightly-summary"))

    async def _run() -> None:
        out = await handle_ticket("T-1001", "I was double charged on my last invoice.", settings)
        panels.show("reply", "Draft reply", out["content"])
        await queue.work(lambda job: summarize_backlog(settings))
        queue.purge_finished()

    asyncio.run(_run())


if __name__ == "__main__":
    main()
