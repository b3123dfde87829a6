"""Application service: the API surface the web front-end calls."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableConfig

from .buffer import SpanBuffer
from .callbacks import OffsetRecorder
from .citations import resolve_quote
from .db import connect, rename_user
from .decision_log import DecisionLog
from .graph import graph
from .housekeeping import sweep_unheld
from .indexes import VersionedEmbeddingIndex
from .models import PinnedQuote, StaleSpanError
from .pruning import prune_superseded_logged
from .workflow import EMBEDDINGS, SETTINGS, STORE


class ContextService:
    def __init__(self) -> None:
        self.recorder = OffsetRecorder()
        self.index = VersionedEmbeddingIndex(EMBEDDINGS)
        self.db = connect(SETTINGS.db_path)

    def _buffer(self, thread_id: str) -> SpanBuffer:
        return SpanBuffer(STORE, thread_id, SETTINGS)

    async def chat(self, thread_id: str, user_id: str, text: str) -> dict[str, Any]:
        config: RunnableConfig = {
            "configurable": {"thread_id": thread_id, "user_id": user_id},
            "callbacks": [self.recorder],
        }
        state = await graph.ainvoke({"messages": [HumanMessage(content=text)]}, config)
        last = state["messages"][-1]
        return {"id": last.id, "text": last.text, "thread_id": thread_id}

    async def get_quote(self, thread_id: str, body: dict[str, Any]) -> dict[str, Any]:
        quote = PinnedQuote(**body)
        rec = self._buffer(thread_id).get(quote.span_id)
        if rec is None or quote.end > len(rec.content):
            return {"status": 404}
        return {"status": 200, "text": rec.content[quote.start : quote.end]}

    async def get_quote_strict(self, thread_id: str, body: dict[str, Any]) -> dict[str, Any]:
        try:
            text = resolve_quote(self._buffer(thread_id), PinnedQuote(**body))
        except StaleSpanError as exc:
            return {"status": 409, "error": str(exc)}
        return {"status": 200, "text": text}

    def compact(self, thread_id: str) -> dict[str, Any]:
        buffer = self._buffer(thread_id)
        log = DecisionLog(STORE, thread_id, SETTINGS)
        pruned = prune_superseded_logged(buffer, log)
        swept = sweep_unheld(buffer, [self.index.held_ids, self.recorder.held_ids])
        return {"pruned": pruned, "swept": swept}

    def rename(self, user_id: str, display_name: str) -> None:
        rename_user(self.db, user_id, display_name, time.time())


def webhook_body(event: str, payload: dict[str, Any]) -> bytes:
    body = {"id": uuid.uuid4().hex, "event": event, "text": payload.get("text", ""), "ts": time.time()}
    return json.dumps(body).encode("utf-8")


def normalize_request(payload: dict[str, Any]) -> dict[str, Any]:
    if isinstance(payload.get("text"), str):
        payload["text"] = payload["text"].strip()
    payload.setdefault("id", uuid.uuid4().hex)
    return payload
