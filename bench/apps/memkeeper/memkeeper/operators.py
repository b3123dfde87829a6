from __future__ import annotations

import re

from .hashing import digest_of
from .records import MemoryRecord
from .store import MemoryStore

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_WS = re.compile(r"\s+")


def redact_emails(store: MemoryStore) -> int:
    changed = 0
    for mem in store.live():
        cleaned = _EMAIL.sub("[email]", mem["text"])
        if cleaned != mem["text"]:
            store.patch_text(mem["id"], cleaned)
            changed += 1
    return changed


def normalize_whitespace(store: MemoryStore) -> None:
    for mem in store.live():
        squashed = _WS.sub(" ", mem["text"]).strip()
        store.rewrite(mem["id"], squashed)


def truncate_long(records: list[MemoryRecord], limit: int = 2000) -> None:
    for chunk in records:
        if len(chunk["text"]) <= limit:
            continue
        body = chunk["text"][:limit]
        chunk["text"] = body
        chunk["digest"] = digest_of(body)


def compress(store: MemoryStore, record_id: str, compressor) -> MemoryRecord:
    rec = store.get(record_id)
    if rec is None:
        raise KeyError(record_id)
    return store.replace_with_copy(record_id, compressor(rec["text"]))


def fix_note_typos(store: MemoryStore, fixes: dict[str, str]) -> None:
    for note in store.notes():
        body = note["body"]
        for wrong, right in fixes.items():
            body = body.replace(wrong, right)
        store.edit_note(note["id"], body)
