"""Custom Session implementation that keeps per-item version metadata."""

from __future__ import annotations

import asyncio
import json
import re
import time
import uuid
from typing import Any

from agents import SessionABC, SessionSettings, SQLiteSession, TResponseInputItem
from agents.memory.session_settings import resolve_session_limit

from .models import digest, item_text


def item_hash(item: TResponseInputItem) -> str:
    return digest(json.dumps(item, sort_keys=True, default=str))


class DeskSession(SessionABC):
    """Conversation history with stable item ids, versions and content hashes.

    Rows are plain dicts: {"item_id", "item", "version", "hash", "tombstone", "added_at"}.
    """

    def __init__(
        self,
        session_id: str,
        session_settings: SessionSettings | None = None,
        archive: SQLiteSession | None = None,
    ) -> None:
        self.session_id = session_id
        self.session_settings = session_settings or SessionSettings()
        self._rows: list[dict[str, Any]] = []
        self._lock = asyncio.Lock()
        self._archive = archive

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        async with self._lock:
            session_limit = resolve_session_limit(limit, self.session_settings)
            items = [row["item"] for row in self._rows if not row["tombstone"]]
            if session_limit is not None and session_limit >= 0:
                items = items[-session_limit:] if session_limit else []
            return [dict(item) for item in items]

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        async with self._lock:
            for item in items:
                item_id = str(item.get("id") or f"item_{uuid.uuid4().hex[:12]}")
                self._rows.append(
                    {
                        "item_id": item_id,
                        "item": dict(item),
                        "version": 0,
                        "hash": item_hash(item),
                        "tombstone": False,
                        "added_at": time.time(),
                    }
                )
        if self._archive is not None:
            await self._archive.add_items(items)

    async def pop_item(self) -> TResponseInputItem | None:
        async with self._lock:
            if not self._rows:
                return None
            row = self._rows.pop()
            return row["item"]

    async def clear_session(self) -> None:
        async with self._lock:
            self._rows.clear()

    def rows(self) -> list[dict[str, Any]]:
        return self._rows

    def find(self, item_id: str) -> dict[str, Any] | None:
        for row in self._rows:
            if row["item_id"] == item_id:
                return row
        return None

    async def replace_item(self, item_id: str, new_item: TResponseInputItem) -> dict[str, Any]:
        async with self._lock:
            row = self.find(item_id)
            if row is None:
                raise KeyError(item_id)
            row["item"] = dict(new_item)
            row["version"] += 1
            row["hash"] = item_hash(new_item)
            return row

    async def supersede_item(self, item_id: str, new_item: TResponseInputItem) -> str:
        async with self._lock:
            old = self.find(item_id)
            if old is None:
                raise KeyError(item_id)
            new_id = f"{item_id}~{old['version'] + 1}"
            self._rows.append(
                {
                    "item_id": new_id,
                    "item": dict(new_item),
                    "version": old["version"] + 1,
                    "hash": item_hash(new_item),
                    "tombstone": False,
                    "added_at": time.time(),
                    "supersedes": item_id,
                }
            )
            old["tombstone"] = True
            return new_id

    async def amend_text(self, item_id: str, text: str) -> None:
        async with self._lock:
            row = self.find(item_id)
            if row is None:
                return
            row["item"] = {**row["item"], "content": text}
            row["version"] += 1

    async def compact_whitespace(self) -> int:
        changed = 0
        async with self._lock:
            for row in self._rows:
                item = row["item"]
                text = item_text(item)
                squashed = re.sub(r"\s+", " ", text).strip()
                if squashed != text and isinstance(item.get("content"), str):
                    item["content"] = squashed
                    row["hash"] = item_hash(item)
                    changed += 1
        return changed
