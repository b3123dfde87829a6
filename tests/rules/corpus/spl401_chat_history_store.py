# rules: SPL401
"""A chat message history store: user-initiated deletes are not pruning passes."""
from collections import deque


class InMemoryChatMessageHistory:
    def __init__(self) -> None:
        self.messages: list = []

    def add_message(self, message) -> None:
        self.messages.append(message)

    def clear(self) -> None:
        self.messages.clear()

    async def aclear(self) -> None:
        self.messages = []

    def delete_message(self, message_id: str) -> None:
        for message in list(self.messages):
            if message.id == message_id:
                self.messages.remove(message)

    def pop_last(self):
        return self.messages.pop()


class WindowedChatHistory(InMemoryChatMessageHistory):
    def __init__(self, window: int) -> None:
        super().__init__()
        self.window = window

    def add_message(self, message) -> None:
        self.messages.append(message)
        if len(self.messages) > self.window:
            self.messages.pop(0)  # expect: SPL401


class Outbox:
    def __init__(self) -> None:
        self.pending_messages: deque = deque()

    async def flush(self, transport) -> None:
        while self.pending_messages:
            message = self.pending_messages.popleft()
            await transport.send(message)


class StreamAssembler:
    def __init__(self) -> None:
        self._tool_call_chunks: dict[int, dict] = {}

    def finish(self, kind: str, idx: int) -> None:
        if kind == "tool_call" and idx in self._tool_call_chunks:
            del self._tool_call_chunks[idx]
