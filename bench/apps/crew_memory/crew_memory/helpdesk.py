"""Helpdesk integration: the SQLite ticket table and outbound reply webhooks."""

import json
import sqlite3
import time
import urllib.request
from collections import deque
from dataclasses import dataclass, field
from typing import Any


@dataclass
class TicketRow:
    id: int
    subject: str
    content: str


class TicketRepo:
    def __init__(self, path: str = "tickets.db") -> None:
        self.conn = sqlite3.connect(path)
        self.conn.row_factory = sqlite3.Row

    def get(self, ticket_id: int) -> TicketRow | None:
        row = self.conn.execute("SELECT * FROM tickets WHERE id = ?", (ticket_id,)).fetchone()
        return TicketRow(**dict(row)) if row else None

    def save_reply(self, row: TicketRow, reply: str) -> None:
        row.content = f"{row.content}\n\n---\n{reply}"
        with self.conn:
            self.conn.execute("UPDATE tickets SET content = ? WHERE id = ?", (row.content, row.id))


@dataclass
class OutboundJob:
    id: str
    payload: dict[str, Any]
    queued_at: float = field(default_factory=time.time)


class WebhookOutbox:
    def __init__(self, url: str, max_age_s: float = 900.0) -> None:
        self.url, self.max_age_s = url, max_age_s
        self.queue: deque[OutboundJob] = deque()

    def enqueue(self, job_id: str, ticket_id: str, content: str) -> None:
        self.queue.append(OutboundJob(job_id, {"id": ticket_id, "content": content}))

    def flush(self, signoff: str = "") -> int:
        sent = 0
        while self.queue:
            body = self.queue[0].payload
            if signoff and not body["content"].endswith(signoff):
                body["content"] = f"{body['content']}\n\n{signoff}"
            req = urllib.request.Request(self.url, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
            try:
                urllib.request.urlopen(req, timeout=10).close()
            except OSError:
                break
            self.queue.popleft()
            sent += 1
        return sent

    def drop_expired(self) -> int:
        self.queue = deque(j for j in self.queue if time.time() - j.queued_at <= self.max_age_s)
        return len(self.queue)
