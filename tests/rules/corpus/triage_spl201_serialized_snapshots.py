# rules: SPL201
"""Shapes met triaging frameworks the rules were not tuned on (issue 14): a session writer keeps the last
serialized form of each message by id to upsert only what changed. A serialization of the whole span is
the span itself (a snapshot compared on the next flush), not an artifact derived from its content; a token
count or an embedding of the content keyed the same way still is one."""
import dataclasses
import json

from pydantic import BaseModel


class Msg(BaseModel):
    id: str
    content: list[str]


class SessionWriter:
    def __init__(self, agent, storage) -> None:
        self.agent = agent
        self.storage = storage
        self._persisted_messages: dict[str, str] = {}
        self._token_cache: dict[str, int] = {}

    def prime(self) -> None:
        self._persisted_messages = {
            message.id: message.model_dump_json() for message in self.agent.state.context
        }

    def prime_dicts(self) -> None:
        self._persisted_messages = {message.id: json.dumps(message.model_dump()) for message in self.agent.state.context}

    def prime_dataclasses(self) -> None:
        self._persisted_messages = {message.id: dataclasses.asdict(message) for message in self.agent.state.context}

    async def flush(self) -> None:
        for message in self.agent.state.context:
            serialized = message.model_dump_json()
            if self._persisted_messages.get(message.id) == serialized:
                continue
            await self.storage.upsert_message(message)
            self._persisted_messages[message.id] = serialized

    def prime_token_counts(self, tokenizer) -> None:
        self._token_cache = {
            message.id: tokenizer.count(message.content) for message in self.agent.state.context  # expect: SPL201
        }

    def prime_text_digest(self) -> None:
        self._persisted_messages = {
            message.id: json.dumps(message.content) for message in self.agent.state.context  # expect: SPL201
        }
