from __future__ import annotations

import re

from haystack import Document
from haystack.dataclasses import ChatMessage

from .memory import ChatMemory
from .models import content_hash

EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")


def redact(text: str) -> str:
    return EMAIL.sub("[email]", text)


def redact_memory(memory: ChatMemory) -> None:
    for msg in memory.messages():
        sid = msg.meta["span_id"]
        memory.overwrite(sid, redact(msg.text or ""))


def normalize_documents(docs: list[Document]) -> list[Document]:
    out = []
    for d in docs:
        text = " ".join((d.content or "").split())
        out.append(Document(id=d.id, content=text, meta=d.meta, embedding=d.embedding))
    return out


def compress_document(doc: Document, limit: int) -> Document:
    text = (doc.content or "")[:limit]
    meta = {**doc.meta, "version": doc.meta.get("version", 1) + 1, "content_hash": content_hash(text)}
    return Document(id=doc.id, content=text, meta=meta, embedding=None)


def lowercase_messages(messages: list[ChatMessage]) -> list[ChatMessage]:
    return [ChatMessage.from_user((m.text or "").lower(), meta=m.meta) for m in messages]


def strip_text(value: str) -> str:
    return value.strip()
