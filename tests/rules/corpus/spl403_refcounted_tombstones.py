# rules: SPL403
"""Tombstone collectors that check holders, weak references or reference counts."""
import sys
import time
import weakref


class Registry:
    def __init__(self) -> None:
        self.tombstones: dict = {}
        self.live_refs: dict = {}
        self._alive = weakref.WeakValueDictionary()

    def gc(self, max_age: float) -> None:
        now = time.time()
        for sid, stone in list(self.tombstones.items()):
            if now - stone.at > max_age and not self.live_refs.get(sid):
                del self.tombstones[sid]

    def gc_weak(self, max_age: float) -> None:
        for sid, stone in list(self.tombstones.items()):
            if time.time() - stone.at > max_age and sid not in self._alive:
                self.tombstones.pop(sid)

    def gc_refcount(self, max_age: float) -> None:
        for sid, stone in list(self.tombstones.items()):
            if stone.age > max_age and sys.getrefcount(stone) <= 2:
                del self.tombstones[sid]

    def gc_helper(self, max_age: float) -> None:
        for sid, stone in list(self.tombstones.items()):
            if stone.age > max_age and not self.has_holders(sid):
                del self.tombstones[sid]

    def has_holders(self, sid: str) -> bool:
        return bool(self.live_refs.get(sid))

    def gc_unchecked(self, max_age: float) -> None:
        for sid, stone in list(self.tombstones.items()):
            if stone.age > max_age:
                del self.tombstones[sid]  # expect: SPL403
