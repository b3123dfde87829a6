"""SPL501: span content sliced with a stored artifact's offsets without checking the artifact is current."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from spanlint.rules import flow, traversal
from spanlint.rules.aliases import ValueAliases
from spanlint.rules.analysis import callee_name, last_name, string_key
from spanlint.rules.base import FunctionStateRule, Invalid, Valid
from spanlint.rules.evidence import access_root, has_word
from spanlint.rules.libcst_backend import cst
from spanlint.rules.names import CONFIG_WORDS, CONTENT_GETTERS, content_read_pattern, name_parts, names_offsets
from spanlint.rules.prescan import ASSIGNMENTS, Prefilter, Scope, assignment_targets, last_name as ast_last_name, walk
from spanlint.rules.project import id_read_pattern
from runtime_guard.vocabulary import Vocabulary

# Conventional one-letter names of a span (`for s in spans`, `def quote(s, art)`).
_SPAN_SHORTHANDS = frozenset({"s", "sp"})


class ContentSlicePrefilter(Prefilter):
    """Span content (an attribute named like a content field, or a local aliasing one anywhere in
    the file) indexed, in a function, with bounds that read an attribute or item, or a local bound
    from such a read."""

    shape = "content-slice"
    statements = (*ASSIGNMENTS, ast.For, ast.AsyncFor, ast.If, ast.While)
    expressions = (ast.Subscript,)

    def __init__(self, scan) -> None:  # type: ignore[no-untyped-def]
        super().__init__(scan)
        self.content_fields = frozenset(self.vocabulary.content_fields)
        self.aliases: set[str] = set()  # locals holding span content (`text = span.content`)
        self._links: list[tuple[str, str]] = []  # (name, local assigned that name)
        self._walrus = ":=" in scan.source

    def attributes(self) -> tuple[str, ...]:
        return self.vocabulary.content_fields

    def statement(self, node: ast.AST, scope: Scope) -> None:
        if scope.node is None:
            return
        if isinstance(node, (ast.If, ast.While)):
            if self._walrus:  # `if (text := span.content):`
                for named in walk(node.test):
                    if isinstance(named, ast.NamedExpr) and self._is_content(named.value):
                        self.aliases.add(named.target.id)
            return
        if isinstance(node, (ast.For, ast.AsyncFor)):
            if isinstance(node.target, ast.Name) and self._is_content(node.iter):
                self.aliases.add(node.target.id)
            return
        if node.value is None:
            return
        for target in assignment_targets(node):
            if isinstance(target, ast.Name):
                if self._is_content(node.value) or self._fetches_by_id(node.value):
                    self.aliases.add(target.id)
                elif isinstance(node.value, ast.Name):
                    self._links.append((node.value.id, target.id))

    def statements_done(self, scopes: list[Scope]) -> None:
        """Aliases of aliases (`text = span.content; t = text`) count too."""
        grew = bool(self.aliases)
        while grew:
            grew = False
            for source, target in self._links:
                if source in self.aliases and target not in self.aliases:
                    self.aliases.add(target)
                    grew = True
        self.scan.extra_words |= self.aliases

    def expression(self, node: ast.AST, scope: Scope) -> None:
        if scope.node is not None and self._is_content(node.value) and self._bounds_read(node.slice, scope):
            self.mark(node)

    def _is_content(self, expr: ast.expr) -> bool:
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and len(expr.args) == 1 and not expr.keywords:
            expr = expr.args[0]  # `str(msg.content)[start:end]`, `as_text(msg.content)[start:end]`
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr in CONTENT_GETTERS:
            return True  # `node.get_content(metadata_mode=MetadataMode.NONE)`
        if isinstance(expr, ast.Attribute):
            return expr.attr in self.content_fields
        if isinstance(expr, ast.Subscript):  # `rec["text"]` of a mapping span
            return isinstance(expr.slice, ast.Constant) and expr.slice.value in self.content_fields
        return isinstance(expr, ast.Name) and expr.id in self.aliases

    def _fetches_by_id(self, value: ast.expr) -> bool:
        """`_Function.fetched`'s shape: `lookup(c.chunk_id)`, `await store.aget(ns, ref["memory_id"])`."""
        if isinstance(value, ast.Await):
            value = value.value
        if not isinstance(value, ast.Call) or (ast_last_name(value) or "")[:1].isupper():
            return False  # not a call, or a constructor: a new object, not the one the id names
        ids = self.vocabulary.id_fields
        for arg in value.args:
            if isinstance(arg, ast.Attribute):
                name = arg.attr
            elif isinstance(arg, ast.Subscript) and isinstance(arg.slice, ast.Constant) and isinstance(arg.slice.value, str):
                name = arg.slice.value
            else:
                continue
            if name in ids or name.endswith("_id"):
                return True
        return False

    def _bounds_read(self, bounds: ast.expr, scope: Scope) -> bool:
        """Bounds that read an attribute or item, or a local the function binds from such a read, or
        offsets it is given with the stamp they were computed against (`_stamped_offsets`)."""
        names = set()
        for node in walk(bounds):
            if isinstance(node, (ast.Attribute, ast.Subscript)):
                return True
            if isinstance(node, ast.Name):
                names.add(node.id)
        if not names:
            return False
        assert scope.node is not None
        arguments = scope.node.args
        params = [a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)]
        return not names.isdisjoint(self._read_bound(scope)) or not names.isdisjoint(_stamped_offsets(params, self.vocabulary))

    def _read_bound(self, scope: Scope) -> set[str]:
        """Names the function binds (assignment, `for`, comprehension) from an attribute or item read."""
        found = scope.notes.get("read_bound")
        if found is None:
            found = scope.notes["read_bound"] = set()
            assert scope.node is not None
            for node in walk(scope.node):
                if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
                    targets, value = (node.targets if isinstance(node, ast.Assign) else [node.target]), node.value
                elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                    targets, value = [node.target], node.iter
                else:
                    continue
                if value is not None and any(isinstance(n, (ast.Attribute, ast.Subscript)) for n in walk(value)):
                    found.update(n.id for t in targets for n in walk(t) if isinstance(n, ast.Name))
        return found


@dataclass
class _Function:
    slices: list[tuple[cst.Subscript, cst.BaseExpression]] = field(default_factory=list)  # (slice, artifact)
    artifact_locals: dict[str, cst.BaseExpression] = field(default_factory=dict)  # local -> artifact read from
    content_locals: dict[str, cst.BaseExpression] = field(default_factory=dict)  # local -> span it is the content of
    # locals bound to a mapping or list the function builds itself (`pos = {b.id: i for i, b in ...}`):
    # positions computed now, on the content as it is, not a stored artifact
    built_locals: set[str] = field(default_factory=set)
    # locals bound to what a call given an object's id returns (`doc = lookup(citation.chunk_id)`): the
    # object that id names, whatever its class or name
    fetched: set[str] = field(default_factory=set)
    aliases: ValueAliases = field(default_factory=ValueAliases)


class ArtifactUsedWithoutCheck(FunctionStateRule[_Function]):
    code = "SPL501"
    name = "artifact-used-without-check"
    summary = "Span content sliced with a stored artifact's offsets without a version or hash check"
    message = "`{span}` sliced with offsets from `{artifact}` without checking its version or hash against the span"
    help = "Compare the artifact's span version or content hash with the span's before slicing"
    prefilter = ContentSlicePrefilter
    local_to_definitions = True
    docs = """
## What it does
Finds span content sliced or indexed with offsets read from a stored artifact (a citation, an
offset map, an annotation, another node's `start_char_idx`), as in `span.content[cit.start:cit.end]`
or `start, end = art.offsets` then `span.text[start:end]` (through aliases of the span or its content too,
and the content a span's getter returns: `node.get_content()[c.start:c.end]`),
on a path of the function that neither compares the artifact's version or hash with the span's nor
calls a check helper (a function whose name says it checks, verifies or validates, or any function of
the linted tree that makes that comparison). Offsets looked up under a key holding the version or hash
(`offsets[(s.span_id, s.version)]`) were computed on the current content and are not reported.

## Why is this bad?
Offsets are only meaningful for the exact content they were computed on. If the span was
rewritten since (summarized, redacted, normalized), the same offsets cut out the wrong text, and
the citation silently quotes something the source never said.

## Example
```python
def quote(span, citation):
    return span.content[citation.start:citation.end]
```

## Use instead
```python
def quote(span, citation):
    if citation.content_hash != span.content_hash:
        raise StaleArtifact(citation)
    return span.content[citation.start:citation.end]
```

## Fix safety
No fix: what to do with a stale artifact (recompute, drop, raise) is the caller's choice.
"""
    valid = [
        # The check is a method of the offset map comparing the whole key at once.
        Valid(
            "from dataclasses import dataclass\n\n@dataclass\nclass OffsetMap:\n    span_id: str\n    version: int\n"
            "    token_spans: tuple[tuple[int, int], ...]\n\n"
            "    def matches(self, span) -> bool:\n        return (span.span_id, span.version) == (self.span_id, self.version)\n\n"
            "    def slice(self, span, first: int, last: int) -> str:\n        if not self.matches(span):\n"
            "            raise StaleOffsets(self.span_id)\n"
            "        start, end = self.token_spans[first][0], self.token_spans[last][1]\n        return span.content[start:end]\n"
        ),
        Valid(
            "from dataclasses import dataclass\n\n@dataclass(frozen=True)\nclass Citation:\n    node_id: str\n    node_hash: str\n"
            "    start: int\n    end: int\n\n"
            "def quote(docstore, c: Citation) -> str:\n    node = docstore.get_node(c.node_id)\n"
            "    if node.hash != c.node_hash:\n        raise StaleCitation(c.node_id)\n"
            "    return node.get_content()[c.start : c.end]\n"
        ),
        Valid(
            "async def quote_memories(store, ns: tuple, refs: list[dict]) -> list[str]:\n    quotes = []\n"
            "    for ref in refs:\n        item = await store.aget(ns, ref[\"memory_id\"])\n"
            "        if item.value[\"version\"] != ref[\"version\"]:\n            continue\n"
            "        quotes.append(item.value[\"text\"][ref[\"start\"] : ref[\"end\"]])\n    return quotes\n"
        ),
        Valid(
            "def excerpt(citation, lookup) -> str:\n    doc = lookup(citation.chunk_id)\n"
            "    if fingerprint(doc) != citation.content_hash:\n        raise StaleCitation(citation.chunk_id)\n"
            "    return doc.page_content[citation.start : citation.end]\n"
        ),
        Valid(
            "import asyncio\nfrom dataclasses import dataclass\n\n@dataclass\nclass Citation:\n    doc_id: str\n    start: int\n    end: int\n"
            "    version: int\n\n@dataclass\nclass Article:\n    id: str\n    content: str\n    version: int\n\n"
            "class Library:\n    def get(self, doc_id: str) -> Article: ...\n\n"
            "async def render(library: Library, cits: list[Citation]) -> list[str]:\n"
            "    async def quote(cit: Citation) -> str:\n        found = await asyncio.to_thread(library.get, cit.doc_id)\n"
            "        if found.version != cit.version:\n            raise StaleCitation(cit.doc_id)\n"
            "        return found.content[cit.start : cit.end]\n\n"
            "    return list(await asyncio.gather(*(quote(c) for c in cits)))\n"
        ),
        Valid(
            "def quote(span, citation):\n    if citation.content_hash != span.content_hash:\n"
            "        raise ValueError('stale')\n    return span.content[citation.start:citation.end]\n"
        ),
        Valid(
            "import re\n\ndef words(span):\n    for m in re.finditer(r'\\w+', span.content):\n"
            "        yield span.content[m.start():m.end()]\n"
        ),
        Valid("def head(span, n):\n    start, end = 0, min(n, len(span.text))\n    return span.text[start:end]\n"),
        # a position the content itself gives now (langchain-community's stop sequences)
        Valid(
            "def cut(msg, params):\n    for stop in params[\"stop\"]:\n        if stop in msg.content:\n"
            "            msg.content = msg.content[: msg.content.index(stop)]\n"
        ),
        # positions computed by this call on the content as it is (agentscope's `ToolResponse.append_chunk`)
        Valid(
            "def merge(span, chunk):\n    position = {b.id: i for i, b in enumerate(span.content)}\n"
            "    for b in chunk.content:\n        span.content[position[b.id]].text += b.text\n"
        ),
        Valid(
            "def quote(span, art):\n    check_artifact(art, span)\n    start, end = art.offsets\n"
            "    return span.content[start:end]\n"
        ),
        Valid(
            "def inner_text(element, loc):\n    return element.text[loc.start:loc.end]\n"
        ),
        Valid(
            "class Tokenizer:\n    def next_token(self):\n        token = self.text[self.pos:self.end]\n"
            "        self.pos = self.end\n        return token\n"
        ),
        Valid("def own(node):\n    return node.text[node.start_char_idx:node.end_char_idx]\n"),
        # A preview cut at a length someone configured, not at offsets computed from the span.
        Valid(
            "class Service:\n    def preview(self, span):\n"
            "        return span.content[: self.settings.preview_chars]\n"
        ),
        Valid(
            "def is_current(art, span):\n    return art.version == span.version\n\n"
            "def render(span, art):\n    if not is_current(art, span):\n        return None\n"
            "    return span.text[art.start:art.end]\n"
        ),
        Valid(
            'class Quoter:\n'
            '    def quote(self, span):\n'
            '        lo, hi = self._offsets[(span.span_id, span.version)]\n'
            '        return span.content[lo:hi]\n'
        ),
        # known only by its name, and the one class of the module with a `text` is a widget, not a span
        Valid("from dataclasses import dataclass\n\n@dataclass\nclass Label:\n    id: str\n    text: str\n    x: int = 0\n    y: int = 0\n\ndef highlighted(span, sel):\n    return span.text[sel.start:sel.end]\n"),
        # The stored entry's version is compared first; bounds computed now from a match are fresh.
        Valid(
            "def sentence(span, entry, n):\n    if entry['version'] != span.version:\n        return None\n"
            "    start, end = entry['sentences'][n]\n    return span.content[start:end]\n\n"
            "def highlight(span, pattern):\n    m = re.search(pattern, span.content)\n    start, end = m.span()\n"
            "    return span.content[start:end]\n"
        ),
        # Offsets handed in with the version and hash they were computed on, compared first.
        Valid(
            "def quote_span(buffer, span_id: str, version: int, content_hash: str, start: int, end: int) -> str:\n"
            "    span = buffer.get(span_id)\n    if (span.version, span.content_hash) != (version, content_hash):\n"
            "        raise ValueError('stale offsets')\n    return span.content[start:end]\n",
        ),
        # The offset map's key, a class carrying the version and hash, compared whole with the span's.
        Valid(
            "from dataclasses import dataclass\n\n@dataclass(frozen=True)\nclass SpanKey:\n    span_id: str\n"
            "    version: int\n    content_hash: str\n\n@dataclass\nclass KeyedOffsetMap:\n    key: SpanKey\n"
            "    offsets: list\n\ndef window(span, offset_map: KeyedOffsetMap, i: int) -> str:\n"
            "    current: SpanKey = key_of(span)\n    if current != offset_map.key:\n        raise ValueError('stale')\n"
            "    start, end = offset_map.offsets[i]\n    return span.content[start:end]\n",
        ),
    ]
    invalid = [
        # Token offsets of an offset map, picked in one tuple assignment.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass OffsetMap:\n    span_id: str\n    version: int\n"
            "    token_spans: tuple[tuple[int, int], ...]\n\n"
            "def evidence(span, om: OffsetMap, first: int, last: int) -> str:\n"
            "    start, end = om.token_spans[first][0], om.token_spans[last][1]\n    return span.content[start:end]\n",
            line=11, column=12,
            message="`span.content` sliced with offsets from `om.token_spans` without checking its version or hash against the span",
        ),
        # The content a node's getter returns, for the node the citation's id fetches.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass(frozen=True)\nclass Citation:\n    node_id: str\n    start: int\n    end: int\n\n"
            "def quote(docstore, c: Citation) -> str:\n    node = docstore.get_node(c.node_id)\n"
            "    return node.get_content()[c.start : c.end]\n",
            line=11, column=12,
            message="`node.get_content()` sliced with offsets from `c` without checking its version or hash against the span",
        ),
        # A LangGraph store item fetched by the reference's id; its text sliced with the reference's offsets.
        Invalid(
            "async def quote_memories(store, ns: tuple, refs: list[dict]) -> list[str]:\n    quotes = []\n"
            "    for ref in refs:\n        item = await store.aget(ns, ref[\"memory_id\"])\n"
            "        quotes.append(item.value[\"text\"][ref[\"start\"] : ref[\"end\"]])\n    return quotes\n",
            line=5, column=23,
            message="`item.value[\"text\"]` sliced with offsets from `ref` without checking its version or hash against the span",
        ),
        # The text itself, looked up by the citation's id in a map of texts.
        Invalid(
            "def render(texts: dict[str, str], cites: list) -> list[str]:\n    out = []\n"
            "    for c in cites:\n        body = texts.get(c.passage_id)\n"
            "        out.append(body[c.start : c.end])\n    return out\n",
            line=5, column=20,
            message="`body` sliced with offsets from `c` without checking its version or hash against the span",
        ),
        # Fetched by the citation's own id: whatever `lookup` returns is the chunk the offsets index.
        Invalid(
            "def excerpt(citation, lookup) -> str:\n    doc = lookup(citation.chunk_id)\n"
            "    return doc.page_content[citation.start : citation.end]\n",
            line=3, column=12,
            message="`doc.page_content` sliced with offsets from `citation` without checking its version or hash against the span",
        ),
        # The message's text through a helper of its content alone.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Message:\n    id: str\n    content: str | list\n\n"
            "def quote(citation, by_id: dict[str, Message]) -> str:\n    msg = by_id[citation.message_id]\n"
            "    return as_text(msg.content)[citation.start : citation.end]\n",
            line=10, column=12,
            message="`as_text(msg.content)` sliced with offsets from `citation` without checking its version or hash against the span",
        ),
        # A closure: `library` is the enclosing function's; the article is fetched in a thread.
        Invalid(
            "import asyncio\nfrom dataclasses import dataclass\n\n@dataclass\nclass Citation:\n    doc_id: str\n    start: int\n    end: int\n"
            "    version: int\n\n@dataclass\nclass Article:\n    id: str\n    content: str\n    version: int\n\n"
            "class Library:\n    def get(self, doc_id: str) -> Article: ...\n\n"
            "async def render(library: Library, cits: list[Citation]) -> list[str]:\n"
            "    async def quote(cit: Citation) -> str:\n        found = await asyncio.to_thread(library.get, cit.doc_id)\n"
            "        return found.content[cit.start : cit.end]\n\n"
            "    return list(await asyncio.gather(*(quote(c) for c in cits)))\n",
            line=23, column=16,
            message="`found.content` sliced with offsets from `cit` without checking its version or hash against the span",
        ),
        Invalid("def quote(span, citation):\n    return span.content[citation.start:citation.end]\n", line=2, column=12, message="`span.content` sliced with offsets from `citation` without checking its version or hash against the span"),
        Invalid(
            "def highlight(s, art):\n    return s.text[art.offsets[0]:art.offsets[1]]\n", line=2, column=12, 
        message="`s.text` sliced with offsets from `art.offsets` without checking its version or hash against the span"),
        Invalid(
            "def excerpt(chunk, art):\n    start, end = art.offsets\n    text = chunk.content\n"
            "    return text[start:end]\n",
            line=4,
            column=12,
            message="`text` sliced with offsets from `art` without checking its version or hash against the span",
        ),
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    id: str\n    content: str\n\n"
            "    def cite(self, annotation):\n        return self.content[annotation['start']:annotation['end']]\n",
            line=9,
            column=16,
            message="`self.content` sliced with offsets from `annotation` without checking its version or hash against the span",
        ),
        Invalid(
            "async def render(self, span_id):\n    node = await self.store.get(span_id)\n"
            "    for start, end in self.offset_map[span_id]:\n        yield node.content[start:end]\n",
            line=4,
            column=15,
            message="`node.content` sliced with offsets from `self.offset_map` without checking its version or hash against the span",
        ),
        Invalid(
            "def context_window(node, source_node):\n"
            "    return node.text[source_node.start_char_idx - 20:source_node.end_char_idx + 20]\n",
            line=2,
            column=12,
            message="`node.text` sliced with offsets from `source_node` without checking its version or hash against the span",
        ),
        Invalid(
            "class Renderer:\n    def first_char(self, message, cit):\n        return message.body[cit.begin]\n",
            line=3,
            column=16,
            message="`message.body` sliced with offsets from `cit` without checking its version or hash against the span",
        ),
        Invalid(
            'def quote(span, cite, dry_run):\n'
            '    if dry_run:\n'
            '        return span.content[cite.start:cite.end]\n'
            '    if cite.version != span.version:\n'
            '        raise ValueError("stale")\n'
            '    return span.content[cite.start:cite.end]\n',
            line=3,
            column=16,
            message="`span.content` sliced with offsets from `cite` without checking its version or hash against the span",
        ),
        # the span read out of the operator's own store, the offsets out of its offset map: both on `self`
        Invalid(
            "class Quoter:\n    def quote(self, sid):\n        node = self._nodes[sid]\n"
            "        start, end = self._offsets[sid]\n        return node.text[start:end]\n",
            line=5,
            column=16,
            message="`node.text` sliced with offsets from `self._offsets` without checking its version or hash against the span",
        ),
        # The message found by id in a mapping built from the list, its text taken with `str()`.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Message:\n    id: str\n    content: str\n    version: int = 0\n\n"
            "def render(ref, messages: list[Message]) -> str:\n    by_id = {m.id: m for m in messages}\n"
            "    msg = by_id[ref.message_id]\n    return str(msg.content)[ref.start:ref.end]\n",
            line=12, column=12,
            message="`str(msg.content)` sliced with offsets from `ref` without checking its version or hash against the span",
        ),
        # A mapping span (`TypedDict`) read out of its store, sliced by item.
        Invalid(
            "from typing import TypedDict\n\nclass MemoryRecord(TypedDict):\n    id: str\n    text: str\n    version: int\n\n"
            "class MemoryStore:\n    def get(self, record_id: str) -> MemoryRecord | None: ...\n\n"
            "def quote(store: MemoryStore, c: dict) -> str:\n    rec = store.get(c['record_id'])\n"
            "    return rec['text'][c['start']:c['end']] if rec else ''\n",
            line=13, column=12,
            message="`rec['text']` sliced with offsets from `c` without checking its version or hash against the span",
        ),
        # Bounds unpacked from a field of a stored entry, whatever the field is called.
        Invalid(
            "class OffsetIndex:\n    def sentence(self, span_id, n):\n        start, end = self.entries[span_id]['sentences'][n]\n"
            "        return self.store.spans[span_id].content[start:end]\n",
            line=4, column=16,
            message="`self.store.spans[span_id].content` sliced with offsets from `self.entries[span_id]` without checking its version or hash against the span",
        ),
        # A tool given offsets with the version and hash they were computed on, which it never compares.
        Invalid(
            "def quote_span(buffer, span_id: str, version: int, content_hash: str, start: int, end: int) -> str:\n"
            "    span = buffer.get(span_id)\n    return span.content[start:end]\n",
            line=3, column=12,
            message="`span.content` sliced with offsets from `start` without checking its version or hash against the span",
        ),
    ]

    @classmethod
    def may_match(cls, source: str, vocabulary: Vocabulary) -> bool:
        """A content read, or an id read (what is fetched by an artifact's id may be sliced itself)."""
        return "[" in source and (content_read_pattern(vocabulary).search(source) is not None or id_read_pattern(vocabulary).search(source) is not None)

    def start_function(self, node: cst.FunctionDef) -> _Function:
        return _Function()

    def finish_function(self, function: _Function, node: cst.FunctionDef) -> None:
        if not function.slices:
            return
        code = self.context.module.code_for_node
        statements = _small_statements(node.body, {id(s) for s, _ in function.slices})
        for sliced, artifact in function.slices:
            statement = statements.get(id(sliced))
            if statement is None:  # in a compound statement's header: checked anywhere in the function
                unchecked = not self._checks(node.body)
            else:
                unchecked = flow.uncovered(node, statement, self._checks, self._checks)
            if unchecked:
                self.report(sliced, self.message.format(span=code(sliced.value), artifact=code(artifact)))

    # --- checks ----------------------------------------------------------------------------------
    def _checks(self, node: cst.CSTNode) -> bool:
        """`node` compares a version or hash (`art.version != span.version`) or calls a check helper."""
        stack: list[cst.CSTNode] = [node]
        while stack:
            current = stack.pop()
            if isinstance(current, cst.Comparison) and self._compares_version_or_hash(current):
                return True
            if isinstance(current, cst.Call) and self._is_check_call(current):
                return True
            if not isinstance(current, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                stack.extend(traversal.children(current))
        return False

    def _compares_version_or_hash(self, node: cst.Comparison) -> bool:
        """`art.version != span.version`, `a.content_hash == h`, or a stamp compared whole: a side whose class
        carries a version or hash (`SpanKey.of(record) != offset_map.key`)."""
        analysis = self.context.analysis
        sides = [node.left, *(c.comparator for c in node.comparisons)]
        if all(isinstance(c.operator, (cst.Equal, cst.NotEqual)) for c in node.comparisons) and not any(
            isinstance(side, cst.Name) and side.value == "None" for side in sides
        ):
            for side in sides:
                known = analysis.known_class(side, self.facts) if isinstance(side, (cst.Name, cst.Attribute)) else None
                if known is not None and (known.version_fields or known.hash_fields):
                    return True
        vocabulary = self.context.vocabulary
        watched = (*vocabulary.version_fields, *vocabulary.hash_fields)
        stack: list[cst.CSTNode] = [node]
        while stack:
            current = stack.pop()
            if isinstance(current, cst.Attribute) and has_word(current.attr.value, watched):
                return True  # `art.version`, `cit.span_version`, `a.content_hash`
            if isinstance(current, cst.Subscript) and has_word(string_key(current) or "", watched):
                return True
            stack.extend(traversal.children(current))
        return False

    def _is_check_call(self, node: cst.Call) -> bool:
        name = callee_name(node)
        if not name:
            return False
        helper = self.context.project.helpers.get(name)
        if helper is not None and helper.checks:
            return True
        # `check_artifact(...)`, imported: trusted by its name
        return has_word(name, self.context.vocabulary.check_words) and not self._defined_here(name)

    def _defined_here(self, name: str) -> bool:
        """The file defines `name`: its body is known, and it compares no version or hash."""
        definition = rf"^[ \t]*(?:async[ \t]+)?def[ \t]+{re.escape(name)}\b"
        return re.search(definition, self.context.source, re.MULTILINE) is not None

    # --- artifacts and content -----------------------------------------------------------------------
    def visit_Assign(self, node: cst.Assign) -> None:
        if self.state is not None:
            for target in node.targets:
                self._bind(target.target, node.value)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        if self.state is not None:
            self._bind(node.target, node.value)

    def visit_For(self, node: cst.For) -> None:
        if self.state is not None:
            self._bind(node.target, node.iter)
            self.state.aliases.bind(node.target, None)  # an item of the iterable, not the iterable

    def visit_ListComp(self, node: cst.ListComp) -> None:
        self._bind_comprehension(node.for_in)

    def visit_SetComp(self, node: cst.SetComp) -> None:
        self._bind_comprehension(node.for_in)

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> None:
        self._bind_comprehension(node.for_in)

    def visit_DictComp(self, node: cst.DictComp) -> None:
        self._bind_comprehension(node.for_in)

    def _bind_comprehension(self, comp: cst.CompFor | None) -> None:
        """Bind the loop names before the element, which LibCST visits first."""
        while self.state is not None and comp is not None:
            self._bind(comp.target, comp.iter)
            comp = comp.inner_for_in

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)) and len(
            target.elements) == len(value.elements) and not any(isinstance(e, cst.StarredElement) for e in value.elements):
            for name, item in zip(target.elements, value.elements):  # `start, end = om.spans[a][0], om.spans[b][1]`
                self._bind(name.value, item.value)
            return
        function = self.state
        names = [target] if isinstance(target, cst.Name) else (
            [e.value for e in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else []
        )
        artifact = self._artifact_in(value)
        if artifact is None and isinstance(target, (cst.Tuple, cst.List)):
            artifact = self._unpacked_bounds(names, value)
        content_of = self._content_owner(value)
        function.aliases.bind(target, value)
        for name in names:
            if not isinstance(name, cst.Name):
                continue
            function.artifact_locals.pop(name.value, None)
            function.content_locals.pop(name.value, None)
            function.built_locals.discard(name.value)
            function.fetched.discard(name.value)
            if isinstance(target, cst.Name) and self._fetches_by_id(value):
                function.fetched.add(name.value)
            if isinstance(target, cst.Name) and _built_here(value):
                function.built_locals.add(name.value)
            elif artifact is not None:
                function.artifact_locals[name.value] = artifact
            elif content_of is not None and isinstance(target, cst.Name):
                function.content_locals[name.value] = content_of

    def _fetches_by_id(self, value: cst.BaseExpression) -> bool:
        """`lookup(citation.chunk_id)`, `await store.aget(ns, ref["memory_id"])`: a call given the id another
        object holds (an id field, or `<noun>_id`), which returns the object that id names."""
        if isinstance(value, cst.Await):
            value = value.expression
        if not isinstance(value, cst.Call) or (callee_name(value) or "")[:1].isupper():
            return False  # not a call, or a constructor: a new object, not the one the id names
        ids = self.context.vocabulary.id_fields

        def id_read(arg: cst.BaseExpression) -> bool:  # `citation.chunk_id`, `ref["memory_id"]`
            if isinstance(arg, cst.Attribute):
                owner, field_name = arg.value, arg.attr.value
            elif isinstance(arg, cst.Subscript) and (key := string_key(arg)) is not None:
                owner, field_name = arg.value, key
            else:
                return False
            return isinstance(owner, cst.Name) and owner.value not in ("self", "cls") and (
                field_name in ids or field_name.endswith("_id")
            )

        return any(a.keyword is None and id_read(a.value) for a in value.args)

    def _unpacked_bounds(self, names: list[cst.BaseExpression], value: cst.BaseExpression) -> cst.BaseExpression | None:
        """`start, end = entry["sentences"][n]`, `lo, hi = art.spans[i]`: names that say bounds, unpacked from
        a field of a stored record; the record (`entry`) is the artifact."""
        if not names or not all(isinstance(n, cst.Name) and names_offsets(n.value) for n in names):
            return None
        node = value
        while isinstance(node, cst.Subscript) and string_key(node) is None:
            node = node.value  # `[n]`: an item of the field
        if isinstance(node, cst.Attribute):
            record = node.value
        elif isinstance(node, cst.Subscript):
            record = node.value  # `entry["sentences"]`
        else:
            return None
        if access_root(record) is None or (isinstance(record, cst.Name) and record.value in ("self", "cls")):
            return None
        return record

    def _content_owner(self, expr: cst.BaseExpression) -> cst.BaseExpression | None:
        """The span whose content `expr` is: `span` for `span.content`, or for its text as a function of
        it alone gives it (`str(span.content)`, `as_text(msg.content)`)."""
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and len(expr.args) == 1 and expr.args[0].keyword is None:
            expr = expr.args[0].value
        fields = self.context.vocabulary.content_fields
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in CONTENT_GETTERS and fields:
            expr = cst.Attribute(value=expr.func.value, attr=cst.Name(fields[0]))  # `node.get_content()`, as `node.content`
        if isinstance(expr, cst.Name):
            if expr.value in self.state.fetched:
                return expr  # `body = texts.get(c.passage_id)`: the text that id names, itself
            return self.state.content_locals.get(expr.value)
        if isinstance(expr, cst.Subscript) and string_key(expr) in self.context.vocabulary.content_fields:
            owner = self.state.aliases.resolve(expr.value)  # `rec["text"]`, `rec` of a `TypedDict` span class
            if access_root(owner) in self.state.fetched:
                return owner  # `item.value["text"]`, `item` fetched by the artifact's id
            known = self.context.analysis.known_class(owner, self.facts)
            return owner if known is not None and known.is_span and known.mapping else None
        if isinstance(expr, cst.Attribute) and expr.attr.value in self.context.vocabulary.content_fields:
            owner = self.state.aliases.resolve(expr.value)
            analysis = self.context.analysis
            if (
                analysis.is_span_like(owner, self.facts, content=expr.attr.value)
                or isinstance(owner, cst.Name) and owner.value in _SPAN_SHORTHANDS
                or isinstance(owner, cst.Subscript) and analysis.is_span_read(owner, self.facts)
                or isinstance(owner, cst.Name) and owner.value in self.state.fetched
            ):
                return owner
            held = analysis.holder_of(owner, self.facts)
            if held is not None:
                return held[0]  # `record.message.content`: the content of the span `record`
        return None

    def _artifact_in(
        self, expr: cst.BaseExpression, span: cst.BaseExpression | None = None
    ) -> cst.BaseExpression | None:
        """The artifact an offset expression reads from (`citation` in `citation.start + 1`), else None.

        Reads of `span` itself, of `self` scalars, and results of calls (`m.start()`) are not artifacts.
        """
        span_root = access_root(span) if span is not None else None
        stack: list[cst.CSTNode] = [expr]
        while stack:
            current = stack.pop()
            if self._current_lookup(current):
                continue  # offsets stored under the content's version or hash: computed on this content
            if isinstance(current, cst.Call):
                read = self._offset_lookup(current, span)
                if read is not None:
                    return read
                if span_root is not None and isinstance(current.func, cst.Attribute) and _owned(current.func.value, span):
                    continue  # `span.text.find(x)`: a position computed now, on the content as it is
                stack.extend(a.value for a in current.args)
                continue
            if isinstance(current, cst.Name):
                found = self.state.artifact_locals.get(current.value)
                if found is not None and (span_root is None or not _owned(found, span)):
                    return found
                if current.value in _stamped_offsets(list(self.facts.params), self.context.vocabulary):
                    return current
                continue
            if isinstance(current, (cst.Attribute, cst.Subscript)):
                read = self._offset_read(current, span)
                if read is not None:
                    return read
                if isinstance(current, cst.Subscript):
                    stack.append(current.value)
                    stack.extend(current.slice)
                continue
            stack.extend(traversal.children(current))
        return None

    def _offset_lookup(self, call: cst.Call, span: cst.BaseExpression | None) -> cst.BaseExpression | None:
        """`self.offset_map.get(span_id)`: offsets looked up under a key that does not follow the content."""
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "get" and call.args):
            return None
        owner = func.value
        inner = last_name(owner)
        if inner is None or not names_offsets(inner):
            return None
        return None if _owned(owner, span) else owner

    def _current_lookup(self, node: cst.CSTNode) -> bool:
        """`offsets[(s.span_id, s.version)]`, `offsets.get((s.span_id, s.content_hash))`: a lookup under a
        key that reads a version or hash."""
        if isinstance(node, cst.Subscript) and string_key(node) is None:
            return any(isinstance(e.slice, cst.Index) and self._keyed_on_version(e.slice.value) for e in node.slice)
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "get":
            return bool(node.args) and self._keyed_on_version(node.args[0].value)
        return False

    def _keyed_on_version(self, key: cst.BaseExpression) -> bool:
        """A key that changes with the content: it reads a version or hash (`(s.span_id, s.version)`), so
        what it finds was computed on the current content."""
        watched = (*self.context.vocabulary.version_fields, *self.context.vocabulary.hash_fields)
        stack: list[cst.CSTNode] = [key]
        while stack:
            current = stack.pop()
            if isinstance(current, cst.Attribute) and has_word(current.attr.value, watched):
                return True
            if isinstance(current, cst.Subscript) and has_word(string_key(current) or "", watched):
                return True
            stack.extend(traversal.children(current))
        return False

    def _offset_read(self, node: cst.Attribute | cst.Subscript, span: cst.BaseExpression | None) -> cst.BaseExpression | None:
        """`cit.start`, `art.offsets[0]`, `ann["end"]`, `self.offset_map[span_id]`: an offset read from an object."""
        key: str | None
        owner: cst.BaseExpression
        if isinstance(node, cst.Attribute):
            key, owner = node.attr.value, node.value
        else:
            owner = node.value
            key = string_key(node)
            if key is None:
                if isinstance(owner, cst.Name) and owner.value in self.state.built_locals:
                    return None
                inner = last_name(owner)
                if inner is None or not names_offsets(inner):
                    return None
                return None if _owned(owner, span) else owner
        if not names_offsets(key):
            return None
        if access_root(owner) is None or _owned(owner, span):
            return None
        if CONFIG_WORDS.intersection(name_parts(last_name(owner) or "")):
            return None  # `self.settings.preview_chars`: a limit someone configured
        if isinstance(owner, cst.Name) and owner.value in ("self", "cls") and not self._self_is_artifact():
            return None
        return owner

    def _self_is_artifact(self) -> bool:
        """A method of a stored artifact class: versioned or hashed, with no content of its own."""
        known = self.context.project.class_named(self.facts.self_class if self.facts else None)
        return known is not None and not known.content_fields and bool(known.version_fields or known.hash_fields)

    # --- the slice -------------------------------------------------------------------------------------
    def visit_Subscript(self, node: cst.Subscript) -> None:
        if self.state is None:
            return
        span = self._content_owner(node.value)
        if span is None:
            return
        for element in node.slice:
            inner = element.slice
            bounds = [inner.lower, inner.upper] if isinstance(inner, cst.Slice) else [inner.value]
            for bound in bounds:
                if bound is None:
                    continue
                artifact = self._artifact_in(bound, span)
                if artifact is not None:
                    self.state.slices.append((node, artifact))
                    return


def _stamped_offsets(params: list[str], vocabulary: Vocabulary) -> frozenset[str]:
    """The parameters naming offsets (`start`, `end`) of a function also given a version or hash
    (`def quote(span_id, version, content_hash, start, end)`): an artifact handed in by its parts."""
    if not any(p in vocabulary.version_fields or p in vocabulary.hash_fields for p in params):
        return frozenset()
    return frozenset(p for p in params if names_offsets(p))


def _owned(expr: cst.BaseExpression, span: cst.BaseExpression | None) -> bool:
    """`expr` is `span` or is read out of it (`span.meta["start"]`): the span's own, not an artifact.

    A span read out of a container (`rec = self._items[sid]`) owns what is read out of that item only,
    not the container's neighbours (`self._offsets[rec.span_id]`). With no span (or one read through a
    call), only what has no named root is owned."""
    root = access_root(span) if span is not None else None
    if root is None:
        return access_root(expr) is None
    if isinstance(span, cst.Name):
        return access_root(expr) == root
    node = expr
    while isinstance(node, (cst.Attribute, cst.Subscript)) and not node.deep_equals(span):
        node = node.value
    return node.deep_equals(span)


def _built_here(value: cst.BaseExpression) -> bool:
    """A value the function builds itself, whole: what is read out of it was computed by this call."""
    return isinstance(value, (cst.Dict, cst.DictComp, cst.List, cst.ListComp, cst.SetComp))


def _small_statements(body: cst.BaseSuite, wanted: set[int]) -> dict[int, cst.BaseSmallStatement]:
    """For each node of `wanted` (by id) inside `body`, the small statement holding it (not through a
    nested function, class or lambda, whose statements are not this function's paths)."""
    found: dict[int, cst.BaseSmallStatement] = {}
    stack: list[tuple[cst.CSTNode, cst.BaseSmallStatement | None]] = [(body, None)]
    while stack:
        node, statement = stack.pop()
        if isinstance(node, cst.BaseSmallStatement):
            statement = node
        if id(node) in wanted and statement is not None:
            found[id(node)] = statement
        if not isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            stack.extend((child, statement) for child in traversal.children(node))
    return found
