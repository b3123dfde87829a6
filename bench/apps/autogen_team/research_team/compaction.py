"""Compaction pass over the note store and the agents' model contexts."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Iterable, List, Sequence, Set

from autogen_core.models import AssistantMessage, FunctionExecutionResultMessage

from .citations import Citation
from .decision_log import DecisionLog
from .embeddings import EmbeddingCache, NoteIndex
from .model_context import ResearchContext, message_text, truncated_result
from .notes import NoteStore, ResearchNote


@dataclass
class CompactionReport:
    dropped: List[str] = field(default_factory=list)
    rewritten: List[str] = field(default_factory=list)
    collected: List[str] = field(default_factory=list)


def low_value(note: ResearchNote, min_tokens: int) -> bool:
    return note.token_count < min_tokens and not note.derived_from


def drop_low_value_notes(store: NoteStore, log: DecisionLog, min_tokens: int = 12) -> CompactionReport:
    report = CompactionReport()
    for note in store.live():
        if low_value(note, min_tokens):
            store.delete(note.note_id)
            report.dropped.append(note.note_id)
    if report.dropped:
        log.record("drop", report.dropped, f"notes under {min_tokens} tokens with no dependants")
    return report


def retire_low_value_notes(store: NoteStore, log: DecisionLog, min_tokens: int = 12) -> CompactionReport:
    report = CompactionReport()
    doomed = [n for n in store.live() if low_value(n, min_tokens)]
    for note in doomed:
        log.record(
            "retire",
            [note.note_id],
            f"under {min_tokens} tokens with no dependants",
            content_hash=note.content_hash,
            excerpt=note.text[:160],
        )
    for note in doomed:
        note.tombstoned_at = time.time()
        report.dropped.append(note.note_id)
    return report


async def compact_context(ctx: ResearchContext, log: DecisionLog, budget: int) -> CompactionReport:
    report = CompactionReport()
    if ctx.token_usage_current() <= budget:
        return report
    tool_ids = [mid for mid, _, msg in ctx.entries() if isinstance(msg, FunctionExecutionResultMessage)]
    removed = ctx.remove(tool_ids[: max(1, len(tool_ids) // 2)])
    report.dropped.extend(tool_ids[: len(removed)])
    try:
        log.record("evict", report.dropped, f"context over budget ({budget} tokens); oldest tool output first")
    except Exception:
        pass
    return report


async def shrink_context(ctx: ResearchContext, log: DecisionLog, max_chars: int = 1200) -> CompactionReport:
    report = CompactionReport()
    for mid, version, msg in ctx.entries():
        if not isinstance(msg, FunctionExecutionResultMessage):
            continue
        if all(len(r.content) <= max_chars for r in msg.content):
            continue
        log.record(
            "truncate",
            [mid],
            f"tool output longer than {max_chars} chars",
            version=str(version),
            excerpt=message_text(msg)[:200],
        )
        ctx.replace_message(mid, truncated_result(msg, max_chars))
        report.rewritten.append(mid)
    return report


async def fold_assistant_turns(ctx: ResearchContext, log: DecisionLog, keep_last: int = 6) -> List[str]:
    entries = ctx.entries()
    olds = [(mid, msg) for mid, _, msg in entries[:-keep_last] if isinstance(msg, AssistantMessage)]
    if not olds:
        return []
    folded = [mid for mid, _ in olds]
    log.record(
        "fold",
        folded,
        "assistant turns older than the window",
        excerpt=" | ".join(message_text(m)[:60] for _, m in olds),
    )
    ctx.remove(folded)
    return folded


def sweep_tombstones(store: NoteStore, cache: EmbeddingCache, max_age_s: float = 3600.0) -> List[str]:
    now = time.time()
    swept: List[str] = []
    for note in store.tombstones():
        if note.tombstoned_at is not None and now - note.tombstoned_at > max_age_s:
            store.delete(note.note_id)
            cache.evict(note.note_id)
            swept.append(note.note_id)
    return swept


def holders_of(store: NoteStore, index: NoteIndex, citations: Iterable[Citation]) -> Set[str]:
    held: Set[str] = {c.note_id for c in citations}
    for note in store.live():
        held.update(note.derived_from)
        if index.entry(note.note_id) is not None:
            held.add(note.note_id)
    return held


def collect_tombstones(
    store: NoteStore,
    index: NoteIndex,
    cache: EmbeddingCache,
    log: DecisionLog,
    citations: Sequence[Citation],
    min_age_s: float = 3600.0,
) -> List[str]:
    now = time.time()
    held = holders_of(store, index, citations)
    ready = [
        n
        for n in store.tombstones()
        if n.note_id not in held and n.tombstoned_at is not None and now - n.tombstoned_at > min_age_s
    ]
    for note in ready:
        log.record("gc", [note.note_id], "tombstoned and unreferenced", content_hash=note.content_hash)
    for note in ready:
        store.delete(note.note_id)
        cache.evict(note.note_id)
    return [n.note_id for n in ready]
