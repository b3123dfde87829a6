"""SPL101: span content rewritten in place without bumping its version."""

from __future__ import annotations

from spanlint.rules.base import Fix, Invalid, Valid
from spanlint.rules.libcst_backend import cst
from spanlint.rules.rewrites import ContentWrite, RewriteRule, copy_sets, insert_after
from spanlint.rules.sql import SqlWrite, left_unset


class InPlaceRewriteWithoutVersionBump(RewriteRule):
    code = "SPL101"
    name = "in-place-rewrite-without-version-bump"
    summary = "Span content rewritten in place without bumping its version"
    message = "Span content rewritten in place without bumping its version"
    fix_applicability = "unsafe"
    docs = """
## What it does
Finds functions that rewrite a span's content in place (`span.content = ...`, `+=`, `setattr`,
`object.__setattr__`, `__dict__[...]`, mutating methods on list-valued content, item assignment or
`del`, `span.update(text=...)` on a span kept as a mapping (a `TypedDict`, or plain dicts under a name
of their own, `Span = dict[str, Any]`, whose keys are those the module's `-> Span` builders give
them), content setter methods such as `node.set_content(...)`, or a copy with new content stored back
under the same id (`spans[s.id] = replace(s, content=x)`, or given to a store's `add`/`put`/`upsert`:
`buffer.add(span.model_copy(update={"content": x}))`), or handed back in place of a span the function was given when its class has a
version or hash field: `return replace(seg, body=short)`; also the content of a message a span wraps,
`span.message.content = ...` where `TurnSpan(span_id, message: ChatMessage, version)` keeps its text
there) and do not bump the span's version on every path through the write. A row of a span table
counts too: `conn.execute("UPDATE spans SET content = ? WHERE span_id = ?", ...)` on a table the
module creates with an id, a content and a version column (`CREATE TABLE spans (...)`), when the
statement does not set the version (`version = version + 1`) and gives the row no new id.

A bump is an assignment or augmented assignment to the version field, a bump method
(`span.bump()`), or a call of a helper of the linted tree that bumps the version of the argument it
is given. A bump before the write counts; a bump under a condition that does not cover the write,
or skipped by an early `return`, does not. Objects built in the function (until it hands them to a
container the caller or the object holds: `self.window.append(msg)`), constructors
(`__init__`, `__post_init__`, `__new__`) and tombstone writes (`span.content = "[pruned]"`) are
exempt, and so are classes known to have no version field (see SPL103). A method's write to its own
`self` (or to what `self` holds) is judged where the method is called: exempt when every call of it
in the linted tree is on an object the caller built itself (`delta = Reply(...)`;
`delta.append_text(t)`), or when its class is a private builder (`_TextBlockBuilder` with a `build()`
that makes a new block); kept when any call is on an object received or read out of a container, and
when the tree never calls it (public API).

## Why is this bad?
The span keeps its id, so every artifact keyed on it (embeddings, token-offset maps, citations,
caches) silently refers to text the span no longer holds. A version bump lets consumers that key on
`(span_id, version)` notice the change.

## Example
```python
def redact(span: Span) -> None:
    span.content = EMAIL.sub("[email]", span.content)
```

## Use instead
```python
def redact(span: Span) -> None:
    span.content = EMAIL.sub("[email]", span.content)
    span.version += 1
```
or copy-on-rewrite: build a new span with a new id.

## Fix safety
The fix inserts `<span>.<version field> += 1` right after the write when the version field is known
(declared by the span's class, or read on that span in the function). It is unsafe: it changes
behaviour, and a caller that already bumps the version would now bump it twice.
"""
    valid = [
        Valid(
            "from pydantic import BaseModel\n\nclass Span(BaseModel):\n    id: str\n    content: str\n    version: int = 0\n\n"
            "class Buffer:\n    def __init__(self):\n        self._spans: dict[str, Span] = {}\n\n"
            "    def add(self, span: Span) -> None:\n        self._spans[span.id] = span\n\n"
            "    def live(self) -> list[Span]:\n        return list(self._spans.values())\n\n"
            "def fork(buffer: Buffer, llm) -> None:\n    for span in buffer.live():\n"
            "        buffer.add(span.model_copy(update={'content': llm.summarize(span.content), 'id': new_id(), 'version': 0}))\n"
        ),
        Valid(
            "from typing import Any\n\nSpan = dict[str, Any]\n\n"
            "def make_span(text: str) -> Span:\n    return {\"id\": new_id(), \"text\": text, \"rev\": 0, \"sha\": sha_of(text)}\n\n"
            "def normalize(span: Span) -> None:\n    span.update(text=span[\"text\"].strip(), rev=span[\"rev\"] + 1)\n"
        ),
        # A record with an id of its own that names the span it was cut from: a new object, not a copy of the span.
        Valid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    text: str\n    version: int = 0\n\n"
            "@dataclass\nclass PassageRecord:\n    passage_id: str\n    span_id: str\n    text: str\n\n"
            "def passage(span: Span, pid: str) -> PassageRecord:\n"
            "    return PassageRecord(passage_id=pid, span_id=span.span_id, text=span.text[:500])\n"
        ),
        Valid(
            "SCHEMA = \"\"\"\nCREATE TABLE IF NOT EXISTS spans (\n    span_id TEXT PRIMARY KEY,\n    content TEXT NOT NULL,\n    version INTEGER NOT NULL DEFAULT 0,\n    content_hash TEXT NOT NULL,\n    tombstoned_at REAL\n);\n\"\"\"\n\n"
            "def rewrite(conn, span_id: str, content: str) -> None:\n"
            "    conn.execute(\n        \"UPDATE spans SET content = ?, content_hash = ?, version = version + 1 WHERE span_id = ?\",\n"
            "        (content, digest(content), span_id),\n    )\n"
        ),
        # A table of rows with no version or hash (`tickets`): not spans.
        Valid(
            "SCHEMA = \"CREATE TABLE tickets (id INTEGER PRIMARY KEY, body TEXT, status TEXT)\"\n\n"
            "def edit(conn, ticket_id: int, body: str) -> None:\n    conn.execute(\"UPDATE tickets SET body = ? WHERE id = ?\", (body, ticket_id))\n"
        ),
        # A copy under the same id whose metadata carries the next version and the new hash.
        Valid(
            "from pydantic import BaseModel\n\nclass Document(BaseModel):\n    id: str | None = None\n"
            "    page_content: str\n    metadata: dict = {}\n\n"
            "VERSION_KEY = 'version'\n\n"
            "def normalize(doc: Document) -> Document:\n    text = ' '.join(doc.page_content.split())\n"
            "    meta = dict(doc.metadata)\n    meta[VERSION_KEY] = meta.get(VERSION_KEY, 0) + 1\n"
            "    return Document(id=doc.id, page_content=text, metadata=meta)\n"
        ),
        Valid("def compress(span):\n    span.content = shorten(span.content)\n    span.version += 1\n"),
        Valid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    content: str\n"
            "    version: int = 0\n\n    def rewrite(self, text):\n        self.version += 1\n        self.content = text\n"
        ),
        Valid(
            "def bump(span):\n    span.version += 1\n\nasync def redact(spans):\n    for span in spans:\n"
            "        span.content = scrub(span.content)\n        bump(span)\n"
        ),
        Valid(
            "def normalize(span, log):\n    try:\n        span.content = span.content.strip()\n"
            "        log.write(span.span_id)\n    finally:\n        span.version += 1\n"
        ),
        Valid("def prune(span):\n    span.content = \"[pruned]\"\n"),
        Valid("def build(text):\n    span = Span(span_id=new_id(), content='')\n    span.content = text\n    return span\n"),
        Valid("import xml.etree.ElementTree as ET\n\ndef strip(node):\n    node.text = node.text.strip()\n"),
        Valid("def parse(element):\n    element.text = element.text.strip()\n"),
        Valid(
            "class Note:\n    def __init__(self, id, content):\n        self.id = id\n        self.content = content\n"
            "\n    def edit(self, text):\n        self.content = text\n"
        ),
        # known only by its name: the one class of the module whose content it writes has a hash, no version
        Valid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Snippet:\n    span_id: str\n    content: str\n    content_hash: str\n\ndef redact(span):\n    span.content = scrub(span.content)\n"
            "    span.content_hash = digest(span.content)\n"
        ),
        # ... and the one class of the module with a `text` is a widget, not a span
        Valid("from dataclasses import dataclass\n\n@dataclass\nclass Label:\n    id: str\n    text: str\n    x: int = 0\n    y: int = 0\n\ndef shout(span):\n    span.text = span.text.upper()\n"),
        Valid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    content: str\n    version: int = 0\n\n"
            "def shorten(span: Span) -> Span:\n"
            "    return Span(span_id=span.span_id, content=span.content[:100], version=span.version + 1)\n\n"
            "def convert(span: Span) -> Span:\n"
            "    return Span(span_id=span.span_id, content=span.content, version=span.version)\n"
        ),
        # The version is bumped through a local alias of the document's metadata (Agno's `meta_data`).
        Valid(
            "from agno.knowledge.document import Document\n\n"
            "def reembed(doc: Document, new_text: str) -> Document:\n    meta = doc.meta_data\n"
            "    meta['version'] = int(meta.get('version', 0)) + 1\n    doc.content = new_text\n    return doc\n\n"
            "def stamp(doc: Document) -> None:\n    doc.meta_data['version'] = 1\n",
        ),
        # A memory entry built from an event, its content an unchanged copy of the event's: not a rewrite.
        Valid(
            "from pydantic import BaseModel\n\nclass Event(BaseModel):\n    id: str\n    content: str\n    version: int = 0\n\n"
            "class MemoryEntry(BaseModel):\n    id: str\n    content: str\n    version: int = 0\n\n"
            "def remember(events: list[Event], bucket: dict) -> None:\n    for event in events:\n"
            "        bucket[event.id] = MemoryEntry(id=event.id, content=event.content.model_copy(deep=True))\n",
        ),
        # A plain dict record of the rows a store keeps, its version bumped with the text.
        Valid(
            "class Rows:\n    def __init__(self):\n        self._rows = {}\n\n    def capture(self, s):\n"
            "        self._rows[s.span_id] = {'content': s.content, 'version': s.version}\n\n"
            "    def patch(self, span_id, text):\n        rec = self._rows.get(span_id)\n        rec['content'] = text\n"
            "        rec['version'] += 1\n",
        ),
        # A payload's body edited: an API value, not a stored record.
        Valid(
            "def build(payload):\n    body = payload.get('data')\n    body['content'] = body['content'].strip()\n"
            "    return {'version': 2, 'body': body}\n",
        ),
        # The copy is given metadata built with a new version under the file's key.
        Valid(
            "from pydantic import BaseModel\n\nclass ToolMessage(BaseModel):\n    id: str\n    content: str\n"
            "    additional_kwargs: dict = {}\n\nSPAN_VERSION_KEY = 'span_version'\n\n"
            "def shrink(messages: list[ToolMessage]):\n    out = []\n    for msg in messages:\n"
            "        kwargs = {**msg.additional_kwargs, SPAN_VERSION_KEY: msg.additional_kwargs.get(SPAN_VERSION_KEY, 0) + 1}\n"
            "        out.append(msg.model_copy(update={'content': msg.content[:200], 'additional_kwargs': kwargs}))\n"
            "    return {'messages': out}\n",
        ),
    ]
    invalid = [
        # A copy with new content handed back to the store that files it under its id.
        Invalid(
            "from pydantic import BaseModel\n\nclass Span(BaseModel):\n    id: str\n    content: str\n    version: int = 0\n\n"
            "class Buffer:\n    def __init__(self):\n        self._spans: dict[str, Span] = {}\n\n"
            "    def add(self, span: Span) -> None:\n        self._spans[span.id] = span\n\n"
            "    def live(self) -> list[Span]:\n        return list(self._spans.values())\n\n"
            "def compress(buffer: Buffer, llm) -> None:\n    for span in buffer.live():\n"
            "        buffer.add(span.model_copy(update={'content': llm.summarize(span.content)}))\n",
            line=20, column=9, message="`span.content` replaced by a copy under the same id without a new version",
        ),
        # Spans kept as plain dicts under a name of their own: the keys its builder gives them are its fields.
        Invalid(
            "from typing import Any\n\nSpan = dict[str, Any]\n\n"
            "def make_span(text: str) -> Span:\n    return {\"id\": new_id(), \"text\": text, \"rev\": 0, \"sha\": sha_of(text)}\n\n"
            "def redact(span: Span) -> None:\n    span[\"text\"] = scrub(span[\"text\"])\n    span[\"sha\"] = sha_of(span[\"text\"])\n",
            line=9, column=5, message="`span[\"text\"]` rewritten in place without bumping `span[\"rev\"]`",
        ),
        # A span table (`CREATE TABLE` in the module): its row rewritten by an `UPDATE` that keeps the id.
        Invalid(
            "SCHEMA = \"\"\"\nCREATE TABLE IF NOT EXISTS spans (\n    span_id TEXT PRIMARY KEY,\n    content TEXT NOT NULL,\n    version INTEGER NOT NULL DEFAULT 0,\n    content_hash TEXT NOT NULL,\n    tombstoned_at REAL\n);\n\"\"\"\n\n"
            "def set_content(conn, span_id: str, content: str) -> None:\n"
            "    conn.execute(\"UPDATE spans SET content = ?, content_hash = ? WHERE span_id = ?\", (content, digest(content), span_id))\n",
            line=12, column=5, message="`spans.content` rewritten in place without bumping `spans.version`",
        ),
        # The version lives in the document's metadata, and the redaction leaves it as it was.
        Invalid(
            "from pydantic import BaseModel\n\nclass Document(BaseModel):\n    id: str | None = None\n"
            "    page_content: str\n    metadata: dict = {}\n\n"
            "def redact(doc: Document) -> None:\n    doc.page_content = scrub(doc.page_content)\n"
            "    doc.metadata['redacted'] = True\n\n"
            "def stamp(doc: Document) -> None:\n    doc.metadata['version'] = 1\n",
            line=9, column=5, message="`doc.page_content` rewritten in place without bumping the version in its metadata",
        ),
        Invalid(
            "def compress(span):\n    span.content = shorten(span.content)\n    return span.version\n",
            line=2,
            column=5,
            fixed="def compress(span):\n    span.content = shorten(span.content)\n    span.version += 1\n    return span.version\n",
            message="`span.content` rewritten in place without bumping `span.version`",
        ),
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    content: str\n"
            "    revision: int = 0\n\n    def rewrite(self, text):\n        self.content = text  # new text\n",
            line=10,
            column=9,
            fixed="from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    content: str\n"
            "    revision: int = 0\n\n    def rewrite(self, text):\n        self.content = text  # new text\n"
            "        self.revision += 1\n",
            message="`self.content` rewritten in place without bumping `self.revision`",
            help="Bump `self.revision` after the write, or copy the span under a new id",
        ),
        Invalid(
            "async def summarize(passages, llm):\n    for passage in passages:\n"
            "        passage.text = await llm.asummarize(passage.text)\n",
            line=3,
            column=9,
            message="`passage.text` rewritten in place without bumping its version",
            help="Bump its version after the write, or copy the span under a new id",
        ),
        Invalid(
            "def redact(self, span_id, dry_run):\n    s = self._spans[span_id]\n    s.content = scrub(s.content)\n"
            "    if dry_run:\n        return s\n    s.version += 1\n    return s\n",
            line=3,
            column=5,
            fixed="def redact(self, span_id, dry_run):\n    s = self._spans[span_id]\n    s.content = scrub(s.content)\n"
            "    s.version += 1\n    if dry_run:\n        return s\n    s.version += 1\n    return s\n",
            message="`s.content` rewritten in place without bumping `s.version`",
        ),
        # the class's own id under a short form of its noun (`seg_id` of a `Segment`), the value named neutrally
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Segment:\n    seg_id: str\n    body: str\n"
            "    rev: int = 0\n\ndef redact(x: Segment) -> None:\n    x.body = scrub(x.body)\n",
            line=10, column=5, message="`x.body` rewritten in place without bumping `x.rev`",
            help="Bump `x.rev` after the write, or copy the span under a new id",
        ),
        Invalid("def trim(chunk, n):\n    del chunk.tokens[n:]\n", line=2, column=5, message="`chunk.tokens` rewritten in place without bumping its version"),
        Invalid("def rewrite(span, text):\n    object.__setattr__(span, 'content', text)\n", line=2, column=5, message="`span.content` rewritten in place without bumping its version"),
        Invalid(  # a copy handed back in place of the segment it was given, under its id
            "import dataclasses\n\n@dataclasses.dataclass\nclass Segment:\n    seg_id: str\n    body: str\n    rev: int = 0\n\n"
            "def squeeze(seg: Segment) -> Segment:\n    return dataclasses.replace(seg, body=seg.body.strip())\n",
            line=10,
            column=5,
            message="`seg.body` replaced by a copy under the same id without a new version",
            help="Give the copy a new `rev`, or a new id",
        ),
        Invalid(
            "import dataclasses\n\ndef store(buf, span, text):\n    buf[span.span_id] = dataclasses.replace(span, content=text)\n",
            line=4,
            column=5,
            message="`span.content` replaced by a copy under the same id without a new version",
            help="Give the copy a new version, or a new id",
        ),
        Invalid(
            "from pydantic import BaseModel\n\nclass Note(BaseModel):\n    id: str\n    body: str\n    version: int = 0\n\n"
            "def edit(note: Note, text: str) -> None:\n    if text: note.body = text\n",
            line=9,
            column=14,
            fixed="from pydantic import BaseModel\n\nclass Note(BaseModel):\n    id: str\n    body: str\n    version: int = 0\n\n"
            "def edit(note: Note, text: str) -> None:\n    if text: note.body = text; note.version += 1\n",
            message="`note.body` rewritten in place without bumping `note.version`",
            help="Bump `note.version` after the write, or copy the span under a new id",
        ),
        # an unannotated value written as a mapping: the one TypedDict of the module with that content
        Invalid(
            "from typing import TypedDict\n\nclass MemoryBlock(TypedDict):\n    span_id: str\n    content: str\n"
            "    version: int\n\ndef redact(chunk):\n    chunk[\"content\"] = scrub(chunk[\"content\"])\n",
            line=9,
            column=5,
            fixed="from typing import TypedDict\n\nclass MemoryBlock(TypedDict):\n    span_id: str\n    content: str\n"
            "    version: int\n\ndef redact(chunk):\n    chunk[\"content\"] = scrub(chunk[\"content\"])\n    chunk[\"version\"] += 1\n",
            message="`chunk[\"content\"]` rewritten in place without bumping `chunk[\"version\"]`",
        ),
        # The span store reached through a framework's generic run context (`RunContext[Deps]`).
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    content: str\n    version: int = 0\n\n"
            "class SpanStore:\n    def get(self, span_id: str) -> Span | None: ...\n\n"
            "class Deps:\n    def __init__(self, store: SpanStore) -> None:\n        self.store = store\n\n"
            "def clip(ctx: RunContext[Deps], span_id: str | None) -> None:\n"
            "    span = ctx.deps.store.get(span_id) if span_id else None\n"
            "    if span is not None:\n        span.content = span.content[:100]\n",
            line=19, column=9, message="`span.content` rewritten in place without bumping `span.version`",
        ),
        # Rebuilt under its own id, the old version carried over.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    content: str\n    version: int = 0\n\n"
            "def shorten(span: Span) -> Span:\n"
            "    return Span(span_id=span.span_id, content=span.content[:100], version=span.version)\n",
            line=10, column=5, message="`span.content` replaced by a copy under the same id without a new version",
        ),
        # A service the caller builds, rewriting a span it looks up by id in the buffer it holds: the
        # buffer's span is the one every id-keyed artifact describes.
        Invalid(
            "from dataclasses import dataclass, field, replace\n\n@dataclass\nclass Span:\n    span_id: str\n"
            "    content: str\n    version: int = 0\n\nclass Buffer:\n    def __init__(self):\n"
            "        self._spans: dict[str, Span] = {}\n\n    def get(self, span_id: str) -> Span:\n"
            "        return self._spans[span_id]\n\n    def put(self, span: Span) -> None:\n"
            "        self._spans[span.span_id] = span\n\n@dataclass\nclass Service:\n"
            "    buffer: Buffer = field(default_factory=Buffer)\n\n    def redact(self, span_id: str) -> None:\n"
            "        span = self.buffer.get(span_id)\n        span.content = scrub(span.content)\n\n"
            "def main() -> None:\n    service = Service()\n    service.redact('s1')\n",
            line=25, column=9, message="`span.content` rewritten in place without bumping `span.version`",
        ),
        # A record holding its message, identified by its `uuid`, with its version kept in `extra_info`.
        Invalid(
            "from dataclasses import dataclass, field\nfrom uuid import UUID\n\n@dataclass\nclass BaseMessage:\n"
            "    role_name: str\n    content: str\n\n@dataclass\nclass MemoryRecord:\n    message: BaseMessage\n"
            "    uuid: UUID\n    extra_info: dict = field(default_factory=dict)\n\n"
            "def redact(record: MemoryRecord) -> None:\n    record.message.content = scrub(record.message.content)\n"
            "    record.extra_info['content_hash'] = digest(record.message.content)\n\n"
            "def bump(record: MemoryRecord) -> None:\n    record.extra_info['version'] = '1'\n",
            line=16, column=5,
            message="`record.message` rewritten in place without bumping the version in its metadata",
        ),
        # A note kept as a plain dict in session state, with a version the tool reads but never bumps.
        Invalid(
            "def add_note(note_id, text, ctx):\n    notes = ctx.state.get('notes', {})\n"
            "    notes[note_id] = {'text': text, 'version': 1}\n\n"
            "def revise_note(note_id, text, ctx):\n    notes = ctx.state.get('notes', {})\n    record = notes.get(note_id)\n"
            "    record['text'] = text\n    return {'status': 'ok', 'version': record['version']}\n",
            line=8, column=5,
            message="`record[\"text\"]` rewritten in place without bumping `record[\"version\"]`",
        ),
    ]

    def check_sql(self, write: SqlWrite, column: str) -> None:
        table = write.table
        version = left_unset(write, table.version_columns)
        if version is None:
            return
        self.report(
            write.call, f"`{table.name}.{column}` rewritten in place without bumping `{table.name}.{version}`",
            help=f"Set `{version} = {version} + 1` in the same `UPDATE`, or write the new content under a new id",
        )

    def check(self, write: ContentWrite) -> None:
        span_class = write.span_class
        if self.check_in_metadata(write, "version", "without bumping the version", "without a new version", "Bump the version"):
            return  # `doc.metadata[VERSION_KEY]`
        if span_class is not None and (not span_class.version_fields or span_class.auto_versioned):
            return
        guesses = self.context.analysis.guessed_classes(write.owner) if span_class is None else ()
        if any(c.auto_versioned for c in guesses):
            return
        spans = [c for c in guesses if c.is_span]
        if spans and not any(c.version_fields for c in spans):
            return  # known only by its name, and no span class it may be has a version (`node` with `TextNode` imported)
        versions = span_class.version_fields if span_class is not None else self.vocabulary.version_fields
        if write.copy is not None:
            if not copy_sets(write, versions):
                field = f"`{span_class.version_field}`" if span_class is not None else "version"
                self.report(
                    write.statement, f"{write.describe()} replaced by a copy under the same id without a new version",
                    help=f"Give the copy a new {field}, or a new id",
                )
            return
        if self.covered(write, versions, self.vocabulary.bump_methods, "bumps"):
            return
        version = span_class.version_field if span_class is not None else self.reads_field(write, versions)
        bumped = f"`{write.access(version)}`" if version else "its version"
        fix = None
        if version:
            bump = cst.AugAssign(
                target=write.field_target(version),
                operator=cst.AddAssign(),
                value=cst.Integer("1"),
            )
            fix = Fix(f"Bump `{write.access(version)}` after the write", "unsafe", insert_after(write, bump))
        self.report(
            write.statement, f"{write.describe()} rewritten in place without bumping {bumped}",
            help=f"Bump {bumped} after the write, or copy the span under a new id", fix=fix,
        )
