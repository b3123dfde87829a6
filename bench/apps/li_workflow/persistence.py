"""Relational storage for case sessions and background jobs."""

from __future__ import annotations

import datetime as dt
from typing import Optional

from sqlalchemy import DateTime, String, Text, delete, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


class Base(DeclarativeBase):
    pass


class CaseSession(Base):
    __tablename__ = "case_sessions"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    notes: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[str] = mapped_column(String(16), default="open")
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_utcnow)


class BackgroundJob(Base):
    __tablename__ = "background_jobs"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16), default="queued")
    finished_at: Mapped[Optional[dt.datetime]] = mapped_column(DateTime(timezone=True))


def update_session_notes(db: Session, session_id: str, notes: str, title: Optional[str] = None) -> CaseSession:
    row = db.get(CaseSession, session_id)
    if row is None:
        raise KeyError(session_id)
    row.notes = notes
    if title:
        row.title = title
    row.updated_at = _utcnow()
    db.commit()
    return row


def purge_finished_jobs(db: Session, older_than: dt.timedelta = dt.timedelta(days=3)) -> int:
    cutoff = _utcnow() - older_than
    result = db.execute(
        delete(BackgroundJob).where(
            BackgroundJob.status.in_(("done", "failed")),
            BackgroundJob.finished_at < cutoff,
        )
    )
    db.commit()
    return result.rowcount or 0


def open_sessions(db: Session) -> list[CaseSession]:
    return list(db.scalars(select(CaseSession).where(CaseSession.status == "open")))
