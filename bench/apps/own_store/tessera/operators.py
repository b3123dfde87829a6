"""Rewrite operators. Each one is registered by name and run over the live spans by run_pipeline."""

from __future__ import annotations

import re
import time
import uuid
from typing import Callable, Optional, Protocol, Sequence

import attrs

from tessera.buffer import ContextBuffer
from tessera.decisions import DecisionLog
from tessera.records import Note, Span, ToolTurn, content_digest, new_span_id


class Summarizer(Protocol):
    def summarize(self, text: str, max_tokens: int = ...) -> str: ...


@attrs.define
class OpContext:
    llm: Summarizer
    decisions: DecisionLog
    redact_patterns: Sequence[re.Pattern[str]] = ()
    summary_tokens: int = 256
    min_summarize_chars: int = 4_000


Operator = Callable[[ContextBuffer, Span, OpContext], Optional[Span]]

OPERATORS: dict[str, Operator] = {}


def operator(name: str) -> Callable[[Operator], Operator]:
    def register(fn: Operator) -> Operator:
        if name in OPERATORS:
            raise ValueError(f"operator {name!r} registered twice")
        OPERATORS[name] = fn
        return fn

    return register


_WS = re.compile(r"[ \t\u00a0]+")
_BLANKS = re.compile(r"\n{3,}")
_SUPERSEDES = re.compile(r"supersedes\s+(sp_[0-9a-f]{12})", re.I)


def squeeze(text: str) -> str:
    text = _WS.sub(" ", text)
    text = "\n".join(line.rstrip() for line in text.splitlines())
    text = _BLANKS.sub("\n\n", text)
    return text.strip()


def _mask(text: str, patterns: Sequence[re.Pattern[str]]) -> tuple[str, int]:
    hits = 0
    for pat in patterns:
        text, n = pat.subn("[REDACTED]", text)
        hits += n
    return text, hits


@operator("normalize")
def normalize(buf: ContextBuffer, span: Span, ctx: OpContext) -> Optional[Span]:
    cleaned = squeeze(span.content)
    if cleaned == span.content:
        return None
    out = attrs.evolve(
        span,
        content=cleaned,
        version=span.version + 1,
        produced_by="rewrite:normalize",
    )
    buf.put(out)
    return out


@operator("redact")
def redact(buf: ContextBuffer, span: Span, ctx: OpContext) -> Optional[Span]:
    s = buf.require(span.span_id)
    masked, hits = _mask(s.content, ctx.redact_patterns)
    if not hits:
        return None
    s.content = masked
    s.content_hash = content_digest(masked)
    s.produced_by = "rewrite:redact"
    return s


@operator("summarize")
def summarize(buf: ContextBuffer, span: Span, ctx: OpContext) -> Optional[Span]:
    if len(span.content) < ctx.min_summarize_chars or span.role == "system":
        return None
    text = ctx.llm.summarize(span.content, max_tokens=ctx.summary_tokens)
    child = Span(
        span_id=new_span_id("sum"),
        content=text,
        role=span.role,
        produced_by="rewrite:summarize",
        parents=(span.span_id,),
    )
    buf.add(child)
    buf.tombstone(span.span_id)
    return child


@operator("drop_superseded")
def drop_superseded(buf: ContextBuffer, span: Span, ctx: OpContext) -> Optional[Span]:
    m = _SUPERSEDES.search(span.content)
    if m is None or m.group(1) not in buf:
        return None
    old_id = m.group(1)
    buf.drop(old_id)
    if span.role == "system-note":
        buf.drop(span.span_id)
    ctx.decisions.append(
        {
            "edit_id": uuid.uuid4().hex,
            "op": "drop_superseded",
            "span_ids": [old_id],
            "rationale": f"superseded per {span.span_id}",
        }
    )
    return None


def condense_notes(notes: dict[str, Note], llm: Summarizer, *, max_chars: int = 1_200) -> int:
    changed = 0
    for note in notes.values():
        if note.pinned or len(note.body) <= max_chars:
            continue
        note.body = llm.summarize(note.body, max_tokens=max_chars // 4)
        note.updated_at = time.time()
        changed += 1
    return changed


def clip_tool_turns(turns: list[ToolTurn], limit: int = 6_000) -> list[ToolTurn]:
    for turn in turns:
        out = turn["output"]
        if turn["status"] == "ok" and len(out) > limit:
            head = out[: limit // 2]
            tail = out[-limit // 4 :]
            turn["output"] = f"{head}\n…[{len(out) - len(head) - len(tail)} chars clipped]…\n{tail}"
    return turns


def run_pipeline(buf: ContextBuffer, names: Sequence[str], ctx: OpContext) -> list[Span]:
    produced: list[Span] = []
    for name in names:
        fn = OPERATORS[name]
        for span in buf.live():
            out = fn(buf, span, ctx)
            if out is not None:
                produced.append(out)
    return produced
