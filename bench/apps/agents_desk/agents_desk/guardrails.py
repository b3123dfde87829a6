"""Input and output guardrails for the desk agents."""

from __future__ import annotations

import re

from pydantic import BaseModel

from agents import (
    Agent,
    GuardrailFunctionOutput,
    RunContextWrapper,
    TResponseInputItem,
    input_guardrail,
    output_guardrail,
)

from .hooks import DeskContext

_SECRET = re.compile(r"(?i)\b(password|api[_-]?key|ssn)\s*[:=]\s*\S+")
_ZW = re.compile("[\u200b-\u200d\ufeff]")


class SecretScan(BaseModel):
    flagged: bool
    excerpt: str = ""


def _latest_user_text(payload: str | list[TResponseInputItem]) -> str:
    if isinstance(payload, str):
        return payload
    for item in reversed(payload):
        if item.get("role") == "user":  # type: ignore[union-attr]
            content = item.get("content")  # type: ignore[union-attr]
            if isinstance(content, str):
                return content
    return ""


@input_guardrail(name="secret_scan")
async def secret_scan(
    ctx: RunContextWrapper[DeskContext], agent: Agent[DeskContext], payload: str | list[TResponseInputItem]
) -> GuardrailFunctionOutput:
    text = _latest_user_text(payload)
    text = _ZW.sub("", text)
    text = " ".join(text.split())
    match = _SECRET.search(text)
    scan = SecretScan(flagged=bool(match), excerpt=match.group(0)[:24] if match else "")
    return GuardrailFunctionOutput(output_info=scan, tripwire_triggered=scan.flagged)


@output_guardrail(name="citations_present")
async def citations_present(
    ctx: RunContextWrapper[DeskContext], agent: Agent[DeskContext], output: str
) -> GuardrailFunctionOutput:
    needs_source = "according to" in output.lower() or "policy" in output.lower()
    missing = needs_source and not ctx.context.cited_span_ids
    return GuardrailFunctionOutput(output_info={"missing": missing}, tripwire_triggered=missing)
