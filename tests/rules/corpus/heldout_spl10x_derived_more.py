# rules: SPL101, SPL102, SPL103, SPL104
"""Held-out: more spans with derived fields (SPL104) — offsets, token counts, vectors, lists."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional


@dataclass
class Passage:
    id: str
    text: str
    start_char_idx: int
    end_char_idx: int
    version: int = 0


@dataclass
class TokenizedSegment:
    segment_id: str
    tokens: list[int] = field(default_factory=list)
    n_tokens: int = 0
    version: int = 0


@dataclass
class EmbeddedNote:
    id: str
    content: str
    vector: Optional[list[float]] = None
    version: int = 0
    content_hash: str = ""


class Snippet:
    def __init__(self, id: str, text: str) -> None:
        self.id = id
        self.text = text
        self.version = 0
        self.offsets: list[tuple[int, int]] = []

    def collapse_whitespace(self) -> None:
        self.text = " ".join(self.text.split())  # expect: SPL104
        self.version += 1

    def collapse_and_reset(self) -> None:
        self.text = " ".join(self.text.split())
        self.version += 1
        self.offsets = []


def shorten_passage(passage: Passage, limit: int) -> None:
    passage.text = passage.text[:limit]  # expect: SPL104
    passage.version += 1


def shorten_passage_ok(passage: Passage, limit: int) -> None:
    passage.text = passage.text[:limit]
    passage.version += 1
    passage.end_char_idx = passage.start_char_idx + len(passage.text)


def shorten_passages(passages: list[Passage], limit: int) -> None:
    for passage in passages:
        if len(passage.text) > limit:
            passage.text = passage.text[:limit]  # expect: SPL104
            passage.version += 1


def setattr_passage(passage: Passage, text: str) -> None:
    setattr(passage, "text", text)  # expect: SPL104
    passage.version += 1


def extend_tokens(segment: TokenizedSegment, more: list[int]) -> None:
    segment.tokens.extend(more)  # expect: SPL104
    segment.version += 1


def extend_tokens_ok(segment: TokenizedSegment, more: list[int]) -> None:
    segment.tokens.extend(more)
    segment.version += 1
    segment.n_tokens = len(segment.tokens)


def clear_tokens(segment: TokenizedSegment) -> None:
    segment.tokens.clear()  # expect: SPL104
    segment.version += 1


def drop_token(segment: TokenizedSegment, i: int) -> None:
    del segment.tokens[i]  # expect: SPL104
    segment.version += 1


def rewrite_note(note: EmbeddedNote, text: str, sha) -> None:
    note.content = text  # expect: SPL104
    note.version += 1
    note.content_hash = sha(text)


def rewrite_note_ok(note: EmbeddedNote, text: str, sha) -> None:
    note.content = text
    note.version += 1
    note.content_hash = sha(text)
    note.vector = None


def rewrite_note_all_missing(note: EmbeddedNote, text: str) -> None:
    note.content = text  # expect: SPL101, SPL102, SPL104


def note_setter(note: EmbeddedNote, text: str) -> None:
    note.set_content(text)  # expect: SPL104
    note.bump_version()
    note.rehash()


def note_setter_ok(note: EmbeddedNote, text: str) -> None:
    note.set_content(text)
    note.bump_version()
    note.rehash()
    note.vector = None


async def resummarize_notes(notes: list[EmbeddedNote], llm, sha) -> None:
    for note in notes:
        note.content = await llm.summarize(note.content)  # expect: SPL104
        note.version += 1
        note.content_hash = sha(note.content)


def reembed_vectors(notes: list[EmbeddedNote], embed) -> None:
    for note in notes:
        note.vector = embed(note.content)


def snippet_edit(snippet: Snippet, text: str) -> None:
    snippet.text = text  # expect: SPL104
    snippet.version += 1


def snippet_edit_reset(snippet: Snippet, text: str) -> None:
    snippet.text = text
    snippet.version += 1
    snippet.offsets.clear()


def passage_tombstone(passage: Passage) -> None:
    passage.text = "[pruned]"


class SnippetIndex:
    def __init__(self) -> None:
        self._snippets: dict[str, Snippet] = {}

    def redact_all(self, secret: str) -> None:
        for snippet in self._snippets.values():
            snippet.text = snippet.text.replace(secret, "")  # expect: SPL104
            snippet.version += 1


def force_passage(passage: Passage, text: str) -> None:
    object.__setattr__(passage, "text", text)  # expect: SPL104
    object.__setattr__(passage, "version", passage.version + 1)
