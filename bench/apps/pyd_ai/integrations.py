"""Outbound integrations: CRM webhook and the ticket database."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import httpx
from sqlalchemy import DateTime, Integer, String, Text, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

MAX_WEBHOOK_BYTES = 64 * 1024


class Base(DeclarativeBase):
    pass


class Ticket(Base):
    __tablename__ = "tickets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    external_ref: Mapped[str] = mapped_column(String(64), index=True)
    subject: Mapped[str] = mapped_column(String(255))
    body: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[str] = mapped_column(String(32), default="open")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def update_ticket_body(session: Session, ticket_id: int, body: str, *, status: str | None = None) -> Ticket:
    ticket = session.get(Ticket, ticket_id)
    if ticket is None:
        raise LookupError(f"ticket {ticket_id} not found")
    ticket.body = body
    if status is not None:
        ticket.status = status
    ticket.updated_at = datetime.now(timezone.utc)
    session.commit()
    return ticket


def open_tickets(session: Session, limit: int = 50) -> list[Ticket]:
    stmt = select(Ticket).where(Ticket.status == "open").order_by(Ticket.updated_at.desc()).limit(limit)
    return list(session.scalars(stmt))


def _fit_payload(payload: dict) -> bytes:
    raw = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    if len(raw) <= MAX_WEBHOOK_BYTES:
        return raw
    body = payload.get("answer", "")
    overflow = len(raw) - MAX_WEBHOOK_BYTES
    payload["answer"] = body[: max(0, len(body) - overflow - 32)] + " [truncated]"
    payload["truncated"] = True
    return json.dumps(payload, ensure_ascii=False).encode("utf-8")


async def post_case_update(client: httpx.AsyncClient, url: str, case_id: str, answer: str, evidence: list[str]) -> int:
    payload = {"id": case_id, "answer": answer, "evidence": evidence[:20]}
    resp = await client.post(url, content=_fit_payload(payload), headers={"content-type": "application/json"})
    resp.raise_for_status()
    return resp.status_code
