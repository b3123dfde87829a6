"""Token offset maps into spans."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Tuple

from camel.memories import MemoryRecord

from .models import OffsetMap, SpanKey, record_id


class StaleSpanError(RuntimeError):
    pass


def tokenize_offsets(text: str) -> List[Tuple[int, int]]:
    offsets: List[Tuple[int, int]] = []
    start = None
    for i, ch in enumerate(text):
        if ch.isspace():
            if start is not None:
                offsets.append((start, i))
                start = None
        elif start is None:
            start = i
    if start is not None:
        offsets.append((start, len(text)))
    return offsets


def build_offset_map(record: MemoryRecord) -> OffsetMap:
    return OffsetMap(span_id=record_id(record), token_offsets=tokenize_offsets(record.message.content))


class OffsetMapCache:
    def __init__(self) -> None:
        self._maps: Dict[str, OffsetMap] = {}

    def for_record(self, record: MemoryRecord) -> OffsetMap:
        sid = record_id(record)
        if sid not in self._maps:
            self._maps[sid] = build_offset_map(record)
        return self._maps[sid]


def token_window(record: MemoryRecord, offset_map: OffsetMap, first: int, last: int) -> str:
    start = offset_map.token_offsets[first][0]
    end = offset_map.token_offsets[last][1]
    return record.message.content[start:end]


@dataclass(frozen=True)
class KeyedOffsetMap:
    key: SpanKey
    token_offsets: Tuple[Tuple[int, int], ...]

    @classmethod
    def build(cls, record: MemoryRecord) -> "KeyedOffsetMap":
        return cls(SpanKey.of(record), tuple(tokenize_offsets(record.message.content)))


def token_window_checked(record: MemoryRecord, offset_map: KeyedOffsetMap, first: int, last: int) -> str:
    current = SpanKey.of(record)
    if current != offset_map.key:
        raise StaleSpanError(f"offset map built for {offset_map.key}, span is now {current}")
    start = offset_map.token_offsets[first][0]
    end = offset_map.token_offsets[last][1]
    if end > len(record.message.content):
        raise StaleSpanError(f"offsets {start}:{end} exceed span length")
    return record.message.content[start:end]
