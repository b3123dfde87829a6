"""Whitespace / unicode normalisation pass."""
import re
import unicodedata

from .window import ContextWindow

_WS = re.compile(r"[ \t\u00a0]+")
_BLANKS = re.compile(r"\n{3,}")


def normalize_text(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = _WS.sub(" ", text)
    text = "\n".join(line.rstrip() for line in text.splitlines())
    text = _BLANKS.sub("\n\n", text)
    return text.strip()


def normalize_window(window: ContextWindow) -> int:
    changed = [
        seg.model_copy(update={"body": normalize_text(seg.body)})
        for seg in window
        if normalize_text(seg.body) != seg.body
    ]
    for seg in changed:
        window.store(seg)
    return len(changed)
