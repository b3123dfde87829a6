"""Session context store: ``{id: span}`` plus the prompt order, persisted as JSON."""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Iterator

from . import records
from .records import Span


class ContextStore:
    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self.spans: dict[str, Span] = {}
        self.order: list[str] = []
        # span id -> names of the stages that still read it (retriever, citer, ...)
        self.holds: dict[str, set[str]] = {}

    # -- persistence -------------------------------------------------------------
    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "ContextStore":
        st = cls(path)
        if not st.path.exists():
            return st
        raw = json.loads(st.path.read_text("utf-8"))
        for rec in raw.get("spans", []):
            st.spans[rec["id"]] = rec
        st.order = [sid for sid in raw.get("order", []) if sid in st.spans]
        st.holds = {sid: set(who) for sid, who in raw.get("holds", {}).items()}
        return st

    def save(self) -> None:
        payload = {
            "spans": list(self.spans.values()),
            "order": self.order,
            "holds": {sid: sorted(who) for sid, who in self.holds.items() if who},
            "saved_at": time.time(),
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".ctx-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(payload, fh, ensure_ascii=False)
        os.replace(tmp, self.path)

    # -- access ------------------------------------------------------------------
    def add(self, span: Span) -> str:
        self.spans[span["id"]] = span
        self.order.append(span["id"])
        return span["id"]

    def get(self, sid: str) -> Span | None:
        return self.spans.get(sid)

    def live(self) -> list[Span]:
        return [self.spans[sid] for sid in self.order if sid in self.spans]

    def __iter__(self) -> Iterator[Span]:
        return iter(self.live())

    def __len__(self) -> int:
        return len(self.order)

    def hold(self, sid: str, who: str) -> None:
        self.holds.setdefault(sid, set()).add(who)

    def release(self, sid: str, who: str) -> None:
        who_set = self.holds.get(sid)
        if who_set:
            who_set.discard(who)

    # -- edits -------------------------------------------------------------------
    def retire(self, sid: str) -> None:
        span = self.spans[sid]
        span["dead"] = True
        span["dead_at"] = time.time()
        if sid in self.order:
            self.order.remove(sid)

    def drop(self, sid: str) -> Span | None:
        if sid in self.order:
            self.order.remove(sid)
        return self.spans.pop(sid, None)

    def replace(self, sid: str, text: str, by: str) -> Span:
        old = self.spans[sid]
        new = records.fork(old, text, by)
        self.spans[new["id"]] = new
        try:
            self.order[self.order.index(sid)] = new["id"]
        except ValueError:
            self.order.append(new["id"])
        return new

    def sweep(self, log, min_age: float = 900.0) -> list[dict]:
        now = time.time()
        cited = {
            src
            for s in self.spans.values()
            if not s.get("dead")
            for src in (s.get("sources") or ())
        }
        freed = []
        for sid, rec in self.spans.items():
            if not rec.get("dead"):
                continue
            if self.holds.get(sid) or sid in cited:
                continue
            if now - rec.get("dead_at", now) < min_age:
                continue
            freed.append({"id": sid, "rev": rec.get("rev"), "sha": rec.get("sha")})
        if freed:
            log.append("gc", spans=freed, rule=f"tombstone, unheld, age>={min_age:.0f}s")
            for f in freed:
                del self.spans[f["id"]]
                self.holds.pop(f["id"], None)
        return freed
