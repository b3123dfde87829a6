from __future__ import annotations

from collections.abc import Callable, Sequence

from langchain_core.messages import BaseMessage
from langchain_core.messages.utils import count_tokens_approximately

TokenCounter = Callable[[Sequence[BaseMessage]], int]


def make_token_counter(per_message: Callable[[BaseMessage], int] | None = None) -> TokenCounter:
    """A token counter for trim_messages that remembers per-message counts across turns."""
    count_one = per_message or (lambda m: count_tokens_approximately([m]))
    seen: dict[str, int] = {}

    def counter(messages: Sequence[BaseMessage]) -> int:
        total = 0
        for m in messages:
            if m.id is None:
                total += count_one(m)
                continue
            n = seen.get(m.id)
            if n is None:
                n = seen[m.id] = count_one(m)
            total += n
        return total

    return counter


def history_tokens(messages: Sequence[BaseMessage], counter: TokenCounter) -> int:
    return counter(list(messages))
