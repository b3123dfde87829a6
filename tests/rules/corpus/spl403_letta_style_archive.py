# rules: SPL403
"""Archival memory that tombstones passages and sweeps them; one sweep counts live citations."""
from datetime import datetime, timezone


class ArchivalMemory:
    def __init__(self) -> None:
        self.passages: dict = {}
        self.citations: dict = {}

    def tombstone(self, passage_id: str) -> None:
        passage = self.passages[passage_id]
        passage.tombstoned = True
        passage.tombstoned_at = datetime.now(timezone.utc)

    def sweep(self, max_age_days: int) -> int:
        now = datetime.now(timezone.utc)
        removed = 0
        for pid, passage in list(self.passages.items()):
            if passage.tombstoned and (now - passage.tombstoned_at).days > max_age_days:
                del self.passages[pid]  # expect: SPL403
                removed += 1
        return removed

    def sweep_unreferenced(self, max_age_days: int) -> int:
        now = datetime.now(timezone.utc)
        removed = 0
        for pid, passage in list(self.passages.items()):
            holders = self.citations.get(pid, ())
            if passage.tombstoned and not holders and (now - passage.tombstoned_at).days > max_age_days:
                del self.passages[pid]
                removed += 1
        return removed

    def restore(self, passage_id: str) -> None:
        passage = self.passages[passage_id]
        passage.tombstoned = False
