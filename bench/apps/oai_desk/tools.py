"""Function tools exposed to the desk agents."""

from __future__ import annotations

import uuid

from agents import RunContextWrapper, function_tool

from .context import DeskContext
from .models import AgentNote, StaleArtifactError
from .operators import redact_secrets
from .pruning import prune_with_rationale


@function_tool
async def cite_span(ctx: RunContextWrapper[DeskContext], span_id: str, quote: str) -> str:
    """Create a citation for a quote taken from a conversation span.

    Args:
        span_id: The span the quote comes from.
        quote: The exact text being quoted.
    """
    desk = ctx.context
    span = desk.buffer.get(span_id)
    if span is None:
        return "unknown span"
    start = span.content.find(quote)
    if start < 0:
        return "quote not found in span"
    citation = desk.citations.cite(span, start, start + len(quote))
    desk.holders.hold(span.span_id, citation.citation_id)
    return citation.citation_id


@function_tool
async def quote_citation(ctx: RunContextWrapper[DeskContext], citation_id: str) -> str:
    """Return the text a citation points at.

    Args:
        citation_id: An id returned by cite_span.
    """
    desk = ctx.context
    citation = desk.citations.get(citation_id)
    if citation is None:
        return "unknown citation"
    span = desk.buffer.get(citation.span_id)
    if span is None:
        return "source no longer available"
    return span.content[citation.start : citation.end]


@function_tool
async def verify_citation(ctx: RunContextWrapper[DeskContext], citation_id: str) -> str:
    """Check that a citation still matches its source span and return the quote.

    Args:
        citation_id: An id returned by cite_span.
    """
    desk = ctx.context
    citation = desk.citations.get(citation_id)
    if citation is None:
        return "unknown citation"
    try:
        return desk.citations.resolve(desk.buffer, citation)
    except StaleArtifactError as exc:
        return f"stale: {exc}"


@function_tool
async def redact_span(ctx: RunContextWrapper[DeskContext], span_id: str) -> str:
    """Remove API keys and other secrets from a span.

    Args:
        span_id: The span to redact.
    """
    span = ctx.context.buffer.get(span_id)
    if span is None:
        return "unknown span"
    redact_secrets(span)
    return f"{span.span_id} now at version {span.version}"


@function_tool
async def forget_spans(ctx: RunContextWrapper[DeskContext], span_ids: list[str], reason: str) -> str:
    """Drop spans from the working context, recording why.

    Args:
        span_ids: Spans to drop.
        reason: Why they are no longer needed.
    """
    removed = prune_with_rationale(ctx.context.buffer, ctx.context.log, span_ids, reason)
    return f"dropped {len(removed)} spans"


@function_tool
async def add_note(ctx: RunContextWrapper[DeskContext], text: str) -> str:
    """Attach an internal note to the current ticket.

    Args:
        text: The note text.
    """
    desk = ctx.context
    note = AgentNote(note_id=f"note_{uuid.uuid4().hex[:8]}", ticket_id=desk.ticket_id, text=text)
    desk.notes[note.note_id] = note
    return note.note_id


DESK_TOOLS = [cite_span, quote_citation, verify_citation, redact_span, forget_spans, add_note]
