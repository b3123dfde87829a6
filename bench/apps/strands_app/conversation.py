"""Conversation management for case agents: a sliding window with a token budget."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from strands.agent.conversation_manager import SlidingWindowConversationManager
from strands.types.content import Messages

from .buffer import span_meta, text_of
from .decision_log import DecisionLog
from .models import DecisionEntry

if TYPE_CHECKING:
    from strands import Agent


def estimate_tokens(text: str) -> int:
    return max(1, len(text) // 4)


class BudgetedConversationManager(SlidingWindowConversationManager):
    def __init__(self, log: DecisionLog, token_budget: int, window_size: int = 40, **kwargs: Any) -> None:
        super().__init__(window_size=window_size, should_truncate_results=True, pin_first=2, **kwargs)
        self.log = log
        self.token_budget = token_budget
        self._tokens: dict[str, int] = {}

    def _count(self, messages: Messages) -> int:
        self._tokens.update(
            {
                m["tracking_id"]: estimate_tokens(text_of(m))
                for m in messages
                if "tracking_id" in m and m["tracking_id"] not in self._tokens
            }
        )
        return sum(self._tokens.get(m.get("tracking_id", ""), 0) for m in messages)

    def _cut_point(self, messages: Messages, total: int) -> int:
        cut, excess = 2, total - self.token_budget
        while excess > 0 and cut < len(messages) - 2:
            if not span_meta(messages[cut]).get("pinned"):
                excess -= self._tokens.get(messages[cut].get("tracking_id", ""), 0)
            cut += 1
        while cut < len(messages) and messages[cut]["role"] != "user":
            cut += 1
        return cut

    def apply_management(self, agent: "Agent", **kwargs: Any) -> None:
        total = self._count(agent.messages)
        if total > self.token_budget:
            self._trim_to_budget(agent, total)
        super().apply_management(agent, **kwargs)

    def _trim_to_budget(self, agent: "Agent", total: int) -> None:
        messages = agent.messages
        cut = self._cut_point(messages, total)
        dropped = [m.get("tracking_id", "?") for m in messages[2:cut]]
        del messages[2:cut]
        self.removed_message_count += len(dropped)
        self.log.record(
            DecisionEntry(
                edit_id=f"budget-{uuid.uuid4().hex[:8]}",
                op="trim",
                target_ids=tuple(dropped),
                rationale=f"{total} estimated tokens over budget {self.token_budget}",
                evidence=";".join(f"{tid}={self._tokens.pop(tid, 0)}" for tid in dropped),
            )
        )

    def get_state(self) -> dict[str, Any]:
        state = super().get_state()
        state["token_budget"] = self.token_budget
        return state

    def restore_from_session(self, state: dict[str, Any]) -> list | None:
        self.token_budget = int(state.get("token_budget", self.token_budget))
        return super().restore_from_session(state)
