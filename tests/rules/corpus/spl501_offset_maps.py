# rules: SPL501
"""Token-offset maps and annotations keyed on span ids, used to cut span text."""
from pydantic import BaseModel


class Chunk(BaseModel):
    chunk_id: str
    text: str
    version: int = 0


class OffsetMap(BaseModel):
    chunk_id: str
    version: int
    offsets: list[tuple[int, int]]


def is_stale(offset_map: OffsetMap, chunk: Chunk) -> bool:
    return offset_map.version != chunk.version


class Highlighter:
    def __init__(self) -> None:
        self.offset_map: dict[str, list[tuple[int, int]]] = {}
        self.maps: dict[str, OffsetMap] = {}

    def highlights(self, chunk: Chunk) -> list[str]:
        return [chunk.text[start:end] for start, end in self.offset_map[chunk.chunk_id]]  # expect: SPL501

    def highlights_checked(self, chunk: Chunk) -> list[str]:
        offset_map = self.maps[chunk.chunk_id]
        if is_stale(offset_map, chunk):
            return []
        return [chunk.text[a:b] for a, b in offset_map.offsets]

    async def token_text(self, chunk: Chunk, i: int) -> str:
        start, end = self.maps[chunk.chunk_id].offsets[i]
        return chunk.text[start:end]  # expect: SPL501

    def first_token(self, chunk: Chunk, annotation: dict) -> str:
        return chunk.text[annotation["start"] : annotation["end"]]  # expect: SPL501

    def first_token_checked(self, chunk: Chunk, annotation: dict) -> str:
        if annotation["version"] != chunk.version:
            raise ValueError("annotation is stale")
        return chunk.text[annotation["start"] : annotation["end"]]


def entity_text(s, art) -> str:
    return s.text[art.offsets[0] : art.offsets[1]]  # expect: SPL501


def entity_text_checked(s, art) -> str:
    check_artifact(art, s)
    return s.text[art.offsets[0] : art.offsets[1]]


def check_artifact(art, s) -> None:
    if art.content_hash != s.content_hash:
        raise ValueError("stale artifact")
