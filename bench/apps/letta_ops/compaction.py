from __future__ import annotations

import asyncio
import re
from typing import Sequence

from letta.schemas.enums import MessageRole
from letta.schemas.message import Message
from letta_client import Letta
from letta_client.types.agents import AssistantMessage

from .decision_log import DecisionLog
from .spans import digest

SUMMARY_BLOCK = "rolling_summary"
_ROLLBACK = re.compile(r"rolled back (deploy-[0-9a-f]{6,})")


def _as_text(content) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "\n".join(getattr(part, "text", "") for part in content)


def summarize_with(client: Letta, summarizer_id: str, text: str, max_words: int = 250) -> str:
    resp = client.agents.messages.create(
        summarizer_id,
        input=f"Summarize for an on-call engineer in at most {max_words} words:\n\n{text}",
        max_steps=1,
    )
    out = [_as_text(m.content) for m in resp.messages if isinstance(m, AssistantMessage)]
    return "\n".join(out).strip()


def refresh_rolling_summary(client: Letta, agent_id: str, summarizer_id: str) -> str:
    cur = client.agents.blocks.retrieve(SUMMARY_BLOCK, agent_id=agent_id)
    if len(cur.value) < int((cur.limit or 5000) * 0.8):
        return cur.value
    shorter = summarize_with(client, summarizer_id, cur.value, max_words=150)
    client.agents.blocks.update(SUMMARY_BLOCK, agent_id=agent_id, value=shorter)
    return shorter


def summarize_from_history(client: Letta, agent_id: str, summarizer_id: str, last_n: int = 200) -> str:
    msgs = list(client.agents.messages.list(agent_id, limit=last_n, order="asc"))
    transcript = "\n".join(
        f"{m.message_type}: {_as_text(getattr(m, 'content', None))}" for m in msgs if getattr(m, "content", None)
    )
    summary = summarize_with(client, summarizer_id, transcript)
    client.agents.blocks.update(
        SUMMARY_BLOCK,
        agent_id=agent_id,
        value=summary,
        metadata={"source_message_ids": [m.id for m in msgs], "derived_from": "messages"},
    )
    return summary


def resummarize_tracked(client: Letta, agent_id: str, summarizer_id: str) -> str:
    cur = client.agents.blocks.retrieve(SUMMARY_BLOCK, agent_id=agent_id)
    meta = dict(cur.metadata or {})
    shorter = summarize_with(client, summarizer_id, cur.value, max_words=150)
    chain = list(meta.get("summary_chain", []))
    chain.append({"parent_hash": digest(cur.value), "generation": len(chain) + 1})
    client.agents.blocks.update(
        SUMMARY_BLOCK,
        agent_id=agent_id,
        value=shorter,
        metadata={
            **meta,
            "summary_chain": chain,
            "root_source_message_ids": meta.get("root_source_message_ids") or meta.get("source_message_ids", []),
            "derived_from": "summary",
        },
    )
    return shorter


class ContextWindow:
    """Server-side view of the in-context messages, edited before the next step."""

    def __init__(self, agent_id: str, messages: Sequence[Message], log: DecisionLog) -> None:
        self.agent_id = agent_id
        self.messages: list[Message] = list(messages)
        self.log = log

    def _rolled_back(self) -> dict[str, str]:
        out = {}
        for m in self.messages:
            if m.role == MessageRole.tool:
                for dep in _ROLLBACK.findall(_as_text(m.content)):
                    out[dep] = m.id
        return out

    async def _log(self, action: str, ids: list[str], rationale: str, evidence: str = "") -> None:
        await asyncio.to_thread(self.log.record, action, ids, rationale, evidence)

    async def evict_rolled_back(self) -> int:
        removed = 0
        for dep, notice_id in self._rolled_back().items():
            doomed = [m for m in self.messages if dep in _as_text(m.content)]
            self.messages = [m for m in self.messages if m not in doomed]
            removed += len(doomed)
            await self._log("context.evict", [m.id for m in doomed], f"{dep} rolled back (see {notice_id})")
        return removed

    async def evict_rolled_back_logged(self) -> int:
        removed = 0
        for dep, notice_id in self._rolled_back().items():
            doomed = [m for m in self.messages if dep in _as_text(m.content)]
            notice = next(m for m in doomed if m.id == notice_id)
            await self._log(
                "context.evict",
                [m.id for m in doomed],
                f"{dep} rolled back (see {notice_id})",
                evidence=_as_text(notice.content),
            )
            self.messages = [m for m in self.messages if m not in doomed]
            removed += len(doomed)
        return removed

