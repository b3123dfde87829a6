"""The context buffer: live spans in SpanMemory, tombstones, and holders."""
from __future__ import annotations

import json
import time
from collections import defaultdict
from typing import Dict, List, Optional, Set

from camel.memories import MemoryRecord
from camel.types import OpenAIBackendRole

from .memory import SpanMemory
from .models import (
    EMBEDDING_KEY,
    HASH_KEY,
    OFFSETS_KEY,
    PRODUCED_BY_KEY,
    VERSION_KEY,
    Tombstone,
    digest,
    make_record,
    record_id,
    record_version,
    sentence_offsets,
    stamp,
)


class SpanNotFound(KeyError):
    pass


class ContextBuffer:
    def __init__(self, memory: SpanMemory) -> None:
        self.memory = memory
        self.tombstones: Dict[str, Tombstone] = {}
        self._holders: Dict[str, Set[str]] = defaultdict(set)

    def add(
        self,
        content: str,
        role: OpenAIBackendRole = OpenAIBackendRole.USER,
        produced_by: str = "ingest",
        extra_info: Optional[Dict[str, str]] = None,
    ) -> MemoryRecord:
        record = make_record(content, role=role, produced_by=produced_by)
        record.extra_info.update(extra_info or {})
        self.memory.write_record(record)
        return record

    def get(self, span_id: str) -> MemoryRecord:
        record = self.memory.get(span_id)
        if record is None:
            raise SpanNotFound(span_id)
        return record

    def find(self, span_id: str) -> Optional[MemoryRecord]:
        record = self.memory.get(span_id)
        if record is not None:
            return record
        tomb = self.tombstones.get(span_id)
        return MemoryRecord.from_dict(tomb.original) if tomb else None

    def live(self) -> List[MemoryRecord]:
        return self.memory.records()

    def hold(self, span_id: str, holder: str) -> None:
        self._holders[span_id].add(holder)

    def release(self, span_id: str, holder: str) -> None:
        self._holders[span_id].discard(holder)

    def holders(self, span_id: str) -> Set[str]:
        return set(self._holders.get(span_id, ()))

    def rewrite(self, span_id: str, new_content: str, op: str) -> MemoryRecord:
        record = self.get(span_id)
        record.message = record.message.create_new_instance(new_content)
        record.extra_info[VERSION_KEY] = str(record_version(record) + 1)
        record.extra_info[HASH_KEY] = digest(new_content)
        record.extra_info[PRODUCED_BY_KEY] = f"rewrite:{op}"
        record.extra_info[OFFSETS_KEY] = json.dumps(sentence_offsets(new_content))
        record.extra_info.pop(EMBEDDING_KEY, None)
        self.memory.replace(record)
        return record

    def fork(self, span_id: str, new_content: str, op: str) -> MemoryRecord:
        old = self.get(span_id)
        new = MemoryRecord(
            message=old.message.create_new_instance(new_content),
            role_at_backend=old.role_at_backend,
            agent_id=old.agent_id,
            extra_info={PRODUCED_BY_KEY: f"rewrite:{op}", "derived_from": span_id},
        )
        self.memory.write_record(stamp(new))
        self.tombstones[span_id] = Tombstone(
            span_id=span_id,
            replaced_by=record_id(new),
            created_at=time.time(),
            original=old.to_dict(),
        )
        self.memory.retire([span_id])
        return new
