from __future__ import annotations

from .buffer import SpanBuffer
from .models import SummaryRecord, new_span_id


def _squash(texts: list[str], budget: int) -> str:
    return " ".join(t.split(".")[0] for t in texts)[:budget]


def summarize_sources(buffer: SpanBuffer, ids: list[str], budget: int) -> SummaryRecord:
    texts = [buffer.spans[i].text for i in ids]
    return SummaryRecord(new_span_id(), _squash(texts, budget), list(ids), list(ids))


def refresh_summary(rec: SummaryRecord, budget: int) -> SummaryRecord:
    rec.text = _squash([rec.text], budget)
    return rec


def roll_up(prev: SummaryRecord, buffer: SpanBuffer, new_ids: list[str], budget: int) -> SummaryRecord:
    texts = [prev.text] + [buffer.spans[i].text for i in new_ids]
    return SummaryRecord(new_span_id(), _squash(texts, budget), list(new_ids), prev.root_ids + list(new_ids), prev.summary_id)
