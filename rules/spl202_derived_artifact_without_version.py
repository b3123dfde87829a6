"""SPL202: a record derived from a span that does not say which version of the span it came from."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Callable

from spanlint.rules.analysis import callee_name, dotted_name, string_value
from spanlint.rules.base import Invalid, ScopedRule, Valid
from spanlint.rules.libcst_backend import cst
from spanlint.rules.names import RECORD_FACTORIES, name_parts, names_offsets, tracking_words
from spanlint.rules.prescan import ASSIGNMENTS, Prefilter, Scope, last_name, spans_line, walk
from spanlint.rules.project import RECORD_BASES, RECORD_DECORATORS, SpanClass, id_read_lines
from runtime_guard.vocabulary import Vocabulary

if TYPE_CHECKING:
    from spanlint.rules.project import FileSummary, ProjectIndex

# Words that make `start`/`end` a position (`start_char_idx`, `end_offset`) rather than a time.
_POSITION_WORDS = frozenset(
    {"char", "chars", "idx", "index", "offset", "pos", "position", "line", "byte", "token", "span", "col", "column"}
)
# Token fields that are usage accounting of a model call, not an artifact of a span.
_USAGE_WORDS = frozenset({"prompt", "completion", "input", "output", "total", "reasoning", "cached", "max", "limit"})
# Fields saying how much to read from a start position: with one of them and no end, the start is a cursor.
_AMOUNT_WORDS = frozenset({"max", "limit", "count", "size", "page"})


def _is_derived(name: str, vocabulary: Vocabulary) -> bool:
    """A field named like something derived from span content: a position, token ids or counts, a
    derived field or word of the vocabulary."""
    parts = name_parts(name)
    words = set(parts)
    if words & {"start", "end"}:
        return len(parts) == 1 or bool(words & _POSITION_WORDS)
    if words & {"token", "tokens"}:
        return not words & _USAGE_WORDS and (
            "tokens" in words or bool(words & {"count", "ids", "offsets"})
        )
    if name in vocabulary.derived_fields:
        return True
    return bool(parts) and parts[-1] in vocabulary.derived_words


def _names_an_id(parts: list[str]) -> bool:
    """`chunk_id`, `span_id`: the id of something; a bare `id` is the record's own."""
    return len(parts) >= 2 and parts[-1] == "id"


class RecordPrefilter(Prefilter):
    """A class that may be a record (decorated, or with a base that may be one) declaring a field
    named like an id of something or like something derived from span content; a record factory
    call. Apart, as a `buildable-class`: a record with any two fields, or a plain class whose only
    method is an `__init__` (either may be built from a span's id and content elsewhere, which
    `may_match_project` asks the project's index); as a `record-build`, a statement of a function
    calling a class with an id read among its arguments (`Citation(span_id=s.span_id, ...)`, which
    may leave out the version its class can hold)."""

    shape = "id-or-derived-record"
    more_shapes = ("buildable-class", "record-build")
    statements = (ast.ClassDef, *ASSIGNMENTS, ast.Return, ast.Expr)

    def __init__(self, scan) -> None:  # type: ignore[no-untyped-def]
        super().__init__(scan)
        self._id_lines: list[int] | None = None

    def statement(self, node: ast.AST, scope: Scope) -> None:
        if scope.node is not None and not isinstance(node, ast.ClassDef) and self._builds_from_id(node):
            self.mark(node, "record-build")
        if isinstance(node, (ast.Return, ast.Expr)):
            return
        if isinstance(node, ast.ClassDef):
            methods = [s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]
            if self._record_with_id_or_derived(node):
                self.mark(node)
            elif self._fields(node) >= 2:
                self.mark(node, "buildable-class")
            elif not node.bases and len(methods) == 1 and methods[0].name == "__init__":
                self.mark(node, "buildable-class")
                self.mark(methods[0], "buildable-class")
        elif isinstance(node.value, ast.Call) and last_name(node.value) in RECORD_FACTORIES:
            self.mark(node.value)

    def _builds_from_id(self, node: ast.AST) -> bool:
        if self._id_lines is None:
            self._id_lines = id_read_lines(self.scan.source, self.vocabulary)
        if not spans_line(node, self._id_lines) or getattr(node, "value", None) is None:
            return False
        return any(
            isinstance(n, ast.Call) and last_name(n)[:1].isupper() and len(n.args) + len(n.keywords) >= 2
            for n in walk(node.value)
        )

    @staticmethod
    def _fields(node: ast.ClassDef) -> int:
        """How many fields a decorated or derived class declares (`name: T`)."""
        if not (node.decorator_list or node.bases):
            return 0
        return sum(isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) for s in node.body)

    def _record_with_id_or_derived(self, node: ast.ClassDef) -> bool:
        if not (node.decorator_list or node.bases):
            return False
        for statement in node.body:
            names: list[str] = []
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                names = [statement.target.id]
            elif isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call):
                names = [t.id for t in statement.targets if isinstance(t, ast.Name)]
            if any(_names_an_id(self.parts(name)) or _is_derived(name, self.vocabulary) for name in names):
                return True
        return False


class DerivedArtifactWithoutVersion(ScopedRule):
    code = "SPL202"
    name = "derived-artifact-without-version"
    summary = "Record derived from a span carries the span id but no version or content hash"
    message = "Record derived from a span carries the span id but no span version or content hash"
    help = "Add a field for the span's version or content hash, and compare it with the span's before using the record"
    prefilter = RecordPrefilter
    local_to_definitions = True

    @classmethod
    def may_match_project(cls, summary: FileSummary, project: Callable[[], ProjectIndex]) -> bool:
        """A class marked only as buildable has a finding only where the project builds it; a build
        only when it builds a record whose version or hash has a default."""
        if RecordPrefilter.shape in summary.shapes:
            return True
        index = project()
        if "record-build" in summary.shapes:
            tracking = tracking_words(index.vocabulary)
            if any(_optional_tracking(index.class_named(build[0]), tracking) for build in summary.builds):
                return True
        return any(name in index.builds for name in summary.classes)
    docs = """
## What it does
Finds record types (dataclasses, NamedTuples, TypedDicts, pydantic models, attrs classes) that
hold a span id (`span_id`, `node_id`, `chunk_id`, `message_id`, `block_id`) together with data
derived from that span's content (offsets or start/end positions, an embedding or vector, a
citation, tokens, a score) but neither a version nor a hash field; and, whatever the field names,
record types and plain classes (an `__init__` storing its parameters) that the project builds from
a span's id and a value computed from that span's content (`Entry(ref=s.span_id,
quote=s.content[a:b])`), or from the id of a value declared or named as a span into fields named like
artifacts. Where the record can hold the span's version or hash but gives them a default
(`span_version: int | None = None`), each build from a span's id that sets none of them is reported
at the call.

A record with its own id and a content field (`Chunk(chunk_id, text, embedding)`, `Result(id, text,
score)`) is the span itself, not an artifact derived from one, and is not reported, unless it also
points into another span with offsets (`SpanChunk(chunk_id, span_id, start, end, text)`: a piece cut
from that span, stale once it is rewritten); a bare `id` is always the record's own. A record that quotes text beside a reference to another span
(`Quote(message_id, text, start, end)`) is still reported. Properties count as fields: a
`content_hash` computed by a `@property` tracks the content. A start position with no end that pages
through a document (`next_start_index`, or `start_index` beside `max_blocks`/`limit`) is a cursor, not
an offset into the span.

## Why is this bad?
When the span is rewritten in place its id stays the same, so the record still looks valid: a
citation points at character offsets of text that is gone, an embedding answers for old content.
Without the version or content hash it was computed from, no consumer can tell that it is stale.

## Example
```python
@dataclass
class Citation:
    span_id: str
    start: int
    end: int
```

## Use instead
```python
@dataclass
class Citation:
    span_id: str
    span_version: int
    start: int
    end: int
```

## Fix safety
No fix: adding a field changes every place that builds the record.
"""
    valid = [
        Valid("from dataclasses import dataclass\n\n@dataclass\nclass Segment:\n    seg_id: str\n    body: str\n    rev: int = 0\n\n@dataclass\nclass Grant:\n    user_id: str\n    start: int\n    end: int\n\ndef grant(user: User, start: int, end: int) -> Grant:\n    return Grant(user.user_id, start, end)\n"),
        Valid(
            "from dataclasses import dataclass\n\n"
            "@dataclass\n"
            "class Citation:\n"
            "    span_id: str\n"
            "    span_version: int\n"
            "    start: int\n"
            "    end: int\n"
        ),
        Valid(
            "from pydantic import BaseModel\n\n"
            "class Chunk(BaseModel):\n"
            "    id: str\n"
            "    text: str\n"
            "    embedding: list[float]\n"
        ),
        Valid(
            "from typing import NamedTuple\n\n"
            "class CachedVector(NamedTuple):\n"
            "    node_id: str\n"
            "    content_hash: str\n"
            "    vector: list[float]\n"
        ),
        Valid(
            "from dataclasses import dataclass\n\n"
            "@dataclass\n"
            "class ToolTiming:\n"
            "    message_id: str\n"
            "    start_time: float\n"
            "    end_time: float\n"
        ),
        Valid(
            "from typing import TypedDict\n\n"
            "class Usage(TypedDict):\n"
            "    message_id: str\n"
            "    prompt_tokens: int\n"
            "    completion_tokens: int\n"
        ),
        Valid(
            "class Highlighter:\n"
            "    def __init__(self, span_id, start, end):\n"
            "        self.span_id = span_id\n"
            "        self.start = start\n"
            "        self.end = end\n"
        ),
        Valid(
            "from pydantic import BaseModel\n\n"
            "class ChunkVector(BaseModel):\n"
            "    chunk_id: str\n"
            "    vector: list[float]\n\n"
            "    @property\n"
            "    def content_hash(self) -> str:\n"
            "        return digest(self.vector)\n"
        ),
        Valid(
            "import attr\n\n"
            "@attr.s\n"
            "class Session:\n"
            "    user_id = attr.ib()\n"
            "    score = attr.ib()\n"
        ),
        Valid(
            "from dataclasses import dataclass\n\n"
            "@dataclass\n"
            "class Note:\n"
            "    note_id: str\n"
            "    text: str\n"
            "    version: int = 0\n\n"
            "@dataclass\n"
            "class IndexEntry:\n"
            "    note_id: str\n"
            "    vector: list[float]\n"
            "    version: int = 0\n\n"
            "def index(note: Note, vector: list[float]) -> IndexEntry:\n"
            "    return IndexEntry(note.note_id, vector, note.version)\n\n"
            "def grant(user: User, vector: list[float]) -> IndexEntry:\n"
            "    return IndexEntry(user.user_id, vector)\n"
        ),
        Valid(
            'from pydantic import BaseModel\n'
            '\n'
            '\n'
            'class Hit(BaseModel):\n'
            '    id: str\n'
            '    score: float\n'
            '\n'
            '\n'
            'def hits(rows):\n'
            '    return [Hit(id=row.id, score=row.score) for row in rows]\n'
        ),
    ]
    invalid = [
        # A chunk with an id of its own, cut from a span at offsets: stale once the span is rewritten.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass SpanChunk:\n    chunk_id: str\n    span_id: str\n"
            "    start: int\n    end: int\n    text: str\n    embedding: list[float] | None = None\n",
            line=4, column=7, message="`SpanChunk` is derived from a span and carries its id but no span version or content hash",
        ),
        Invalid("from dataclasses import dataclass\n\n@dataclass\nclass Segment:\n    seg_id: str\n    body: str\n    rev: int = 0\n\n@dataclass\nclass Quote:\n    seg_id: str\n    start: int\n    end: int\n\ndef quote(seg: Segment, start: int, end: int) -> Quote:\n    return Quote(seg.seg_id, start, end)\n", line=10, column=7, message="`Quote` is derived from a span and carries its id but no span version or content hash"),
        Invalid(
            "from dataclasses import dataclass\n\n"
            "@dataclass\n"
            "class Citation:\n"
            "    span_id: str\n"
            "    start: int\n"
            "    end: int\n",
            line=4, column=7, message="`Citation` is derived from a span and carries its id but no span version or content hash",
        ),
        Invalid(
            "from pydantic import BaseModel\n\n"
            "class NodeEmbedding(BaseModel):\n"
            "    node_id: str\n"
            "    embedding: list[float]\n",
            line=3, column=7, message="`NodeEmbedding` is derived from a span and carries its id but no span version or content hash",
        ),
        Invalid(
            "from typing import NamedTuple\n\n"
            "class Hit(NamedTuple):\n"
            "    chunk_id: str\n"
            "    score: float\n",
            line=3, column=7, message="`Hit` is derived from a span and carries its id but no span version or content hash",
        ),
        Invalid(
            "from typing import TypedDict\n\n"
            "class TokenOffsets(TypedDict):\n"
            "    message_id: str\n"
            "    offsets: list[tuple[int, int]]\n",
            line=3, column=7, message="`TokenOffsets` is derived from a span and carries its id but no span version or content hash",
        ),
        Invalid(
            "import attrs\n\n"
            "@attrs.define(frozen=True)\n"
            "class BlockTokens:\n"
            "    block_id: str\n"
            "    n_tokens: int\n",
            line=4, column=7, message="`BlockTokens` is derived from a span and carries its id but no span version or content hash",
        ),
        Invalid(
            "from typing import TypedDict\n\n"
            "class Quote(TypedDict):\n"
            "    message_id: str\n"
            "    text: str\n"
            "    start_char_idx: int\n"
            "    end_char_idx: int\n",
            line=3, column=7, message="`Quote` is derived from a span and carries its id but no span version or content hash",
        ),
        Invalid(
            "from collections import namedtuple\n\n"
            "SpanVector = namedtuple('SpanVector', ['span_id', 'vector'])\n",
            line=3, column=1, message="`SpanVector` is derived from a span and carries its id but no span version or content hash",
        ),
        Invalid(
            "from dataclasses import dataclass, field\n\n"
            "@dataclass(slots=True)\n"
            "class Evidence:\n"
            "    span_id: str\n"
            "    start_char_idx: int\n"
            "    end_char_idx: int\n"
            "    citations: list[str] = field(default_factory=list)\n",
            line=4, column=7, message="`Evidence` is derived from a span and carries its id but no span version or content hash",
        ),
        Invalid(
            'class Entry:\n'
            '    def __init__(self, ref, quote):\n'
            '        self.ref = ref\n'
            '        self.quote = quote\n'
            '\n'
            '\n'
            'def derive(span, start, end):\n'
            '    return Entry(ref=span.span_id, quote=span.content[start:end])\n',
            line=1, column=7, message="`Entry` is derived from a span and carries its id but no span version or content hash",
        ),
        # The record can hold the version, and this build leaves it out.
        Invalid(
            "from pydantic import BaseModel\n\n"
            "class Span(BaseModel):\n"
            "    span_id: str\n"
            "    text: str\n"
            "    version: int\n\n"
            "class Citation(BaseModel):\n"
            "    span_id: str\n"
            "    start: int\n"
            "    end: int\n"
            "    span_version: int | None = None\n\n"
            "def cite(span: Span, start: int, end: int) -> Citation:\n"
            "    return Citation(span_id=span.span_id, start=start, end=end)\n",
            line=15, column=12, message="`Citation` is built from the id of `span` without its version or content hash",
        ),
        # TypedDict records: the citation names the span class's noun in its `record_id`.
        Invalid(
            "from typing import TypedDict\n\nclass MemoryRecord(TypedDict):\n    id: str\n    text: str\n    version: int\n\n"
            "class Citation(TypedDict):\n    record_id: str\n    start: int\n    end: int\n",
            line=8, column=7, message="`Citation` is derived from a span and carries its id but no span version or content hash",
        ),
    ]

    @classmethod
    def may_match(cls, source: str, vocabulary: Vocabulary) -> bool:
        """A class or record factory: whether one is built from a span is known from the project index."""
        return "class " in source or any(factory in source for factory in RECORD_FACTORIES)

    def __init__(self, context) -> None:  # type: ignore[no-untyped-def]
        super().__init__(context)
        vocabulary = context.vocabulary
        self._derived_words = frozenset(vocabulary.derived_words)
        self._tracking_words = tracking_words(vocabulary)
        self._content_fields = frozenset(vocabulary.content_fields) - self._derived_words

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        super().visit_ClassDef(node)
        record = self._is_record(node)
        order = _class_fields(node) if record else _init_fields(node)  # a plain class storing its parameters
        own = set(order)
        if not own:
            return
        inherited: set[str] = set()
        for base in node.bases:
            found = self.context.project.class_named((dotted_name(base.value) or "").split(".")[-1])
            if found is not None:
                inherited |= found.fields
        itself = self.context.analysis.class_named(node.name.value)
        if itself is not None:
            # Properties count (`hash` computed from the content), and a content setter makes it a span.
            inherited |= itself.fields | set(self._content_fields if itself.content_setters else ())
        fields = own | inherited
        if (record and self._is_unversioned_artifact(node.name.value, own, fields)) or (
            self._built_as_artifact(node.name.value, order, fields)
        ):
            self.report(node.name, self._message(node.name.value))

    def _built_as_artifact(self, class_name: str, order: list[str], fields: set[str]) -> bool:
        """Somewhere in the tree an object of the class is built from a span's id and a value computed from
        that span's content (`Entry(ref=s.span_id, quote=s.content[a:b])`), or from a span's id (of a value
        declared as a span, or named so: `s.chunk_id`) into a class with fields named like artifacts (`start`,
        `vector`); the id goes to a field other than the record's own id; and it has no field that tracks the content (a version or hash) nor is a span
        itself (its own id beside a content field)."""
        if any(self._tracks_content(f) for f in fields):
            return False
        if self._is_span_itself(class_name, fields):
            return False
        for _, given_id, computed, owner_class, id_field in self.context.project.builds.get(class_name, ()):
            known = self.context.analysis.class_named(owner_class) if owner_class else None
            if known is not None and not known.is_span:
                continue
            if id_field not in self.context.vocabulary.id_fields and (known is None or id_field not in known.id_fields):
                continue  # `x.user_id`: an id, but not one a span class of the project declares as its own
            ids = {f for f in _named(given_id, order, fields) if not self._is_own_id(f, class_name)}
            derived = _named(computed, order, fields)
            if not derived and (known is not None or self._names_span_id(id_field)):
                # no value computed from the content here, but a span's id beside fields named like artifacts
                derived = {f for f in fields if _is_derived(f, self.context.vocabulary)}
            if ids and derived - ids - _cursors(fields):
                return True
        return False

    def visit_Assign(self, node: cst.Assign) -> None:
        """`Citation = namedtuple("Citation", ["span_id", "start", "end"])` and the TypedDict form."""
        value = node.value
        if not (isinstance(value, cst.Call) and callee_name(value) in RECORD_FACTORIES and len(node.targets) == 1):
            return
        target = node.targets[0].target
        order = _factory_fields(value)
        fields = set(order)
        if isinstance(target, cst.Name) and fields and (
            self._is_unversioned_artifact(target.value, fields, fields) or self._built_as_artifact(target.value, order, fields)
        ):
            self.report(target, self._message(target.value))

    def visit_Call(self, node: cst.Call) -> None:
        """`Citation(span_id=span.span_id, start=a, end=b)` where `Citation` can hold the span's version
        or hash (fields with a default) and the call gives it neither."""
        name = callee_name(node) or ""
        if self.function is None or not name[:1].isupper() or any(arg.star for arg in node.args):
            return
        record = self.context.analysis.class_named(name)
        tracking = _optional_tracking(record, self._tracking_words)
        if record is None or not tracking:
            return
        given: dict[str, cst.BaseExpression] = {}
        for position, arg in enumerate(node.args):
            if arg.keyword is not None:
                given[arg.keyword.value] = arg.value
            elif position < len(record.positions):
                given[record.positions[position]] = arg.value
            else:
                return  # a position the class's declaration does not explain
        if given.keys() & set(tracking):
            return
        references = {f for f in record.fields if self._names_span_id(f) and not self._is_own_id(f, name)}
        derived = {f for f in record.fields if _is_derived(f, self.context.vocabulary)} - references - _cursors(record.fields)
        if not derived:
            return
        for field_name in references & given.keys():
            span = self._span_of_id(given[field_name])
            if span is not None:
                written = self.context.analysis.module.code_for_node(span)
                self.report(
                    node,
                    f"`{name}` is built from the id of `{written}` without its version or content hash",
                    help=f"Set {' or '.join(f'`{f}`' for f in tracking)} from `{written}`: without it no reader can tell the record is stale",
                )
                return

    def _span_of_id(self, value: cst.BaseExpression) -> cst.BaseExpression | None:
        """`span` for `span.span_id` or `span["id"]` when `span` is a span."""
        if isinstance(value, cst.Attribute):
            owner, field_name = value.value, value.attr.value
        elif isinstance(value, cst.Subscript) and len(value.slice) == 1 and isinstance(value.slice[0].slice, cst.Index):
            owner, field_name = value.value, string_value(value.slice[0].slice.value)
        else:
            return None
        analysis = self.context.analysis
        known = analysis.known_class(owner, self.facts)
        ids = known.id_fields if known is not None else self.context.vocabulary.id_fields
        if field_name not in ids:
            return None
        return owner if (known.is_span if known is not None else analysis.is_span_like(owner, self.facts)) else None

    def _message(self, name: str) -> str:
        return f"`{name}` is derived from a span and carries its id but no span version or content hash"

    def _is_record(self, node: cst.ClassDef) -> bool:
        for decorator in node.decorators:
            expr = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
            name = dotted_name(expr) or ""
            if name in RECORD_DECORATORS or name.split(".")[-1] in RECORD_DECORATORS:
                return True
        for base in node.bases:
            name = (dotted_name(base.value) or "").split(".")[-1]
            if name in RECORD_BASES:
                return True
            found = self.context.project.class_named(name)
            if found is not None and found.is_record:
                return True
        return False

    def _is_unversioned_artifact(self, class_name: str, own: set[str], fields: set[str]) -> bool:
        if any(self._tracks_content(f) for f in fields):
            return False
        ids = {f for f in fields if self._names_span_id(f)}
        if self._is_span_itself(class_name, fields):
            return False  # the span itself (`Chunk(chunk_id, text, embedding)`), not an artifact of one
        derived = {f for f in fields if _is_derived(f, self.context.vocabulary)} - _cursors(fields)
        return bool(ids) and bool(derived) and bool(own & (ids | derived))

    def _names_span_id(self, name: str) -> bool:
        """`chunk_id`, `span_id`, `record_id` beside a span class `MemoryRecord`: the id of a span; a bare
        `id` is the record's own."""
        parts = name_parts(name)
        return _names_an_id(parts) and (
            self.context.analysis.is_span_name(parts[-2]) or self.context.project.names_span_class(parts[-2])
        )

    def _is_span_itself(self, class_name: str, fields: set[str]) -> bool:
        """A record with its own id beside a content field is a span (`Chunk(chunk_id, text, embedding)`),
        unless it also points into another span with offsets (`SpanChunk(chunk_id, span_id, start, end,
        text)`: a piece cut from the span, whose offsets go stale with it). Of two ids named after words
        of the class's name, the later word's is its own (`chunk_id` in `SpanChunk`)."""
        own = [f for f in fields if self._is_own_id(f, class_name)]
        if not (fields & self._content_fields and own):
            return False
        nouns = name_parts(class_name)
        primary = max(own, key=lambda f: nouns.index(name_parts(f)[-2]) if len(name_parts(f)) > 1 else len(nouns))
        references = {f for f in fields if self._names_span_id(f) and f != primary}
        return not (references and {f for f in fields if names_offsets(f)} - _cursors(fields))

    def _is_own_id(self, name: str, class_name: str) -> bool:
        """The record's own id: a bare `id`, or `chunk_id` in a class named `Chunk...`; not a
        reference to another span (`chunk_id` in `CitationSpan`)."""
        parts = name_parts(name)
        if not parts or parts[-1] != "id":
            return False
        return len(parts) == 1 or parts[-2] in name_parts(class_name)

    def _tracks_content(self, name: str) -> bool:
        return bool(set(name_parts(name)) & self._tracking_words)




def _optional_tracking(record: SpanClass | None, tracking: frozenset[str]) -> tuple[str, ...]:
    """The version and hash fields of an artifact record (not a span) when it has some and every
    one has a default, so that a build may leave them out; () otherwise."""
    if record is None or not record.is_record or record.is_span or record.exempt:
        return ()
    found = tuple(f for f in dict.fromkeys((*record.positions, *sorted(record.fields))) if set(name_parts(f)) & tracking)
    return found if found and set(found) <= record.defaulted else ()


def _cursors(fields: set[str]) -> set[str]:
    """Start positions that page through a document rather than point into it: with no end field, a
    `next_start_index`, or a start beside how much to read (`start_index` with `max_blocks`, `limit`)."""
    parts = {f: set(name_parts(f)) for f in fields}
    if any(words & {"end", "stop", "length", "len", "offsets"} for words in parts.values()):
        return set()
    starts = {f for f, words in parts.items() if words & {"start", "offset", "cursor"}}
    paged = any(words & _AMOUNT_WORDS for f, words in parts.items() if f not in starts)
    return {f for f in starts if paged or "next" in parts[f]}


def _named(arguments: tuple[str | int, ...], order: list[str], fields: set[str]) -> set[str]:
    """The fields that `arguments` (keywords, or positions in `order`) give values to."""
    named = {a for a in arguments if isinstance(a, str) and a in fields}
    return named | {order[a] for a in arguments if isinstance(a, int) and a < len(order)}


def _class_fields(node: cst.ClassDef) -> list[str]:
    """Field names a record class body declares, in order: `name: T` or `name = attr.ib()`."""
    names: list[str] = []
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    if not _is_classvar(small.annotation):
                        names.append(small.target.value)
                elif isinstance(small, cst.Assign) and isinstance(small.value, cst.Call):
                    names.extend(t.target.value for t in small.targets if isinstance(t.target, cst.Name))
    return list(dict.fromkeys(names))


def _init_fields(node: cst.ClassDef) -> list[str]:
    """The parameters, in order, of a plain class with no base whose only method is an `__init__` that
    stores each parameter as the attribute of its name (`self.ref = ref`); [] for any other class."""
    if node.bases or not isinstance(node.body, cst.IndentedBlock):
        return []
    methods = [s for s in node.body.body if isinstance(s, cst.FunctionDef)]
    if len(methods) != 1 or methods[0].name.value != "__init__" or not isinstance(methods[0].body, cst.IndentedBlock):
        return []
    init = methods[0]
    params = [p.name.value for p in (*init.params.posonly_params, *init.params.params)][1:]
    stored: list[str] = []
    for statement in init.body.body:
        small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString):
            continue  # a docstring
        if not (
            isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.value, cst.Name)
            and isinstance(target := small.targets[0].target, cst.Attribute) and isinstance(target.value, cst.Name)
            and target.value.value == "self" and target.attr.value == small.value.value
        ):
            return []
        stored.append(small.value.value)
    return params if params and set(stored) == set(params) else []


def _is_classvar(annotation: cst.Annotation) -> bool:
    node = annotation.annotation
    if isinstance(node, cst.Subscript):
        node = node.value
    return (dotted_name(node) or "").split(".")[-1] == "ClassVar"


def _factory_fields(call: cst.Call) -> list[str]:
    """Field names, in order, of `namedtuple("N", "a b")`, `namedtuple("N", ["a", "b"])`,
    `NamedTuple("N", [("a", int)])`, `TypedDict("N", {"a": int})`."""
    if len(call.args) < 2:
        return []
    spec = call.args[1].value
    names: list[str] = []
    text = string_value(spec)
    if text is not None:
        return text.replace(",", " ").split()
    if isinstance(spec, (cst.List, cst.Tuple)):
        for element in spec.elements:
            item = element.value
            if isinstance(item, (cst.Tuple, cst.List)) and item.elements:
                item = item.elements[0].value
            name = string_value(item)
            if name is not None:
                names.append(name)
    elif isinstance(spec, cst.Dict):
        for element in spec.elements:
            key = string_value(getattr(element, "key", None))
            if key is not None:
                names.append(key)
    return names
