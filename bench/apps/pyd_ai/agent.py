"""The case agent: deps, settings and the `Agent` itself."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic_ai import Agent, RunContext
from pydantic_ai.capabilities import ProcessHistory
from pydantic_ai.messages import ModelMessage

from .citations import CaseAnswer
from .deps import AgentSettings, CaseDeps
from .history import (
    drop_unanswered_tool_calls,
    strip_scratch_markers,
    summarize_old_messages,
    trim_tool_returns,
)
from .tokens import make_token_budgeter
from .tools import CASE_TOOLS


def build_agent(settings: AgentSettings | None = None) -> Agent[CaseDeps, CaseAnswer]:
    settings = settings or AgentSettings()
    agent = Agent(
        settings.model,
        deps_type=CaseDeps,
        output_type=CaseAnswer,
        name="casework",
        instructions=(
            "You are a tier-2 support engineer. Answer from the case context only. "
            "Cite evidence as span ids with character offsets into the span text."
        ),
        tools=CASE_TOOLS,
        model_settings={"temperature": settings.temperature},
        capabilities=[
            ProcessHistory(drop_unanswered_tool_calls),
            ProcessHistory(trim_tool_returns),
            ProcessHistory(strip_scratch_markers),
            ProcessHistory(summarize_old_messages),
        ],
    )
    fit = make_token_budgeter(settings.context_token_budget)

    @agent.instructions
    def case_context(ctx: RunContext[CaseDeps]) -> str:
        spans = sorted(ctx.deps.store.live(), key=lambda s: (s.kind != "summary", s.created_at))
        return "\n\n".join(f"<span id={s.span_id} kind={s.kind}>\n{s.content}\n</span>" for s in fit(spans))

    return agent


async def run_case(
    agent: Agent[CaseDeps, CaseAnswer],
    deps: CaseDeps,
    question: str,
    history: Sequence[ModelMessage] | None = None,
) -> tuple[CaseAnswer, list[ModelMessage]]:
    result = await agent.run(question, deps=deps, message_history=history)
    return result.output, result.all_messages()
