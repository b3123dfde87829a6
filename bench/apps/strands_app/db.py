"""Customer directory backed by SQLite."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Customer:
    id: int
    display_name: str
    tier: str
    notes: str = ""


class CustomerRepo:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(path)
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS customers (id INTEGER PRIMARY KEY, display_name TEXT, tier TEXT, notes TEXT)"
        )

    def get(self, customer_id: int) -> Customer | None:
        row = self.conn.execute(
            "SELECT id, display_name, tier, notes FROM customers WHERE id = ?", (customer_id,)
        ).fetchone()
        return Customer(*row) if row else None

    def rename(self, customer_id: int, display_name: str) -> None:
        with self.conn:
            self.conn.execute("UPDATE customers SET display_name = ? WHERE id = ?", (display_name.strip(), customer_id))

    def append_note(self, customer: Customer, note: str) -> Customer:
        customer.notes = f"{customer.notes}\n{note}".strip()
        with self.conn:
            self.conn.execute("UPDATE customers SET notes = ? WHERE id = ?", (customer.notes, customer.id))
        return customer
