"""Small text helpers shared by the nodes."""

import hashlib
import re
from typing import Any

_WS = re.compile(r"[ \t]+")


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def as_text(content: str | list[Any]) -> str:
    """Flatten LangChain message content (a string or a list of blocks)."""
    if isinstance(content, str):
        return content
    blocks = (b if isinstance(b, str) else b.get("text", "") for b in content if isinstance(b, (str, dict)))
    return "".join(str(b) for b in blocks)


def normalize_text(text: str) -> str:
    text = text.replace("\r\n", "\n")
    text = _WS.sub(" ", text)
    return text.strip()
