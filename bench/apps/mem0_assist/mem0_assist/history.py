"""The chat transcript for one session, kept as LangChain messages."""

from __future__ import annotations

from uuid import uuid4

from langchain_core.chat_history import InMemoryChatMessageHistory
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage, trim_messages
from langchain_core.messages.utils import count_tokens_approximately

from .decision_log import DecisionLog


class ConversationWindow:
    def __init__(self, session_id: str, log: DecisionLog, max_tokens: int = 3000) -> None:
        self.session_id = session_id
        self.history = InMemoryChatMessageHistory()
        self.log = log
        self.max_tokens = max_tokens

    def append(self, message: BaseMessage) -> BaseMessage:
        if message.id is None:
            message.id = f"{self.session_id}:{uuid4().hex[:12]}"
        self.history.add_message(message)
        return message

    def tokens(self) -> int:
        return count_tokens_approximately(self.history.messages)

    def compact(self) -> list[BaseMessage]:
        current = self.history.messages
        kept = trim_messages(current, max_tokens=self.max_tokens, token_counter=count_tokens_approximately,
                             strategy="last", start_on="human", include_system=True)
        kept_ids = {m.id for m in kept}
        dropped = [m for m in current if m.id not in kept_ids]
        if not dropped:
            return []
        self.log.record("trim", [m.id or "?" for m in dropped], f"transcript over {self.max_tokens} tokens",
                        evidence=[m.text[:160] for m in dropped])
        self.history.messages = kept
        return dropped

    def drop_tool_chatter(self) -> int:
        before = self.history.messages
        self.history.messages = [m for m in before
                                 if not isinstance(m, ToolMessage) and not (isinstance(m, AIMessage) and m.tool_calls)]
        removed = len(before) - len(self.history.messages)
        if removed:
            self.log.record("drop-tools", [], f"dropped {removed} tool messages")
        return removed

    def shorten_tool_results(self, limit: int = 1500) -> int:
        shortened = 0
        for msg in self.history.messages:
            if isinstance(msg, ToolMessage) and len(msg.text) > limit:
                msg.content = msg.text[:limit] + " [truncated]"
                shortened += 1
        return shortened

    def retract(self, message_id: str, replacement: str) -> AIMessage | None:
        """Replace an assistant answer the user flagged as wrong."""
        for msg in self.history.messages:
            if msg.id != message_id or not isinstance(msg, AIMessage):
                continue
            fresh = msg.model_copy(update={"content": replacement, "id": f"{message_id}.r{uuid4().hex[:6]}"})
            self.log.record("retract", [message_id], "answer corrected by user", evidence=[msg.text[:300]])
            self.history.messages = [fresh if m.id == message_id else m for m in self.history.messages]
            return fresh
        return None
