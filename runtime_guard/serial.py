"""Serialising guarded calls on the same objects, for threads and coroutines alike.

A guarded call holds the objects it uses (its arguments, the containers of spans it reaches, the
spans it is given) from before its snapshot until after its check, so no other guarded call sees
its half-done update and its rollback never meets another call's change. Calls are owned by their
context: a guarded operator may call another (re-entrant), and tasks or `asyncio.to_thread` workers
started inside a guarded call share its hold.
"""

from __future__ import annotations

import contextvars
import threading
from collections import deque
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    import asyncio

WAKE_UP = 0.05  # seconds: a waiting coroutine checks again at least this often

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
        self._waiting: dict[int, deque] = {}  # id -> coroutines waiting for it: (loop, future), first come first

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
        """`hold` for a coroutine: waits in the event loop, in line for the first id it is blocked
        on, woken when that id is released (and checking again at least every WAKE_UP seconds)."""
        import asyncio  # here: a process that never awaits a guarded call (the linter) need not load it

        loop = asyncio.get_running_loop()
        future: asyncio.Future | None = None
        try:
            while True:
                with self._condition:
                    blocker = next((key for key in ids if self._blocked((key,), owner) is not None), None)
                    if blocker is None:
                        self._take(ids, owner)
                        return ids
                    if future is None or future.done():
                        woken = future is not None
                        future = loop.create_future()
                        line = self._waiting.setdefault(blocker, deque())
                        line.appendleft((loop, future)) if woken else line.append((loop, future))
                await asyncio.wait((future,), timeout=WAKE_UP)
        except BaseException:
            if future is not None and future.done() and not future.cancelled():
                self._wake(blocker)  # woken but leaving: pass the turn on
            raise
        finally:
            if future is not None and not future.done():
                future.cancel()  # no longer waiting: a later release wakes the next in line

    def _wake(self, key: int) -> None:
        with self._condition:
            waiting = self._waiting.get(key)
            while waiting:
                loop, future = waiting.popleft()
                if not waiting:
                    del self._waiting[key]
                if not future.done():
                    try:
                        loop.call_soon_threadsafe(_resolve, future)
                        return
                    except RuntimeError:  # its loop is closed
                        continue

    def release(self, ids: list[int]) -> None:
        released: list[int] = []
        with self._condition:
            for key in ids:
                hold = self._held.get(key)
                if hold is not None:
                    hold[1] -= 1
                    if hold[1] == 0:
                        del self._held[key]
                        if key in self._waiting:
                            released.append(key)
            self._condition.notify_all()
        for key in released:
            self._wake(key)


def _resolve(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)


HOLDS = Holds()


def held_ids(objects: Iterable[Any]) -> list[int]:
    """The ids of the objects a call holds (each once)."""
    return list(dict.fromkeys(id(obj) for obj in objects))
