"""Serialising guarded calls on the same objects, for threads and coroutines alike.

A guarded call holds the objects it uses (its arguments, the containers of spans it reaches, the
spans it is given) from before its snapshot until after its check, so no other guarded call sees
its half-done update and its rollback never meets another call's change. Calls are owned by their
context: a guarded operator may call another (re-entrant), and tasks or `asyncio.to_thread` workers
started inside a guarded call share its hold.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from typing import Any, Iterable

_OWNER: contextvars.ContextVar["Owner | None"] = contextvars.ContextVar("runtime_guard_owner", default=None)


class Owner:
    """The guarded call (and everything it runs) holding objects; `thread` is where it started."""

    __slots__ = ("thread",)

    def __init__(self) -> None:
        self.thread = threading.get_ident()


def enter() -> tuple[Owner, contextvars.Token | None]:
    """The owner of the current context, made for the outermost guarded call."""
    owner = _OWNER.get()
    if owner is not None:
        return owner, None
    owner = Owner()
    return owner, _OWNER.set(owner)


def leave(token: contextvars.Token | None) -> None:
    if token is not None:
        _OWNER.reset(token)


class Holds:
    """Which objects guarded calls hold, by id, and how many times (re-entrant)."""

    def __init__(self) -> None:
        self._condition = threading.Condition(threading.Lock())
        self._held: dict[int, list] = {}  # id -> [owner, count]

    def _blocked(self, ids: Iterable[int], owner: Owner) -> Owner | None:
        for key in ids:
            hold = self._held.get(key)
            if hold is not None and hold[0] is not owner:
                return hold[0]
        return None

    def _take(self, ids: list[int], owner: Owner) -> None:
        for key in ids:
            hold = self._held.get(key)
            if hold is None:
                self._held[key] = [owner, 1]
            else:
                hold[1] += 1

    def try_hold(self, ids: list[int], owner: Owner) -> bool:
        with self._condition:
            if self._blocked(ids, owner) is not None:
                return False
            self._take(ids, owner)
            return True

    def hold(self, ids: list[int], owner: Owner) -> list[int]:
        """Wait until no other owner holds any of `ids`, then hold them all; return the ids held.

        A holder started in this thread (a suspended coroutine of the same event loop) cannot
        finish while this thread waits: those ids are not waited for, and not held."""
        with self._condition:
            while True:
                blocker = self._blocked(ids, owner)
                if blocker is None:
                    break
                if blocker.thread == owner.thread:
                    ids = [key for key in ids if self._blocked((key,), owner) is None
                           or self._held[key][0].thread != owner.thread]
                    continue
                self._condition.wait()
            self._take(ids, owner)
            return ids

    async def hold_async(self, ids: list[int], owner: Owner) -> list[int]:
        """`hold` for a coroutine: yields to the event loop while waiting."""
        delay = 0.0
        while not self.try_hold(ids, owner):
            await asyncio.sleep(delay)
            delay = min(max(delay * 2, 0.0005), 0.01)
        return ids

    def release(self, ids: list[int]) -> None:
        with self._condition:
            for key in ids:
                hold = self._held.get(key)
                if hold is not None:
                    hold[1] -= 1
                    if hold[1] == 0:
                        del self._held[key]
            self._condition.notify_all()


HOLDS = Holds()


def held_ids(objects: Iterable[Any]) -> list[int]:
    """The ids of the objects a call holds (each once)."""
    return list(dict.fromkeys(id(obj) for obj in objects))
