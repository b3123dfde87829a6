"""Rewrite operators applied to the working context between turns."""

from __future__ import annotations

import re
from dataclasses import replace

from strands.types.content import Message, Messages

from . import buffer as buf
from .buffer import CONTENT_HASH, SPAN_VERSION, ContextBuffer, set_text, span_meta, text_of
from .models import NoteSpan, digest

_WS = re.compile(r"[ \t]+")
_BLANKS = re.compile(r"\n{3,}")
EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
PHONE = re.compile(r"\+?\d[\d ()-]{7,}\d")
CARD = re.compile(r"\b(?:\d[ -]?){13,16}\b")


def _collapse(text: str) -> str:
    return _BLANKS.sub("\n\n", _WS.sub(" ", text)).strip()


def normalize_whitespace(messages: Messages) -> int:
    changed = 0
    for msg in messages:
        before = text_of(msg)
        for block in msg["content"]:
            if "text" in block:
                block["text"] = _collapse(block["text"])
        if text_of(msg) != before:
            meta = span_meta(msg)
            meta[CONTENT_HASH] = digest(text_of(msg))
            changed += 1
    return changed


def redact_pii(message: Message) -> bool:
    hit = False
    for block in message["content"]:
        text = block.get("text")
        if text is None:
            continue
        scrubbed = CARD.sub("[card]", PHONE.sub("[phone]", EMAIL.sub("[email]", text)))
        if scrubbed != text:
            block["text"] = scrubbed
            hit = True
    if hit:
        meta = span_meta(message)
        meta[SPAN_VERSION] = meta.get(SPAN_VERSION, 0) + 1
        meta["produced_by"] = "rewrite:redact"
    return hit


def shorten_tool_output(message: Message, limit: int = 1200) -> bool:
    text = text_of(message)
    if len(text) <= limit or not any("toolResult" in b for b in message["content"]):
        return False
    head, tail = text[: limit // 2], text[-limit // 2 :]
    buf.set_text(message, f"{head}\n...[{len(text) - limit} chars elided]...\n{tail}", op="shorten")
    return True


def compress_chunks(store: ContextBuffer, max_chars: int = 800) -> None:
    long_ones = {cid: c for cid, c in store.chunks.items() if len(c.text) > max_chars}
    store.chunks.update(
        {cid: replace(c, text=c.text[:max_chars].rsplit(" ", 1)[0] + " …") for cid, c in long_ones.items()}
    )


def condense_note(note: NoteSpan, condensed: str) -> NoteSpan:
    note.text = condensed
    note.version += 1
    note.content_hash = digest(condensed)
    note.produced_by = "rewrite:condense"
    return note


def rewrite_note(note: NoteSpan, new_text: str, op: str) -> NoteSpan:
    note.text = new_text
    note.version += 1
    note.content_hash = digest(new_text)
    note.produced_by = f"rewrite:{op}"
    note.embedding = None
    note.sentence_offsets = []
    return note


def retitle_case(message: Message, title: str) -> Message:
    return set_text(message, f"[{title}] {text_of(message)}", op="retitle")
