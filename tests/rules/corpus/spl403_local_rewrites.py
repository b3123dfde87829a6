# rules: SPL403
"""Tombstone collection through a local filtered copy written back, and whole-table clears."""
import time


class Buffer:
    def __init__(self) -> None:
        self.tombstones: list = []
        self.last_gc = time.time()
        self.step = 0

    def gc(self, ttl: float) -> None:
        now = time.time()
        kept = [t for t in self.tombstones if now - t.created_at < ttl]
        self.tombstones = kept  # expect: SPL403

    def gc_with_holders(self, ttl: float) -> None:
        now = time.time()
        kept = [t for t in self.tombstones if now - t.created_at < ttl or t.holders]
        self.tombstones = kept

    def periodic_gc(self, interval: float) -> None:
        if time.time() - self.last_gc > interval:
            self.tombstones.clear()  # expect: SPL403
            self.last_gc = time.time()

    def gc_by_step(self, horizon: int) -> None:
        self.tombstones[:] = [t for t in self.tombstones if self.step - t.step < horizon]  # expect: SPL403

    def stats(self) -> dict:
        now = time.time()
        return {"old": sum(1 for t in self.tombstones if now - t.created_at > 60)}
