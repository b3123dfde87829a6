"""Guard overhead: guarded vs unguarded time of an operator that rewrites one span in buffers of
100, 1,000 and 10,000 spans of 2 KB. Run by hand:

    python bench/guard_overhead.py

Prints per buffer size the unguarded and guarded µs per call, the ratio, the overhead per span
(target: at most 2 µs per span), and the cost of SPANLINT_GUARD=off.
"""

from __future__ import annotations

import hashlib
import os
import sys
import timeit
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from runtime_guard import guard  # noqa: E402

SPAN_BYTES = 2048


@dataclass
class Span:
    span_id: str
    content: str
    version: int
    content_hash: str


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def make_buffer(count: int) -> dict[str, Span]:
    spans = {}
    for i in range(count):
        text = f"{i:08d}" + "x" * (SPAN_BYTES - 8)
        spans[f"s{i}"] = Span(f"s{i}", text, 1, digest(text))
    return spans


def rewrite_one(buffer: dict[str, Span], span_id: str) -> None:
    span = buffer[span_id]
    text = span.content[::-1]
    span.content, span.version, span.content_hash = text, span.version + 1, digest(text)


guarded_rewrite_one = guard("rewrite")(rewrite_one)


def per_call_us(function, buffer, repeat: int) -> float:
    number = max(1, 20_000 // len(buffer))
    best = min(timeit.repeat(lambda: function(buffer, "s1"), number=number, repeat=repeat))
    return best / number * 1e6


def main() -> None:
    print(f"{'spans':>7} {'unguarded µs':>13} {'guarded µs':>11} {'ratio':>8} {'µs/span':>8} {'off µs':>7}")
    for count in (100, 1_000, 10_000):
        buffer = make_buffer(count)
        plain = per_call_us(rewrite_one, buffer, 5)
        guarded = per_call_us(guarded_rewrite_one, buffer, 5)
        os.environ["SPANLINT_GUARD"] = "off"
        off = per_call_us(guarded_rewrite_one, buffer, 5)
        del os.environ["SPANLINT_GUARD"]
        print(f"{count:>7} {plain:>13.1f} {guarded:>11.1f} {guarded / plain:>8.1f} "
              f"{(guarded - plain) / count:>8.3f} {off - plain:>7.2f}")


if __name__ == "__main__":
    main()
