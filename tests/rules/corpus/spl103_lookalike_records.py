# rules: SPL101, SPL102, SPL103, SPL104, SPL201, SPL202, SPL401, SPL501
"""Look-alikes of `Note(id, text)`: widgets, exceptions, ORM rows, settings and references to spans."""
from __future__ import annotations

import tkinter as tk
from dataclasses import dataclass
from typing import NamedTuple

from flask_sqlalchemy import SQLAlchemy
from pydantic import BaseModel
from sqlalchemy import Column, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, declarative_base, mapped_column, relationship
from sqlmodel import Field, SQLModel

Base = declarative_base()
db = SQLAlchemy()


class TodoRow(tk.Frame):
    """A tkinter widget with an id and a caption."""

    def __init__(self, master: tk.Misc, id: str, text: str) -> None:
        super().__init__(master)
        self.id = id
        self.text = text
        self.label = tk.Label(self, text=text)

    def rename(self, text: str) -> None:
        self.text = text
        self.label.config(text=text)


class ApiError(Exception):
    """An HTTP error keeping the response body."""

    def __init__(self, id: str, status: int, body: str) -> None:
        super().__init__(f"{status}: {body}")
        self.id = id
        self.status = status
        self.body = body


def shorten_error(error: ApiError) -> ApiError:
    error.body = error.body[:200]
    return error


class Post(Base):
    __tablename__ = "posts"
    id = Column(Integer, primary_key=True)
    title = Column(String(200))
    body = Column(Text)


def moderate(post: Post, banned: list[str]) -> None:
    for word in banned:
        post.body = post.body.replace(word, "***")


class Table(DeclarativeBase):
    pass


class Thread(Table):
    __tablename__ = "threads"
    id: Mapped[int] = mapped_column(primary_key=True)
    messages: Mapped[list["Reply"]] = relationship(back_populates="thread")


class Reply(Table):
    __tablename__ = "replies"
    id: Mapped[int] = mapped_column(primary_key=True)
    thread_id: Mapped[int] = mapped_column()
    text: Mapped[str] = mapped_column()


def attach(thread: Thread, replies: list[Reply]) -> None:
    thread.messages = replies


def edit_reply(reply: Reply, text: str) -> None:
    reply.text = text


class Article(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    body = db.Column(db.Text)


def redact_article(article: Article, secret: str) -> None:
    article.body = article.body.replace(secret, "***")


class Hero(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    content: str


def retell(hero: Hero, story: str) -> None:
    hero.content = story


@dataclass
class Setting:
    id: str
    value: str


def set_value(setting: Setting, value: str) -> None:
    setting.value = value


class Metric(BaseModel):
    id: str
    value: float


def scale(metrics: list[Metric], factor: float) -> None:
    for metric in metrics:
        metric.value = metric.value * factor


class Option(NamedTuple):
    id: str
    value: str


class StreamingAdapter:
    """Collects a streamed reply for the message it references (`message_id`), not its own id."""

    def __init__(self, message_id: str) -> None:
        self.message_id = message_id
        self.content = ""

    def on_chunk(self, chunk: str) -> None:
        self.content += chunk


class TraceRecord:
    """A log record pointing at a tracing span: `span_id` names another object."""

    def __init__(self, span_id: str, body: str) -> None:
        self.span_id = span_id
        self.body = body


def scrub_record(record: TraceRecord) -> None:
    record.body = record.body.replace("password", "***")


class Profile:
    def __init__(self, id: str, name: str, bio: str) -> None:
        self.id = id
        self.name = name
        self.bio = bio


def update_bio(profile: Profile, bio: str) -> None:
    profile.bio = bio
