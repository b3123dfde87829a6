from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

import httpx
from langchain_core.messages import AnyMessage, get_buffer_string
from sqlalchemy import DateTime, String, Text, create_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

MAX_COMMENT_BYTES = 64 * 1024


class Base(DeclarativeBase):
    pass


class Ticket(Base):
    __tablename__ = "tickets"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    customer_id: Mapped[str] = mapped_column(String(64), index=True)
    thread_id: Mapped[str] = mapped_column(String(64), index=True)
    status: Mapped[str] = mapped_column(String(16), default="open")
    subject: Mapped[str] = mapped_column(String(200), default="")
    body: Mapped[str] = mapped_column(Text, default="")
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=lambda: datetime.now(timezone.utc)
    )


def make_session_factory(url: str = "sqlite:///helpdesk.db") -> sessionmaker[Session]:
    engine = create_engine(url)
    Base.metadata.create_all(engine)
    return sessionmaker(engine, expire_on_commit=False)


class TicketRepository:
    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self._sessions = sessions

    def open(self, ticket_id: str, customer_id: str, thread_id: str, subject: str) -> Ticket:
        with self._sessions.begin() as s:
            t = Ticket(id=ticket_id, customer_id=customer_id, thread_id=thread_id, subject=subject)
            s.add(t)
        return t

    def update_body(self, ticket_id: str, body: str, *, status: str | None = None) -> Ticket:
        with self._sessions.begin() as s:
            t = s.get(Ticket, ticket_id)
            if t is None:
                raise KeyError(ticket_id)
            t.body = body
            if status:
                t.status = status
            t.updated_at = datetime.now(timezone.utc)
        return t


def handoff_transcript(messages: list[AnyMessage], summary: str = "") -> str:
    head = f"Summary: {summary}\n\n" if summary else ""
    return head + get_buffer_string(messages, human_prefix="Customer", ai_prefix="Assistant")


class ZendeskClient:
    def __init__(self, subdomain: str, token: str, *, timeout: float = 10.0) -> None:
        self._http = httpx.Client(
            base_url=f"https://{subdomain}.zendesk.com/api/v2",
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
        )

    def post_comment(self, ticket_id: str, body: str, *, public: bool = False) -> dict[str, Any]:
        raw = body.encode("utf-8")
        if len(raw) > MAX_COMMENT_BYTES:
            body = raw[: MAX_COMMENT_BYTES - 32].decode("utf-8", "ignore") + "\n…[truncated]"
        payload = {"ticket": {"comment": {"body": body, "public": public}}}
        resp = self._http.put(f"/tickets/{ticket_id}.json", content=json.dumps(payload),
                              headers={"Content-Type": "application/json"})
        resp.raise_for_status()
        return resp.json()
