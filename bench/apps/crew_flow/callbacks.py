"""step_callback / task_callback hooks wired into the research crew."""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable
from typing import Any

import tiktoken
from crewai.agents.parser import AgentAction, AgentFinish
from crewai.tasks.task_output import TaskOutput

from crew_flow.spans import ContextBuffer, ContextSpan
from crew_flow.state import ChatTurn, ResearchState

log = logging.getLogger(__name__)

_SPAN_REF = re.compile(r"\bsp_[0-9a-f]{12}\b")


@functools.cache
def _encoding() -> tiktoken.Encoding:
    return tiktoken.get_encoding("cl100k_base")


def make_token_meter(buffer: ContextBuffer) -> Callable[[], int]:
    seen: dict[str, int] = {}

    def measure() -> int:
        total = 0
        for span in buffer.live():
            n = seen.get(span.id)
            if n is None:
                n = seen[span.id] = len(_encoding().encode(span.content))
            total += n
        return total

    return measure


def clip_tool_turns(turns: list[ChatTurn], keep_last: int = 6, limit: int = 800) -> int:
    clipped = 0
    for t in turns[:-keep_last]:
        if t.role == "tool" and len(t.text) > limit:
            t.text = t.text[:limit].rstrip() + " \u2026"
            clipped += 1
    return clipped


def make_step_callback(
    state: ResearchState, meter: Callable[[], int], token_budget: int = 90_000
) -> Callable[[Any], None]:
    def on_step(step: Any) -> None:
        if isinstance(step, AgentAction) and step.result:
            state.turns.append(ChatTurn(role="tool", text=f"{step.tool}: {step.result}"))
        elif isinstance(step, AgentFinish):
            state.turns.append(ChatTurn(role="assistant", text=str(step.output)))
        used = meter()
        if used > token_budget:
            n = clip_tool_turns(state.turns)
            log.info("context at %d tokens, clipped %d tool turns", used, n)

    return on_step


def make_task_callback(buffer: ContextBuffer) -> Callable[[TaskOutput], None]:
    def on_task(output: TaskOutput) -> None:
        cited = set(_SPAN_REF.findall(output.raw or ""))
        known: list[ContextSpan] = [s for s in buffer.live() if s.id in cited]
        log.info(
            "task %r by %s: %d chars, cites %d spans (%d unknown)",
            output.name or output.description[:40],
            output.agent,
            len(output.raw or ""),
            len(known),
            len(cited) - len(known),
        )

    return on_task
