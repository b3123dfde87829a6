"""Threads, coroutines and memory: no false violation, no deadlock, no lost update, no span kept alive."""

from __future__ import annotations

import asyncio
import gc
import threading
import time
import tracemalloc
import warnings
import weakref
from dataclasses import replace
from pathlib import Path

import pytest

import runtime_guard
from guard_spans import Span, make_spans, sha
from runtime_guard import StaleSpanError, guard
from runtime_guard.lineage import LINEAGE

THREADS = 8


@guard("rewrite")
def rewrite_own(spans, span_id):
    spans[span_id].rewrite(f"{span_id} v{spans[span_id].version + 1}")


@guard("rewrite")
def replace_own(table, span_id):
    old = table[span_id]
    text = f"{span_id} v{old.version + 1}"
    table[span_id] = replace(old, content=text, version=old.version + 1, content_hash=sha(text))


def run_threads(target, calls):
    errors = []
    barrier = threading.Barrier(THREADS)

    def worker(number):
        try:
            barrier.wait()
            target(number, calls)
        except BaseException as error:  # collected and asserted below
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not any(thread.is_alive() for thread in threads), "deadlock"
    assert errors == []


def separate_buffers(calls):
    buffers = [{s.span_id: s for s in make_spans(20)} for _ in range(THREADS)]

    def work(number, calls):
        for i in range(calls):
            rewrite_own(buffers[number], f"s{i % 20}")

    run_threads(work, calls)
    assert all(sum(s.version - 1 for s in b.values()) == calls for b in buffers)


def shared_buffer_copy_on_write(calls):
    table = {s.span_id: s for s in make_spans(THREADS * 2)}

    def work(number, calls):
        for i in range(calls):
            replace_own(table, f"s{number * 2 + i % 2}")

    run_threads(work, calls)
    assert sum(s.version - 1 for s in table.values()) == THREADS * calls  # no lost update


def shared_buffer_serialised(calls):
    table = {s.span_id: s for s in make_spans(4)}
    lock = threading.Lock()

    def work(number, calls):
        for i in range(calls):
            with lock:
                rewrite_own(table, f"s{(number + i) % 4}")

    run_threads(work, calls)
    assert sum(s.version - 1 for s in table.values()) == THREADS * calls


@pytest.mark.parametrize("scenario", [separate_buffers, shared_buffer_copy_on_write, shared_buffer_serialised])
def test_threads_bounded(scenario):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scenario(500)


@pytest.mark.slow
@pytest.mark.parametrize("scenario", [separate_buffers, shared_buffer_copy_on_write, shared_buffer_serialised])
def test_threads_full(scenario):
    scenario(10_000)


def test_thousand_concurrent_coroutines_on_a_shared_buffer():
    table = {s.span_id: s for s in make_spans(50)}

    @guard("rewrite")
    async def rewrite_after_io(table, span_id):
        await asyncio.sleep(0)
        old = table[span_id]
        text = f"{span_id} v{old.version + 1}"
        old.content, old.version, old.content_hash = text, old.version + 1, sha(text)
        await asyncio.sleep(0)

    async def main():
        await asyncio.gather(*(rewrite_after_io(table, f"s{i % 50}") for i in range(1000)))

    asyncio.run(main())
    assert sum(s.version - 1 for s in table.values()) == 1000


@guard("summarize")
def summarize(spans):
    return Span("summary", " ".join(s.content for s in spans))


def guarded_calls_keep_nothing_alive(calls):
    references = []
    gc.collect()
    lineage_before = len(LINEAGE)
    tracemalloc.start()
    baseline = tracemalloc.take_snapshot()
    for i in range(calls):
        spans = make_spans(3, prefix=f"c{i}-")
        rewrite_own({s.span_id: s for s in spans}, spans[0].span_id)
        summary = summarize(spans)
        if i % 100 == 0:
            references += [weakref.ref(spans[0]), weakref.ref(summary)]
        del spans, summary
    gc.collect()
    package = str(Path(runtime_guard.__file__).parent)
    growth = sum(stat.size_diff for stat in tracemalloc.take_snapshot().compare_to(baseline, "filename")
                 if stat.traceback[0].filename.startswith(package))
    tracemalloc.stop()
    assert all(reference() is None for reference in references)
    assert len(LINEAGE) == lineage_before
    assert growth < 64 * 1024, f"runtime_guard retained {growth} bytes"


def test_memory_bounded():
    guarded_calls_keep_nothing_alive(2_000)


@pytest.mark.slow
def test_memory_full():
    guarded_calls_keep_nothing_alive(100_000)


# --- one buffer shared by guarded calls: the guard serialises them ----------------------------------

class SharedBuffer:
    """Spans behind the operator's own lock; a rewrite writes content, then version and hash, with
    a thread switch in between (the half-done state other calls could see)."""

    def __init__(self, count):
        self._spans = {s.span_id: s for s in make_spans(count)}
        self._lock = threading.Lock()

    @guard("rewrite")
    def rewrite(self, span_id):
        with self._lock:
            span = self._spans[span_id]
            text = f"{span_id} v{span.version + 1}"
            span.content = text
        time.sleep(0)  # another thread runs here, between the content write and the version bump
        with self._lock:
            span.version += 1
            span.content_hash = sha(text)

    @guard("rewrite")
    def corrupt(self, span_id):
        with self._lock:
            self._spans[span_id].content = "corrupted"


def assert_consistent(spans, expected_versions):
    assert all(span.content_hash == sha(span.content) for span in spans)
    assert sum(span.version - 1 for span in spans) == expected_versions


def test_threads_sharing_a_buffer_with_the_operators_own_lock_see_no_false_violation_and_lose_nothing():
    buffer = SharedBuffer(THREADS)

    def work(number, calls):
        for _ in range(calls):
            buffer.rewrite(f"s{number}")

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run_threads(work, 200)
    assert_consistent(buffer._spans.values(), THREADS * 200)


def test_a_rejected_call_among_good_ones_rolls_back_only_its_own_change():
    buffer = SharedBuffer(THREADS)
    rejected = []

    def work(number, calls):
        for i in range(calls):
            if number == 0 and i % 10 == 0:
                try:
                    buffer.corrupt("s0")
                except StaleSpanError:
                    rejected.append(i)
            else:
                buffer.rewrite(f"s{number}")

    run_threads(work, 100)
    assert len(rejected) == 10
    assert all(span.content != "corrupted" for span in buffer._spans.values())
    assert_consistent(buffer._spans.values(), (THREADS - 1) * 100 + 90)


def test_coroutines_awaiting_between_content_write_and_version_update_are_serialised():
    table = {s.span_id: s for s in make_spans(10)}

    @guard("rewrite")
    async def rewrite_with_io(table, span_id):
        span = table[span_id]
        text = f"{span_id} v{span.version + 1}"
        span.content = text
        await asyncio.sleep(0)  # other coroutines run while this span is half-updated
        span.version += 1
        span.content_hash = sha(text)

    async def main():
        await asyncio.gather(*(rewrite_with_io(table, f"s{i % 10}") for i in range(500)))

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        asyncio.run(main())
    assert_consistent(table.values(), 500)


def test_guarded_operators_calling_each_other_on_the_same_buffer_do_not_deadlock():
    table = {s.span_id: s for s in make_spans(3)}

    @guard("rewrite")
    def inner(table, span_id):
        table[span_id].rewrite("inner")

    @guard("rewrite")
    def outer(table):
        inner(table, "s0")
        table["s1"].rewrite("outer")

    @guard("rewrite")
    async def outer_async(table):
        await asyncio.sleep(0)
        inner(table, "s2")

    outer(table)
    asyncio.run(outer_async(table))
    assert [table[k].version for k in ("s0", "s1", "s2")] == [2, 2, 2]


def test_a_plain_guarded_call_from_a_coroutine_does_not_wait_forever_for_a_suspended_one():
    table = {s.span_id: s for s in make_spans(2)}

    @guard("rewrite")
    async def slow(table):
        await asyncio.sleep(0.01)
        table["s0"].rewrite("slow")

    @guard("rewrite")
    def quick(table):
        table["s1"].rewrite("quick")

    async def main():
        task = asyncio.create_task(slow(table))
        await asyncio.sleep(0)
        quick(table)
        await task

    asyncio.run(main())
    assert table["s0"].version == table["s1"].version == 2


def test_an_argument_reaching_no_span_is_not_held_during_the_call():
    client = type("Client", (), {})()  # shared by every call, holds no span
    buffers = [{s.span_id: s for s in make_spans(2)} for _ in range(2)]

    @guard("rewrite")
    def rewrite(table, client):
        table["s0"].rewrite("new")

    @guard("rewrite")
    def rewrite_in_a_worker(table, client):
        worker = threading.Thread(target=rewrite, args=(buffers[1], client))
        worker.start()
        worker.join(timeout=30)
        assert not worker.is_alive(), "the worker waited for the shared client"
        table["s0"].rewrite("outer")

    rewrite_in_a_worker(buffers[0], client)
    assert buffers[0]["s0"].version == buffers[1]["s0"].version == 2
