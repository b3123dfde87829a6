# rules: SPL403
"""Time-based expiry that is not tombstone collection: caches, sessions, rate limits."""
import time


class TTLCache:
    def __init__(self, ttl: float) -> None:
        self.ttl = ttl
        self._data: dict = {}

    def expire(self) -> None:
        now = time.monotonic()
        for key, (value, stored_at) in list(self._data.items()):
            if now - stored_at > self.ttl:
                del self._data[key]


class HTTPCache:
    def __init__(self) -> None:
        self.entries: dict = {}

    def purge(self) -> None:
        now = time.time()
        self.entries = {url: e for url, e in self.entries.items() if e.expires > now}


class SessionStore:
    def __init__(self) -> None:
        self.sessions: dict = {}

    def reap(self, max_age: float) -> None:
        for sid in list(self.sessions):
            if time.time() - self.sessions[sid].created_at > max_age:
                self.sessions.pop(sid)


class RateLimiter:
    def __init__(self) -> None:
        self.hits: list[float] = []

    def allow(self) -> bool:
        now = time.time()
        self.hits = [t for t in self.hits if now - t < 60]
        return len(self.hits) < 100
