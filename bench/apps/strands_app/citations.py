"""Citations from the assistant's answers back into the working context."""

from __future__ import annotations

from typing import Any

from strands import Agent
from strands.types.citations import Citation, CitationsContentBlock, DocumentCharLocation

from .buffer import ContextBuffer, hash_of, text_of, version_of
from .models import CitationRecord


class StaleCitation(LookupError):
    pass


def make_citation(store: ContextBuffer, tracking_id: str, start: int, end: int) -> CitationRecord:
    message = store.get(tracking_id)
    if message is None:
        raise KeyError(tracking_id)
    text = text_of(message)
    record = CitationRecord(
        span_id=tracking_id,
        version=version_of(message),
        content_hash=hash_of(message),
        start=start,
        end=end,
        quote=text[start:end],
    )
    store.hold(tracking_id, f"citation:{start}-{end}")
    return record


def resolve(store: ContextBuffer, record: CitationRecord) -> str:
    message = store.get(record.span_id)
    if message is None:
        raise StaleCitation(record.span_id)
    return text_of(message)[record.start : record.end]


def resolve_checked(store: ContextBuffer, record: CitationRecord) -> str:
    message = store.get(record.span_id)
    if message is None:
        raise StaleCitation(record.span_id)
    if version_of(message) != record.version or hash_of(message) != record.content_hash:
        raise StaleCitation(f"{record.span_id} changed since it was cited")
    text = text_of(message)
    if record.end > len(text):
        raise StaleCitation(f"{record.span_id} is shorter than the cited range")
    return text[record.start : record.end]


def remember_anchors(agent: Agent, records: list[CitationRecord]) -> None:
    anchors: list[dict[str, Any]] = agent.state.get("anchors") or []
    for r in records:
        anchors.append({"tracking_id": r.span_id, "start": r.start, "end": r.end})
    agent.state.set("anchors", anchors)


def to_citations_block(records: list[CitationRecord], answer: str, title: str = "case context") -> CitationsContentBlock:
    cites: list[Citation] = []
    for i, r in enumerate(records):
        loc = DocumentCharLocation(documentIndex=i, start=r.start, end=r.end)
        cites.append(Citation(location={"documentChar": loc}, sourceContent=[{"text": r.quote}], title=title))
    return CitationsContentBlock(citations=cites, content=[{"text": answer}])
