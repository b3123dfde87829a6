"""SQLite persistence for user feedback on answers."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass


@dataclass
class FeedbackRow:
    id: int
    answer_id: str
    text: str
    rating: int


class FeedbackRepo:
    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(path)
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS feedback ("
            "id INTEGER PRIMARY KEY AUTOINCREMENT, answer_id TEXT NOT NULL, text TEXT NOT NULL, rating INTEGER)"
        )

    def add(self, answer_id: str, text: str, rating: int) -> FeedbackRow:
        cur = self.conn.execute(
            "INSERT INTO feedback (answer_id, text, rating) VALUES (?, ?, ?)", (answer_id, text, rating)
        )
        self.conn.commit()
        return FeedbackRow(cur.lastrowid, answer_id, text, rating)

    def get(self, row_id: int) -> FeedbackRow | None:
        row = self.conn.execute("SELECT id, answer_id, text, rating FROM feedback WHERE id = ?", (row_id,)).fetchone()
        return FeedbackRow(*row) if row else None

    def update_text(self, row_id: int, text: str) -> FeedbackRow | None:
        self.conn.execute("UPDATE feedback SET text = ? WHERE id = ?", (text, row_id))
        self.conn.commit()
        return self.get(row_id)
