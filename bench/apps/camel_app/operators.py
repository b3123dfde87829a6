"""Span rewrite operators: redact, normalize, compress, canonicalize, translate."""
from __future__ import annotations

import json
import re
from typing import Iterable, List

from camel.agents import ChatAgent
from camel.memories import MemoryRecord

from .buffer import ContextBuffer
from .models import (
    EMBEDDING_KEY,
    HASH_KEY,
    OFFSETS_KEY,
    PRODUCED_BY_KEY,
    VERSION_KEY,
    digest,
    record_id,
    record_version,
    sentence_offsets,
)

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_PHONE = re.compile(r"\+?\d[\d\s().-]{7,}\d")
_WS = re.compile(r"\s+")
_SMART_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"})


def redact_text(text: str) -> str:
    text = _EMAIL.sub("[email]", text)
    text = _PHONE.sub("[phone]", text)
    return text


def normalize_text(text: str) -> str:
    return _WS.sub(" ", text.translate(_SMART_QUOTES)).strip()


class RedactOperator:
    name = "redact"

    def apply(self, buffer: ContextBuffer, span_ids: Iterable[str]) -> List[str]:
        wanted = set(span_ids)
        changed: List[str] = []
        for record in buffer.live():
            if record_id(record) not in wanted:
                continue
            cleaned = redact_text(record.message.content)
            if cleaned != record.message.content:
                record.message.content = cleaned
                record.extra_info[HASH_KEY] = digest(cleaned)
                buffer.memory.replace(record)
                changed.append(record_id(record))
        return changed


class NormalizeOperator:
    name = "normalize"

    def apply(self, buffer: ContextBuffer, span_id: str) -> MemoryRecord:
        record = buffer.get(span_id)
        msg = record.message
        msg.content = normalize_text(msg.content)
        record.extra_info[VERSION_KEY] = str(record_version(record) + 1)
        record.extra_info[PRODUCED_BY_KEY] = f"rewrite:{self.name}"
        buffer.memory.replace(record)
        return record


class CompressOperator:
    name = "compress"

    def __init__(self, agent: ChatAgent) -> None:
        self.agent = agent

    def apply(self, buffer: ContextBuffer, span_id: str) -> MemoryRecord:
        record = buffer.get(span_id)
        response = self.agent.step(
            f"Rewrite in at most three sentences:\n\n{record.message.content}"
        )
        if buffer.holders(span_id):
            return buffer.fork(span_id, response.msg.content, op=self.name)
        return buffer.rewrite(span_id, response.msg.content, op=self.name)


class CanonicalizeOperator:
    name = "canonicalize"

    def __init__(self, glossary: dict[str, str]) -> None:
        self.glossary = glossary

    def _canon(self, text: str) -> str:
        for alias, canonical in self.glossary.items():
            text = re.sub(rf"\b{re.escape(alias)}\b", canonical, text)
        return text

    def apply(self, buffer: ContextBuffer, span_id: str) -> MemoryRecord:
        record = buffer.get(span_id)
        new_text = self._canon(record.message.content)
        record.message = record.message.create_new_instance(new_text)
        record.extra_info.update(
            {
                VERSION_KEY: str(record_version(record) + 1),
                HASH_KEY: digest(new_text),
                PRODUCED_BY_KEY: f"rewrite:{self.name}",
            }
        )
        buffer.memory.replace(record)
        return record


class TranslateOperator:
    name = "translate"

    def __init__(self, agent: ChatAgent) -> None:
        self.agent = agent

    def apply(self, buffer: ContextBuffer, span_id: str) -> MemoryRecord:
        record = buffer.get(span_id)
        response = self.agent.step(
            f"Translate into plain English:\n\n{record.message.content}"
        )
        new_text = response.msg.content
        record.message = record.message.create_new_instance(new_text)
        record.extra_info[VERSION_KEY] = str(record_version(record) + 1)
        record.extra_info[HASH_KEY] = digest(new_text)
        record.extra_info[PRODUCED_BY_KEY] = f"rewrite:{self.name}"
        record.extra_info[OFFSETS_KEY] = json.dumps(sentence_offsets(new_text))
        record.extra_info.pop(EMBEDDING_KEY, None)
        buffer.memory.replace(record)
        return record
