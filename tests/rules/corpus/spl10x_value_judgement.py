# rules: SPL101, SPL102, SPL103, SPL104
"""What a value is and whether it is new, judged from its type and its dataflow (issue 14, items 1-2).

A buffer class that is not a span hands out spans (`get`, `__iter__`, annotated or returning a typed
field); aliases of every kind keep the value's class; copies written back under the key they were
read with are rewrites, copies given a new id are not; flags set with the write cover it; a span
with an embedding and no version gets one finding, SPL104, while the embedding is stale.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from typing import Iterator, Optional, TypedDict

from pydantic import BaseModel


@dataclass
class Passage:
    span_id: str
    content: str
    version: int = 0


@dataclass
class Label:
    id: str
    text: str
    x: int = 0
    y: int = 0


class Buffer:
    def __init__(self) -> None:
        self.spans: dict[str, Passage] = {}

    def get(self, sid):
        return self.spans[sid]

    def __iter__(self) -> Iterator[Passage]:
        return iter(self.spans.values())


class Note(TypedDict):
    span_id: str
    content: str
    version: int


class Record(BaseModel):
    id: str
    content: str
    embedding: Optional[list[float]] = None


def redact_one(buffer: Buffer, sid: str) -> None:
    passage = buffer.get(sid)
    passage.content = passage.content.replace("sk-", "")  # expect: SPL101


def redact_all(buffer: Buffer) -> None:
    for x in buffer:
        doc, doc_key = x, x.span_id
        item = next(o for o in [doc] if o is not None)
        item.content = item.content.strip()  # expect: SPL101


def redact_kept(items: list[Passage]) -> None:
    for item in [o for o in items if o.content]:
        if (cur := item) is not None:
            cur.content += "!"  # expect: SPL101


def relabel(labels: list[Label]) -> None:
    for span in labels:
        span.text = span.text.upper()


def edit_note(notes: dict[str, Note], sid: str) -> None:
    note = notes[sid]
    note["content"] = note["content"].strip()  # expect: SPL101


def edit_note_bumped(notes: dict[str, Note], sid: str) -> None:
    note = notes[sid]
    note["content"] = note["content"].strip()
    note["version"] += 1


def store_copy(buffer: Buffer, sid: str) -> None:
    passage = buffer.get(sid)
    new_content = passage.content.strip()
    buffer.spans[sid] = replace(passage, content=new_content)  # expect: SPL101


def store_copy_two_lines(items: dict[str, Passage], sid: str) -> None:
    entry = items[sid]
    edited = replace(entry, content=entry.content.strip())
    items[sid] = edited  # expect: SPL101


def store_copy_new_id(items: dict[str, Passage], sid: str, new_id) -> None:
    entry = items[sid]
    edited = replace(entry, content=entry.content.strip(), span_id=new_id())
    items[edited.span_id] = edited


def store_dict_copy(notes: dict[str, Note], sid: str) -> None:
    note = notes[sid]
    notes[sid] = {**note, "content": note["content"].strip()}  # expect: SPL101


def edit_fresh_copy(source: Passage, new_id, publish) -> None:
    passage = copy.deepcopy(source)
    passage.span_id = new_id()
    live, live_key = passage, passage.span_id
    live.content = live.content.strip()
    publish(live)


def edit_flagged(passage: Passage, patterns: list[str]) -> None:
    changed = False
    for pattern in patterns:
        if pattern in passage.content:
            passage.content = passage.content.replace(pattern, "")
            changed = True
            break
    if changed:
        passage.version += 1


def edit_flagged_maybe(passage: Passage, patterns: list[str], strict: bool) -> None:
    changed = False
    for pattern in patterns:
        if pattern in passage.content:
            passage.content = passage.content.replace(pattern, "")  # expect: SPL101
            changed = True
            break
    if changed and strict:
        passage.version += 1


def shorten_record(record: Record) -> None:
    record.content = record.content[:100]  # expect: SPL104


def shorten_record_reset(record: Record) -> None:
    record.content = record.content[:100]  # expect: SPL103
    record.embedding = None


def shorten_record_reset_sometimes(record: Record, strict: bool) -> None:
    record.content = record.content[:100]  # expect: SPL104
    if strict:
        record.embedding = None
