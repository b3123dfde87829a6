from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import DateTime, String, Text, create_engine, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column


class Base(DeclarativeBase):
    pass


class IncidentTicket(Base):
    __tablename__ = "incident_tickets"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[str] = mapped_column(String(20), default="open")
    agent_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=lambda: datetime.now(timezone.utc))


def get_engine(url: str = "sqlite:///letta_ops.db"):
    engine = create_engine(url)
    Base.metadata.create_all(engine)
    return engine


def update_ticket(session: Session, ticket_id: str, *, description: str | None = None, status: str | None = None) -> IncidentTicket:
    ticket = session.get(IncidentTicket, ticket_id)
    if ticket is None:
        raise KeyError(ticket_id)
    if description is not None:
        ticket.description = description
    if status is not None:
        ticket.status = status
    ticket.updated_at = datetime.now(timezone.utc)
    session.commit()
    return ticket


def open_tickets_for(session: Session, agent_id: str) -> list[IncidentTicket]:
    return list(session.scalars(select(IncidentTicket).where(IncidentTicket.agent_id == agent_id, IncidentTicket.status == "open")))
