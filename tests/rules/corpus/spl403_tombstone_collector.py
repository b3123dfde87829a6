# rules: SPL403
"""A span store that tombstones pruned spans and collects the tombstones later."""
import time
from dataclasses import dataclass, field


@dataclass
class Tombstone:
    span_id: str
    tombstoned_at: float
    holders: set = field(default_factory=set)


@dataclass
class SpanStore:
    spans: dict = field(default_factory=dict)
    tombstones: dict = field(default_factory=dict)
    ttl: float = 600.0

    def tombstone(self, span_id: str) -> None:
        self.tombstones[span_id] = Tombstone(span_id, time.time())

    def collect(self) -> None:
        now = time.time()
        for span_id, stone in list(self.tombstones.items()):
            if now - stone.tombstoned_at > self.ttl:
                del self.tombstones[span_id]  # expect: SPL403

    def collect_unheld(self) -> None:
        now = time.time()
        for span_id, stone in list(self.tombstones.items()):
            if now - stone.tombstoned_at > self.ttl and not stone.holders:
                del self.tombstones[span_id]

    def collect_by_filter(self) -> None:
        cutoff = time.monotonic() - self.ttl
        self.tombstones = {k: t for k, t in self.tombstones.items() if t.tombstoned_at > cutoff}  # expect: SPL403

    def collect_by_filter_unheld(self) -> None:
        cutoff = time.monotonic() - self.ttl
        self.tombstones = {
            k: t for k, t in self.tombstones.items() if t.tombstoned_at > cutoff or t.holders
        }

    def collect_expired_list(self) -> None:
        expired = [k for k, t in self.tombstones.items() if time.time() - t.tombstoned_at > self.ttl]
        for span_id in expired:
            self.tombstones.pop(span_id)  # expect: SPL403

    def drop(self, span_id: str) -> None:
        # Explicit removal on request: no age condition.
        self.tombstones.pop(span_id, None)
