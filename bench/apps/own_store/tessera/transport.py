"""Minimal HTTP client for the model gateway (urllib only)."""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from typing import Any, Optional

import attrs

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 512 * 1024
MAX_LOGGED_BYTES = 2_048


@attrs.define
class HttpRequest:
    request_id: str
    url: str
    body: bytes = b""
    headers: dict[str, str] = attrs.field(factory=dict)
    truncated: bool = False


class GatewayError(RuntimeError):
    def __init__(self, status: int, body: str) -> None:
        super().__init__(f"gateway returned {status}: {body}")
        self.status = status
        self.body = body


@attrs.define
class GatewayClient:
    base_url: str
    api_key: Optional[str] = None
    timeout_s: float = 60.0

    def _prepare(self, req: HttpRequest) -> urllib.request.Request:
        if len(req.body) > MAX_BODY_BYTES:
            req.body = req.body[:MAX_BODY_BYTES]
            req.truncated = True
            req.headers["X-Body-Truncated"] = "1"
        headers = {"Content-Type": "application/json", **req.headers}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        return urllib.request.Request(req.url, data=req.body, headers=headers, method="POST")

    def post_json(self, request_id: str, path: str, payload: dict[str, Any]) -> dict[str, Any]:
        req = HttpRequest(request_id, self.base_url.rstrip("/") + path, json.dumps(payload).encode())
        try:
            with urllib.request.urlopen(self._prepare(req), timeout=self.timeout_s) as resp:
                return json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            body = exc.read()[:MAX_LOGGED_BYTES].decode("utf-8", "replace")
            log.warning("request %s failed (%s): %s", request_id, exc.code, body)
            raise GatewayError(exc.code, body) from exc
