"""Minimal HTTP client for the chat-completions and embeddings endpoints (urllib only)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
import urllib.error
import urllib.request
from typing import Any

log = logging.getLogger(__name__)

MAX_LOGGED_BODY = 2048


class APIError(RuntimeError):
    def __init__(self, record: dict):
        super().__init__(f"HTTP {record['status']} from {record['url']}")
        self.record = record


def _error_record(url: str, status: int, headers: dict, body: str) -> dict:
    rec = {"url": url, "status": status, "headers": dict(headers), "body": body, "at": time.time()}
    if len(rec["body"]) > MAX_LOGGED_BODY:
        rec["body"] = rec["body"][:MAX_LOGGED_BODY] + "...(truncated)"
    rec["headers"].pop("Authorization", None)
    rec["headers"].pop("Set-Cookie", None)
    return rec


class LLMClient:
    def __init__(self, base_url: str, api_key: str, model: str, embed_model: str = "",
                 timeout: float = 60.0):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.model = model
        self.embed_model = embed_model
        self.timeout = timeout

    def _post(self, path: str, payload: dict[str, Any]) -> dict:
        url = f"{self.base_url}{path}"
        req = urllib.request.Request(
            url,
            data=json.dumps(payload).encode("utf-8"),
            headers={
                "Content-Type": "application/json",
                "Authorization": f"Bearer {self.api_key}",
            },
            method="POST",
        )
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                return json.loads(resp.read().decode("utf-8"))
        except urllib.error.HTTPError as exc:
            rec = _error_record(url, exc.code, dict(exc.headers), exc.read().decode("utf-8", "replace"))
            log.warning("api error %s", json.dumps(rec))
            raise APIError(rec) from exc

    def chat(self, messages: list[dict], **kw: Any) -> str:
        body = {"model": self.model, "messages": messages, **kw}
        data = self._post("/v1/chat/completions", body)
        return data["choices"][0]["message"].get("content") or ""

    def complete(self, prompt: str, **kw: Any) -> str:
        return self.chat([{"role": "user", "content": prompt}], **kw)

    async def acomplete(self, prompt: str, **kw: Any) -> str:
        return await asyncio.to_thread(self.complete, prompt, **kw)

    def embed(self, text: str) -> list[float]:
        data = self._post("/v1/embeddings", {"model": self.embed_model, "input": text})
        return data["data"][0]["embedding"]
