# rules: SPL401
"""Tombstoning spans in place, and rationale recorded through helper methods."""
from pydantic import BaseModel

PRUNED = "[pruned]"


class Chunk(BaseModel):
    id: str
    content: str
    version: int = 0


class Memory:
    def __init__(self) -> None:
        self.chunks: dict[str, Chunk] = {}
        self.audit_log: list[str] = []

    def _record_decision(self, action: str, chunk_id: str, why: str) -> None:
        self.audit_log.append(f"{action} {chunk_id}: {why}")

    def tombstone(self, chunk: Chunk) -> None:
        chunk.content = "[pruned]"  # expect: SPL401
        chunk.version += 1

    def tombstone_recorded(self, chunk: Chunk, why: str) -> None:
        self._record_decision("tombstone", chunk.id, why)
        chunk.content = "[pruned]"
        chunk.version += 1

    def evict(self, chunk_id: str, why: str) -> None:
        self._record_decision("evict", chunk_id, why)
        del self.chunks[chunk_id]

    def evict_then_record(self, chunk_id: str, why: str) -> None:
        self.chunks.pop(chunk_id)  # expect: SPL401
        self._record_decision("evict", chunk_id, why)

    def evict_if_verbose(self, chunk_id: str, verbose: bool) -> None:
        if verbose:
            self._record_decision("evict", chunk_id, "requested")
        del self.chunks[chunk_id]  # expect: SPL401

    def evict_logged_with_logger(self, chunk_id: str, logger) -> None:
        logger.info("evicting %s", chunk_id)
        del self.chunks[chunk_id]  # expect: SPL401

    def get(self, chunk_id: str) -> Chunk:
        return self.chunks[chunk_id]

    def delete_chunk(self, chunk_id: str) -> None:
        # The store's own delete API: the caller chose the chunk; no pruning policy here.
        del self.chunks[chunk_id]


def redact(block) -> None:
    block.text = "<tombstone>"  # expect: SPL401
