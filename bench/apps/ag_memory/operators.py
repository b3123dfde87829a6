import re
from typing import List

from autogen_core.memory import MemoryContent

from .models import Note, Span, content_hash
from .store import SpanStore

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")


def redact_text(text: str) -> str:
    return _EMAIL.sub("[redacted]", text)


def normalize_text(text: str) -> str:
    return " ".join(text.split())


def redact_span(store: SpanStore, span_id: str) -> Span:
    return store.replace_content(span_id, redact_text(store.get(span_id).content))


def normalize_spans(spans: List[Span]) -> None:
    for s in spans:
        s.content = normalize_text(s.content)
        s.version += 1


def compress_span(span: Span, limit: int) -> Span:
    span.content = span.content[:limit]
    span.hash = content_hash(span.content)
    return span


def redact_memory_items(items: List[MemoryContent]) -> List[MemoryContent]:
    return [
        item.model_copy(update={"content": redact_text(str(item.content))})
        for item in items
    ]


def redact_memory_items_versioned(items: List[MemoryContent]) -> List[MemoryContent]:
    out: List[MemoryContent] = []
    for item in items:
        text = redact_text(str(item.content))
        meta = dict(item.metadata or {})
        meta["version"] = int(meta.get("version", 1)) + 1
        meta["hash"] = content_hash(text)
        out.append(item.model_copy(update={"content": text, "metadata": meta}))
    return out


def tidy_note(note: Note) -> Note:
    note.body = normalize_text(note.body)
    return note


def normalize_label(label: str) -> str:
    return normalize_text(label).lower()
