"""Input and output guardrails for the desk agents."""

from __future__ import annotations

import re

from agents import (
    Agent,
    GuardrailFunctionOutput,
    RunContextWrapper,
    TResponseInputItem,
    input_guardrail,
    output_guardrail,
)

from .context import DeskContext
from .models import StaleArtifactError, item_text

_SECRET_RE = re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9]{16,}\b")
_CITE_RE = re.compile(r"\[(cit_[0-9a-f]{10})\]")


@input_guardrail
async def no_raw_secrets(
    ctx: RunContextWrapper[DeskContext],
    agent: Agent[DeskContext],
    input: str | list[TResponseInputItem],
) -> GuardrailFunctionOutput:
    items = [input] if isinstance(input, str) else [item_text(item) for item in input]
    hits = [text[:40] for text in items if _SECRET_RE.search(text)]
    return GuardrailFunctionOutput(output_info={"hits": len(hits)}, tripwire_triggered=bool(hits))


@output_guardrail
async def citations_still_valid(
    ctx: RunContextWrapper[DeskContext], agent: Agent[DeskContext], output: str
) -> GuardrailFunctionOutput:
    desk = ctx.context
    stale = []
    for citation_id in _CITE_RE.findall(str(output)):
        citation = desk.citations.get(citation_id)
        if citation is None:
            stale.append(citation_id)
            continue
        try:
            desk.citations.resolve(desk.buffer, citation)
        except StaleArtifactError:
            stale.append(citation_id)
    return GuardrailFunctionOutput(output_info={"stale": stale}, tripwire_triggered=bool(stale))
