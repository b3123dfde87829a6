# rules: SPL201
"""Citations resolved against chunk text and cached on the citation index."""
from pydantic import BaseModel


class Chunk(BaseModel):
    chunk_id: str
    text: str
    revision: int = 0


class CitationIndex:
    def __init__(self):
        self._citations = {}
        self._chunk_store = {}
        self._by_revision = {}

    def index(self, chunk: Chunk, claims: list[str]) -> None:
        self._chunk_store[chunk.chunk_id] = chunk
        found = [locate(claim, chunk.text) for claim in claims]
        self._citations[chunk.chunk_id] = found  # expect: SPL201
        self._by_revision[(chunk.chunk_id, chunk.revision)] = found

    def citations(self, chunk_id: str):
        return self._citations.get(chunk_id, [])  # expect: SPL201

    def chunk(self, chunk_id: str) -> Chunk:
        return self._chunk_store[chunk_id]

    def copy_of(self, chunk: Chunk) -> None:
        self._chunk_store[chunk.chunk_id] = chunk.model_copy()


def locate(claim: str, text: str) -> tuple[int, int]:
    start = text.find(claim)
    return start, start + len(claim)


class OffsetMemo:
    def __init__(self):
        self.offsets = {}

    def remember(self, chunk: Chunk) -> None:
        key = chunk.chunk_id
        self.offsets[key] = tokenize_offsets(chunk.text)  # expect: SPL201

    def remember_revision(self, chunk: Chunk) -> None:
        key = (chunk.chunk_id, chunk.revision)
        self.offsets[key] = tokenize_offsets(chunk.text)

    def remember_message(self, message: dict) -> None:
        self.offsets[message["id"]] = tokenize_offsets(message["content"])  # expect: SPL201


def tokenize_offsets(text: str) -> list[tuple[int, int]]:
    return [(0, len(text))]
