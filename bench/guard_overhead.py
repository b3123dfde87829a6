"""Guard overhead: guarded vs unguarded time of an operator on buffers of 100, 1,000 and 10,000
spans of 2 KB, for each span type users hold: dataclasses, plain classes, pydantic models,
LlamaIndex `TextNode` and `NodeWithScore`, LangChain `AIMessage`/`HumanMessage`. The operators:
rewrite (one span rewritten correctly), prune (one span removed, with a decision-log entry naming
it; put back between calls, untimed) and summarize (a summary made from every span of the buffer).
Run by hand (llama-index-core and langchain-core installed; types whose library is missing are
skipped):

    python bench/guard_overhead.py [--sizes 100,1000,10000] [--kinds rewrite,prune,summarize]
                                   [--types dataclass,pydantic] [--repeat 5]

Prints per kind, type and buffer size the unguarded and guarded µs per call, the overhead per span
held (target: at most 1 µs per span), and the cost of SPANLINT_GUARD=off. Times are CPU time of
this process (`time.process_time`), best of `--repeat`, so that other load on the machine counts
less.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from runtime_guard import guard  # noqa: E402

SPAN_BYTES = 2048


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def text_of(i: int) -> str:
    return f"{i:08d}" + "x" * (SPAN_BYTES - 8)


@dataclass
class DataclassSpan:
    span_id: str
    content: str
    version: int
    content_hash: str


class PlainSpan:
    def __init__(self, span_id: str, content: str, version: int, content_hash: str) -> None:
        self.span_id, self.content, self.version, self.content_hash = span_id, content, version, content_hash


class SpanKind(NamedTuple):
    """How the bench makes, rewrites and names spans of one type (`ident`: the id a log entry names)."""

    build: Callable[[int], Any]
    rewrite: Callable[[Any], None]
    ident: Callable[[Any], str]


def versioned(make: Callable[..., Any]) -> SpanKind:
    def build(i: int) -> Any:
        text = text_of(i)
        return make(f"s{i}", text, 1, digest(text))

    def rewrite(span: Any) -> None:
        text = span.content[::-1]
        span.content, span.version, span.content_hash = text, span.version + 1, digest(text)

    return SpanKind(build, rewrite, lambda span: span.span_id)


def span_types() -> dict[str, SpanKind]:
    types: dict[str, SpanKind] = {
        "dataclass": versioned(DataclassSpan),
        "plain class": versioned(PlainSpan),
    }
    try:
        from pydantic import BaseModel

        class PydanticSpan(BaseModel):
            span_id: str
            content: str
            version: int
            content_hash: str

        types["pydantic"] = versioned(lambda *a: PydanticSpan(span_id=a[0], content=a[1], version=a[2],
                                                              content_hash=a[3]))
    except ImportError:
        pass
    try:
        from llama_index.core.schema import NodeWithScore, TextNode

        def rewrite_node(node: Any) -> None:
            node.set_content(node.text[::-1])
            node.start_char_idx = node.end_char_idx = None

        types["llama TextNode"] = SpanKind(lambda i: TextNode(id_=f"s{i}", text=text_of(i)), rewrite_node,
                                           lambda node: node.id_)
        types["llama NodeWithScore"] = SpanKind(
            lambda i: NodeWithScore(node=TextNode(id_=f"s{i}", text=text_of(i)), score=0.5),
            lambda hit: rewrite_node(hit.node), lambda hit: hit.node.id_)
    except ImportError:
        pass
    try:
        from langchain_core.messages import AIMessage, HumanMessage

        def message(i: int) -> Any:
            kind = AIMessage if i % 2 else HumanMessage
            return kind(content=text_of(i), id=f"s{i}")

        types["langchain messages"] = SpanKind(message, lambda m: None,  # no version: a reading operator
                                               lambda m: m.id)
    except ImportError:
        pass
    return types


def best_us(call: Callable[[], Any], number: int, repeat: int, after: Callable[[], Any] | None = None) -> float:
    """Best of `repeat` runs of `number` calls, in CPU µs per call; `after` runs untimed after each call."""
    best = float("inf")
    for _ in range(repeat):
        total = 0.0
        for _ in range(number):
            start = time.process_time()
            call()
            total += time.process_time() - start
            if after is not None:
                after()
        best = min(best, total)
    return best / number * 1e6


def operators(kind: str, spans: SpanKind) -> tuple[Callable[..., Any], Callable[[list, list], None] | None]:
    """The unguarded operator of `kind` (called as `operator(buffer, log)`), and what puts the
    buffer and log back after a call (None when the call leaves them as they were)."""
    if kind == "rewrite":
        return (lambda buffer, log: spans.rewrite(buffer[1])), None
    if kind == "prune":
        removed: list = []

        def prune(buffer: list, log: list) -> None:
            span = buffer.pop(1)
            log.append({"action": "prune", "span_id": spans.ident(span), "reason": "stale"})
            removed.append(span)

        def put_back(buffer: list, log: list) -> None:
            buffer.insert(1, removed.pop())
            log.clear()

        return prune, put_back
    summary = spans.build(10 ** 7)

    def summarize(buffer: list, log: list) -> Any:
        return summary

    return summarize, None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--kinds", default="rewrite,prune,summarize")
    parser.add_argument("--types", default="", help="comma-separated prefixes of type names (default: all)")
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    sizes = [int(size) for size in options.sizes.split(",")]
    wanted = [prefix for prefix in options.types.split(",") if prefix]
    print(f"{'kind':<10} {'type':<20} {'spans':>7} {'unguarded µs':>13} {'guarded µs':>11} {'µs/span':>8} "
          f"{'off µs':>7}")
    for kind in options.kinds.split(","):
        for name, spans in span_types().items():
            if wanted and not any(name.startswith(prefix) for prefix in wanted):
                continue
            operator, put_back = operators(kind, spans)
            guarded = guard(kind)(operator)
            for count in sizes:
                buffer = [spans.build(i) for i in range(count)]
                log: list = []
                number = max(1, 20_000 // count)
                after = (lambda: put_back(buffer, log)) if put_back is not None else None
                plain = best_us(lambda: operator(buffer, log), number, options.repeat, after)
                checked = best_us(lambda: guarded(buffer, log), number, options.repeat, after)
                os.environ["SPANLINT_GUARD"] = "off"
                off = best_us(lambda: guarded(buffer, log), number, options.repeat, after)
                del os.environ["SPANLINT_GUARD"]
                print(f"{kind:<10} {name:<20} {count:>7} {plain:>13.1f} {checked:>11.1f} "
                      f"{(checked - plain) / count:>8.3f} {off - plain:>7.2f}", flush=True)


if __name__ == "__main__":
    main()
