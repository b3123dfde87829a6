"""Chat memory: message ids, scrubbing, trimming and the running summary."""

from __future__ import annotations

import re
import uuid
from typing import Callable, Dict, Iterable, List, Optional, Pattern

from llama_index.core import PromptTemplate
from llama_index.core.llms import LLM, ChatMessage, MessageRole
from llama_index.core.memory import ChatMemoryBuffer

from li_workflow.decision_log import DecisionLog, new_edit_id

MESSAGE_ID = "message_id"
SUPERSEDES = "supersedes"

SUMMARY_PROMPT = PromptTemplate(
    "You maintain a running summary of a support conversation.\n"
    "Current summary:\n{summary}\n\nNew turns:\n{turns}\n\n"
    "Write the updated summary in at most 200 words:"
)


def message_id(msg: ChatMessage) -> str:
    mid = msg.additional_kwargs.get(MESSAGE_ID)
    if mid is None:
        mid = uuid.uuid4().hex
        msg.additional_kwargs[MESSAGE_ID] = mid
    return mid


def new_message(role: MessageRole, content: str, **extra: str) -> ChatMessage:
    return ChatMessage(
        role=role,
        content=content,
        additional_kwargs={MESSAGE_ID: uuid.uuid4().hex, **extra},
    )


def make_token_counter(tokenizer: Callable[[str], List[int]]) -> Callable[[ChatMessage], int]:
    seen: Dict[str, int] = {}

    def count(msg: ChatMessage) -> int:
        k = message_id(msg)
        if k not in seen:
            seen[k] = len(tokenizer(msg.content or ""))
        return seen[k]

    return count


def scrub_history(
    memory: ChatMemoryBuffer, patterns: Iterable[Pattern[str]], mask: str = "[removed]"
) -> int:
    history = memory.get_all()
    touched = 0
    for msg in history:
        text = msg.content
        if not text:
            continue
        for pat in patterns:
            text = pat.sub(mask, text)
        if text != msg.content:
            msg.content = text
            touched += 1
    if touched:
        memory.set(history)
    return touched


class HistoryTrimmer:
    """Drop turns that a later tool result marked as superseded."""

    def __init__(self, log: DecisionLog) -> None:
        self.log = log

    def trim(self, memory: ChatMemoryBuffer) -> List[ChatMessage]:
        history = memory.get_all()
        superseded: Dict[str, ChatMessage] = {}
        for msg in history:
            for old in msg.additional_kwargs.get(SUPERSEDES, ()):
                superseded[old] = msg
        if not superseded:
            return []
        kept = [m for m in history if message_id(m) not in superseded]
        dropped = [m for m in history if message_id(m) in superseded]
        memory.set(kept)
        edit_id = new_edit_id("trim")
        for m in dropped:
            why = superseded[message_id(m)]
            self.log.record(
                edit_id=edit_id,
                op="trim_history",
                rationale=f"superseded by {message_id(why)}: {(why.content or '')[:160]}",
                span_ids=[message_id(m)],
            )
        return dropped


def drop_tool_chatter(
    memory: ChatMemoryBuffer, log: DecisionLog, keep_last: int = 4
) -> int:
    history = memory.get_all()
    tool_turns = [i for i, m in enumerate(history) if m.role == MessageRole.TOOL]
    doomed = set(tool_turns[:-keep_last]) if keep_last else set(tool_turns)
    if not doomed:
        return 0
    edit_id = new_edit_id("chatter")
    log.record(
        edit_id=edit_id,
        op="drop_tool_chatter",
        rationale=f"tool output older than the last {keep_last} tool turns",
        span_ids=[message_id(history[i]) for i in sorted(doomed)],
        evidence="\n".join((history[i].content or "")[:80] for i in sorted(doomed)),
    )
    memory.set([m for i, m in enumerate(history) if i not in doomed])
    return len(doomed)


class RollingSummary:
    """Keep a short summary of turns that have scrolled out of the window."""

    def __init__(self, llm: LLM, memory: ChatMemoryBuffer) -> None:
        self.llm = llm
        self.memory = memory
        self.text: str = ""
        self.turns_absorbed = 0

    async def absorb(self, overflow: List[ChatMessage]) -> str:
        if not overflow:
            return self.text
        turns = "\n".join(f"{m.role.value}: {m.content}" for m in overflow)
        self.text = (
            await self.llm.apredict(SUMMARY_PROMPT, summary=self.text or "(none)", turns=turns)
        ).strip()
        self.turns_absorbed += len(overflow)
        return self.text

    def as_system_message(self) -> Optional[ChatMessage]:
        if not self.text:
            return None
        return ChatMessage(role=MessageRole.SYSTEM, content=f"Earlier in this case: {self.text}")
