"""Conversation buffer: ``dspy.History`` turns plus the agent's working notes."""

from __future__ import annotations

import uuid

import dspy

from .models import WorkingNote
from .textutil import content_digest


class ConversationBuffer:
    def __init__(self) -> None:
        self._history = dspy.History(messages=[])
        self.notes: dict[str, WorkingNote] = {}

    @property
    def history(self) -> dspy.History:
        return self._history

    def append_turn(self, question: str, answer: str, turn_id: str | None = None) -> str:
        turn_id = turn_id or uuid.uuid4().hex[:12]
        message = {"turn_id": turn_id, "question": question, "answer": answer}
        self._history = dspy.History(messages=[*self._history.messages, message])
        return turn_id

    def revise_turn(self, turn_id: str, answer: str) -> str:
        new_id = uuid.uuid4().hex[:12]
        original = next(m for m in self._history.messages if m["turn_id"] == turn_id)
        revised = {"turn_id": new_id, "question": original["question"], "answer": answer, "revises": turn_id}
        self._history = dspy.History(messages=[*self._history.messages, revised])
        return new_id

    def shorten_answers(self, max_chars: int) -> int:
        changed = 0
        for message in self._history.messages:
            if len(message["answer"]) > max_chars:
                message["answer"] = message["answer"][:max_chars].rstrip() + " ..."
                changed += 1
        return changed

    def add_note(self, text: str) -> WorkingNote:
        note = WorkingNote(note_id=uuid.uuid4().hex[:10], text=text)
        self.notes[note.note_id] = note
        return note

    def merge_note(self, note_id: str, extra: str) -> WorkingNote:
        note = self.notes[note_id]
        note.text = f"{note.text}\n{extra}"
        note.version += 1
        note.content_hash = content_digest(note.text)
        return note

    def revise_note(self, note_id: str, text: str) -> WorkingNote:
        note = self.notes[note_id]
        note.text = text
        note.version += 1
        note.content_hash = content_digest(text)
        note.embedding = None
        return note
