"""SPL104: content rewritten in place while embeddings, offsets or token counts of the old text stay."""

from __future__ import annotations

from spanlint.rules.base import Fix, Invalid, Valid
from spanlint.rules.libcst_backend import cst
from spanlint.rules.rewrites import ContentWrite, RewriteRule, insert_after


class RewriteLeavesDerivedFields(RewriteRule):
    code = "SPL104"
    name = "rewrite-leaves-derived-fields"
    summary = "Span content rewritten in place while its derived fields still describe the old text"
    message = "Span content rewritten in place while its derived fields still describe the old text"
    fix_applicability = "unsafe"
    docs = """
## What it does
Finds in-place content writes (the same forms as SPL101) on a span whose class declares fields
derived from the content — an embedding or vector, start/end character offsets, token counts, or a
field named after one of them (`token_offsets`, `chunk_embeddings`, `text_vector`) — when
the function neither resets nor reassigns those fields on that span, itself or through a helper of
the linted tree that assigns them on the parameter it is given. Fields are judged by family:
recomputing one of the offsets (`end_char_idx`, `sentence_offsets`) covers the offsets, one of the
embeddings the embeddings, a token count the counts; a fresh token count leaves the offsets stale.

## Why is this bad?
The span now carries an embedding, offsets or a token count of text it no longer holds: retrieval
ranks it by the old text, citations point at the wrong characters, budgets are wrong. LlamaIndex's
`TextNode.set_content` and the node postprocessors that call it do exactly this.

## Example
```python
@dataclass
class TextNode:
    id_: str
    text: str
    version: int
    embedding: list[float] | None
    start_char_idx: int | None
    end_char_idx: int | None

def shorten(node: TextNode) -> None:
    node.text = node.text[:500]
    node.version += 1
```

## Use instead
```python
def shorten(node: TextNode) -> None:
    node.text = node.text[:500]
    node.version += 1
    node.embedding = None
    node.start_char_idx = node.end_char_idx = None
```

or copy-on-rewrite: build a new node with a new id (`TextNode(text=..., metadata=node.metadata)`).

## Fix safety
When every derived field of the class may be None (annotated `Optional[...]` or `... | None`, or
defaulting to None, as LlamaIndex's `embedding` and `start_char_idx`/`end_char_idx` are), the fix
clears them right after the write. It is unsafe: code that reads them must now recompute them, and
the project may prefer to recompute them at once.
"""
    valid = [
        Valid(
            "from dataclasses import dataclass, field\n\n@dataclass\nclass IndexedChunk:\n    chunk_id: str\n    text: str\n"
            "    version: int = 1\n    content_hash: str = \"\"\n"
            "    sentence_offsets: list[tuple[int, int]] = field(default_factory=list)\n    token_count: int = 0\n\n"
            "def compress(chunk: IndexedChunk, squeeze) -> None:\n    shorter = squeeze(chunk.text)\n    chunk.text = shorter\n"
            "    chunk.version += 1\n    chunk.content_hash = digest(shorter)\n    chunk.token_count = len(shorter.split())\n"
            "    chunk.sentence_offsets = sentence_bounds(shorter)\n"
        ),
        Valid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Note:\n    note_id: str\n    body: str\n    version: int = 0\n"
            "    body_hash: str = \"\"\n    embedding: list[float] | None = None\n\nNOTES: dict[str, Note] = {}\n\n"
            "def revise(note_id: str, body: str) -> None:\n    record = NOTES[note_id]\n    record.body = body\n"
            "    record.version += 1\n    record.body_hash = digest(body)\n"
            "    record.embedding = None\n"
        ),
        Valid("from dataclasses import dataclass, replace\nfrom typing import Optional\n\n@dataclass\nclass Passage:\n    id: str\n    content: str\n    embedding: Optional[list[float]] = None\n\ndef clip(passages: list[Passage], n: int) -> dict:\n    out = []\n    for p in passages:\n        if len(p.content) > n:\n            p = replace(p, id=new_id(), content=p.content[:n], embedding=None)\n        out.append(p)\n    return {\"passages\": out}\n"),
        Valid("class Chunk:\n    def __init__(self, id, text):\n        self.id = id\n        self.text = text\n        self.embedding = None\n\ndef shorten(chunk: Chunk):\n    chunk.text = chunk.text[:500]\n    chunk.embedding = None\n"),
        Valid("from typing import Optional\nfrom pydantic import BaseModel\n\nclass TextNode(BaseModel):\n    id_: str\n    text: str\n    embedding: Optional[list[float]] = None\n    start_char_idx: Optional[int] = None\n\ndef shorten(node: TextNode) -> None:\n    node.text = node.text[:100]\n    node.embedding = embed(node.text)\n    node.start_char_idx = None\n"),
        Valid("from typing import Optional\nfrom pydantic import BaseModel\n\nclass TextNode(BaseModel):\n    id_: str\n    text: str\n    embedding: Optional[list[float]] = None\n    start_char_idx: Optional[int] = None\n\ndef build(text: str) -> TextNode:\n    node = TextNode(id_='n', text='')\n    node.text = text\n    return node\n"),
        Valid("from typing import Optional\nfrom pydantic import BaseModel\n\nclass TextNode(BaseModel):\n    id_: str\n    text: str\n    embedding: Optional[list[float]] = None\n    start_char_idx: Optional[int] = None\n\ndef prune(node: TextNode) -> None:\n    node.text = '<tombstone>'\n"),
        Valid("from typing import Optional\nfrom pydantic import BaseModel\n\nclass TextNode(BaseModel):\n    id_: str\n    text: str\n    embedding: Optional[list[float]] = None\n    start_char_idx: Optional[int] = None\n\ndef tag(node: TextNode, label: str) -> None:\n    node.metadata = {'label': label}\n"),
        Valid("from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    content: str\n    version: int\n\ndef edit(span: Span):\n    span.content = 'x'\n    span.version += 1\n"),
        Valid("import numpy as np\n\ndef normalize(vector_entry):\n    vector_entry.value = vector_entry.value / np.linalg.norm(vector_entry.value)\n"),
    ]
    invalid = [
        # The token count recomputed, the sentence offsets (another family of derived fields) left.
        Invalid(
            "from dataclasses import dataclass, field\n\n@dataclass\nclass IndexedChunk:\n    chunk_id: str\n    text: str\n"
            "    version: int = 1\n    content_hash: str = \"\"\n"
            "    sentence_offsets: list[tuple[int, int]] = field(default_factory=list)\n    token_count: int = 0\n\n"
            "def compress(chunk: IndexedChunk, squeeze) -> None:\n    shorter = squeeze(chunk.text)\n    chunk.text = shorter\n"
            "    chunk.version += 1\n    chunk.content_hash = digest(shorter)\n    chunk.token_count = len(shorter.split())\n",
            line=14, column=5,
            message="`chunk.text` rewritten in place; `sentence_offsets` still describes the old text",
        ),
        # A note of the module's registry: the annotation of the global says what `record` is.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Note:\n    note_id: str\n    body: str\n    version: int = 0\n"
            "    body_hash: str = \"\"\n    embedding: list[float] | None = None\n\nNOTES: dict[str, Note] = {}\n\n"
            "def revise(note_id: str, body: str) -> None:\n    record = NOTES[note_id]\n    record.body = body\n"
            "    record.version += 1\n    record.body_hash = digest(body)\n",
            line=15, column=5,
            message="`record.body` rewritten in place; `embedding` still describes the old text",
        ),
        Invalid("from dataclasses import dataclass, replace\nfrom typing import Optional\n\n@dataclass\nclass Passage:\n    id: str\n    content: str\n    embedding: Optional[list[float]] = None\n\ndef clip(passages: list[Passage], n: int) -> dict:\n    out = []\n    for p in passages:\n        if len(p.content) > n:\n            p = replace(p, content=p.content[:n])\n        out.append(p)\n    return {\"passages\": out}\n", line=14, column=13, message="`p.content` replaced by a copy under the same id; `embedding` still describes the old text"),
        Invalid("class Chunk:\n    def __init__(self, id, text):\n        self.id = id\n        self.text = text\n        self.embedding = None\n\ndef shorten(chunk: Chunk):\n    chunk.text = chunk.text[:500]\n", line=8, column=5, message="`chunk.text` rewritten in place; `embedding` still describes the old text"),
        Invalid("from typing import Optional\nfrom pydantic import BaseModel\n\nclass TextNode(BaseModel):\n    id_: str\n    text: str\n    embedding: Optional[list[float]] = None\n    start_char_idx: Optional[int] = None\n\n    def set_content(self, value: str) -> None:\n        self.text = value\n", line=11, column=9, message="`self.text` rewritten in place; `embedding`, `start_char_idx` still describe the old text"),
        Invalid("from typing import Optional\nfrom pydantic import BaseModel\n\nclass TextNode(BaseModel):\n    id_: str\n    text: str\n    embedding: Optional[list[float]] = None\n    start_char_idx: Optional[int] = None\n\nclass NodeWithScore(BaseModel):\n    node: TextNode\n    score: float\n\ndef replace_metadata(nodes: list[NodeWithScore]) -> None:\n    for n in nodes:\n        n.node.text = n.node.text.upper()\n", line=16, column=9, message="`n.node.text` rewritten in place; `embedding`, `start_char_idx` still describe the old text"),
        Invalid(
            "from typing import Optional\nfrom pydantic import BaseModel\n\nclass TextNode(BaseModel):\n    id_: str\n    text: str\n"
            "    embedding: Optional[list[float]] = None\n    start_char_idx: Optional[int] = None\n\n"
            "async def translate(node: TextNode, llm) -> TextNode:\n    node.text = await llm.atranslate(node.text)\n    return node\n",
            line=11,
            column=5,
            fixed="from typing import Optional\nfrom pydantic import BaseModel\n\nclass TextNode(BaseModel):\n    id_: str\n    text: str\n"
            "    embedding: Optional[list[float]] = None\n    start_char_idx: Optional[int] = None\n\n"
            "async def translate(node: TextNode, llm) -> TextNode:\n    node.text = await llm.atranslate(node.text)\n"
            "    node.embedding = node.start_char_idx = None\n    return node\n",
            message="`node.text` rewritten in place; `embedding`, `start_char_idx` still describe the old text",
            help="Reset `node.embedding`, `node.start_char_idx` after the write, or copy the span under a new id",
        ),
        Invalid("from typing import Optional\nfrom pydantic import BaseModel\n\nclass TextNode(BaseModel):\n    id_: str\n    text: str\n    embedding: Optional[list[float]] = None\n    start_char_idx: Optional[int] = None\n\ndef shorten_all(nodes: list[TextNode]) -> None:\n    for i in range(len(nodes)):\n        nodes[i].text = nodes[i].text[:200]\n", line=12, column=9, message="`nodes[i].text` rewritten in place; `embedding`, `start_char_idx` still describe the old text"),
        # A derived field named after what it derives (`sentence_offsets`), version and hash kept current.
        Invalid(
            "from dataclasses import dataclass, field\n\n@dataclass\nclass Note:\n    note_id: str\n    text: str\n"
            "    version: int = 1\n    sha: str = ''\n    sentence_offsets: list[tuple[int, int]] = field(default_factory=list)\n\n"
            "def shorten(note: Note, n: int) -> None:\n    note.text = note.text[:n]\n    note.version += 1\n    note.sha = digest(note.text)\n",
            line=12, column=5, message="`note.text` rewritten in place; `sentence_offsets` still describes the old text",
            help="Reset `note.sentence_offsets` after the write, or copy the span under a new id",
        ),
        Invalid("from dataclasses import dataclass, field\n\n@dataclass\nclass Chunk:\n    chunk_id: str\n    tokens: list[int]\n    token_count: int = 0\n\ndef extend(chunk: Chunk, more: list[int]) -> None:\n    chunk.tokens.extend(more)\n", line=10, column=5, message="`chunk.tokens` rewritten in place; `token_count` still describes the old text", help="Reset `chunk.token_count` after the write, or copy the span under a new id"),
    ]

    def check(self, write: ContentWrite) -> None:
        span_class = write.span_class
        if span_class is None or not span_class.derived_fields:
            return
        fields = self.derived_left(write)
        if not fields:
            return
        left = ", ".join(f"`{f}`" for f in fields)
        verb = "describes" if len(fields) == 1 else "describe"
        if write.copy is not None:
            advice = f"Reset {left} in the copy, or give the copy a new id"
        else:
            reset = ", ".join(f"`{write.access(f)}`" for f in fields)
            advice = f"Reset {reset} after the write, or copy the span under a new id"
        self.report(
            write.statement, f"{write.rewritten()}; {left} still {verb} the old text", help=advice,
            fix=self._fix(write, fields),
        )

    def _fix(self, write: ContentWrite, fields: tuple[str, ...]) -> Fix | None:
        """`owner.<derived> = ... = None` after the write for the derived `fields` left, when each may be None."""
        span_class = write.span_class
        assert span_class is not None
        if write.copy is not None or not set(fields) <= span_class.nullable:
            return None
        clear = cst.Assign(
            targets=[cst.AssignTarget(write.field_target(f)) for f in fields],
            value=cst.Name("None"),
        )
        cleared = ", ".join(f"`{write.access(f)}`" for f in fields)
        return Fix(f"Clear {cleared} after the write (or copy the span under a new id)", "unsafe", insert_after(write, clear))
