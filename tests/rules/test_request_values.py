"""A web route handler's parameters are parsed from the request it handles: new objects, not spans
anyone holds (`rules.analysis._request_values`); a buffer injected with `Depends(...)` is shared."""

from __future__ import annotations

import pytest

from spanlint.engine import lint_source
from spanlint.settings import Settings

FEEDBACK = """\
from fastapi import APIRouter, Depends
from pydantic import BaseModel

router = APIRouter()


class Note(BaseModel):
    id: str
    content: str
    version: int = 0

{decorator}
def save_note(note: Note{injected}) -> dict:
    note.content = note.content.strip()[:2000]
    return {{"ok": True}}
"""


def codes(decorator: str, injected: str = "") -> list[str]:
    source = FEEDBACK.format(decorator=decorator, injected=injected)
    return [d.code for d in lint_source(source, "app/api.py", Settings(select=("SPL1",)))]


@pytest.mark.parametrize("decorator", ['@router.post("/notes")', '@router.api_route("/notes", methods=["PUT"])', '@post("/notes")'])
def test_a_request_body_normalised_in_its_handler_is_no_rewrite(decorator: str) -> None:
    assert codes(decorator) == []


@pytest.mark.parametrize("decorator", ["", '@cache.get("notes")', "@router.post"])
def test_the_same_write_outside_a_route_handler_is_reported(decorator: str) -> None:
    assert "SPL101" in codes(decorator)


def test_a_span_injected_into_a_handler_is_shared_and_its_rewrite_reported() -> None:
    assert "SPL101" in codes('@router.post("/notes")', injected=" = Depends(current_note)")
