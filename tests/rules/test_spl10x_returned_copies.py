"""SPL101/SPL102: a copy of a span the function was given, its content computed from the span's own
and its id kept, handed back to the caller in its place (`return replace(note, text=note.text[:n])`)
is a rewrite under that id; a copy given a new id, or a new version and hash, is quiet, and so are a
copy of a class that tracks nothing and a copy carrying other text (a preview)."""

from __future__ import annotations

import pytest

from spanlint import Settings, check_source

_NOTE = (
    "from dataclasses import dataclass, replace\n"
    "\n"
    "from pydantic import BaseModel\n"
    "\n\n"
    "@dataclass\n"
    "class Note:\n"
    "    id: str\n"
    "    text: str\n"
    "    version: int = 0\n"
    "\n\n"
    "class Card(BaseModel):\n"
    "    id: str\n"
    "    content: str\n"
    "    version: int = 0\n"
    "    content_hash: str = ''\n"
    "\n\n"
    "class Ping(BaseModel):\n"
    "    id: str\n"
    "    content: str\n"
    "\n\n"
)


def _findings(source: str) -> list[tuple[str, int]]:
    found = check_source(_NOTE + source, "app.py", Settings(select=("SPL101", "SPL102", "SPL103")))
    return sorted((d.code, d.location.line - _NOTE.count("\n")) for d in found)


PAIRS = [
    pytest.param(
        "def clip(note: Note, limit: int) -> Note:\n"
        "    return replace(note, text=note.text[:limit])\n",
        [("SPL101", 2)],
        "def clip(note: Note, limit: int) -> Note:\n"
        "    return replace(note, text=note.text[:limit], id=f'{note.id}-clipped')\n",
        id="dataclass-replace-vs-new-id",
    ),
    pytest.param(
        "def unwrap(card: Card) -> Card:\n"
        "    body = card.content.removeprefix('> ')\n"
        "    updated = card.model_copy(update={'content': body, 'version': card.version + 1})\n"
        "    return updated\n",
        [("SPL102", 4)],
        "def unwrap(card: Card) -> Card:\n"
        "    body = card.content.removeprefix('> ')\n"
        "    updated = card.model_copy(\n"
        "        update={'content': body, 'version': card.version + 1, 'content_hash': digest(body)}\n"
        "    )\n"
        "    return updated\n",
        id="model-copy-through-a-local-vs-rehashed",
    ),
    pytest.param(
        "def clip(note: Note, limit: int) -> Note:\n"
        "    if len(note.text) <= limit:\n"
        "        return note\n"
        "    return replace(note, text=note.text[:limit])\n",
        [("SPL101", 4)],
        "def echo(ping: Ping) -> Ping:\n"
        "    return ping.model_copy(update={'content': ping.content.upper()})\n",
        id="one-return-of-two-vs-a-class-tracking-nothing",
    ),
    pytest.param(
        "def clip(note: Note, limit: int) -> Note:\n"
        "    words = note.text.split()\n"
        "    return replace(note, text=' '.join(words[:limit]))\n",
        [("SPL101", 3)],
        "def with_draft(note: Note, draft: str) -> Note:\n"
        "    return replace(note, text=draft)\n",
        id="content-from-the-note-vs-other-text",
    ),
]


@pytest.mark.parametrize(("hazard", "expected", "look_alike"), PAIRS)
def test_a_returned_copy_under_the_same_id_is_a_rewrite(hazard: str, expected: list, look_alike: str) -> None:
    assert _findings(hazard) == expected
    assert _findings(look_alike) == []
