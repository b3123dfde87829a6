"""Glue for the web client: chat bubbles, HTTP payloads, source snippets, exports."""

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping

from llama_index.core.llms import ChatMessage
from llama_index.core.schema import BaseNode

from .records import Citation, SourceRef

MAX_PAYLOAD_CHARS = 8000


@dataclass
class ChatBubble:
    id: str
    role: str
    text: str = ""
    streaming: bool = False


class BubbleList:
    def __init__(self) -> None:
        self._by_id: Dict[str, ChatBubble] = {}

    def open(self, bubble_id: str, role: str) -> ChatBubble:
        bubble = ChatBubble(id=bubble_id, role=role, streaming=True)
        self._by_id[bubble_id] = bubble
        return bubble

    def on_delta(self, bubble_id: str, delta: str) -> None:
        bubble = self._by_id[bubble_id]
        bubble.text = bubble.text + delta


def to_http_payload(session_id: str, text: str, cites: List[Citation]) -> Dict[str, Any]:
    payload: Dict[str, Any] = {
        "id": session_id,
        "content": text,
        "citations": [{"label": c.label, "node_id": c.node_id} for c in cites],
    }
    if len(payload["content"]) > MAX_PAYLOAD_CHARS:
        payload["content"] = payload["content"][:MAX_PAYLOAD_CHARS] + "..."
        payload["truncated"] = True
    return payload


def source_snippets(message: ChatMessage, nodes: Mapping[str, BaseNode]) -> List[str]:
    refs: List[SourceRef] = message.additional_kwargs.get("sources", [])
    out: List[str] = []
    for ref in refs:
        node = nodes.get(ref["node_id"])
        if node is None:
            continue
        out.append(node.get_content()[ref["start"]:ref["end"]])
    return out


@dataclass
class ExportJob:
    session_id: str
    fmt: str = "markdown"
    enqueued_at: float = field(default_factory=time.time)


def drain_stale(queue: "asyncio.Queue[ExportJob]", max_age_s: float = 900) -> List[ExportJob]:
    """Drop transcript-export requests nobody is waiting for any more."""
    kept, dropped, now = [], [], time.time()
    while not queue.empty():
        job = queue.get_nowait()
        (dropped if now - job.enqueued_at > max_age_s else kept).append(job)
        queue.task_done()
    for job in kept:
        queue.put_nowait(job)
    return dropped
