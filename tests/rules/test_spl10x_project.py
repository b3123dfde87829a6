"""SPL101-SPL104 across files: span classes and helpers defined in another module of the linted tree."""

from __future__ import annotations

from spanlint import Settings, check_source
from spanlint.rules.project import ProjectIndex, summarize_source
from runtime_guard.vocabulary import DEFAULT_VOCABULARY

MODELS = '''
from dataclasses import dataclass


@dataclass
class Span:
    span_id: str
    content: str
    version: int
    content_hash: str


@dataclass
class Message:
    id: str
    content: str


def bump(span):
    span.version += 1


def refresh(span):
    span.version += 1
    span.content_hash = digest(span.content)
'''

OPERATORS = '''
from models import Message, Span, bump, refresh


def redact(item: Span) -> None:
    item.content = scrub(item.content)


def redact_bumped(item: Span) -> None:
    item.content = scrub(item.content)
    bump(item)


def redact_refreshed(item: Span) -> None:
    item.content = scrub(item.content)
    refresh(item)


def scrub_message(m: Message) -> None:
    m.content = scrub(m.content)
'''

CODES = ("SPL101", "SPL102", "SPL103", "SPL104")


def _findings(project: ProjectIndex | None) -> set[tuple[int, str]]:
    found = check_source(OPERATORS, "operators.py", Settings(select=CODES), project=project)
    return {(d.location.line, d.code) for d in found}


def _project() -> ProjectIndex:
    summaries = [summarize_source(src, DEFAULT_VOCABULARY, path) for src, path in ((MODELS, "models.py"), (OPERATORS, "operators.py"))]
    return ProjectIndex.merge(DEFAULT_VOCABULARY, summaries)


def test_classes_and_helpers_from_another_module() -> None:
    assert _findings(_project()) == {
        (6, "SPL101"), (6, "SPL102"),  # no bump, no rehash
        (10, "SPL102"),  # bumped by the helper, hash left stale
        (20, "SPL103"),  # Message has an id and neither version nor hash
    }


def test_without_the_other_module_nothing_is_known() -> None:
    # `item` and `m` are not span names and their classes are unknown: nothing to report.
    assert _findings(None) == set()


def test_a_helper_that_only_resets_derived_fields_covers_the_write() -> None:
    models = (
        "from dataclasses import dataclass\n\n@dataclass\nclass Chunk:\n    id: str\n    text: str\n"
        "    version: int\n    embedding: list\n\n"
        "def clear_derived(chunk):\n    chunk.embedding = None\n"
    )
    operators = (
        "from models import Chunk, clear_derived\n\n"
        "def shorten(c: Chunk) -> None:\n    c.text = c.text[:10]\n    c.version += 1\n    clear_derived(c)\n"
    )
    summaries = [summarize_source(src, DEFAULT_VOCABULARY, path) for src, path in ((models, "models.py"), (operators, "ops.py"))]
    project = ProjectIndex.merge(DEFAULT_VOCABULARY, summaries)
    assert project.helpers["clear_derived"].resets == frozenset({"chunk"})
    assert check_source(operators, "ops.py", Settings(select=("SPL104",)), project=project) == []


def test_a_relative_import_picks_the_class_of_its_own_package_through_a_reexport() -> None:
    # Two frameworks of one tree both define `Agent`; `from ...agent import Agent` in the first one's
    # middleware means its own `agent` package, whose `__init__` re-exports the class from `_agent.py`.
    ours = (
        "from dataclasses import dataclass, field\n\n@dataclass\nclass Msg:\n    id: str\n    content: list\n\n"
        "@dataclass\nclass AgentState:\n    context: list[Msg] = field(default_factory=list)\n\n"
        "class Agent:\n    def __init__(self, state: AgentState | None = None) -> None:\n"
        "        self.state = state or AgentState()\n"
    )
    theirs = "class Agent:\n    def __init__(self, prompt_driver) -> None:\n        self.state = prompt_driver\n"
    middleware = (
        "from ...agent import Agent\n\n"
        "def inject(agent: Agent, hints: list) -> None:\n"
        "    last_msg = agent.state.context[-1]\n"
        "    last_msg.content.extend(hints)\n"
    )
    files = (
        ("", "fw_a/pkg/agent/__init__.py"), (ours, "fw_a/pkg/agent/_agent.py"),
        (theirs, "fw_b/pkg/structures/agent.py"), (middleware, "fw_a/pkg/app/middleware/inbox.py"),
    )
    summaries = [summarize_source(src, DEFAULT_VOCABULARY, path) for src, path in files]
    project = ProjectIndex.merge(DEFAULT_VOCABULARY, summaries)
    found = check_source(middleware, "fw_a/pkg/app/middleware/inbox.py", Settings(select=CODES), project=project)
    assert [(d.location.line, d.code) for d in found] == [(5, "SPL103")]


# A streaming response whose `append_text` grows a text block of its own content (agentscope's
# `ChatResponse`): whether that rewrites a span someone holds depends on where it is called.
RESPONSES = '''
from dataclasses import dataclass, field


@dataclass
class TextBlock:
    id: str
    text: str


@dataclass
class ChatResponse:
    id: str
    content: list[TextBlock] = field(default_factory=list)

    def append_text(self, text: str, block_id: str) -> "ChatResponse":
        for block in self.content:
            if block.id == block_id:
                block.text += text
                return self
        self.content.append(TextBlock(id=block_id, text=text))
        return self
'''

# Each chunk of a stream becomes a response built here, grown, then handed out.
STREAM = '''
from responses import ChatResponse


def parse(events, response_id):
    for event in events:
        delta = ChatResponse(id=response_id)
        delta.append_text(event.text, event.block_id)
        yield delta
'''

# A response taken from the buffer of responses already handed out, grown in place.
BUFFER = '''
from responses import ChatResponse


class Replies:
    def __init__(self) -> None:
        self.replies: dict[str, ChatResponse] = {}

    def extend(self, reply_id: str, text: str, block_id: str) -> None:
        self.replies[reply_id].append_text(text, block_id)
'''


# `append_text`'s two writes: the block of its content grown, a block appended to its content.
HELD = {(19, "SPL103"), (21, "SPL103")}


def _response_findings(*modules: tuple[str, str]) -> set[tuple[int, str]]:
    summaries = [summarize_source(src, DEFAULT_VOCABULARY, path) for src, path in (*modules, (RESPONSES, "responses.py"))]
    project = ProjectIndex.merge(DEFAULT_VOCABULARY, summaries)
    found = check_source(RESPONSES, "responses.py", Settings(select=CODES), project=project)
    return {(d.location.line, d.code) for d in found}


def test_a_method_the_tree_calls_only_on_objects_their_callers_built_rewrites_no_held_span() -> None:
    assert _response_findings((STREAM, "stream.py")) == set()


def test_one_call_on_an_object_taken_from_a_buffer_keeps_the_finding() -> None:
    assert _response_findings((STREAM, "stream.py"), (BUFFER, "replies.py")) == HELD


def test_a_method_the_tree_never_calls_is_public_api_and_keeps_the_finding() -> None:
    assert _response_findings() == HELD


def test_a_call_on_a_field_declared_with_another_class_is_not_a_call_of_the_method() -> None:
    # `self._tts.append_text(...)` on a speech client: it says nothing about `ChatResponse`s.
    speech = (
        "from speech import TtsClient\n\n"
        "class Speaker:\n    def __init__(self) -> None:\n        self._tts: TtsClient | None = None\n\n"
        "    def say(self, text: str) -> None:\n        self._tts.append_text(text)\n"
    )
    assert _response_findings((STREAM, "stream.py"), (speech, "speaker.py")) == set()
    # the same call on a field whose class is not known may be on a response: the finding stays
    untyped = speech.replace(": TtsClient | None", "")
    assert _response_findings((STREAM, "stream.py"), (untyped, "speaker.py")) == HELD


def test_a_local_rebound_to_a_received_object_is_not_built() -> None:
    mixed = STREAM.replace("        yield delta\n", "        yield delta\n        delta = event.reply\n        delta.append_text('.', event.block_id)\n")
    assert _response_findings((mixed, "stream.py")) == HELD


# Haystack's `ChatMessage` shape: content behind the `text` property, the id a key of `meta` that
# only the application's own modules know about.
CHAT_MESSAGE = '''
from dataclasses import dataclass, field


@dataclass
class ChatMessage:
    _role: str
    _content: str
    _meta: dict = field(default_factory=dict)

    @property
    def text(self) -> str:
        return self._content

    @property
    def meta(self) -> dict:
        return self._meta
'''

IDENTITY = '''
from chat import ChatMessage

MESSAGE_ID_KEY = "message_id"


def find(messages: list[ChatMessage], message_id: str) -> ChatMessage | None:
    return next((m for m in messages if m.meta.get(MESSAGE_ID_KEY) == message_id), None)
'''

SCRUB = '''
from chat import ChatMessage


def scrub(messages: list[ChatMessage]) -> None:
    for msg in messages:
        msg._content = mask(msg.text)
'''


def _scrub_findings(files: tuple[tuple[str, str], ...]) -> list[tuple[int, str, str]]:
    summaries = [summarize_source(src, DEFAULT_VOCABULARY, path) for src, path in files]
    project = ProjectIndex.merge(DEFAULT_VOCABULARY, summaries)
    found = check_source(SCRUB, "scrub.py", Settings(select=CODES), project=project)
    return [(d.location.line, d.code, d.message) for d in found]


def test_an_id_read_out_of_metadata_in_another_module_makes_the_message_a_span() -> None:
    files = (("", "__init__.py"), (CHAT_MESSAGE, "chat.py"), (IDENTITY, "identity.py"), (SCRUB, "scrub.py"))
    assert _scrub_findings(files) == [
        (7, "SPL103", "`msg._content` rewritten in place; `ChatMessage` keeps its `meta[MESSAGE_ID_KEY]` and has no version or hash"),
    ]


def test_without_an_id_in_its_metadata_the_message_is_no_span() -> None:
    # Nothing in the tree holds a message by an id: rewriting its content hides nothing.
    assert _scrub_findings(((CHAT_MESSAGE, "chat.py"), (SCRUB, "scrub.py"))) == []
