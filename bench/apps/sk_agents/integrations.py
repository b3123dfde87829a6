"""Outbound integrations: the ticketing API and the local ticket mirror."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import httpx
from sqlalchemy import DateTime, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

MAX_BODY_BYTES = 64_000


class Base(DeclarativeBase):
    pass


class TicketRow(Base):
    __tablename__ = "tickets"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text, default="")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def update_ticket_body(session: Session, ticket_id: str, body: str) -> TicketRow | None:
    row = session.get(TicketRow, ticket_id)
    if row is None:
        return None
    row.body = body
    row.updated_at = datetime.now(timezone.utc)
    session.commit()
    return row


def _fit(payload: dict, limit: int = MAX_BODY_BYTES) -> dict:
    raw = json.dumps(payload).encode()
    if len(raw) <= limit:
        return payload
    overflow = len(raw) - limit
    body = payload.get("body", "")
    payload["body"] = body[: max(len(body) - overflow - 32, 0)] + "\n…(truncated)"
    payload["truncated"] = True
    return payload


async def post_comment(client: httpx.AsyncClient, ticket_id: str, body: str) -> dict:
    payload = _fit({"id": ticket_id, "body": body, "source": "planner-agent"})
    resp = await client.post(f"/api/tickets/{ticket_id}/comments", json=payload, timeout=20.0)
    resp.raise_for_status()
    return resp.json()
