# rules: SPL202
"""Token bookkeeping records in a chat memory."""
from collections import namedtuple
from dataclasses import dataclass
from typing import NamedTuple, TypedDict

TokenSpan = namedtuple("TokenSpan", "message_id start_token end_token")  # expect: SPL202
TokenSpanV = namedtuple("TokenSpanV", ["message_id", "revision", "start_token", "end_token"])
Usage = namedtuple("Usage", ["message_id", "prompt_tokens", "completion_tokens"])

MessageTokens = TypedDict("MessageTokens", {"msg_id": str, "tokens": list[int]})  # expect: SPL202


class TurnTokenCount(NamedTuple):  # expect: SPL202
    turn_id: str
    token_count: int


@dataclass
class AuthSession:
    session_id: str
    access_token: str
    refresh_token: str


@dataclass
class ToolTiming:
    message_id: str
    start_time: float
    end_time: float


@dataclass
class Segment:
    segment_id: str
    text: str
    tokens: list[int]
