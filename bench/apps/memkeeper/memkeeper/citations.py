from __future__ import annotations

from .hashing import digest_of
from .records import Citation, OffsetEntry
from .store import MemoryStore


def cite(record_id: str, start: int, end: int) -> Citation:
    return {"record_id": record_id, "start": start, "end": end}


def quote(store: MemoryStore, c: Citation) -> str:
    rec = store.get(c["record_id"])
    if rec is None:
        return ""
    return rec["text"][c["start"]:c["end"]]


def build_offsets(store: MemoryStore, record_id: str) -> OffsetEntry:
    rec = store.get(record_id)
    assert rec is not None
    offs, pos = [], 0
    for sentence in rec["text"].split(". "):
        offs.append((pos, pos + len(sentence)))
        pos += len(sentence) + 2
    return {"record_id": rec["id"], "version": rec["version"],
            "digest": rec["digest"], "offsets": offs}


def sentence_at(store: MemoryStore, entry: OffsetEntry, idx: int) -> str | None:
    rec = store.get(entry["record_id"])
    if rec is None:
        return None
    if rec["version"] != entry["version"] or digest_of(rec["text"]) != entry["digest"]:
        return None
    start, end = entry["offsets"][idx]
    return rec["text"][start:end]
