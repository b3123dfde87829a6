from __future__ import annotations

import asyncio
import time

from .buffer import SpanBuffer


def collect_tombstones(buffer: SpanBuffer, ttl: float) -> int:
    now = time.time()
    dead = [sid for sid, s in buffer.spans.items() if s.tombstoned and now - s.created_at > ttl]
    for sid in dead:
        del buffer.spans[sid]
    return len(dead)


def collect_unheld(buffer: SpanBuffer, ttl: float, held: set[str]) -> int:
    now = time.time()
    dead = [sid for sid, s in buffer.spans.items() if s.tombstoned and now - s.created_at > ttl and sid not in held]
    for sid in dead:
        del buffer.spans[sid]
    return len(dead)


async def sweep_forever(buffer: SpanBuffer, ttl: float) -> None:
    while True:
        cutoff = time.time() - ttl
        for sid in [k for k, s in buffer.spans.items() if s.tombstoned and s.created_at < cutoff]:
            buffer.spans.pop(sid, None)
        await asyncio.sleep(ttl / 4)
