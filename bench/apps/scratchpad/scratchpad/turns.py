"""Normalization of incoming turns (pydantic models from the API layer)."""

import unicodedata

from scratchpad.models import Turn, digest


def normalize_turn(turn: Turn) -> Turn:
    text = unicodedata.normalize("NFC", turn.text).strip()
    if text == turn.text:
        return turn
    turn.text = text
    return turn


def normalized_copy(turn: Turn) -> Turn:
    text = unicodedata.normalize("NFC", turn.text).strip()
    return turn.model_copy(update={"text": text, "version": turn.version + 1, "sha": digest(text)})


def strip_signature(turn: Turn) -> Turn:
    lines = turn.text.splitlines()
    if lines and lines[-1].startswith("--"):
        return turn.model_copy(update={"text": "\n".join(lines[:-1]), "version": turn.version + 1})
    return turn


def tag_language(turn: Turn, lang: str) -> Turn:
    turn.meta["lang"] = lang
    return turn
