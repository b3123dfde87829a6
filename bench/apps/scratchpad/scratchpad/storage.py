"""Persistence of finished sessions (SQLAlchemy rows, not context segments)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import DateTime, Integer, String, Text, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column


class Base(DeclarativeBase):
    pass


class SessionRow(Base):
    __tablename__ = "sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    content: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime)


def rename_session(db: Session, row_id: int, title: str, transcript: str) -> None:
    row = db.get(SessionRow, row_id)
    if row is None:
        return
    row.title = title
    row.content = transcript
    row.updated_at = dt.datetime.now(dt.timezone.utc)
    db.commit()


def purge_old_sessions(db: Session, days: int = 30) -> int:
    cutoff = dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=days)
    rows = db.scalars(select(SessionRow).where(SessionRow.updated_at < cutoff)).all()
    for row in rows:
        db.delete(row)
    db.commit()
    return len(rows)
