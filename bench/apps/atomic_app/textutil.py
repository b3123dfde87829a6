"""Plain string helpers."""

from __future__ import annotations

import re

_WS = re.compile(r"\s+")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_PHONE = re.compile(r"\+?\d[\d\s().-]{7,}\d")
_SENT = re.compile(r"[^.!?]+[.!?]?")


def normalize_whitespace(text: str) -> str:
    text = _WS.sub(" ", text)
    text = text.strip()
    return text


def scrub_pii(text: str) -> str:
    return _PHONE.sub("[phone]", _EMAIL.sub("[email]", text))


def sentence_offsets(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _SENT.finditer(text) if m.group().strip()]


def truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
