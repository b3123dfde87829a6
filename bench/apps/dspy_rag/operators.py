"""Rewrite operators over passages, documents and notes."""

from __future__ import annotations

from collections.abc import Iterable

import dspy
from dspy.experimental import Document

from .models import WorkingNote
from .store import PassageStore
from .textutil import content_digest, normalize_ws, sentence_bounds


class Redact(dspy.Signature):
    """Replace personal data (names, emails, phone numbers, account ids) with [REDACTED]. Keep everything else verbatim."""

    text: str = dspy.InputField()
    redacted: str = dspy.OutputField()


class Compress(dspy.Signature):
    """Rewrite the passage more concisely without dropping facts, numbers or names."""

    text: str = dspy.InputField()
    budget_chars: int = dspy.InputField()
    compressed: str = dspy.OutputField()


class Redactor(dspy.Module):
    def __init__(self) -> None:
        super().__init__()
        self.redact = dspy.Predict(Redact)

    def forward(self, text: str) -> dspy.Prediction:
        return self.redact(text=text)


class Compressor(dspy.Module):
    def __init__(self, budget_chars: int = 400) -> None:
        super().__init__()
        self.budget_chars = budget_chars
        self.compress = dspy.ChainOfThought(Compress)

    def forward(self, text: str) -> dspy.Prediction:
        return self.compress(text=text, budget_chars=self.budget_chars)


def normalize_passages(passages: Iterable[dspy.Example]) -> int:
    changed = 0
    for passage in passages:
        cleaned = normalize_ws(passage.text)
        if cleaned != passage.text:
            passage.text = cleaned
            passage.content_hash = content_digest(cleaned)
            passage.sentence_offsets = sentence_bounds(cleaned)
            changed += 1
    return changed


def redact_documents(shelf: dict[str, Document], redactor: Redactor) -> list[str]:
    touched = []
    for doc_id, doc in list(shelf.items()):
        result = redactor(text=doc.data)
        if result.redacted != doc.data:
            shelf[doc_id] = doc.model_copy(update={"data": result.redacted})
            touched.append(doc_id)
    return touched


async def aredact_notes(notes: dict[str, WorkingNote], redactor: Redactor) -> int:
    changed = 0
    for note in notes.values():
        result = await redactor.acall(text=note.text)
        if result.redacted != note.text:
            note.text = result.redacted
            note.version += 1
            changed += 1
    return changed


def compress_passage(store: PassageStore, pid: str, compressor: Compressor) -> dspy.Example:
    original = store.get(pid)
    result = compressor(text=original.text)
    new_pid = f"{pid}~c{original.version + 1}"
    compressed = dspy.Example(
        pid=new_pid,
        title=original.title,
        text=result.compressed,
        version=0,
        content_hash=content_digest(result.compressed),
        produced_by=f"rewrite:compress:{pid}@{original.version}",
        sentence_offsets=sentence_bounds(result.compressed),
    ).with_inputs("text")
    store.add(compressed)
    store.tombstone(pid, reason="compressed", superseded_by=new_pid)
    return compressed


def summarize_passage(store: PassageStore, pid: str, compressor: Compressor) -> dspy.Example:
    passage = store.get(pid)
    result = compressor(text=passage.text)
    return store.replace_text(pid, result.compressed, produced_by="rewrite:summarize")
