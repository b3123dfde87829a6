# rules: SPL101, SPL102, SPL103, SPL104
"""Shapes met triaging frameworks the rules were not tuned on (issue 14): what the code declares about a
value (annotations, property and method return types, field types) decides whether it is a span, before
its name; deep copies and objects converted from a serialized form are new objects, not rewrites."""
from __future__ import annotations

import copy
import json
from copy import deepcopy
from dataclasses import dataclass, field

from treelib import Node


# --- a prompt line without an id: named like a message, known not to be a span -----------------------
@dataclass
class PromptLine:
    content: list[str]
    role: str


@dataclass
class PromptStack:
    messages: list[PromptLine] = field(default_factory=list)

    @property
    def system_messages(self) -> list[PromptLine]:
        return [m for m in self.messages if m.role == "system"]


def add_output_schema_rule(prompt_stack: PromptStack, rule_text: str) -> None:
    if prompt_stack.system_messages:
        last_system_message = prompt_stack.system_messages[-1]
        last_system_message.content.extend(["\n\n", rule_text])


# --- a message with an id, reached through a property or a method's return annotation -------------------
@dataclass
class Msg:
    id: str
    name: str
    content: list[str]


@dataclass
class AgentState:
    context: list[Msg] = field(default_factory=list)
    reply_id: str = ""

    @property
    def tail(self) -> Msg | None:
        return self.context[-1] if self.context else None

    def find_reply(self, reply_id: str) -> Msg | None:
        return next((m for m in reversed(self.context) if m.id == reply_id), None)


def inject_hints(state: AgentState, hints: list[str]) -> None:
    last_msg = state.tail
    if last_msg is not None:
        last_msg.content.extend(hints)  # expect: SPL103


class RealtimeAgent:
    def __init__(self) -> None:
        self.state = AgentState()

    def _find_reply_message(self, reply_id: str) -> Msg | None:
        return self.state.find_reply(reply_id)

    def append_reply_block(self, reply_id: str, block: str) -> None:
        message = self._find_reply_message(reply_id)
        if message is None:
            self.state.context.append(Msg(id=reply_id, name="agent", content=[block]))
        else:
            message.content.append(block)  # expect: SPL103


# --- a node whose `value` is a number (a score), and one whose `value` is its text -----------------------
class ThoughtNode(Node):
    name: str = ""
    value: int = 0
    id: int = 0

    def update_value(self, value) -> None:
        self.value = value


class MemoryNode(Node):
    id: int = 0
    value: str = ""

    def update_value(self, value) -> None:
        self.value = value  # expect: SPL103


# --- deep copies are new objects; a shallow copy shares them ---------------------------------------------
def offload_for_jsonl(msgs: list[Msg]) -> list[str]:
    copied = deepcopy(msgs)
    lines = []
    for msg in copied:
        msg.content = [part.replace("data:", "file:") for part in msg.content]
        lines.append(json.dumps(msg.__dict__))
    return lines


def admit_incoming(state: AgentState, msgs: list[Msg]) -> None:
    copied_msgs: list = copy.deepcopy(msgs)
    for msg in copied_msgs:
        for i, part in enumerate(msg.content):
            if part.startswith("data:"):
                msg.content[i] = "<unsupported attachment>"
        state.context.append(msg)


def strip_attachments_shallow(msgs: list[Msg]) -> None:
    for msg in copy.copy(msgs):
        msg.content = [p for p in msg.content if not p.startswith("data:")]  # expect: SPL103


def strip_attachments_listed(msgs: list[Msg]) -> None:
    shallow = list(msgs)
    for msg in shallow:
        msg.content = [p for p in msg.content if not p.startswith("data:")]  # expect: SPL103


# --- converted from a serialized form: new; received: a rewrite -------------------------------------------
def message_from_dict(data: dict) -> Msg:
    return Msg(**data)


def collect_typed_reply(raw: str, stop: list[str]) -> Msg:
    message = message_from_dict(json.loads(raw))
    if stop:
        message.content = [p.split(stop[0])[0] for p in message.content]
    return message


def collect_reply_from_cache(cache, key: str, stop: list[str]) -> Msg:
    message = cache.get_from_store(key)
    message.content = [p.split(stop[0])[0] for p in message.content]  # expect: SPL103
    return message


class WerewolfEnv:
    round_cnt: int = 0

    def publish_message(self, message: Msg, add_timestamp: bool = True) -> None:
        if add_timestamp:
            message.content = [f"{self.round_cnt} | "] + message.content  # expect: SPL103


# --- a constructor's assignments type the attribute: `self.state = state or AgentState()` -----------------
class Agent:
    def __init__(self, name: str, state: AgentState | None = None) -> None:
        self.name = name
        self.state = state or AgentState()


class InboxMiddleware:
    def on_reasoning(self, agent: Agent, hints: list[str]) -> None:
        if agent.state.context:
            last_msg = agent.state.context[-1]
            if last_msg.name == agent.name:
                last_msg.content.extend(hints)  # expect: SPL103
            else:
                agent.state.context.append(Msg(id=agent.state.reply_id, name=agent.name, content=list(hints)))


# --- `super().react()` returns what the base class's method is annotated with -----------------------------
class Role:
    def __init__(self, memory: list[Msg]) -> None:
        self.memory = memory

    async def react(self) -> Msg:
        return self.memory[-1]  # a message already held: a base that built a new one would make it quiet


class TutorialAssistant(Role):
    async def react(self) -> Msg:
        msg = await super().react()
        msg.content = ["tutorial.md"]  # expect: SPL103
        return msg
