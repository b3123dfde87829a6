"""Tools the case agent can call."""

from __future__ import annotations

import re
import unicodedata

from pydantic_ai import ModelRetry, RunContext

from .deps import CaseDeps
from .redaction import redact_span
from .spans import Span, digest, new_span_id

_WS_RE = re.compile(r"[ \t\u00a0]+")


async def search_case_context(ctx: RunContext[CaseDeps], query: str, k: int = 5) -> list[dict]:
    """Search the case context (tickets, notes, KB articles) and return the best matching spans."""
    hits = await ctx.deps.index.search(query, k=k)
    out = []
    for sid, score in hits:
        span = ctx.deps.store.find(sid)
        if span is None or span.is_tombstoned:
            continue
        out.append({"span_id": sid, "kind": span.kind, "score": round(score, 3), "text": span.content[:1200]})
    return out


def read_span(ctx: RunContext[CaseDeps], span_id: str) -> str:
    """Return the full text of a context span."""
    span = ctx.deps.store.find(span_id)
    if span is None:
        raise ModelRetry(f"no span {span_id!r}; use search_case_context to find ids")
    return span.content


def tidy_note(ctx: RunContext[CaseDeps], span_id: str) -> str:
    """Normalize unicode and whitespace in a note so it can be quoted cleanly."""
    n = ctx.deps.store.get(span_id)
    if n.kind != "note":
        raise ModelRetry("only notes can be tidied")
    t = unicodedata.normalize("NFKC", n.content)
    t = "\n".join(_WS_RE.sub(" ", line).rstrip() for line in t.splitlines())
    n.content = t.strip()
    n.content_hash = digest(n.content)
    return f"tidied {span_id}"


def append_to_note(ctx: RunContext[CaseDeps], span_id: str, text: str) -> str:
    """Append a line to an existing case note."""
    note = ctx.deps.store.get(span_id)
    if note.kind != "note":
        raise ModelRetry("can only append to notes")
    note.content = f"{note.content.rstrip()}\n{text.strip()}"
    note.version += 1
    note.content_hash = digest(note.content)
    return f"{span_id} is now v{note.version}"


def add_note(ctx: RunContext[CaseDeps], text: str) -> str:
    """Record a new case note and return its span id."""
    span = ctx.deps.store.add(Span(new_span_id("nt"), text.strip(), kind="note", produced_by="agent"))
    return span.span_id


def redact_note(ctx: RunContext[CaseDeps], span_id: str) -> str:
    """Remove emails, phone numbers, card numbers and keys from a span."""
    span = redact_span(ctx.deps.store, span_id)
    return f"{span_id} redacted (v{span.version})"


CASE_TOOLS = [search_case_context, read_span, tidy_note, append_to_note, add_note, redact_note]
