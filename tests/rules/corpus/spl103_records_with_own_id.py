# rules: SPL101, SPL102, SPL103, SPL104
"""Classes with their own `id` and a text content field, named without a span noun: spans all the same."""
from __future__ import annotations

import uuid
from dataclasses import dataclass, replace
from typing import NamedTuple

import attr
import attrs
from pydantic import BaseModel


@dataclass
class Memo:
    id: str
    body: str
    author: str = ""


class Note:
    def __init__(self, id: str, text: str) -> None:
        self.id = id
        self.text = text

    def strip(self) -> None:
        self.text = self.text.strip()  # expect: SPL103


class Snippet(BaseModel):
    id: str
    text: str
    language: str = "python"


@attrs.define
class Excerpt:
    id: str
    content: str


@attr.s
class Quote:
    id = attr.ib()
    body = attr.ib()


class Remark(NamedTuple):
    id: str
    text: str


class Prompt:
    def __init__(self, id: str, tokens: list[int]) -> None:
        self.id = id
        self.tokens = tokens


class Identified:
    def __init__(self, id: str) -> None:
        self.id = id


class Annotation(Identified):
    def __init__(self, id: str, body: str) -> None:
        super().__init__(id)
        self.body = body


def redact_memo(memo: Memo, secret: str) -> None:
    memo.body = memo.body.replace(secret, "***")  # expect: SPL103


def reassign_author(memo: Memo, author: str) -> None:
    memo.author = author


def tidy_snippets(snippets: list[Snippet]) -> None:
    for snippet in snippets:
        snippet.text = snippet.text.rstrip()  # expect: SPL103


def shorten_excerpt(excerpt: Excerpt, limit: int) -> None:
    excerpt.content = excerpt.content[:limit]  # expect: SPL103


def censor_quote(quote: Quote) -> None:
    setattr(quote, "body", "[censored]")  # expect: SPL103


def store_edited(remarks: dict[str, Remark], remark: Remark, text: str) -> None:
    remarks[remark.id] = remark._replace(text=text)  # expect: SPL103


def truncate_prompt(prompt: Prompt, budget: int) -> None:
    del prompt.tokens[budget:]  # expect: SPL103


def amend(annotation: Annotation, text: str) -> None:
    annotation.body += "\n" + text  # expect: SPL103


def amend_as_copy(memo: Memo, text: str) -> Memo:
    return replace(memo, id=str(uuid.uuid4()), body=memo.body + text)


def amend_rekeyed(note: Note, text: str) -> None:
    note.text = text
    note.id = str(uuid.uuid4())


def fresh_note(text: str) -> Note:
    note = Note("n-1", "")
    note.text = text
    return note
