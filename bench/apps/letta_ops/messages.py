from __future__ import annotations

import re
import unicodedata

from letta.schemas.enums import MessageRole
from letta.schemas.letta_message_content import TextContent
from letta.schemas.message import Message, MessageCreate

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
_IP = re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}\b")


def clean_operator_text(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("\r\n", "\n").strip()
    text = re.sub(r"[ \t]+", " ", text)
    return text


def build_page_message(raw: str, sender_id: str | None = None) -> MessageCreate:
    body = clean_operator_text(raw)
    if len(body) > 8000:
        body = body[:8000]
    return MessageCreate(role="user", content=body, sender_id=sender_id)


def _mask(text: str) -> str:
    return _IP.sub("x.x.x.x", _EMAIL.sub("<email>", text))


def scrub_history(history: list[Message]) -> int:
    """Mask emails and IPs in user/tool messages already in the agent's buffer."""
    touched = 0
    for m in history:
        if m.role not in (MessageRole.user, MessageRole.tool) or not m.content:
            continue
        for part in m.content:
            if isinstance(part, TextContent):
                masked = _mask(part.text)
                if masked != part.text:
                    part.text = masked
                    touched += 1
    return touched
