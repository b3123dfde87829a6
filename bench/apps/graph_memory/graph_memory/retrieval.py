"""Sentence-level highlighting over stored memories."""

import re

from langgraph.store.base import BaseStore, Item

from graph_memory.records import OffsetMap
from graph_memory.settings import memory_ns, scoped_ns

_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")


def _terms(query: str) -> set[str]:
    return {w.lower() for w in re.findall(r"\w+", query) if len(w) > 2}


def _matching(content: str, sentences: list[tuple[int, int]], query: str) -> list[str]:
    terms = _terms(query)
    return [content[s:e].strip() for s, e in sentences if terms & _terms(content[s:e])]


async def build_offset_map(store: BaseStore, user_id: str, item: Item) -> OffsetMap:
    spans = [(m.start(), m.end()) for m in _SENTENCE.finditer(item.value["content"])]
    omap = OffsetMap(memory_key=item.key, version=item.value["version"],
                     content_hash=item.value["content_hash"], sentences=spans)
    await store.aput(scoped_ns("offsets", user_id), omap.store_key, omap.model_dump(mode="json"), index=False)
    return omap


async def _any_offset_map(store: BaseStore, user_id: str, key: str) -> OffsetMap | None:
    hits = await store.asearch(scoped_ns("offsets", user_id), filter={"memory_key": key}, limit=1)
    return OffsetMap.model_validate(hits[0].value) if hits else None


async def highlight(store: BaseStore, user_id: str, key: str, query: str) -> list[str]:
    item = await store.aget(memory_ns(user_id), key)
    omap = await _any_offset_map(store, user_id, key)
    if item is None or omap is None:
        return []
    content: str = item.value["content"]
    terms = _terms(query)
    return [content[s:e].strip() for s, e in omap.sentences if terms & _terms(content[s:e])]


async def highlight_current(store: BaseStore, user_id: str, key: str, query: str) -> list[str]:
    item = await store.aget(memory_ns(user_id), key)
    if item is None:
        return []
    wanted = f"{key}:{item.value['version']}:{item.value['content_hash'][:16]}"
    hit = await store.aget(scoped_ns("offsets", user_id), wanted)
    omap = OffsetMap.model_validate(hit.value) if hit else await build_offset_map(store, user_id, item)
    if omap.content_hash != item.value["content_hash"]:
        omap = await build_offset_map(store, user_id, item)
    return _matching(item.value["content"], omap.sentences, query)
