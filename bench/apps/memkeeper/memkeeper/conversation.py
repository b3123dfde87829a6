from __future__ import annotations

from typing import TypedDict

from letta_client import AsyncLetta

from .decision_log import DecisionLog


class Turn(TypedDict):
    id: str
    role: str
    text: str


class TurnBuffer:
    def __init__(self, client: AsyncLetta, agent_id: str, log: DecisionLog) -> None:
        self.client = client
        self.agent_id = agent_id
        self.log = log
        self.turns: list[Turn] = []
        self.token_offsets: dict[str, list[int]] = {}

    async def load(self, limit: int = 50) -> None:
        async for msg in self.client.agents.messages.list(agent_id=self.agent_id, limit=limit):
            text = getattr(msg, "content", None) or getattr(msg, "reasoning", "") or ""
            self.turns.append({"id": msg.id, "role": getattr(msg, "message_type", "?"),
                               "text": str(text)})

    def index_tokens(self) -> None:
        for t in self.turns:
            pos, offs = 0, []
            for tok in t["text"].split():
                offs.append(pos)
                pos += len(tok) + 1
            self.token_offsets[t["id"]] = offs

    def mask_secrets(self, secrets: list[str]) -> None:
        for i, turn in enumerate(self.turns):
            text = turn["text"]
            for s in secrets:
                text = text.replace(s, "*" * 8)
            self.turns[i] = {**turn, "text": text}

    def drop_tool_chatter(self) -> None:
        noisy = [t["id"] for t in self.turns if t["role"] == "tool_return_message"]
        self.log.append("drop", noisy, "tool returns are not user-facing")
        self.turns = [t for t in self.turns if t["role"] != "tool_return_message"]

    def forget_before(self, turn_id: str) -> None:
        idx = next((i for i, t in enumerate(self.turns) if t["id"] == turn_id), None)
        if idx is None:
            return
        self.turns = self.turns[idx:]
        self.log.append("forget", [turn_id], "user asked to forget earlier turns")
