"""Shorten long tool output."""

import dataclasses

from scratchpad.models import Segment, digest, new_id

MAX_CHARS = 2000


def shorten(text: str, limit: int = MAX_CHARS) -> str:
    if len(text) <= limit:
        return text
    head = text[: limit // 2]
    tail = text[-limit // 2 :]
    return f"{head}\n...[{len(text) - limit} chars elided]...\n{tail}"


def compress(seg: Segment) -> Segment:
    return dataclasses.replace(
        seg,
        seg_id=new_id("cmp"),
        body=shorten(seg.body),
        rev=0,
        digest=digest(shorten(seg.body)),
        embedding=None,
        token_offsets=[],
        parents=[seg.seg_id],
    )


def compress_in_place(seg: Segment) -> None:
    s = seg
    s.body = shorten(s.body)


def compress_copy_same_id(seg: Segment) -> Segment:
    """Copy keeps the id: holders keyed on it cannot tell the copy from the original."""
    return dataclasses.replace(seg, body=shorten(seg.body))
