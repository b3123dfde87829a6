"""Edges of the app: status widgets, webhooks, the ticket DB, job queue."""

import sqlite3
import time
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Awaitable, Callable, Sequence, TypedDict

from langchain_core.messages import BaseMessage

from graph_memory.textutil import as_text


@dataclass
class StatusCard:
    id: str
    text: str
    tone: str = "info"

    def update(self, text: str, tone: str | None = None) -> None:
        self.text = text
        self.tone = tone or self.tone


class WebhookPayload(TypedDict):
    id: str
    event: str
    body: str


async def deliver(post: Callable[[WebhookPayload], Awaitable[int]], payload: WebhookPayload, attempts: int = 3) -> int:
    status = 0
    for _ in range(attempts):
        try:
            status = await post(payload)
        except ConnectionError:
            continue
        if status != 413:
            return status
        payload["body"] = payload["body"][: len(payload["body"]) // 2]
    return status


def update_ticket_body(conn: sqlite3.Connection, ticket_id: int, body: str) -> None:
    with conn:
        conn.execute("UPDATE tickets SET body = ?, updated_at = CURRENT_TIMESTAMP WHERE id = ?", (body, ticket_id))


@dataclass
class ReflectionJob:
    thread_id: str
    enqueued: float = field(default_factory=time.monotonic)


class JobQueue:
    def __init__(self) -> None:
        self.jobs: list[ReflectionJob] = []

    def expire(self, max_age_s: float) -> int:
        before = len(self.jobs)
        self.jobs = [j for j in self.jobs if time.monotonic() - j.enqueued < max_age_s]
        return before - len(self.jobs)


def transcript_preview(messages: Sequence[BaseMessage], width: int = 120) -> tuple[str, ...]:
    view = MappingProxyType({m.id or str(i): m for i, m in enumerate(messages)})
    return tuple(f"{m.type}: {as_text(m.content)[:width]}" for m in view.values())
