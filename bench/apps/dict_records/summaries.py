"""Summaries: per-span gists, the running conversation summary, and rebuilds."""

from __future__ import annotations

import time

from . import records
from .records import Span

GIST_PROMPT = "In one sentence, what does this context item tell us?\n\n{text}"

ROLL_PROMPT = (
    "You maintain a running summary of a support conversation.\n"
    "Current summary:\n{summary}\n\nNew turns:\n{turns}\n\n"
    "Rewrite the summary to include the new turns. Stay under {limit} characters. "
    "Keep decisions, open questions, ticket numbers and deploy targets."
)

SOURCE_PROMPT = (
    "Summarize the following context items for the agent. Keep decisions, open "
    "questions, identifiers and anything a later step may need to cite.\n\n{body}"
)

_gists: dict[str, str] = {}


def gist(span: Span, llm) -> str:
    hit = _gists.get(span["id"])
    if hit is not None:
        return hit
    out = llm.complete(GIST_PROMPT.format(text=span["text"])).strip()
    _gists[span["id"]] = out
    return out


def roll(state: dict, turns: list[Span], llm, limit: int = 2400) -> str:
    block = "\n".join(f"{t['role']}: {t['text']}" for t in turns)
    prompt = ROLL_PROMPT.format(summary=state.get("running", ""), turns=block, limit=limit)
    state["running"] = llm.complete(prompt).strip()
    state["rolled_at"] = time.time()
    state["turns_folded"] = state.get("turns_folded", 0) + len(turns)
    return state["running"]


def leaves(store, span: Span, _seen: set[str] | None = None) -> list[Span]:
    seen = _seen if _seen is not None else set()
    out: list[Span] = []
    for sid in span.get("sources") or ():
        if sid in seen:
            continue
        seen.add(sid)
        src = store.get(sid)
        if src is None:
            continue
        if src["kind"] == "summary" and src.get("sources"):
            out.extend(leaves(store, src, seen))
        else:
            out.append(src)
    return out


def rebuild(store, summary: Span, llm, log) -> Span | None:
    roots = leaves(store, summary)
    if not roots:
        return None
    body = "\n\n".join(f"[{s['id']}] {s['text']}" for s in roots)
    text = llm.complete(SOURCE_PROMPT.format(body=body)).strip()
    fresh = records.make_span(
        text, kind="summary", sources=[s["id"] for s in roots], parent=summary["id"]
    )
    log.append("resummarize", old=summary["id"], new=fresh["id"], sources=fresh["sources"])
    store.add(fresh)
    store.retire(summary["id"])
    return fresh
