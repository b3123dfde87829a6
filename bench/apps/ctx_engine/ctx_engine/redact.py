"""PII redaction before anything leaves the building."""
import re
from typing import Iterable

from .models import Origin, Segment, Turn, fingerprint
from .window import ContextWindow

PATTERNS: dict[str, re.Pattern[str]] = {
    "EMAIL": re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+"),
    "PHONE": re.compile(r"\+?\d[\d\s().-]{7,}\d"),
    "CARD": re.compile(r"\b(?:\d[ -]?){13,16}\b"),
    "APIKEY": re.compile(r"\b(?:sk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b"),
}


def scrub(text: str) -> tuple[str, int]:
    hits = 0
    for label, rx in PATTERNS.items():
        text, n = rx.subn(f"[{label}]", text)
        hits += n
    return text, hits


class Redactor:
    def __init__(self, window: ContextWindow) -> None:
        self.window = window

    def redact_in_place(self, seg_ids: Iterable[str]) -> int:
        total = 0
        for sid in seg_ids:
            target = self.window.view(sid)
            cleaned, hits = scrub(target.body)
            if not hits:
                continue
            target.body = cleaned
            target.origin = Origin.REDACTED
            total += hits
        return total

    def redact_copy(self, seg: Segment) -> Segment:
        cleaned, hits = scrub(seg.body)
        if not hits:
            return seg
        return seg.model_copy(
            update={
                "body": cleaned,
                "rev": seg.rev + 1,
                "digest": fingerprint(cleaned),
                "origin": Origin.REDACTED,
                "embedding": None,
            }
        )


def scrub_turns(turns: list[Turn]) -> list[Turn]:
    """Clean the kept transcript (used for replay and the nightly export)."""
    for turn in turns:
        cleaned, hits = scrub(turn.text)
        if hits:
            turn.text = cleaned
    return turns
