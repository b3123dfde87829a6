"""SPL103: content rewritten in place on a span class that has an id but neither version nor hash."""

from __future__ import annotations

from spanlint.rules.base import Invalid, Valid
from spanlint.rules.rewrites import ContentWrite, RewriteRule, copy_sets


class InPlaceRewriteOfUnversionedSpan(RewriteRule):
    code = "SPL103"
    name = "in-place-rewrite-of-unversioned-span"
    summary = "Content rewritten in place on a span that has an id but no version or hash"
    message = "Content rewritten in place on a span that has an id but no version or hash"
    docs = """
## What it does
Finds in-place content writes (the same forms as SPL101) on a span whose class, defined in the
linted tree or imported from an installed framework (LangChain's `AIMessage`, see
`docs/frameworks.md`), declares an id field but neither a version field nor a content hash (stored
or computed). Writes that also give the span a new id in the same function are copy-on-rewrite and are
not reported; a method's writes to its own `self` are judged at its calls, as in SPL101. On a class that also declares fields derived from its content (an embedding, offsets:
Haystack's `Document`, CrewAI's `MemoryRecord`), a write that leaves them describing the old text is
SPL104's (one finding per write); once they are reset, the id kept is this rule's.

A class is a span when it declares an id and a content field and either is named with a span noun
(`ChatMessage`, `MemoryBlock`), is a record (dataclass, pydantic model, named tuple, attrs class)
whose content field is `content`, `tokens` or `messages`, or declares its own `id` (not a
reference such as `message_id`) with `content`, `text`, `body`, `tokens` or `messages`
(`Note(id, text)`). A `Setting(id, value)` is not a span; nor is a class that extends a class the
tree does not define (a GUI widget, an exception) or that an ORM maps to a table, unless its name
has a span noun.

## Why is this bad?
Nothing keyed on the span's id can notice the change: there is no version to compare and no hash to
check. Memory blocks whose `value` is replaced in place and chat messages whose `content` is
rewritten while keeping their `id` are typical: caches, embeddings and citations keyed on the id
now describe text that no longer exists.

## Example
```python
@dataclass
class Message:
    id: str
    content: str

def redact(message: Message) -> None:
    message.content = scrub(message.content)
```

## Use instead
```python
def redact(message: Message) -> Message:
    return Message(id=new_id(), content=scrub(message.content))
```
or add a `version` field to the class and bump it on every rewrite. For a framework's class
(`AIMessage`), give the rewritten message a new id (`message.id = str(uuid4())`) or build a new one;
if nothing keys on the type's ids, exempt it (`vocabulary: {not_span_classes: [AIMessage]}`: the
class and its subclasses are then not spans).

## Fix safety
No automatic fix: copy-on-rewrite changes the callers, and adding a field changes the class.
"""
    valid = [
        Valid(
            "from dataclasses import dataclass, replace\n\n@dataclass\nclass ChatMessage:\n    id: str\n    content: str\n\n"
            "def redact_pii(messages: list[ChatMessage]) -> dict:\n    updates = []\n    for msg in messages:\n"
            "        clean = scrub(msg.content)\n        if clean != msg.content:\n"
            "            updates.append(replace(msg, content=clean, id=new_id()))\n"
            "    return {\"messages\": updates} if updates else {}\n"
        ),
        # Content behind a property, but no id anywhere: nothing holds the reply by an id.
        Valid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Reply:\n    _role: str\n    _content: str\n\n"
            "    @property\n    def text(self) -> str:\n        return self._content\n\n"
            "def scrub(replies: list[Reply]) -> None:\n    for reply in replies:\n        reply._content = mask(reply.text)\n"
        ),
        # A widget's private copy of the text it shows, with no content property: not a span's content.
        Valid(
            "class TextBlockView(Markdown):\n    def __init__(self, block_id: str, text: str) -> None:\n"
            "        self.block_id = block_id\n        self._text = text\n\n"
            "    def replace(self, text: str) -> None:\n        self._text = text\n"
        ),
        Valid("from dataclasses import dataclass\n\n@dataclass\nclass TicketPanel:\n    id: str\n    content: str = \"\"\n\n    def show(self, text: str) -> None:\n        self.content = text[:500]\n"),
        # A chat bubble on screen showing a message: the span noun says what it shows.
        Valid(
            "from dataclasses import dataclass\n\n@dataclass\nclass MessageBubble:\n    id: str\n    text: str = ''\n\n"
            "def stream_into(bubble: MessageBubble, delta: str) -> None:\n    bubble.text += delta\n"
        ),
        # A request body trimmed before it is handled: named as what crosses an API, not a span.
        Valid(
            "from pydantic import BaseModel\n\nclass IngestRequest(BaseModel):\n    id: str\n    content: str\n\n"
            "def clip(req: IngestRequest, limit: int) -> IngestRequest:\n    req.content = req.content[:limit]\n    return req\n"
        ),
        # A LangChain document whose version and hash live in its metadata, both updated with the text.
        Valid(
            "from pydantic import BaseModel\n\nclass Document(BaseModel):\n    id: str | None = None\n"
            "    page_content: str\n    metadata: dict = {}\n\n"
            "def redact(doc: Document) -> None:\n    doc.page_content = scrub(doc.page_content)\n"
            "    doc.metadata[\"version\"] = doc.metadata.get(\"version\", 0) + 1\n"
            "    doc.metadata.update(content_hash=sha256(doc.page_content))\n"
        ),
        # An id of something else than the class (`user_id` of a `UserProfile`): the text is the profile's, not a span's.
        Valid(
            "from dataclasses import dataclass\n\n@dataclass\nclass UserProfile:\n    user_id: str\n    text: str\n\n"
            "def edit(profile: UserProfile, text: str) -> None:\n    profile.text = text\n"
        ),
        # The parts of a message the function is building: nobody holds it yet.
        Valid(
            "from dataclasses import dataclass\n\n@dataclass\nclass TextPart:\n    text: str\n\n"
            "@dataclass\nclass Message:\n    id: str\n    content: list[TextPart]\n\n"
            "def reply(chunks: list[str]) -> Message:\n    msg = Message(id=new_id(), content=[TextPart(c) for c in chunks])\n"
            "    for part in msg.content:\n        part.text = part.text.strip()\n    return msg\n"
        ),
        # A database row read with sqlite3 and written back: named as a row, not a span.
        Valid(
            "import sqlite3\nfrom dataclasses import dataclass\n\n@dataclass\nclass TicketRow:\n    id: int\n    content: str\n\n"
            "def append_reply(conn: sqlite3.Connection, row: TicketRow, reply: str) -> None:\n"
            "    row.content = row.content + '\\n' + reply\n"
            "    conn.execute('UPDATE tickets SET content = ? WHERE id = ?', (row.content, row.id))\n"
        ),
        Valid("from dataclasses import dataclass\n\n@dataclass\nclass ChatMessage:\n    id: str\n    content: str\n\nclass Stream:\n    def _to_message(self, chunk: str) -> ChatMessage:\n        return ChatMessage(id=new_id(), content=chunk)\n\n    def emit(self, chunk: str) -> ChatMessage:\n        message = self._to_message(chunk)\n        message.content = message.content.strip()\n        return message\n"),
        Valid("from dataclasses import dataclass\n\n@dataclass\nclass ChatMessage:\n    id: str\n    content: str\n\nclass Agent:\n    def reply(self, messages: list[ChatMessage]) -> ChatMessage:\n        response = self.model.invoke(messages)\n        response.content = response.content.strip()\n        return response\n"),
        Valid("class Message:\n    def __init__(self, id, content):\n        self.id = id\n        self.content = content\n\ndef build(id):\n    message = Message(id, '')\n    message.content = 'x'\n    return message\n"),
        Valid("from dataclasses import dataclass\n\n@dataclass\nclass ChatMessage:\n    id: str\n    role: str\n    content: str\n\ndef redact(message: ChatMessage) -> ChatMessage:\n    return ChatMessage(id=new_id(), role=message.role, content=scrub(message.content))\n"),
        Valid("from dataclasses import dataclass\n\n@dataclass\nclass ChatMessage:\n    id: str\n    role: str\n    content: str\n\ndef redact(message: ChatMessage) -> None:\n    message.content = scrub(message.content)\n    message.id = new_id()\n"),
        Valid("from pydantic import BaseModel\n\nclass Block(BaseModel):\n    id: str\n    label: str\n    value: str\n\ndef prune(block: Block) -> None:\n    block.value = '[removed]'\n"),
        Valid("from pydantic import BaseModel\n\nclass Block(BaseModel):\n    id: str\n    label: str\n    value: str\n\ndef relabel(block: Block, label: str) -> None:\n    block.label = label\n"),
        Valid("from pydantic import BaseModel\n\nclass Setting(BaseModel):\n    id: str\n    value: str\n\ndef set_value(setting: Setting, value):\n    setting.value = value\n"),
        Valid("class ApiError(Exception):\n    def __init__(self, id, body):\n        self.id = id\n        self.body = body\n\ndef shorten(error: ApiError) -> None:\n    error.body = error.body[:200]\n"),
        Valid("from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    content: str\n    content_hash: str\n\ndef edit(span: Span):\n    span.content = 'x'\n"),
        # A streaming response grows a block of its own content; the tree calls it only on the response
        # each chunk builds, before handing it out: no one holds it yet.
        Valid(
            "from dataclasses import dataclass, field\n\n@dataclass\nclass TextBlock:\n    id: str\n    text: str\n\n"
            "@dataclass\nclass ChatResponse:\n    id: str\n    content: list[TextBlock] = field(default_factory=list)\n\n"
            "    def append_text(self, text: str, block_id: str) -> 'ChatResponse':\n"
            "        for block in self.content:\n            if block.id == block_id:\n                block.text += text\n"
            "        return self\n\n"
            "def parse(events, response_id):\n    for event in events:\n        delta = ChatResponse(id=response_id)\n"
            "        delta.append_text(event.text, event.block_id)\n        yield delta\n"
        ),
        # A private accumulator collects fragments and builds a new block out of them; only the stream
        # that builds it holds it.
        Valid(
            "from pydantic import BaseModel, Field\n\nclass TextBlock(BaseModel):\n    id: str\n    text: str\n\n"
            "class _TextBlockBuilder(TextBlock):\n    text: list[str] = Field(default_factory=list)\n\n"
            "    def append(self, block: TextBlock) -> None:\n        self.text.append(block.text)\n\n"
            "    def build(self) -> TextBlock:\n        return TextBlock(id=self.id, text=''.join(self.text))\n\n"
            "class Stream:\n    def __init__(self) -> None:\n        self._blocks = {}\n\n"
            "    def add(self, block: TextBlock) -> None:\n        builder = self._blocks.get(block.id)\n"
            "        if builder is None:\n            builder = self._blocks[block.id] = _TextBlockBuilder(id=block.id)\n"
            "        builder.append(block)\n"
        ),
        # The same content under the old id (a conversion), or masked content under a new id.
        Valid(
            "import uuid\nfrom dataclasses import dataclass\n\n@dataclass\nclass ChatMessage:\n    id: str\n    content: str\n\n"
            "def plain(messages: list[ChatMessage]) -> list[ChatMessage]:\n"
            "    return [ChatMessage(content=str(m.content), id=m.id) for m in messages]\n\n"
            "def redact(messages: list[ChatMessage]) -> list[ChatMessage]:\n"
            "    return [ChatMessage(content=mask(m.content), id=str(uuid.uuid4())) for m in messages]\n"
        ),
        # Finished before it is handed over: still the function's own object.
        Valid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Message:\n    id: str\n    content: str\n\n"
            "class Assistant:\n    def answer(self, text: str) -> Message:\n"
            "        msg = Message(id='a1', content=text)\n        msg.content = text.strip()\n"
            "        self.window.append(msg)\n        return msg\n"
        ),
        # A menu entry and a prompt preset: screen and configuration text a person wrote, not spans.
        Valid(
            "from dataclasses import dataclass\n\n@dataclass\nclass MenuItem:\n    id: str\n    text: str\n\n"
            "@dataclass\nclass PromptPreset:\n    id: str\n    title: str\n    text: str\n\n"
            "def fit(items: list[MenuItem], width: int) -> None:\n    for item in items:\n"
            "        item.text = item.text[:width]\n\n"
            "def override(presets: dict[str, PromptPreset], preset_id: str, text: str) -> None:\n"
            "    presets[preset_id].text = text\n",
        ),
        # An agent keeps the conversation: its messages are the spans, it is not one.
        Valid(
            "from dataclasses import dataclass, field\n\n@dataclass\nclass Agent:\n    agent_id: str\n"
            "    messages: list = field(default_factory=list)\n\n"
            "def compact(agent: Agent, summary, keep: int) -> None:\n    agent.messages[2:-keep] = [summary]\n",
        ),
        # A job of a work queue, its text rewritten before a retry: not a span.
        Valid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Job:\n    id: str\n    text: str\n    attempts: int = 0\n\n"
            "def retry(job: Job) -> None:\n    job.text = job.text.strip()\n    job.attempts += 1\n",
        ),
    ]
    invalid = [
        # A graph node handing back copies under the same ids: LangGraph's `add_messages` swaps them in by id.
        Invalid(
            "from dataclasses import dataclass, replace\n\n@dataclass\nclass ChatMessage:\n    id: str\n    content: str\n\n"
            "def redact_pii(messages: list[ChatMessage]) -> dict:\n    updates = []\n    for msg in messages:\n"
            "        clean = scrub(msg.content)\n        if clean != msg.content:\n"
            "            updates.append(replace(msg, content=clean))\n"
            "    return {\"messages\": updates} if updates else {}\n",
            line=14, column=5,
            message="`msg.content` replaced by a copy under the same id; `ChatMessage` keeps its `id` and has no version or hash",
        ),
        # Haystack's `ChatMessage`: content behind the `text` property, the id in its metadata.
        Invalid(
            "from dataclasses import dataclass, field\n\n@dataclass\nclass ChatMessage:\n    _role: str\n    _content: str\n"
            "    _meta: dict = field(default_factory=dict)\n\n    @property\n    def text(self) -> str:\n        return self._content\n\n"
            "    @property\n    def meta(self) -> dict:\n        return self._meta\n\n"
            "def scrub(messages: list[ChatMessage]) -> None:\n    for msg in messages:\n"
            "        if msg.meta.get(\"message_id\"):\n            msg._content = mask(msg.text)\n",
            line=20, column=13,
            message="`msg._content` rewritten in place; `ChatMessage` keeps its `meta[\"message_id\"]` and has no version or hash",
        ),
        # The loop runs over the tool summaries a filter kept out of a list of base messages.
        Invalid(
            "from pydantic import BaseModel\n\nclass ChatMessage(BaseModel):\n    source: str\n\n"
            "class ToolSummary(ChatMessage):\n    id: str\n    content: str\n\n"
            "def clip(messages: list[ChatMessage], limit: int) -> None:\n"
            "    for msg in (m for m in messages if isinstance(m, ToolSummary)):\n"
            "        msg.content = msg.content[:limit]\n",
            line=12, column=9, message="`msg.content` rewritten in place; `ToolSummary` keeps its `id` and has no version or hash",
        ),
        # Its own text under an id named after what it is (`note_id` of a `Note`).
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Note:\n    note_id: str\n    body: str\n    pinned: bool = False\n\n"
            "def condense(notes: dict[str, Note], llm) -> None:\n    for note in notes.values():\n"
            "        note.body = llm.summarize(note.body)\n",
            line=11, column=9, message="`note.body` rewritten in place; `Note` keeps its `note_id` and has no version or hash",
        ),
        # The parts of a message's content edited one by one (Letta's `TextContent`, LangChain's
        # content blocks): the message's content changes under its id.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass TextPart:\n    text: str\n\n"
            "@dataclass\nclass Message:\n    id: str\n    content: list[TextPart]\n\n"
            "def scrub(history: list[Message]) -> None:\n    for m in history:\n        for part in m.content:\n"
            "            part.text = mask(part.text)\n",
            line=15, column=13, message="`m.content` rewritten in place; `Message` keeps its `id` and has no version or hash",
        ),
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Message:\n    id: str\n    content: list[dict]\n\n"
            "def clip(msg: Message, limit: int) -> None:\n    first = msg.content[0]\n    first[\"text\"] = first[\"text\"][:limit]\n",
            line=10, column=5, message="`msg.content` rewritten in place; `Message` keeps its `id` and has no version or hash",
        ),
        # A LangChain-style document cleaned in place: its metadata gets a flag, not a new version.
        Invalid(
            "from pydantic import BaseModel\n\nclass Document(BaseModel):\n    id: str | None = None\n"
            "    page_content: str\n    metadata: dict = {}\n\n"
            "def clean(doc: Document) -> None:\n    doc.page_content = strip_html(doc.page_content)\n"
            "    doc.metadata[\"cleaned\"] = True\n",
            line=9, column=5, message="`doc.page_content` rewritten in place; `Document` keeps its `id` and has no version or hash",
        ),
        Invalid("from dataclasses import dataclass\n\n@dataclass\nclass Memo:\n    id: str\n    body: str\n\ndef redact(memo: Memo) -> None:\n    memo.body = scrub(memo.body)\n", line=9, column=5, message="`memo.body` rewritten in place; `Memo` keeps its `id` and has no version or hash", help="Give `memo` a new `id`, or exempt `Memo` in `vocabulary.not_span_classes`"),
        Invalid("class Message:\n    def __init__(self, id, content):\n        self.id = id\n        self.content = content\n\ndef redact(message: Message):\n    message.content = scrub(message.content)\n", line=7, column=5, message="`message.content` rewritten in place; `Message` keeps its `id` and has no version or hash"),
        Invalid("from pydantic import BaseModel\n\nclass Block(BaseModel):\n    id: str\n    label: str\n    value: str\n\nclass Memory(BaseModel):\n    blocks: list[Block]\n\n    def update(self, label, value):\n        for block in self.blocks:\n            if block.label == label:\n                block.value = value\n                return\n", line=14, column=17, message="`block.value` rewritten in place; `Block` keeps its `id` and has no version or hash"),
        Invalid("from dataclasses import dataclass\n\n@dataclass\nclass ChatMessage:\n    id: str\n    role: str\n    content: str\n\nasync def strip_reasoning(messages: list[ChatMessage]) -> None:\n    for m in messages:\n        m.content = m.content.split('</think>')[-1]\n", line=11, column=9, message="`m.content` rewritten in place; `ChatMessage` keeps its `id` and has no version or hash"),
        Invalid("from dataclasses import dataclass\n\n@dataclass\nclass ChatMessage:\n    id: str\n    role: str\n    content: str\n\ndef merge(messages: list[ChatMessage]) -> None:\n    messages[0].content += messages[1].content\n    del messages[1]\n", line=10, column=5, message="`messages[0].content` rewritten in place; `ChatMessage` keeps its `id` and has no version or hash", help="Give `messages[0]` a new `id`, or exempt `ChatMessage` in `vocabulary.not_span_classes`"),
        Invalid("from pydantic import BaseModel\n\nclass Block(BaseModel):\n    id: str\n    label: str\n    value: str\n\ndef append(block: Block, text: str) -> None:\n    setattr(block, 'value', block.value + text)\n", line=9, column=5, message="`block.value` rewritten in place; `Block` keeps its `id` and has no version or hash"),
        Invalid("from dataclasses import dataclass\n\n@dataclass\nclass ChatMessage:\n    id: str\n    role: str\n    content: str\n\nclass Chat:\n    def __init__(self):\n        self.history: dict[str, ChatMessage] = {}\n\n    def edit(self, message_id: str, text: str) -> None:\n        msg = self.history[message_id]\n        msg.content = text\n", line=15, column=9, message="`msg.content` rewritten in place; `ChatMessage` keeps its `id` and has no version or hash"),
        # The same response method, called on a reply taken from the buffer of replies handed out.
        Invalid(
            "from dataclasses import dataclass, field\n\n@dataclass\nclass TextBlock:\n    id: str\n    text: str\n\n"
            "@dataclass\nclass ChatResponse:\n    id: str\n    content: list[TextBlock] = field(default_factory=list)\n\n"
            "    def append_text(self, text: str, block_id: str) -> 'ChatResponse':\n"
            "        for block in self.content:\n            if block.id == block_id:\n                block.text += text\n"
            "        return self\n\n"
            "class Replies:\n    def __init__(self) -> None:\n        self.replies: dict[str, ChatResponse] = {}\n\n"
            "    def extend(self, reply_id: str, text: str, block_id: str) -> None:\n"
            "        self.replies[reply_id].append_text(text, block_id)\n",
            line=16, column=17, message="`block.text` rewritten in place; `TextBlock` keeps its `id` and has no version or hash",
        ),
        # A public builder: code outside the tree may hold one by its id while it grows.
        Invalid(
            "from pydantic import BaseModel, Field\n\nclass TextBlock(BaseModel):\n    id: str\n    text: str\n\n"
            "class TextBlockBuilder(TextBlock):\n    text: list[str] = Field(default_factory=list)\n\n"
            "    def append(self, block: TextBlock) -> None:\n        self.text.append(block.text)\n\n"
            "    def build(self) -> TextBlock:\n        return TextBlock(id=self.id, text=''.join(self.text))\n\n"
            "def stream(blocks: list[TextBlock]) -> TextBlock:\n    builder = TextBlockBuilder(id=blocks[0].id)\n"
            "    for block in blocks:\n        builder.append(block)\n    return builder.build()\n",
            line=11, column=9, message="`self.text` rewritten in place; `TextBlockBuilder` keeps its `id` and has no version or hash",
        ),
        # A masked copy handed back under the old id: whatever merges messages by id swaps it in.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass ChatMessage:\n    id: str\n    content: str\n\n"
            "def redact(messages: list[ChatMessage]) -> list[ChatMessage]:\n    updates = []\n    for msg in messages:\n"
            "        updates.append(ChatMessage(content=mask(msg.content), id=msg.id))\n    return updates\n",
            line=11, column=9,
            message="`msg.content` replaced by a copy under the same id; `ChatMessage` keeps its `id` and has no version or hash",
        ),
        # Built here, then handed to the window: from there on others hold it under its id.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Message:\n    id: str\n    content: str\n\n"
            "class Assistant:\n    def answer(self, text: str) -> Message:\n"
            "        msg = Message(id='a1', content=text)\n        self.window.append(msg)\n"
            "        msg.content = text.strip()\n        return msg\n",
            line=12, column=9,
            message="`msg.content` rewritten in place; `Message` keeps its `id` and has no version or hash",
        ),
        # The messages of a run, read through `or []` (the list may be None).
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Message:\n    id: str\n    content: str\n\n"
            "@dataclass\nclass RunOutput:\n    messages: list[Message] | None = None\n\n"
            "def scrub(run_output: RunOutput) -> None:\n    for m in run_output.messages or []:\n"
            "        m.content = redact(m.content)\n",
            line=14, column=9,
            message="`m.content` rewritten in place; `Message` keeps its `id` and has no version or hash",
        ),
        # Copies with shorter text put back under their keys in one `update`.
        Invalid(
            "from dataclasses import dataclass, replace\n\n@dataclass\nclass KnowledgeChunk:\n    chunk_id: str\n    text: str\n\n"
            "def compress(chunks: dict[str, KnowledgeChunk], limit: int) -> None:\n"
            "    chunks.update({cid: replace(c, text=c.text[:limit]) for cid, c in chunks.items()})\n",
            line=9, column=5,
            message="`c.text` replaced by a copy under the same id; `KnowledgeChunk` keeps its `chunk_id` and has no version or hash",
        ),
    ]

    def check(self, write: ContentWrite) -> None:
        span_class = write.span_class
        if span_class is None or span_class.version_fields or span_class.hash_fields:
            return
        if self.derived_left(write):
            return  # SPL104 reports the write: its embedding or offsets still describe the old text
        if write.copy is None and self.reads_field(write, span_class.id_fields) and self._rekeys(write):
            return
        if copy_sets(write, span_class.id_fields):
            return  # a copy under a new id (`model_copy(update={"content": ..., "id": new_id()})`)
        if self.tracks_in_metadata(span_class):
            return  # `doc.metadata[VERSION_KEY]`: the file keeps versions or hashes in metadata (SPL101, SPL102)
        field = f"`{span_class.id_fields[0]}`"
        self.report(
            write.statement,
            f"{write.rewritten()}; `{span_class.name}` keeps its {field} and has no version or hash",
            help=f"Give `{write.owner_code}` a new {field}, or exempt `{span_class.name}` in `vocabulary.not_span_classes`",
        )

    def _rekeys(self, write: ContentWrite) -> bool:
        assert write.span_class is not None
        return self.covered(write, write.span_class.id_fields, (), "")
