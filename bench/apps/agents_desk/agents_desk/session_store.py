"""A desk-specific agents Session that keeps items in sqlite and supports redaction."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import uuid
from typing import Any

from agents import SessionABC, TResponseInputItem

from .models import digest


def _text_of(item: TResponseInputItem) -> str:
    content = item.get("content")  # type: ignore[union-attr]
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


class DeskSession(SessionABC):
    """Session implementing the Agents SDK protocol on a local sqlite file."""

    def __init__(self, session_id: str, db_path: str = ":memory:") -> None:
        self.session_id = session_id
        self._conn = sqlite3.connect(db_path, check_same_thread=False)
        self._conn.execute(
            "CREATE TABLE IF NOT EXISTS desk_items ("
            " pos INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, item_id TEXT,"
            " item_hash TEXT, body TEXT)"
        )
        self._lock = asyncio.Lock()

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        async with self._lock:
            rows = self._conn.execute(
                "SELECT body FROM desk_items WHERE session_id = ? ORDER BY pos", (self.session_id,)
            ).fetchall()
        items = [json.loads(r[0]) for r in rows]
        return items[-limit:] if limit else items

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        async with self._lock:
            for item in items:
                item_id = item.get("id") or f"itm_{uuid.uuid4().hex[:12]}"  # type: ignore[union-attr]
                self._conn.execute(
                    "INSERT INTO desk_items (session_id, item_id, item_hash, body) VALUES (?,?,?,?)",
                    (self.session_id, item_id, digest(_text_of(item)), json.dumps(item)),
                )
            self._conn.commit()

    async def pop_item(self) -> TResponseInputItem | None:
        async with self._lock:
            row = self._conn.execute(
                "SELECT pos, body FROM desk_items WHERE session_id = ? ORDER BY pos DESC LIMIT 1",
                (self.session_id,),
            ).fetchone()
            if row is None:
                return None
            self._conn.execute("DELETE FROM desk_items WHERE pos = ?", (row[0],))
            self._conn.commit()
        return json.loads(row[1])

    async def clear_session(self) -> None:
        async with self._lock:
            self._conn.execute("DELETE FROM desk_items WHERE session_id = ?", (self.session_id,))
            self._conn.commit()

    async def scrub_item(self, item_id: str, replacement: str) -> bool:
        async with self._lock:
            row = self._conn.execute(
                "SELECT pos, body FROM desk_items WHERE session_id = ? AND item_id = ?",
                (self.session_id, item_id),
            ).fetchone()
            if row is None:
                return False
            item: dict[str, Any] = json.loads(row[1])
            item["content"] = replacement
            self._conn.execute(
                "UPDATE desk_items SET body = ? WHERE pos = ?", (json.dumps(item), row[0])
            )
            self._conn.commit()
        return True

    async def replace_item(self, item_id: str, replacement: str) -> str | None:
        async with self._lock:
            row = self._conn.execute(
                "SELECT pos, body FROM desk_items WHERE session_id = ? AND item_id = ?",
                (self.session_id, item_id),
            ).fetchone()
            if row is None:
                return None
            item: dict[str, Any] = json.loads(row[1])
            new_id = f"{item_id}~r{uuid.uuid4().hex[:6]}"
            item = {**item, "id": new_id, "content": replacement}
            self._conn.execute(
                "UPDATE desk_items SET item_id = ?, item_hash = ?, body = ? WHERE pos = ?",
                (new_id, digest(replacement), json.dumps(item), row[0]),
            )
            self._conn.commit()
        return new_id

    async def shorten_long_messages(self, max_chars: int = 4000) -> int:
        items = await self.get_items()
        trimmed = 0
        for item in items:
            text = _text_of(item)
            if item.get("role") == "user" and len(text) > max_chars:  # type: ignore[union-attr]
                await self.scrub_item(item["id"], text[:max_chars] + " …")  # type: ignore[index]
                trimmed += 1
        return trimmed
