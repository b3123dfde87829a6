"""Context compaction for the chat agent and the document agent."""
from __future__ import annotations

import asyncio
import re
from typing import Iterable, List, Optional, Set, Tuple

from langroid.agent.chat_agent import ChatAgent
from langroid.agent.special.doc_chat_agent import DocChatAgent
from langroid.language_models.base import LLMMessage, Role

from .decision_log import DecisionLog
from .models import digest

_SUPERSEDED = re.compile(r"\b(\S+) (?:is|was) superseded by (\S+)", re.I)


def _excerpt(msg: LLMMessage, n: int = 160) -> str:
    return (msg.content or "")[:n]


class HistoryCompactor:
    """Drops turns that refer to superseded material once the budget is hit."""

    def __init__(self, agent: ChatAgent, log: DecisionLog, budget_tokens: int) -> None:
        self.agent = agent
        self.log = log
        self.budget_tokens = budget_tokens

    def over_budget(self) -> bool:
        return self.agent.chat_num_tokens() > self.budget_tokens

    def _plan(self) -> Tuple[List[int], Optional[int], str]:
        hist = self.agent.message_history
        for i in range(len(hist) - 1, 0, -1):
            m = _SUPERSEDED.search(hist[i].content or "")
            if m is None:
                continue
            stale = m.group(1)
            targets = [
                j
                for j, msg in enumerate(hist[:i])
                if j > 0 and msg.role != Role.SYSTEM and stale in (msg.content or "")
            ]
            return targets, i, m.group(0)
        return [], None, ""

    def compact(self) -> int:
        targets, reason_idx, reason = self._plan()
        if not targets:
            return 0
        doomed = sorted(set(targets) | {reason_idx}, reverse=True)
        dropped_ids = [self.agent.message_history[i].chat_document_id for i in doomed]
        for i in doomed:
            self.agent.clear_history(i, i)
        self.log.record(
            "prune",
            dropped_ids,
            rationale=f"dropped {len(doomed)} turns: {reason}",
        )
        return len(doomed)

    def compact_logged(self) -> int:
        targets, reason_idx, reason = self._plan()
        if not targets:
            return 0
        hist = self.agent.message_history
        evidence = [
            (hist[i].chat_document_id, digest(hist[i].content or ""), _excerpt(hist[i]))
            for i in [reason_idx, *targets]
        ]
        self.log.record(
            "prune",
            [hist[i].chat_document_id for i in targets],
            rationale=f"superseded material: {reason}",
            evidence=evidence,
        )
        for i in sorted(targets, reverse=True):
            self.agent.clear_history(i, i)
        return len(targets)


async def drop_stale_chunks(
    agent: DocChatAgent,
    log: DecisionLog,
    superseded_sources: Iterable[str],
) -> int:
    gone: Set[str] = set(superseded_sources)
    before = {d.id(): d for d in agent.chunked_docs}
    agent.chunked_docs = [d for d in agent.chunked_docs if d.metadata.source not in gone]
    agent.chunked_docs_clean = [d for d in agent.chunked_docs_clean if d.metadata.source not in gone]
    removed = [cid for cid in before if cid not in {d.id() for d in agent.chunked_docs}]
    await asyncio.to_thread(
        log.record,
        "drop-chunks",
        removed,
        f"sources superseded: {sorted(gone)}",
    )
    return len(removed)
