"""Guard overhead: guarded vs unguarded time of an operator that rewrites one span in buffers of
100, 1,000 and 10,000 spans of 2 KB, for each span type users hold: dataclasses, plain classes,
pydantic models, LlamaIndex `TextNode` and `NodeWithScore`, LangChain `AIMessage`/`HumanMessage`.
Run by hand (llama-index-core and langchain-core installed; types whose library is missing are
skipped):

    python bench/guard_overhead.py [--sizes 100,1000,10000]

Prints per type and buffer size the unguarded and guarded µs per call, the overhead per span held
(target: at most 1 µs per span), and the cost of SPANLINT_GUARD=off. Times are CPU time of this
process (`time.process_time`), best of 5, so that other load on the machine counts less.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
import timeit
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

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


def versioned(make: Callable[..., Any]) -> tuple[Callable[[int], Any], Callable[[Any], None]]:
    def build(i: int) -> Any:
        text = text_of(i)
        return make(f"s{i}", text, 1, digest(text))

    def rewrite(span: Any) -> None:
        text = span.content[::-1]
        span.content, span.version, span.content_hash = text, span.version + 1, digest(text)

    return build, rewrite


def span_types() -> dict[str, tuple[Callable[[int], Any], Callable[[Any], None]]]:
    types: dict[str, tuple[Callable[[int], Any], Callable[[Any], None]]] = {
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

        types["llama TextNode"] = (lambda i: TextNode(id_=f"s{i}", text=text_of(i)), rewrite_node)
        types["llama NodeWithScore"] = (lambda i: NodeWithScore(node=TextNode(id_=f"s{i}", text=text_of(i)),
                                                                score=0.5),
                                        lambda hit: rewrite_node(hit.node))
    except ImportError:
        pass
    try:
        from langchain_core.messages import AIMessage, HumanMessage

        def message(i: int) -> Any:
            kind = AIMessage if i % 2 else HumanMessage
            return kind(content=text_of(i), id=f"s{i}")

        types["langchain messages"] = (message, lambda m: None)  # no version: a reading operator
    except ImportError:
        pass
    return types


def per_call_us(function: Callable[..., Any], buffer: Any, repeat: int) -> float:
    number = max(1, 20_000 // len(buffer))
    best = min(timeit.repeat(lambda: function(buffer, 1), number=number, repeat=repeat, timer=time.process_time))
    return best / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="100,1000,10000")
    sizes = [int(size) for size in parser.parse_args().sizes.split(",")]
    print(f"{'type':<20} {'spans':>7} {'unguarded µs':>13} {'guarded µs':>11} {'µs/span':>8} {'off µs':>7}")
    for name, (build, rewrite) in span_types().items():
        def operator(buffer: list, index: int, rewrite: Callable[[Any], None] = rewrite) -> None:
            rewrite(buffer[index])

        guarded = guard("rewrite")(operator)
        for count in sizes:
            buffer = [build(i) for i in range(count)]
            plain = per_call_us(operator, buffer, 5)
            checked = per_call_us(guarded, buffer, 5)
            os.environ["SPANLINT_GUARD"] = "off"
            off = per_call_us(guarded, buffer, 5)
            del os.environ["SPANLINT_GUARD"]
            print(f"{name:<20} {count:>7} {plain:>13.1f} {checked:>11.1f} {(checked - plain) / count:>8.3f} "
                  f"{off - plain:>7.2f}")


if __name__ == "__main__":
    main()
