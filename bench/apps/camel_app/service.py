"""Async service layer used by the HTTP front end and the CLI."""
from __future__ import annotations

import asyncio
import json
import urllib.request
import uuid
from typing import Any, Dict, List, Optional

from camel.agents import ChatAgent

from .agent import App, ask, ingest
from .citations import render_footnotes
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
from .operators import normalize_text
from .pruning import drop_superseded, evict_low_score


class WebhookNotifier:
    def __init__(self, url: Optional[str]) -> None:
        self.url = url

    def _payload(self, event: str, span_id: str, text: str) -> Dict[str, Any]:
        payload = {"id": uuid.uuid4().hex, "event": event, "span": span_id, "text": text}
        payload["text"] = payload["text"][:500].strip()
        return payload

    def send(self, event: str, span_id: str, text: str) -> None:
        if not self.url:
            return
        body = json.dumps(self._payload(event, span_id, text)).encode("utf-8")
        request = urllib.request.Request(
            self.url, data=body, headers={"Content-Type": "application/json"}, method="POST"
        )
        with urllib.request.urlopen(request, timeout=5):
            pass


class SpanService:
    def __init__(self, app: App, notifier: Optional[WebhookNotifier] = None) -> None:
        self.app = app
        self.notifier = notifier or WebhookNotifier(None)
        self._lock = asyncio.Lock()

    async def add(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        span_id = ingest(self.app, payload["text"], topic=payload.get("topic", ""))
        return {"id": span_id}

    async def ask(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        answer = await asyncio.to_thread(ask, self.app, payload["question"])
        return {"answer": answer}

    async def edit_span(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        span_id = payload["id"]
        async with self._lock:
            record = self.app.buffer.get(span_id)
            text = await asyncio.to_thread(normalize_text, payload["text"])
            updated = record.model_copy(
                update={"message": record.message.create_new_instance(text)}
            )
            updated.extra_info[HASH_KEY] = digest(text)
            self.app.buffer.memory.replace(updated)
        self.notifier.send("span.edited", span_id, text)
        return {"id": span_id, "version": record_version(updated)}

    async def restate_span(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        span_id = payload["id"]
        helper = ChatAgent(model=self.app.model)
        async with self._lock:
            record = self.app.buffer.get(span_id)
            response = await helper.astep(
                f"Restate plainly, keeping every fact:\n\n{record.message.content}"
            )
            new_text = response.msg.content
            record.message = record.message.create_new_instance(new_text)
            record.extra_info[VERSION_KEY] = str(record_version(record) + 1)
            record.extra_info[HASH_KEY] = digest(new_text)
            record.extra_info[PRODUCED_BY_KEY] = "rewrite:restate"
            record.extra_info[OFFSETS_KEY] = json.dumps(sentence_offsets(new_text))
            record.extra_info.pop(EMBEDDING_KEY, None)
            self.app.buffer.memory.replace(record)
        return {"id": span_id, "version": record_version(record)}

    async def compact(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        async with self._lock:
            dropped = drop_superseded(self.app.buffer, self.app.log)
            evicted = evict_low_score(
                self.app.buffer, self.app.log, self.app.settings.low_score_threshold
            )
        return {"dropped": dropped, "evicted": evicted}

    async def footnotes(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        citations = [self.app.citations.cite(c["span"], c["quote"]) for c in payload["cites"]]
        found = [c for c in citations if c is not None]
        return {"footnotes": render_footnotes(self.app.buffer, found)}

    async def spans(self, payload: Dict[str, Any]) -> List[Dict[str, Any]]:
        return [
            {"id": record_id(r), "version": record_version(r), "chars": len(r.message.content)}
            for r in self.app.buffer.live()
        ]
