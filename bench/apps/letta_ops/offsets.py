from __future__ import annotations

from typing import Callable, TypedDict

from letta_client import AsyncLetta

from .spans import IndexedChunk, digest, sentence_bounds


class OffsetMap(TypedDict):
    label: str
    block_id: str
    version: int
    content_hash: str
    sentences: list[tuple[int, int]]


def chunk_block(block_id: str, value: str, size: int = 1200) -> list[IndexedChunk]:
    return [
        IndexedChunk(chunk_id=f"{block_id}#{i // size}", block_id=block_id, text=value[i : i + size])
        for i in range(0, len(value), size)
    ]


def compress_chunk(chunk: IndexedChunk, squeeze: Callable[[str], str]) -> IndexedChunk:
    shorter = squeeze(chunk.text)
    chunk.text = shorter
    chunk.version += 1
    chunk.content_hash = digest(shorter)
    chunk.token_count = len(shorter.split())
    return chunk


def compress_chunk_reindexed(chunk: IndexedChunk, squeeze: Callable[[str], str]) -> IndexedChunk:
    shorter = squeeze(chunk.text)
    chunk.text = shorter
    chunk.version += 1
    chunk.content_hash = digest(shorter)
    chunk.sentence_offsets = sentence_bounds(shorter)
    chunk.token_count = len(shorter.split())
    return chunk


async def build_offset_map(client: AsyncLetta, agent_id: str, label: str, version: int) -> OffsetMap:
    blk = await client.agents.blocks.retrieve(label, agent_id=agent_id)
    return OffsetMap(
        label=label,
        block_id=blk.id,
        version=version,
        content_hash=digest(blk.value),
        sentences=sentence_bounds(blk.value),
    )


async def quote_sentences(client: AsyncLetta, agent_id: str, omap: OffsetMap, idx: list[int]) -> list[str]:
    blk = await client.agents.blocks.retrieve(omap["label"], agent_id=agent_id)
    val = blk.value
    return [val[a:b].strip() for a, b in (omap["sentences"][i] for i in idx)]


async def quote_sentences_checked(client: AsyncLetta, agent_id: str, omap: OffsetMap, idx: list[int]) -> list[str] | None:
    blk = await client.agents.blocks.retrieve(omap["label"], agent_id=agent_id)
    if blk.id != omap["block_id"] or digest(blk.value) != omap["content_hash"]:
        return None
    return [blk.value[a:b].strip() for a, b in (omap["sentences"][i] for i in idx)]
