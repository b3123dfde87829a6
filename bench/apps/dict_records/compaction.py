"""Async compaction pass, run between turns when the context is near its budget."""

from __future__ import annotations

import asyncio
import json
import logging

from . import records
from .store import ContextStore

log_ = logging.getLogger(__name__)

SHRINK_PROMPT = (
    "Rewrite this context item in at most {limit} characters without losing any "
    "identifier, number, or decision.\n\n{text}"
)

JUDGE_PROMPT = (
    "Is the following tool transcript still needed to answer the user's current "
    'request? Reply with JSON {{"drop": true|false, "why": "..."}}.\n\n{text}'
)

MERGE_PROMPT = (
    "Merge these partial summaries of one conversation into a single summary. "
    "Do not drop decisions or open questions.\n\n{body}"
)


class StalePin(RuntimeError):
    pass


def pin(store: ContextStore, sid: str, holder: str) -> dict:
    span = store.spans[sid]
    store.hold(sid, holder)
    return {"span": sid, "rev": span["rev"], "sha": span["sha"], "holder": holder}


def read_pin(store: ContextStore, p: dict) -> str:
    span = store.get(p["span"])
    if span is None:
        raise StalePin(f"{p['holder']}: span {p['span']} is gone")
    if span["rev"] != p["rev"] or span["sha"] != p["sha"]:
        raise StalePin(
            f"{p['holder']}: span {p['span']} changed (rev {p['rev']} -> {span['rev']})"
        )
    return span["text"]


async def shrink_long_spans(store: ContextStore, llm, limit: int = 6000) -> int:
    async def one(span: dict) -> None:
        def commit(text: str) -> None:
            span["text"] = text
            span["rev"] = span.get("rev", 0) + 1
            span["by"] = "rewrite:shrink"

        out = await llm.acomplete(SHRINK_PROMPT.format(limit=limit, text=span["text"]))
        if out and len(out) < len(span["text"]):
            commit(out.strip())

    big = [s for s in store.live() if s["kind"] != "system" and len(s["text"]) > limit]
    await asyncio.gather(*(one(s) for s in big))
    return len(big)


def clamp_tool_outputs(results: dict[str, dict], max_chars: int = 2000) -> int:
    """``results`` maps call_id -> {"call_id", "name", "args", "output"} from the tool runner."""
    half = max_chars // 2
    n = 0
    for res in results.values():
        out = res.get("output") or ""
        if len(out) > max_chars:
            res["output"] = out[:half] + "\n...\n" + out[-half:]
            res["truncated"] = True
            n += 1
    return n


async def _judge(llm, span: dict) -> dict:
    raw = await llm.acomplete(JUDGE_PROMPT.format(text=span["text"][:6000]))
    try:
        verdict = json.loads(raw)
    except json.JSONDecodeError:
        log_.warning("judge returned non-JSON for %s", span["id"])
        return {"drop": False, "why": ""}
    return {"drop": bool(verdict.get("drop")), "why": str(verdict.get("why", ""))}


async def drop_stale_transcripts(store: ContextStore, log, llm) -> list[str]:
    tool_spans = [s for s in store.live() if s["kind"] == "tool"]
    verdicts = await asyncio.gather(*(_judge(llm, s) for s in tool_spans))
    gone = []
    for span, v in zip(tool_spans, verdicts):
        if v["drop"]:
            store.drop(span["id"])
            gone.append({"id": span["id"], "why": v["why"]})
    if gone:
        log.append("prune", stage="compaction", spans=gone)
    return [g["id"] for g in gone]


async def merge_summaries(store: ContextStore, log, llm, group: int = 4) -> dict | None:
    olds = [s for s in store.live() if s["kind"] == "summary"]
    if len(olds) < group:
        return None
    batch = olds[:group]
    body = "\n\n".join(f"[{s['id']}] {s['text']}" for s in batch)
    text = (await llm.acomplete(MERGE_PROMPT.format(body=body))).strip()
    merged = records.make_span(text, kind="summary", sources=[s["id"] for s in batch])
    merged["lineage"] = sorted(
        {root for s in batch for root in (s.get("lineage") or s.get("sources") or [s["id"]])}
    )
    log.append("merge_summaries", into=merged["id"], sources=merged["sources"],
               lineage=merged["lineage"])
    store.add(merged)
    for s in batch:
        store.retire(s["id"])
    return merged


async def run(store: ContextStore, log, llm, tool_results: dict[str, dict]) -> dict:
    stats = {"clamped": clamp_tool_outputs(tool_results)}
    stats["dropped"] = len(await drop_stale_transcripts(store, log, llm))
    stats["shrunk"] = await shrink_long_spans(store, llm)
    merged = await merge_summaries(store, log, llm)
    stats["merged"] = merged["id"] if merged else None
    stats["freed"] = len(store.sweep(log))
    store.save()
    return stats
