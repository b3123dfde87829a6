"""Long-term stores: CrewAI Memory for durable facts, Knowledge for help-centre articles."""

import re
from datetime import datetime, timedelta

from crewai.knowledge.source.string_knowledge_source import StringKnowledgeSource
from crewai.memory import MemoryRecord
from crewai.memory.storage.lancedb_storage import LanceDBStorage
from crewai.memory.unified_memory import Memory

from crew_memory.decision_log import DecisionLog

_TRAILER = re.compile(r"\n--\s*\n.*\Z", re.S)
SCOPE = "/support/facts"


class MemoryBridge:
    def __init__(self, path: str, decisions: DecisionLog, llm: str = "gpt-4o-mini") -> None:
        self.storage = LanceDBStorage(path=path, table_name="support_memories")
        self.memory = Memory(llm=llm, storage=self.storage, root_scope="/crew")
        self.decisions = decisions

    def normalize(self, record_id: str) -> MemoryRecord:
        existing = self.storage.get_record(record_id)
        if existing is None:
            raise KeyError(record_id)
        return self.memory.update(record_id, content=" ".join(existing.content.split()))

    def strip_signatures(self, scope: str = SCOPE) -> int:
        changed = 0
        for record in self.memory.list_records(scope=scope, limit=500):
            body = _TRAILER.sub("", record.content)
            if body != record.content:
                self.storage.update(record.model_copy(update={"content": body}))
                changed += 1
        return changed

    def supersede(self, record_id: str, new_text: str, reason: str) -> MemoryRecord | None:
        old = self.storage.get_record(record_id)
        if old is None:
            return None
        self.decisions.record("supersede", [record_id], reason, evidence=[old.content[:200]])
        fresh = self.memory.remember(new_text, scope=old.scope, categories=old.categories,
                                     metadata={**old.metadata, "supersedes": old.id})
        self.memory.update(old.id, metadata={**old.metadata, "state": "tombstoned"})
        return fresh

    def expire_tombstones(self, days: int = 14) -> int:
        cutoff = datetime.utcnow() - timedelta(days=days)
        return self.memory.forget(scope=SCOPE, older_than=cutoff,
                                  metadata_filter={"state": "tombstoned"})


class ArticleKnowledge:
    def __init__(self, articles: dict[str, str] | None = None) -> None:
        self._sources: dict[str, StringKnowledgeSource] = {
            aid: StringKnowledgeSource(content=body, metadata={"article_id": aid})
            for aid, body in (articles or {}).items()}

    def sources(self) -> list[StringKnowledgeSource]:
        return list(self._sources.values())

    def fix_typo(self, article_id: str, wrong: str, right: str) -> bool:
        src = self._sources.get(article_id)
        if src is None or wrong not in src.content:
            return False
        src.content = src.content.replace(wrong, right)
        return True

    def replace(self, article_id: str, body: str) -> StringKnowledgeSource:
        old = self._sources.get(article_id)
        fresh = StringKnowledgeSource(content=body, metadata=dict(old.metadata) if old else {})
        fresh.chunks, fresh.chunk_embeddings = [], []
        self._sources[article_id] = fresh
        return fresh
