"""CAMEL memory glue: a ChatHistoryMemory that stamps and addresses spans."""
from __future__ import annotations

from typing import Iterable, List, Optional

from camel.memories import (
    BaseContextCreator,
    ChatHistoryMemory,
    MemoryRecord,
    ScoreBasedContextCreator,
)
from camel.storages import BaseKeyValueStorage
from camel.utils import BaseTokenCounter

from .models import HASH_KEY, digest, record_id, stamp


class SpanMemory(ChatHistoryMemory):
    """ChatHistoryMemory whose records carry version/hash in ``extra_info``."""

    def __init__(
        self,
        token_counter: BaseTokenCounter,
        token_limit: int,
        storage: Optional[BaseKeyValueStorage] = None,
        window_size: Optional[int] = None,
        agent_id: Optional[str] = None,
        context_creator: Optional[BaseContextCreator] = None,
    ) -> None:
        super().__init__(
            context_creator=context_creator
            or ScoreBasedContextCreator(token_counter, token_limit),
            storage=storage,
            window_size=window_size,
            agent_id=agent_id,
        )

    @property
    def storage(self) -> BaseKeyValueStorage:
        return self._chat_history_block.storage

    def write_records(self, records: List[MemoryRecord]) -> None:
        for record in records:
            stamp(record)
        super().write_records(records)

    def records(self) -> List[MemoryRecord]:
        return [MemoryRecord.from_dict(d) for d in self.storage.load()]

    def get(self, span_id: str) -> Optional[MemoryRecord]:
        for d in self.storage.load():
            if d["uuid"] == span_id:
                return MemoryRecord.from_dict(d)
        return None

    def replace(self, record: MemoryRecord) -> None:
        dicts = self.storage.load()
        target = record_id(record)
        for i, d in enumerate(dicts):
            if d["uuid"] == target:
                dicts[i] = record.to_dict()
                break
        else:
            raise KeyError(target)
        self.storage.clear()
        self.storage.save(dicts)

    def patch_content(self, span_id: str, content: str) -> None:
        dicts = self.storage.load()
        for d in dicts:
            if d["uuid"] == span_id:
                d["message"]["content"] = content
                d["extra_info"][HASH_KEY] = digest(content)
        self.storage.clear()
        self.storage.save(dicts)

    def retire(self, span_ids: Iterable[str]) -> List[MemoryRecord]:
        wanted = set(span_ids)
        indices = [i for i, d in enumerate(self.storage.load()) if d["uuid"] in wanted]
        return self.remove_records_by_indices(indices)
