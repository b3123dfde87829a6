"""History processors wired into the case agent through `ProcessHistory`."""

from __future__ import annotations

import dataclasses
import re
import uuid

from pydantic_ai import Agent, RunContext
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)

from .deps import CaseDeps

MAX_TOOL_RETURN_CHARS = 6_000
KEEP_RECENT = 8
SUMMARIZE_AFTER = 24

_MARKER_RE = re.compile(r"\s*\[\[(?:scratch|internal):[^\]]*\]\]")
_EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")

history_summarizer = Agent(
    "openai:gpt-4o-mini",
    instructions=(
        "Summarize the conversation so far for a support engineer taking over the case. "
        "Keep ticket numbers, customer-reported symptoms, what was tried and what is still open."
    ),
    name="history-summarizer",
)


def trim_tool_returns(ctx: RunContext[CaseDeps], messages: list[ModelMessage]) -> list[ModelMessage]:
    limit = ctx.deps.settings.max_tool_return_chars or MAX_TOOL_RETURN_CHARS
    for msg in messages[:-1]:
        if not isinstance(msg, ModelRequest):
            continue
        for part in msg.parts:
            if isinstance(part, ToolReturnPart) and isinstance(part.content, str):
                if len(part.content) > limit:
                    part.content = part.content[:limit] + f"\n...[{len(part.content) - limit} chars elided]"
    return messages


def strip_scratch_markers(messages: list[ModelMessage]) -> list[ModelMessage]:
    for msg in messages:
        if isinstance(msg, ModelResponse):
            for p in msg.parts:
                if isinstance(p, TextPart) and "[[" in p.content:
                    p.content = _MARKER_RE.sub("", p.content)
    return messages


def scrub_emails_for_handoff(messages: list[ModelMessage]) -> list[ModelMessage]:
    out: list[ModelMessage] = []
    for msg in messages:
        if isinstance(msg, ModelResponse) and any(
            isinstance(p, TextPart) and _EMAIL_RE.search(p.content) for p in msg.parts
        ):
            parts = [
                dataclasses.replace(p, content=_EMAIL_RE.sub("<email>", p.content), id=None, citations=None)
                if isinstance(p, TextPart)
                else p
                for p in msg.parts
            ]
            msg = dataclasses.replace(msg, parts=parts)
        out.append(msg)
    return out


async def summarize_old_messages(ctx: RunContext[CaseDeps], messages: list[ModelMessage]) -> list[ModelMessage]:
    if len(messages) <= SUMMARIZE_AFTER:
        return messages
    cut = len(messages) - KEEP_RECENT
    while cut > 0 and not (
        isinstance(messages[cut], ModelRequest)
        and any(isinstance(p, UserPromptPart) for p in messages[cut].parts)
    ):
        cut -= 1
    if cut <= 0:
        return messages
    older, recent = messages[:cut], messages[cut:]
    result = await history_summarizer.run(
        "Summarize the conversation above.", message_history=older, usage=ctx.usage
    )
    head = ModelRequest(parts=[UserPromptPart(f"Summary of the earlier conversation:\n{result.output}")])
    return [head, *recent]


async def drop_unanswered_tool_calls(ctx: RunContext[CaseDeps], messages: list[ModelMessage]) -> list[ModelMessage]:
    answered = {
        p.tool_call_id
        for m in messages
        if isinstance(m, ModelRequest)
        for p in m.parts
        if isinstance(p, ToolReturnPart)
    }
    dangling = [
        p.tool_call_id
        for m in messages[:-1]
        if isinstance(m, ModelResponse)
        for p in m.parts
        if isinstance(p, ToolCallPart) and p.tool_call_id not in answered
    ]
    if not dangling:
        return messages
    await ctx.deps.decisions.arecord(
        edit_id=f"hist-{uuid.uuid4().hex[:10]}",
        action="drop_tool_calls",
        span_ids=dangling,
        rationale="tool calls without a return in history (run interrupted or call denied)",
    )
    out: list[ModelMessage] = []
    for m in messages:
        if isinstance(m, ModelResponse):
            kept = [p for p in m.parts if not (isinstance(p, ToolCallPart) and p.tool_call_id in dangling)]
            if not kept:
                continue
            m = dataclasses.replace(m, parts=kept)
        out.append(m)
    return out
