"""A small JSON-over-HTTP API in front of the assistant."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .agent import Assistant, ask, build_assistant
from .pruning import compact
from .settings import get_settings


def error_payload(request: dict[str, Any], status: int, message: str) -> dict[str, Any]:
    payload = {"id": request.get("id"), "status": status, "text": message}
    if "text" in request:
        payload["echo"] = request["text"][:200]
    return payload


def normalize_request(request: dict[str, Any]) -> dict[str, Any]:
    request = dict(request)
    request["text"] = str(request.get("text", "")).strip()
    request.setdefault("id", None)
    return request


class Handler(BaseHTTPRequestHandler):
    assistant: Assistant

    def _send(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        try:
            request = normalize_request(json.loads(self.rfile.read(length) or b"{}"))
        except json.JSONDecodeError:
            self._send(400, {"id": None, "status": 400, "text": "invalid JSON"})
            return
        if self.path == "/ask":
            if not request["text"]:
                self._send(422, error_payload(request, 422, "empty question"))
                return
            answer = ask(self.assistant, request["text"])
            self._send(200, {"id": request["id"], "status": 200, "text": answer.answer,
                             "citations": answer.cited_span_ids})
        elif self.path == "/notes":
            body = self.assistant.history.add_span(request["text"])
            self._send(201, {"id": body.span_id, "status": 201, "version": body.version})
        elif self.path == "/compact":
            dropped = compact(self.assistant.history, self.assistant.decisions,
                                     focus=request["text"] or "current task", drop=int(request.get("drop", 2)))
            self._send(200, {"id": request["id"], "status": 200, "dropped": dropped})
        else:
            self._send(404, error_payload(request, 404, f"no route {self.path}"))


def serve() -> None:
    settings = get_settings()
    Handler.assistant = build_assistant(settings)
    ThreadingHTTPServer(("127.0.0.1", settings.http_port), Handler).serve_forever()
