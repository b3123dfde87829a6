"""SPL201: a derived artifact cached under the span id alone."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from spanlint.rules import traversal
from spanlint.rules.aliases import ValueAliases
from spanlint.rules.analysis import callee_name, dotted_name, last_name, metadata_read, string_key, string_value
from spanlint.rules.base import Invalid, ScopedRule, Valid, words_pattern
from spanlint.rules.libcst_backend import cst
from spanlint.rules.names import ID_PARTS, content_read_pattern, name_parts, tracking_words
from spanlint.rules.prescan import ASSIGNMENTS, FUNCTIONS, Prefilter, Scope, last_dotted_part, match_lines, spans_line
from runtime_guard.vocabulary import Vocabulary

# Methods of a span that return the span itself (a copy or a dump), not something derived from it.
_SELF_COPIES = frozenset({
    "copy", "model_copy", "clone", "deepcopy", "dict", "model_dump", "to_dict", "json", "model_dump_json", "to_json",
    "serialize",
})
# Functions that return a serialized copy of their argument: `json.dumps(span)`, `asdict(span)`.
_SERIALIZERS = frozenset({"dumps", "asdict", "astuple", "to_jsonable_python"})
_WRITERS = frozenset({"setdefault", "set", "put"})
_READERS = frozenset({"get"})
_UPDATERS = frozenset({"update"})  # `.update({s.id: ... for s in spans})`
_CACHE_METHODS = _WRITERS | _READERS | _UPDATERS
# Name words of a lookup table beside the vocabulary's cache words: `self._lookup`.
_LOOKUP_WORDS = frozenset({"lookup", "lookups"})


def cache_name_words(vocabulary: Vocabulary) -> frozenset[str]:
    """Words that make a mapping a cache: a cache word (`_memo`, `_lookup`), or a word saying its values
    are derived from span content (`_embeddings`, `_token_counts`)."""
    return frozenset((*vocabulary.cache_words, *vocabulary.derived_words, *_LOOKUP_WORDS, "token"))


# Word parts of a function that measures or embeds the text it is given (`count_tokens_approximately`).
_MEASURE_WORDS = frozenset({"token", "tokens", "tokenize", "embed", "embedding", "encode"})
_MEASURE_CALL = re.compile(r"(?:%s)\w*\(" % "|".join(sorted(_MEASURE_WORDS)), re.IGNORECASE)  # a call of one, in text


def _ast_mapping_name(mapping: ast.Attribute | ast.Name) -> str:
    """`counts` for `self.counts`, `_rendered` for a module's `_rendered`."""
    return mapping.attr if isinstance(mapping, ast.Attribute) else mapping.id


class CacheKeyPrefilter(Prefilter):
    """A cache-named mapping read or written under a key that may be an id, a dict comprehension
    keyed on an id-ish value (assigned or returned), a cache-decorated function taking an id-ish parameter, or a write into
    an attribute mapping, a global or a closure's mapping the function tested for the key (`if bid not
    in self.rendered:`, or `n = self.counts.get(k)`, `n = seen.get(k)`: filled once)."""

    shape = "cache-keyed-on-id"
    statements = (*FUNCTIONS, *ASSIGNMENTS, ast.If, ast.Return)
    expressions = (ast.Call, ast.Subscript, ast.Compare)

    def __init__(self, scan) -> None:  # type: ignore[no-untyped-def]
        super().__init__(scan)
        self.cache_words = cache_name_words(self.vocabulary)
        self.id_fields = frozenset(self.vocabulary.id_fields)
        self.cache_decorators = frozenset(self.vocabulary.cache_decorators)

    def words(self) -> tuple[str, ...]:
        return tuple(sorted(self.cache_words))

    def statement(self, node: ast.AST, scope: Scope) -> None:
        if isinstance(node, FUNCTIONS):
            if self._memoized_on_id(node):
                self.mark(node)
            return
        if isinstance(node, ast.If):
            test = node.test
            if isinstance(test, ast.Compare):
                tested = scope.notes.setdefault("membership_tested", set())
                tested.update(_ast_mapping_name(c) for op, c in zip(test.ops, test.comparators)
                              if isinstance(op, (ast.In, ast.NotIn)) and isinstance(c, (ast.Attribute, ast.Name)))
            return
        value = getattr(node, "value", None)
        if (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "get"
            and isinstance(value.func.value, (ast.Attribute, ast.Name))
        ):  # `n = self.counts.get(k)` (or `seen.get(k)` in a closure), filled when missing
            scope.notes.setdefault("membership_tested", set()).add(_ast_mapping_name(value.func.value))
        if isinstance(node, ast.Assign):
            scope.notes.setdefault("attribute_items_written", []).extend(
                (_ast_mapping_name(t.value), node) for t in node.targets
                if isinstance(t, ast.Subscript) and isinstance(t.value, (ast.Attribute, ast.Name))
            )
        if value is not None and isinstance(value, ast.DictComp) and self._key_names_id(value.key, any_name=False):
            self.mark(value)

    def statements_done(self, scopes: list[Scope]) -> None:
        """`if k not in self.m: self.m[k] = ...`, `n = self.m.get(k)` then `self.m[k] = n`: an attribute
        mapping filled once per key (the walk meets a block's statements in any order), in a function
        that reads a content field or calls a function measuring text (what it stores must be computed
        from the content)."""
        content_lines: list[int] | None = None
        for scope in scopes:
            tested = scope.notes.get("membership_tested")
            filled = [node for attr, node in scope.notes.get("attribute_items_written", ()) if tested and attr in tested]
            if not filled:
                continue
            if content_lines is None:
                content_lines = match_lines(self.scan.source, content_read_pattern(self.vocabulary), _MEASURE_CALL)
            if scope.node is not None and spans_line(scope.node, content_lines):
                for node in filled:
                    self.mark(node)

    def expression(self, node: ast.AST, scope: Scope) -> None:
        if isinstance(node, ast.Call):
            func = node.func
            if (
                isinstance(func, ast.Attribute) and func.attr in _CACHE_METHODS and node.args
                and self._is_cache(func.value)
                and (isinstance(node.args[0], (ast.DictComp, ast.Dict)) or self._key_names_id(node.args[0]))
            ):
                self.mark(node)
        elif isinstance(node, ast.Subscript):
            if self._is_cache(node.value) and self._key_names_id(node.slice):
                self.mark(node)
        elif any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) and any(
            self._is_cache(c) for c in node.comparators
        ) and self._key_names_id(node.left):
            self.mark(node)

    def _names_id(self, name: str) -> bool:
        parts = self.parts(name)
        return name in self.id_fields or (bool(parts) and parts[-1] in ID_PARTS)

    def _key_names_id(self, key: ast.expr, any_name: bool = True) -> bool:
        """A key that may be a span id: an id-ish attribute or string key, or (`any_name`) a name,
        which may hold an id; tuples, f-strings and conversions (`str(...)`) by their parts."""
        if isinstance(key, ast.Tuple):
            return any(self._key_names_id(e, any_name) for e in key.elts)
        if isinstance(key, ast.JoinedStr):
            return any(isinstance(v, ast.FormattedValue) and self._key_names_id(v.value, any_name) for v in key.values)
        if isinstance(key, ast.Name):
            return any_name or self._names_id(key.id)
        if isinstance(key, ast.Attribute):
            return self._names_id(key.attr)
        if isinstance(key, ast.Subscript):
            inner = key.slice
            return isinstance(inner, ast.Constant) and isinstance(inner.value, str) and self._names_id(inner.value)
        if isinstance(key, ast.Call):
            # `str(s.id)`; `d.meta.get("source_id", d.id)`, the id the lookup falls back to
            return any(self._key_names_id(a, any_name) for a in key.args[:2])
        return False

    def _is_cache(self, mapping: ast.expr) -> bool:
        while isinstance(mapping, ast.Subscript):
            mapping = mapping.value
        name = mapping.attr if isinstance(mapping, ast.Attribute) else mapping.id if isinstance(mapping, ast.Name) else None
        return name is not None and not self.cache_words.isdisjoint(self.parts(name))

    def _memoized_on_id(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """`@lru_cache` (or another cache decorator) on a function taking an id-ish parameter, or a
        decorator given a key function (`key_func=lambda s: s["span_id"]`: `_id_key_function`'s shape)."""
        if any(isinstance(k, ast.keyword) and k.arg in _KEY_FUNCTION_KEYWORDS and isinstance(k.value, ast.Lambda)
               for d in node.decorator_list if isinstance(d, ast.Call) for k in ast.walk(d)):
            return True
        if not any(last_dotted_part(d.func if isinstance(d, ast.Call) else d) in self.cache_decorators
                   for d in node.decorator_list):
            return False
        args = node.args
        return any(self.parts(a.arg)[-1:] and self.parts(a.arg)[-1] in ID_PARTS
                   for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))


@dataclass
class _Frame:
    """Names of one function: its locals (transient mappings) and the locals holding derived values."""

    locals: set[str] = field(default_factory=set)
    derived: set[str] = field(default_factory=set)
    # locals holding a span id (`key = span.span_id`) -> the code of the span it is the id of
    span_ids: dict[str, str] = field(default_factory=dict)
    shared: set[str] = field(default_factory=set)  # declared global/nonlocal
    aliases: ValueAliases = field(default_factory=ValueAliases)
    # locals not derived when bound, by what they were bound to: derived from the span a later key names
    # (`vec = self.embed(seg.body)`; `cache[seg.seg_id] = vec`)
    computed: dict[str, cst.BaseExpression] = field(default_factory=dict)
    bound: dict[str, cst.BaseExpression] = field(default_factory=dict)  # local -> what it was last bound to
    # (mapping, key) codes of `if key not in self.mapping:` tests and `self.mapping.get(key)` reads: a
    # mapping filled once per key
    tested: set[tuple[str, str]] = field(default_factory=set)


@dataclass
class _Read:
    mapping: str
    key: cst.BaseExpression
    says_derived: bool
    passed: bool  # the mapping is a parameter: a lookup in what the caller passed, unless the tree fills it


# The examples' span class, whose id field has a name of its own.
_SEGMENT_CLASS = (
    "from dataclasses import dataclass\n\n\n"
    "@dataclass\n"
    "class Segment:\n"
    "    seg_id: str\n"
    "    body: str\n"
    "    rev: int = 0\n\n\n"
)


class DerivedCacheKeyedOnSpanId(ScopedRule):
    code = "SPL201"
    name = "derived-cache-keyed-on-span-id"
    summary = "Derived artifact cached under the span id alone"
    message = "Derived artifact cached under the span id alone"
    help = "Key it on the span's version or content hash as well as its id: `(span_id, version, content_hash)`"
    prefilter = CacheKeyPrefilter
    local_to_definitions = True
    docs = """
## What it does
Finds caches of something derived from a span (an embedding, token offsets, citations, a token
count, a copy of its text) whose key is the span's id alone: `cache[s.span_id] = embed(s.content)`,
reads such as `cache[span_id]`, `.get(span_id)` and `.setdefault(span_id, ...)`, `.update({s.id: ...})`,
keys and spans reached through aliases (`key = rec.span_id` after `rec = span`), dict
comprehensions `{s.id: tokenize(s.text) for s in spans}` kept on `self` or at module level, and
`@lru_cache`/`@cache`/`cachetools` functions that take only a span id and read the span's content.

A mapping is a cache when its name says so (cache, memo, index, store, lookup) or names what is derived
(embeddings, offsets, citations, token counts), or when an attribute mapping, a module's global or a
closure's mapping (`seen = {}` in the factory that returns the closure) is filled
once per key (`if bid not in self.rendered: self.rendered[bid] = block.value.splitlines()`, or after
`n = self._counts.get(span.span_id)` found nothing); the id must be a span's (`span_id`, `node_id`, `chunk_id`, `message_id`, `block_id`,
or `.id` of a span-like value, including a value whose class in the linted tree declares an id and a
content field, such as `Fragment(id, text)`, and a value of unknown class read for the id field a span
class of the tree declares under a name of its own, `seg.seg_id`), or a lookup falling back to one
(`d.meta.get("source_id", d.id)`), or what a helper named for it returns (`message_id(msg)`); the value must be derived from the span's content (also when
computed into a local first: `vec = self.embed(seg.body)`), or the mapping's name must say it is. Storing the span itself (`self._spans[s.span_id] = s`), or a
serialization of the whole span (`s.model_dump_json()`, `json.dumps(s)`), is the span store, not a
derived artifact. Mappings local to a call are transient and not reported.

## Why is this bad?
When an operator rewrites the span in place (summarize, redact, normalize) and keeps its id, the
cached artifact still answers for the old content. Retrieval returns the old embedding, citations
point at offsets that no longer exist, and nothing fails.

## Example
```python
class Retriever:
    def embedding(self, span):
        if span.span_id not in self._embeddings:
            self._embeddings[span.span_id] = self.model.embed(span.content)
        ...
```

## Use instead
```python
class Retriever:
    def embedding(self, span):
        key = (span.span_id, span.version, span.content_hash)
        if key not in self._embeddings:
            self._embeddings[key] = self.model.embed(span.content)
        ...
```

## Fix safety
No fix: the right key depends on what the span carries (a version, a content hash, or both).
"""
    valid = [
        Valid(
            "def make_token_counter():\n    seen: dict[tuple[str, str], int] = {}\n\n    def count(spans) -> int:\n        total = 0\n"
            "        for s in spans:\n            key = (s.span_id, s.content_hash)\n            n = seen.get(key)\n            if n is None:\n"
            "                n = seen[key] = len(s.content.split())\n            total += n\n        return total\n\n"
            "    return count\n"
        ),
        # A mapping local to the call, filled once per id: gone when it returns.
        Valid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Note:\n    id: str\n    text: str\n\n"
            "def render_all(notes: list[Note]) -> list[str]:\n    rendered: dict[str, str] = {}\n"
            "    for note in notes:\n        if note.id not in rendered:\n"
            "            rendered[note.id] = markdown(note.text)\n    return list(rendered.values())\n"
        ),
        # The same counts filed under the id and the version the buffer keeps for it.
        Valid(
            "class Context:\n"
            "    def usage(self) -> int:\n"
            "        for sid, span in self.spans.items():\n"
            "            key = (sid, span.version)\n"
            "            if key not in self._token_counts:\n"
            "                self._token_counts[key] = rough_tokens(span.content)\n"
            "        return sum(self._token_counts.values())\n"
        ),
        # Citations filed under the answer's id, each carrying the hash of the node it quotes.
        Valid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Citation:\n    node_id: str\n    node_hash: str\n    start: int\n    end: int\n\n"
            "class Engine:\n    def __init__(self) -> None:\n        self.citations: dict[str, list[Citation]] = {}\n\n"
            "    def answer(self, turn, sources) -> None:\n"
            "        self.citations[turn.span_id] = [Citation(n.node_id, n.hash, 0, len(n.text)) for n in sources]\n"
        ),
        Valid("from functools import lru_cache\n\n@lru_cache(maxsize=2048)\ndef avatar_for(user_id: str) -> bytes:\n    user = USERS.get(user_id)\n    return render(user.avatar_url)\n"),
        Valid(  # keyed on the id and the version of what it derives from
            _SEGMENT_CLASS
            + "class Vectors:\n"
            "    def vector(self, seg):\n"
            "        vec = self.encoder.encode(seg.body)\n"
            "        self.store[(seg.seg_id, seg.rev)] = vec\n"
            "        return vec\n"
        ),
        Valid(  # keyed on the class's own id and its revision
            _SEGMENT_CLASS
            + "class OffsetIndex:\n"
            "    def build(self, seg: Segment):\n"
            "        self._offsets[(seg.seg_id, seg.rev)] = token_offsets(seg.body)\n"
        ),
        Valid(
            "class Retriever:\n"
            "    def embed(self, span):\n"
            "        key = (span.span_id, span.version, span.content_hash)\n"
            "        self._embedding_cache[key] = self.model.embed(span.content)\n"
        ),
        Valid(
            "class SpanStore:\n"
            "    def add(self, span):\n"
            "        self._spans[span.span_id] = span\n"
        ),
        Valid(
            "import functools\n\n"
            "@functools.lru_cache(maxsize=None)\n"
            "def fib(n: int) -> int:\n"
            "    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
        ),
        Valid(
            "class HttpCache:\n"
            "    def fetch(self, url):\n"
            "        self._cache[url] = self.session.get(url).text\n"
        ),
        Valid(
            "class Sessions:\n"
            "    def remember(self, user):\n"
            "        self.cache[user.id] = render_profile(user.body)\n"
        ),
        Valid(
            "def offsets_for(spans):\n"
            "    offsets = {}\n"
            "    for span in spans:\n"
            "        offsets[span.span_id] = compute_offsets(span.content)\n"
            "    return offsets\n"
        ),
        Valid(
            "class VectorStore:\n"
            "    async def upsert(self, nodes):\n"
            "        for node in nodes:\n"
            "            self._store[node.node_id] = node\n"
        ),
        # Scores the caller computed and passed in, looked up by id: not a cache this code keeps.
        Valid(
            "def prune_low(store, scores: dict[str, float], floor: float) -> list[str]:\n"
            "    return [m.span_id for m in store.live() if scores.get(m.span_id, 1.0) < floor]\n"
        ),
        # Made from the whole message (a widget for it), not from its content: not derived.
        Valid(
            "class MessageList:\n"
            "    async def show(self, messages):\n"
            "        for message in messages:\n"
            "            widget = self._uis.get(message.id)\n"
            "            if widget is None:\n"
            "                widget = self._new_ui(message)\n"
            "                self._uis[message.id] = widget\n"
        ),
        # Filled once per message id with what is not derived from its content: a queue, the message itself.
        Valid(
            "import asyncio\n\n"
            "class Router:\n"
            "    def route(self, msg):\n"
            "        if msg.id not in self._queues:\n"
            "            self._queues[msg.id] = asyncio.Queue()\n"
            "        if msg.id not in self._by_id:\n"
            "            self._by_id[msg.id] = msg\n"
            "        return self._queues[msg.id]\n"
        ),
        # A mapping made for one use and returned by a function not named for a cache.
        Valid(
            "def sentence_map(spans):\n    return {span.span_id: sentence_bounds(span.content) for span in spans}\n",
        ),
        # The task cache's key function reads the id and the version.
        Valid(
            "from langgraph.func import task\nfrom langgraph.types import CachePolicy\n\n"
            "@task(cache_policy=CachePolicy(key_func=lambda span: (span['span_id'], span['version'])))\n"
            "def embed_for_rerank(span):\n    return EMBEDDINGS.embed_query(span['content'])\n",
        ),
    ]
    invalid = [
        # The embedding awaited into a local first, for a span whose class the code declares.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    text: str\n    version: int = 0\n\n"
            "class Embeddings:\n    def __init__(self, model):\n        self.model = model\n        self.cache: dict[str, list[float]] = {}\n\n"
            "    async def vector(self, span: Span) -> list[float]:\n        vec = await self.model.aembed(span.text)\n"
            "        self.cache[span.span_id] = vec\n        return vec\n",
            line=16, column=20, message="`self.cache` holds an artifact derived from span content keyed on the span id `span.span_id` alone",
        ),
        Invalid(
            "def make_embedder(embedder):\n    memo: dict[str, list[float]] = {}\n\n"
            "    async def embed(span) -> list[float]:\n"
            "        (vec,) = await embedder.generate_embeddings([span.text])\n"
            "        memo[span.span_id] = list(vec)\n        return list(vec)\n\n    return embed\n",
            line=6, column=14, message="`memo` holds an artifact derived from span content keyed on the span id `span.span_id` alone",
        ),
        # A counter made by a factory: its closure's mapping outlives every call.
        Invalid(
            "def make_token_counter():\n    seen: dict[str, int] = {}\n\n    def count(spans) -> int:\n        total = 0\n"
            "        for s in spans:\n            n = seen.get(s.span_id)\n            if n is None:\n"
            "                n = seen[s.span_id] = len(s.content.split())\n            total += n\n        return total\n\n"
            "    return count\n",
            line=9, column=26, message="`seen` holds an artifact derived from span content keyed on the span id `s.span_id` alone",
        ),
        # Semantic Kernel's `ChatMessageContent`: content behind a property, the id in its metadata.
        Invalid(
            "from pydantic import BaseModel\n\nclass TextContent(BaseModel):\n    text: str\n\n"
            "class ChatMessageContent(BaseModel):\n    role: str\n    items: list[TextContent]\n    metadata: dict = {}\n\n"
            "    @property\n    def content(self) -> str:\n        return \"\".join(i.text for i in self.items)\n\n"
            "_rendered: dict[str, str] = {}\n\ndef render(msg: ChatMessageContent) -> str:\n"
            "    if (sid := msg.metadata.get(\"span_id\")) in _rendered:\n        return _rendered[sid]\n"
            "    text = markdown(msg.content)\n    _rendered[sid] = text\n    return text\n",
            line=21, column=15,
            message="`_rendered` holds an artifact derived from span content keyed on the span id `sid` alone",
        ),
        # A module's global, not named a cache, filled once per id.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Note:\n    id: str\n    text: str\n\n"
            "_rendered: dict[str, str] = {}\n\ndef render(note: Note) -> str:\n"
            "    if (nid := note.id) in _rendered:\n        return _rendered[nid]\n"
            "    _rendered[nid] = markdown(note.text)\n    return _rendered[nid]\n",
            line=13, column=15,
            message="`_rendered` holds an artifact derived from span content keyed on the span id `nid` alone",
        ),
        # The id kept in the message's metadata (Haystack's `ChatMessage.meta`).
        Invalid(
            "from dataclasses import dataclass, field\n\n@dataclass\nclass ChatMessage:\n    _role: str\n    _content: str\n"
            "    _meta: dict = field(default_factory=dict)\n\n    @property\n    def text(self) -> str:\n        return self._content\n\n"
            "    @property\n    def meta(self) -> dict:\n        return self._meta\n\n"
            "class TokenLedger:\n    def __init__(self) -> None:\n        self._counts: dict[str, int] = {}\n\n"
            "    def count(self, msg: ChatMessage) -> int:\n        key = msg.meta[\"message_id\"]\n"
            "        if key not in self._counts:\n            self._counts[key] = len(msg.text.split())\n        return self._counts[key]\n",
            line=24, column=26,
            message="`self._counts` holds an artifact derived from span content keyed on the span id `key` alone",
        ),
        # Ids kept beside the messages in a parallel list; counts filled once per id.
        Invalid(
            "class Context:\n"
            "    def usage(self) -> int:\n"
            "        for mid, message in zip(self._ids, self._messages):\n"
            "            if mid not in self._token_counts:\n"
            "                self._token_counts[mid] = rough_tokens(message.content)\n"
            "        return sum(self._token_counts.values())\n",
            line=5, column=36, message="`self._token_counts` holds an artifact derived from span content keyed on the span id `mid` alone",
        ),
        # Token counts of whole messages, filled once per message id.
        Invalid(
            "class TokenMeter:\n"
            "    def count(self, message) -> int:\n"
            "        if message.id in self._by_message:\n"
            "            return self._by_message[message.id]\n"
            "        n = count_tokens_approximately([message])\n"
            "        self._by_message[message.id] = n\n"
            "        return n\n",
            line=6, column=26, message="`self._by_message` holds an artifact derived from span content keyed on the span id `message.id` alone",
        ),
        Invalid("from functools import lru_cache\n\n@lru_cache(maxsize=2048)\ndef embedding_for_item(item_id: str) -> tuple[float, ...]:\n    item = STORE.get(item_id)\n    return tuple(embed(item.content))\n", line=4, column=24, message="`@lru_cache` holds an artifact derived from span content keyed on the span id `item_id` alone"),
        Invalid(  # the segment known only by its class's own id field; the vector computed into a local
            _SEGMENT_CLASS
            + "class Vectors:\n"
            "    def vector(self, seg):\n"
            "        vec = self.encoder.encode(seg.body)\n"
            "        self.store[seg.seg_id] = vec\n"
            "        return vec\n",
            line=14, column=20, message="`self.store` holds an artifact derived from span content keyed on the span id `seg.seg_id` alone",
        ),
        Invalid(  # a metadata id falling back to the node id
            "class Retriever:\n"
            "    def embed(self, node):\n"
            "        self._embedding_cache[node.metadata.get('doc_id', node.id)] = self.model.embed(node.text)\n",
            line=3, column=31,
            message="`self._embedding_cache` holds an artifact derived from span content keyed on the span id "
            "`node.metadata.get('doc_id', node.id)` alone",
        ),
        Invalid(  # the class's id under a name of its own
            _SEGMENT_CLASS
            + "class OffsetIndex:\n"
            "    def build(self, seg: Segment):\n"
            "        self._offsets[seg.seg_id] = token_offsets(seg.body)\n",
            line=13, column=23, message="`self._offsets` holds an artifact derived from span content keyed on the span id `seg.seg_id` alone",
        ),
        Invalid(
            "class Retriever:\n"
            "    def embed(self, span):\n"
            "        self._embedding_cache[span.span_id] = self.model.embed(span.content)\n",
            line=3, column=31, message="`self._embedding_cache` holds an artifact derived from span content keyed on the span id `span.span_id` alone",
        ),
        Invalid(
            "_CACHE = {}\n\n"
            "def token_count(chunk):\n"
            "    return _CACHE.setdefault(chunk.chunk_id, len(tokenize(chunk.text)))\n",
            line=4, column=30, message="`_CACHE` holds an artifact derived from span content keyed on the span id `chunk.chunk_id` alone",
        ),
        Invalid(
            "from functools import lru_cache\n\n"
            "@lru_cache(maxsize=4096)\n"
            "def embedding_for(span_id: str) -> list[float]:\n"
            "    return MODEL.embed(STORE[span_id].content)\n",
            line=4, column=19, message="`@lru_cache` holds an artifact derived from span content keyed on the span id `span_id` alone",
        ),
        Invalid(
            "class Tokenizer:\n"
            "    def __init__(self, spans):\n"
            "        self.offsets = {s.id: tokenize(s.text) for s in spans}\n",
            line=3, column=25, message="`dict comprehension` holds an artifact derived from span content keyed on the span id `s.id` alone",
        ),
        Invalid(
            "class Citations:\n"
            "    async def lookup(self, message_id: str):\n"
            "        return self._citations.get(message_id)\n",
            line=3, column=36, message="`self._citations` holds an artifact derived from span content keyed on the span id `message_id` alone",
        ),
        Invalid(
            "from dataclasses import dataclass, field\n\n"
            "@dataclass\n"
            "class Index:\n"
            "    embeddings: dict = field(default_factory=dict)\n\n"
            "    def add(self, node):\n"
            "        vector = encode(node.text)\n"
            "        self.embeddings[node.node_id] = vector\n",
            line=9, column=25, message="`self.embeddings` holds an artifact derived from span content keyed on the span id `node.node_id` alone",
        ),
        Invalid(
            "embedding_cache = {}\n\n"
            "def search(chunk_id):\n"
            "    return embedding_cache[chunk_id]\n",
            line=4, column=28, message="`embedding_cache` holds an artifact derived from span content keyed on the span id `chunk_id` alone",
        ),
        Invalid(
            'class Indexer:\n'
            '    def warm(self, span):\n'
            '        rec, rec_key = span, span.span_id\n'
            '        key = rec.span_id\n'
            '        self._token_counts[key] = len(self.tokenizer.encode(rec.content))\n',
            line=5, column=28, message="`self._token_counts` holds an artifact derived from span content keyed on the span id `key` alone",
        ),
        Invalid(
            'class Indexer:\n'
            '    def add(self, node):\n'
            '        self._embeddings.update({node.node_id: self.model.embed(node.text)})\n',
            line=3, column=34, message="`self._embeddings` holds an artifact derived from span content keyed on the span id `node.node_id` alone",
        ),
        # Vectors embedded in one batch and stored beside the messages they were made from.
        Invalid(
            "from langchain_core.messages import BaseMessage\n\n"
            "class MessageVectors:\n"
            "    async def vectors_for(self, messages: list[BaseMessage]) -> None:\n"
            "        missing = [m for m in messages if m.id not in self._vectors]\n"
            "        fresh = await self._embedder.aembed_documents([m.text for m in missing])\n"
            "        self._vectors.update({m.id: vec for m, vec in zip(missing, fresh)})\n",
            line=7, column=31, message="`dict comprehension` holds an artifact derived from span content keyed on the span id `m.id` alone",
        ),
        # A token count looked up, computed when missing and kept under the span id.
        Invalid(
            "class TokenBudget:\n"
            "    def cost(self, span) -> int:\n"
            "        n = self._counts.get(span.span_id)\n"
            "        if n is None:\n"
            "            n = count_tokens(span.content)\n"
            "            self._counts[span.span_id] = n\n"
            "        return n\n",
            line=6, column=26, message="`self._counts` holds an artifact derived from span content keyed on the span id `span.span_id` alone",
        ),
        # Not named a cache, but filled once per node id: kept from the first fill on.
        Invalid(
            "class Highlighter:\n"
            "    def sentences(self, node):\n"
            "        if node.node_id not in self._sentences:\n"
            "            self._sentences[node.node_id] = split_sentences(node.get_content())\n"
            "        return self._sentences[node.node_id]\n",
            line=4, column=29, message="`self._sentences` holds an artifact derived from span content keyed on the span id `node.node_id` alone",
        ),
        # The key is the document's id, with a fallback when it has none.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Document:\n    content: str\n"
            "    id: str | None = None\n    name: str | None = None\n\n"
            "class Embeddings:\n    def __init__(self, embedder):\n        self._embedder = embedder\n"
            "        self._vectors: dict[str, list[float]] = {}\n\n    def vector_for(self, doc: Document):\n"
            "        doc_id = doc.id or doc.name or ''\n"
            "        self._vectors[doc_id] = self._embedder.get_embedding(doc.content)\n",
            line=16, column=23,
            message="`self._vectors` holds an artifact derived from span content keyed on the span id `doc_id` alone",
        ),
        # A function named for a cache builds one keyed on the span id alone, for its caller to keep.
        Invalid(
            "def build_offset_cache(spans):\n    return {span.span_id: sentence_bounds(span.content) for span in spans}\n",
            line=2, column=13,
            message="`dict comprehension` holds an artifact derived from span content keyed on the span id `span.span_id` alone",
        ),
        # The key is what a helper reads as the record's id; the vector is of the message the record holds.
        Invalid(
            "from dataclasses import dataclass\nfrom uuid import UUID\n\n@dataclass\nclass BaseMessage:\n    content: str\n\n"
            "@dataclass\nclass MemoryRecord:\n    message: BaseMessage\n    uuid: UUID\n\n"
            "def record_id(record: MemoryRecord) -> str:\n    return str(record.uuid)\n\n"
            "class EmbeddingCache:\n    def __init__(self, embedding):\n        self.embedding = embedding\n"
            "        self._cache: dict[str, list[float]] = {}\n\n    def vector(self, record: MemoryRecord):\n"
            "        sid = record_id(record)\n        self._cache[sid] = self.embedding.embed(record.message.content)\n",
            line=23, column=21,
            message="`self._cache` holds an artifact derived from span content keyed on the span id `sid` alone",
        ),
        # A span named `body` (a content word): the key is its id, not its content.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass SpanBody:\n    span_id: str\n    text: str\n    version: int = 0\n\n"
            "class SpanEmbedder:\n    def __init__(self):\n        self._vectors: dict[str, list[float]] = {}\n\n"
            "    def vector_for(self, body: SpanBody) -> list[float]:\n"
            "        self._vectors[body.span_id] = embed_text(body.text)\n",
            line=14, column=23,
            message="`self._vectors` holds an artifact derived from span content keyed on the span id `body.span_id` alone",
        ),
        # A parameter annotated with a well-known span class of a library that is not installed.
        Invalid(
            "from letta.schemas.passage import Passage\n\nclass VectorMemo:\n    def __init__(self, embed):\n"
            "        self._embed = embed\n        self._m: dict[str, list[float]] = {}\n\n"
            "    def vector(self, p: Passage) -> list[float]:\n        k = p.id\n        v = self._m.get(k)\n"
            "        if v is None:\n            v = self._embed(p.text)\n            self._m[k] = v\n        return v\n",
            line=13, column=21,
            message="`self._m` holds an artifact derived from span content keyed on the span id `k` alone",
        ),
        # A task cache keyed by a function reading only the span's id.
        Invalid(
            "from langgraph.func import task\nfrom langgraph.types import CachePolicy\n\n"
            "@task(cache_policy=CachePolicy(key_func=lambda span: span['span_id']))\n"
            "def embed_for_rerank(span):\n    return EMBEDDINGS.embed_query(span['content'])\n",
            line=4, column=54,
            message="`@task` holds an artifact derived from span content keyed on the span id `span['span_id']` alone",
        ),
    ]

    @classmethod
    def may_match(cls, source: str, vocabulary: Vocabulary) -> bool:
        lowered = source.lower()
        if "id" not in lowered:
            return False
        # A cache by name, a dict comprehension (kept on `self` or at module level whatever its name),
        # or a membership test of a mapping (`if bid not in self.rendered:`).
        return _cache_pattern(vocabulary).search(lowered) is not None or ("{" in source and " for " in source) or (
            " in " in source and "if" in source
        )

    def __init__(self, context) -> None:  # type: ignore[no-untyped-def]
        super().__init__(context)
        vocabulary = context.vocabulary
        self._cache_words = frozenset((*vocabulary.cache_words, *_LOOKUP_WORDS))
        self._derived_words = frozenset((*vocabulary.derived_words, *vocabulary.summary_words))
        self._summary_words = frozenset(vocabulary.summary_words) - frozenset(vocabulary.derived_words)
        self._tracking_words = tracking_words(vocabulary)
        self._content_fields = frozenset(vocabulary.content_fields)
        self._content_read = content_read_pattern(vocabulary)
        self._frames: list[_Frame | None] = [None]  # None: module or class level, whose names persist
        self._stores: set[int] = set()  # ids of subscripts that are assignment or `del` targets
        self._written: set[str] = set()  # mappings given a derived value somewhere in this module
        self._reads: list[_Read] = []
        self._cache_names: dict[str, bool] = {}
        self._own_id_fields: dict[str, bool] = {}

    # --- scopes ----------------------------------------------------------------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        super().visit_FunctionDef(node)
        self._frames.append(_Frame())
        self._check_memoized(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._frames.pop()
        super().leave_FunctionDef(original_node)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        super().visit_ClassDef(node)
        self._frames.append(None)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._frames.pop()
        super().leave_ClassDef(original_node)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._written_to(node.target, node.value)

    def visit_Return(self, node: cst.Return) -> None:
        """`def build_offset_cache(spans): return {s.span_id: bounds(s.text) for s in spans}`: a function named
        for a cache hands its caller one to keep."""
        if isinstance(node.value, cst.DictComp) and self._frames[-1] is not None and self.facts is not None and (
            self._cache_words.intersection(name_parts(self.facts.node.name.value))
        ):
            self._comprehension(node.value)

    def visit_For(self, node: cst.For) -> None:
        frame = self._frames[-1]
        if frame is not None:
            frame.aliases.bind(node.target, None)
            paired = self._id_and_span(node.target, node.iter)
            if paired is not None:
                frame.span_ids[paired[0]] = paired[1]

    def _id_and_span(self, target: cst.BaseExpression, iterable: cst.BaseExpression) -> tuple[str, str] | None:
        """`for sid, span in self.spans.items()`, `for mid, msg in zip(self._ids, self._messages)`: the
        loop's first name is the id of the span its second name holds."""
        if not (isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == 2 and isinstance(iterable, cst.Call)):
            return None
        first, second = (e.value for e in target.elements)
        if not (isinstance(first, cst.Name) and isinstance(second, cst.Name)):
            return None
        analysis = self.context.analysis
        func = iterable.func
        if isinstance(func, cst.Attribute) and func.attr.value == "items" and not iterable.args:
            spans = func.value
        elif callee_name(iterable) == "zip" and len(iterable.args) == 2:
            ids, spans = (a.value for a in iterable.args)
            if not (ID_PARTS | {"keys"}).intersection(name_parts(last_name(ids) or "")):
                return None  # `zip(self._ids, self._messages)`, not `zip(scores, spans)`
        else:
            return None
        return (first.value, second.value) if analysis.is_span_container(spans, self.facts) else None

    def visit_If(self, node: cst.If) -> None:
        frame = self._frames[-1]
        test = node.test
        if frame is not None and isinstance(test, cst.Comparison):
            code = self.context.module.code_for_node
            key = test.left.target if isinstance(test.left, cst.NamedExpr) else test.left  # `(k := ...) in m`
            for target in test.comparisons:
                if isinstance(target.operator, (cst.In, cst.NotIn)) and isinstance(target.comparator, (cst.Attribute, cst.Name)):
                    frame.tested.add((code(target.comparator), code(key)))

    def visit_Global(self, node: cst.Global) -> None:
        self._share(node.names)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self._share(node.names)

    def _share(self, names) -> None:  # type: ignore[no-untyped-def]
        frame = self._frames[-1]
        if frame is not None:
            frame.shared.update(n.name.value for n in names)

    # --- writes ----------------------------------------------------------------------------
    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._written_to(target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._written_to(node.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Subscript):
            self._stores.add(id(node.target))

    def visit_Del(self, node: cst.Del) -> None:
        for target in _flatten(node.target):
            if isinstance(target, cst.Subscript):
                self._stores.add(id(target))

    def _written_to(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        frame = self._frames[-1]
        if isinstance(target, cst.Subscript):
            self._stores.add(id(target))
            key = _single_key(target)
            if key is not None:
                self._store(target.value, key, value)
        elif isinstance(target, cst.Name) and frame is not None:
            frame.locals.add(target.value)
            if self._is_span_id(value, set()):
                frame.span_ids[target.value] = _owner_code(self.context.module, self._resolve(value))
            else:
                frame.span_ids.pop(target.value, None)
            frame.computed.pop(target.value, None)
            frame.bound[target.value] = value
            if self._derived(value, set()):
                frame.derived.add(target.value)
            else:
                frame.derived.discard(target.value)
                if isinstance(value, (cst.Call, cst.Await)):  # `vec = await embed(...)` too
                    frame.computed[target.value] = value
            frame.aliases.bind(target, value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            values = value.elements if isinstance(value, (cst.Tuple, cst.List)) else ()
            for i, element in enumerate(target.elements):
                # `(vec,) = await embedder.embed([span.text])`: each name is part of what is unpacked
                item = values[i].value if len(values) == len(target.elements) else value if not values else cst.Name("None")
                self._written_to(element.value, item)
        if isinstance(value, cst.DictComp) and self._kept(target):
            self._comprehension(value)

    def _kept(self, target: cst.BaseExpression) -> bool:
        """A target that outlives the call: an attribute, or a module-level or global name."""
        if isinstance(target, cst.Attribute):
            return True
        frame = self._frames[-1]
        return isinstance(target, cst.Name) and (frame is None or target.value in frame.shared)

    def _store(self, mapping: cst.BaseExpression, key: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        """`mapping[key] = value` (or `.setdefault(key, value)`; value None for a read)."""
        if not self._persistent(mapping):
            return
        mapping_code = self.context.module.code_for_node(mapping)
        filled_from: str | None = None  # a mapping not named a cache, filled once per key: the content read
        if not self._is_cache(mapping):
            frame = self._frames[-1]
            if value is None and frame is not None and (isinstance(mapping, cst.Attribute) or self._enclosed(mapping)):
                frame.tested.add((mapping_code, self.context.module.code_for_node(key)))  # `self.counts.get(k)`
            filled_from = self._filled_once(mapping_code, key, value) if value is not None else None
            if filled_from is None:
                return
        span_id = self._span_id(key, set())
        if span_id is None or self._values_checked(mapping):
            return
        says_derived = self._says_derived(mapping)
        if value is None:
            passed = isinstance(mapping, cst.Name) and self.facts is not None and mapping.value in self.facts.params
            self._reads.append(_Read(mapping_code, key, says_derived, passed))
            return
        if self._is_itself(value, span_id) or _is_empty(value):
            return
        if filled_from is not None and not self._span_like_owner(span_id, filled_from):
            return  # `self._rendered[obj.id]` filled from `obj.value`, `obj` a `Setting`: not a span
        if says_derived or filled_from is not None or self._derived(value, {self._owner(span_id)}):
            self._written.add(mapping_code)
            self.report(key, self._message(mapping_code, key))

    def _filled_once(self, mapping_code: str, key: cst.BaseExpression, value: cst.BaseExpression) -> str | None:
        """`if bid not in self.rendered: self.rendered[bid] = lines`: a value computed from the content (not
        the content as is) and stored in a mapping the function tested for the key, so it is kept from
        the first fill. The content read it is computed from (`.text`), or None."""
        frame = self._frames[-1]
        if frame is None or (mapping_code, self.context.module.code_for_node(key)) not in frame.tested:
            return None
        if isinstance(value, cst.Await):
            value = value.expression
        if isinstance(value, cst.Attribute) or (isinstance(value, cst.Subscript) and string_key(value) is not None):
            return None  # the content as it is, or a field of the span
        return self._content_read_in(value, frame, 3) or self._measure_of(value, key, frame, 2)

    def _measure_of(self, value: cst.BaseExpression, key: cst.BaseExpression, frame: _Frame, depth: int) -> str | None:
        """`count_tokens_approximately([message])`, `embed(node)` for the key `message.id`: a call named for
        measuring or embedding text, given the span whose id is the key (itself or through a local);
        the call's name, else None."""
        if isinstance(value, cst.Name) and depth > 0 and (bound := frame.bound.get(value.value)) is not None:
            return self._measure_of(bound, key, frame, depth - 1)
        owner = self._resolve(key)
        if not isinstance(value, cst.Call) or not isinstance(owner, cst.Attribute):
            return None
        name = callee_name(value) or ""
        if not _MEASURE_WORDS.intersection(name_parts(name)):
            return None
        code = self.context.module.code_for_node
        span = code(owner.value)
        given = [a.value for a in value.args]
        given += [e.value for a in given if isinstance(a, (cst.List, cst.Tuple)) for e in a.elements]
        return name if any(code(g) == span for g in given) else None

    def _span_like_owner(self, span_id: cst.BaseExpression, read: str) -> bool:
        """The object whose id `span_id` reads is span-like, given the content `read` of it (`.value`)."""
        resolved = self._resolve(span_id)
        if not isinstance(resolved, cst.Attribute):
            return True  # an id known by its name alone (`span_id`): nothing more to learn
        field = read.strip(".[]\"'") if read[:1] in ".[" else None  # `.text`, `["text"]`; not `get_content(`
        return self._annotated_span(resolved.value) or self.context.analysis.is_span_like(resolved.value, self.facts, content=field)

    def _annotated_span(self, expr: cst.BaseExpression) -> bool:
        """`p: Passage`: a parameter annotated with a well-known span class of a library that is not
        installed (`vocabulary.span_class_names`)."""
        return isinstance(expr, cst.Name) and self.facts is not None and (
            self.facts.params.get(expr.value) in self.context.vocabulary.span_class_names
        )

    def _content_read_in(self, value: cst.BaseExpression, frame: _Frame, depth: int) -> str | None:
        """The content read (`.content`) `value` is computed from (`count_tokens(span.content)`), itself or
        through the locals it is computed from (`items[:3]`, `items` from `raw`, `raw = await
        llm.apredict(..., answer=span.text)`); None for a value made from the whole span (a widget for it)."""
        found = self._content_read.search(self.context.module.code_for_node(value))
        if found is not None:
            return found.group()
        if depth == 0:
            return None
        for node in traversal.descendants(value):
            if isinstance(node, cst.Name) and (bound := frame.bound.get(node.value)) is not None and bound is not value:
                read = self._content_read_in(bound, frame, depth - 1)
                if read is not None:
                    return read
        return None

    def _comprehension(self, comp: cst.DictComp, says_derived: bool = False) -> None:
        """`{s.id: tokenize(s.text) for s in spans}` stored on `self` or at module level; with `says_derived`
        (the mapping updated is named for what is derived: `self._vectors.update(...)`), also
        `{m.id: vec for m, vec in zip(missing, fresh)}`, the values taken beside the spans."""
        loop = comp.for_in
        analysis = self.context.analysis
        pairs: list[tuple[str, cst.BaseExpression]] = []  # (loop name, what it iterates over)
        if isinstance(loop.target, cst.Name):
            pairs = [(loop.target.value, loop.iter)]
        elif (
            isinstance(loop.target, cst.Tuple) and isinstance(loop.iter, cst.Call) and callee_name(loop.iter) == "zip"
            and len(loop.target.elements) == len(loop.iter.args)
        ):
            pairs = [
                (e.value.value, a.value) for e, a in zip(loop.target.elements, loop.iter.args) if isinstance(e.value, cst.Name)
            ]
        if not pairs:
            return
        spans = {
            name for name, iterable in pairs
            if analysis.is_span_container(iterable, self.facts) or analysis.is_span_name(name)
        }
        span_id = self._span_id(comp.key, spans)
        if span_id is None or self._is_itself(comp.value, span_id):
            return
        if (says_derived and not _is_empty(comp.value)) or self._derived(comp.value, spans | {self._owner(span_id)}):
            self.report(comp.key, self._message("dict comprehension", comp.key))

    # --- reads and method calls ------------------------------------------------------------
    def visit_Subscript(self, node: cst.Subscript) -> None:
        if id(node) in self._stores:
            return
        key = _single_key(node)
        if key is not None:
            self._store(node.value, key, None)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute) or not node.args:
            return
        method = func.attr.value
        if method in _WRITERS and len(node.args) >= 2:
            self._store(func.value, node.args[0].value, node.args[1].value)
        elif method in _READERS or method == "setdefault":
            self._store(func.value, node.args[0].value, None)
        elif method in _UPDATERS and isinstance(node.args[0].value, cst.DictComp):
            if self._is_cache(func.value) and self._persistent(func.value):
                self._comprehension(node.args[0].value, self._says_derived(func.value))
        elif method in _UPDATERS and isinstance(node.args[0].value, cst.Dict):
            for element in node.args[0].value.elements:  # `.update({span.id: embed(span.text)})`
                if isinstance(element, cst.DictElement):
                    self._store(func.value, element.key, element.value)

    def leave_Module(self, original_node: cst.Module) -> None:
        reported = {id(r.node) for r in self.context.reports if r.rule is type(self)}
        for read in self._reads:
            if id(read.key) not in reported and ((read.says_derived and not read.passed) or read.mapping in self._written):
                self.report(read.key, self._message(read.mapping, read.key))

    # --- memoized functions ----------------------------------------------------------------
    def _check_memoized(self, node: cst.FunctionDef) -> None:
        """`@lru_cache` on a function that takes a span id alone and reads the span's content; or a cache
        keyed by a function reading only an id (`@task(cache_policy=CachePolicy(key_func=lambda s: s["span_id"]))`,
        `@cached(cache, key=lambda s: s.id)`) on one that reads its argument's content."""
        decorators = self.context.vocabulary.cache_decorators
        memoizing = [n for n in (_decorator_name(d.decorator) for d in node.decorators) if n in decorators]
        if not memoizing:
            key = next((k for d in node.decorators if (k := _id_key_function(d.decorator, self.context.vocabulary)) is not None), None)
            if key is not None and self._content_read.search(self.context.module.code_for_node(node.body)):
                self.report(key, self._message(f"@{_decorator_name(next(iter(node.decorators)).decorator)}", key))
            return
        params = [p for p in (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params)
                  if p.name.value not in ("self", "cls")]
        if any(self._tracks_content(p.name.value) for p in params):
            return
        body = self.context.module.code_for_node(node.body)
        ids = [p for p in params if self._names_span_id(p.name.value) or self._looks_up_content(p.name.value, body)]
        if ids and self._content_read.search(body):
            self.report(ids[0].name, self._message(f"@{memoizing[0]}", ids[0].name))

    def _looks_up_content(self, param: str, body: str) -> bool:
        """An id-named parameter (`item_id`) with which the body looks an object up and reads its content:
        `x = store.get(item_id)` or `store[item_id]`, then `x.content`; the object is a span whatever the id's noun."""
        if name_parts(param)[-1:] != ["id"]:
            return False
        looked_up = re.findall(rf"(\w+)\s*=\s*[\w.]+(?:\.get\(\s*{param}\b|\[\s*{param}\s*\])", body)
        fields = "|".join(map(re.escape, self.context.vocabulary.content_fields))
        return any(re.search(rf"\b{name}\.(?:(?:{fields})\b|get_content\()", body) for name in looked_up)

    # --- predicates ------------------------------------------------------------------------
    def _message(self, mapping: str, key: cst.BaseExpression) -> str:
        key_code = self.context.module.code_for_node(key)
        return f"`{mapping}` holds an artifact derived from span content keyed on the span id `{key_code}` alone"

    def _is_cache(self, mapping: cst.BaseExpression) -> bool:
        name = _mapping_name(mapping)
        if name is None:
            return False
        found = self._cache_names.get(name)
        if found is None:
            found = self._cache_names[name] = bool(set(name_parts(name)) & self._cache_words) or self._says_derived(
                mapping, summaries=False
            )
        return found

    def _says_derived(self, mapping: cst.BaseExpression, summaries: bool = True) -> bool:
        """The mapping's name says its values are derived from span content (with `summaries`, or summaries of it)."""
        parts = set(name_parts(_mapping_name(mapping) or ""))
        words = self._derived_words if summaries else self._derived_words - self._summary_words
        return bool(parts & words) or ("token" in parts and bool({"count", "counts"} & parts))

    def _values_checked(self, mapping: cst.BaseExpression) -> bool:
        """The mapping is declared to hold objects of a class with a version or hash field
        (`self.citations: dict[str, list[Citation]]`, `Citation(node_id, node_hash, start, end)`): each
        artifact carries what its user checks it against, whatever key it is filed under."""
        held = self.context.analysis.known_class(mapping, self.facts)
        return held is not None and bool(held.version_fields or held.hash_fields)

    def _enclosed(self, mapping: cst.BaseExpression) -> bool:
        """`seen` in a closure, bound by the function it is made in (`seen = {}` in `make_counter`): it
        outlives each call of the closure, as a field does."""
        if not isinstance(mapping, cst.Name) or self.facts is None or mapping.value in self.facts.params:
            return False
        frames = [f for f in self._frames if f is not None]
        return len(frames) >= 2 and mapping.value not in frames[-1].locals and any(
            mapping.value in f.locals for f in frames[:-1]
        )

    def _persistent(self, mapping: cst.BaseExpression) -> bool:
        while isinstance(mapping, cst.Subscript):
            mapping = mapping.value
        frame = self._frames[-1]
        if isinstance(mapping, cst.Name):
            return frame is None or mapping.value in frame.shared or mapping.value not in frame.locals
        return isinstance(mapping, cst.Attribute)

    def _names_span_id(self, name: str) -> bool:
        """`span_id`, `node_id`, `msg_id`: a name that says it is the id of a span."""
        parts = name_parts(name)
        return len(parts) >= 2 and parts[-1] in ("id", "uid", "uuid") and self.context.analysis.is_span_name(parts[-2])

    def _tracks_content(self, name: str) -> bool:
        parts = set(name_parts(name))
        return bool(parts & self._tracking_words) or name in self._content_fields

    def _span_id(self, key: cst.BaseExpression, spans: set[str]) -> cst.BaseExpression | None:
        """The span id that `key` consists of, when nothing else in it follows the content."""
        parts = _key_parts(key)
        if parts is None or any(self._follows_content(p) for p in parts):
            return None
        found = [p for p in parts if self._is_span_id(p, spans)]
        return found[0] if found else None

    def _follows_content(self, expr: cst.BaseExpression) -> bool:
        """A key part that changes with the content: a version, a hash, the content itself (not the object
        an attribute is read from: `body.span_id` of a `body: SpanBody`)."""
        names = list(_names_in(expr))
        objects = {id(n.value) for n in names if isinstance(n, cst.Attribute)}
        return any(id(node) not in objects and self._tracks_content(last_name(node)) for node in names)

    # --- aliases ---------------------------------------------------------------------------
    def _resolve(self, expr: cst.BaseExpression) -> cst.BaseExpression:
        """What `expr` aliases in the current function (`rec` for `rec = doc`: `doc`)."""
        frame = self._frames[-1]
        return frame.aliases.resolve(expr) if frame is not None else expr

    def _codes(self, expr: cst.BaseExpression) -> set[str]:
        """The code of `expr` and of what it aliases."""
        code = self.context.module.code_for_node
        return {code(expr), code(self._resolve(expr))}

    def _owner(self, span_id: cst.BaseExpression) -> str:
        """The code of the span (alias resolved) that `span_id` is the id of."""
        frame = self._frames[-1]
        if isinstance(span_id, cst.Name) and frame is not None and span_id.value in frame.span_ids:
            return frame.span_ids[span_id.value]
        return _owner_code(self.context.module, self._resolve(span_id))

    def _is_span_id(self, expr: cst.BaseExpression, spans: set[str]) -> bool:
        if isinstance(expr, cst.Call) and callee_name(expr) in ("str", "int", "UUID") and expr.args:
            expr = expr.args[0].value
        expr = _fallback_id(expr) or expr
        if isinstance(expr, cst.Name):
            frame = self._frames[-1]
            if frame is not None and expr.value in frame.span_ids:
                return True
            resolved = self._resolve(expr)
            if resolved is not expr:
                return self._is_span_id(resolved, spans)
            return self._names_span_id(expr.value)
        if isinstance(expr, cst.Call) and len(expr.args) == 1 and name_parts(callee_name(expr) or "")[-1:] in (["id"], ["uid"], ["uuid"]):
            return self._is_span(expr.args[0].value, spans)  # `message_id(msg)`, `record_id(rec)`: a helper reading its id
        if (read := metadata_read(expr)) is not None:  # `msg.meta[MESSAGE_ID_KEY]`
            owner, field = read
            known = self.context.analysis.known_class(owner, self.facts)
            if known is not None:
                return field in known.id_fields
            return field in self.context.project.metadata_ids and self._is_span(owner, spans)
        if isinstance(expr, cst.Attribute):
            owner, attr = expr.value, expr.attr.value
        elif isinstance(expr, cst.Subscript):
            owner, attr = expr.value, string_key(expr) or ""
        else:
            return False
        if self._names_span_id(attr):
            return True
        if attr in self.context.vocabulary.id_fields:
            return self._is_span(owner, spans)
        # the id field of the owner's class under a name of its own (`Segment.seg_id`)
        known = self.context.analysis.known_class(owner, self.facts)
        if known is not None:
            return attr in known.id_fields and bool(known.content_fields)
        return attr.endswith("_id") and self._is_own_id_field(attr)

    def _is_own_id_field(self, attr: str) -> bool:
        """`seg_id` is the id field of a span class of the tree under a name of its own (`Segment`): an
        owner whose class is unknown (`def get(self, seg)`) holding one is a span of that class."""
        found = self._own_id_fields.get(attr)
        if found is None:
            project = self.context.project
            found = self._own_id_fields[attr] = attr not in self.context.vocabulary.id_fields and any(
                attr in facts.declared and (known := project.class_named(facts.name)) is not None
                and known.is_span and attr in known.id_fields
                for facts in project.classes.values()
            )
        return found

    def _is_span(self, expr: cst.BaseExpression, spans: set[str]) -> bool:
        """Span-like by name, container or class; here any class of the tree with an id and a content
        field, or content it holds (`MemoryRecord(uuid, message)`), counts (`Fragment(id, text)`), since the
        key and the derived value already say span."""
        if self._codes(expr) & spans:
            return True
        if self._annotated_span(expr):
            return True
        analysis = self.context.analysis
        for candidate in {expr, self._resolve(expr)}:
            known = analysis.known_class(candidate, self.facts)
            if known is not None and known.id_fields and (known.content_fields or known.holds_content):
                return True
            if analysis.is_span_like(candidate, self.facts):
                return True
        return False

    def _is_itself(self, value: cst.BaseExpression, span_id: cst.BaseExpression) -> bool:
        """The value is the span whose id is the key (or a copy or wrapper of it)."""
        if isinstance(value, cst.Await):
            value = value.expression
        owner = self._owner(span_id)
        if isinstance(value, cst.Call):
            func = value.func
            if isinstance(func, cst.Attribute) and func.attr.value in _SELF_COPIES:
                return self._is_itself(func.value, span_id)
            name = callee_name(value) or ""
            if name[:1].isupper() or name in ("deepcopy", "copy") or name in _SERIALIZERS:
                return bool(value.args) and all(self._is_itself(a.value, span_id) for a in value.args)
            return False
        if owner in self._codes(value):
            return True
        if isinstance(value, cst.Attribute) and self._says_derived_or_content(value.attr.value):
            return False
        return isinstance(value, (cst.Name, cst.Attribute)) and self.context.analysis.is_span_like(value, self.facts)

    def _says_derived_or_content(self, name: str) -> bool:
        return name in self._content_fields or bool(set(name_parts(name)) & self._derived_words)

    def _derived(self, value: cst.BaseExpression, owners: set[str]) -> bool:
        """Does `value` compute something from a span's content (or hold a local that did)?"""
        if isinstance(value, cst.Await):
            return self._derived(value.expression, owners)
        if isinstance(value, cst.Name):
            frame = self._frames[-1]
            if frame is not None and owners and value.value in frame.computed:
                computed = frame.computed.pop(value.value)  # popped while it is read: `x = f(x)` ends
                try:
                    if self._derived(computed, owners):
                        return True
                finally:
                    frame.computed[value.value] = computed
            return (frame is not None and value.value in frame.derived) or self._says_derived_or_content(value.value)
        if isinstance(value, cst.Attribute):
            if self._says_derived_or_content(value.attr.value) and self._is_owner(value.value, owners):
                return True
            return self._derived(value.value, owners)
        if isinstance(value, cst.Subscript):
            key = string_key(value)
            if key and self._says_derived_or_content(key) and self._is_owner(value.value, owners):
                return True
            return self._derived(value.value, owners)
        if isinstance(value, cst.Call):
            func = value.func
            if isinstance(func, cst.Attribute):
                if self._is_owner(func.value, owners) and func.attr.value not in _SELF_COPIES:
                    return True
                if self._derived(func.value, owners):
                    return True
            lowercase = not (callee_name(value) or "")[:1].isupper()
            for arg in value.args:
                if self._derived(arg.value, owners):
                    return True
                if lowercase and self._is_owner(arg.value, owners):
                    return True
            return False
        if isinstance(value, (cst.BinaryOperation, cst.BooleanOperation)):
            return self._derived(value.left, owners) or self._derived(value.right, owners)
        if isinstance(value, (cst.List, cst.Tuple, cst.Set)):
            return any(self._derived(e.value, owners) for e in value.elements)
        if isinstance(value, cst.Dict):
            return any(isinstance(e, cst.DictElement) and self._derived(e.value, owners) for e in value.elements)
        if isinstance(value, (cst.ListComp, cst.GeneratorExp, cst.SetComp)):
            return self._derived(value.elt, owners | _comp_spans(value, self))
        if isinstance(value, cst.FormattedString):
            return any(
                isinstance(p, cst.FormattedStringExpression) and self._derived(p.expression, owners)
                for p in value.parts
            )
        return False

    def _is_owner(self, expr: cst.BaseExpression, owners: set[str]) -> bool:
        """`expr` is a span: one of `owners` (by code) or span-like, or the record a span holds its content
        in (`record.message` of CAMEL's `MemoryRecord`)."""
        if self._codes(expr) & owners:
            return True
        if isinstance(expr, cst.Name) and expr.value == "self":
            return False
        analysis = self.context.analysis
        expr = self._resolve(expr)
        held = analysis.holder_of(expr, self.facts)
        if held is not None:
            return self._is_owner(held[0], owners)
        return analysis.is_span_like(expr, self.facts) and not analysis.is_span_container(expr, self.facts)


def _cache_pattern(vocabulary: Vocabulary) -> re.Pattern[str]:
    return words_pattern([*cache_name_words(vocabulary), *vocabulary.cache_decorators])


def _comp_spans(comp: cst.ListComp | cst.GeneratorExp | cst.SetComp, rule: DerivedCacheKeyedOnSpanId) -> set[str]:
    target = comp.for_in.target
    if isinstance(target, cst.Name) and rule.context.analysis.is_span_container(comp.for_in.iter, rule.facts):
        return {target.value}
    return set()


def _flatten(target: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for e in target.elements for n in _flatten(e.value)]
    return [target]


def _single_key(node: cst.Subscript) -> cst.BaseExpression | None:
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    return node.slice[0].slice.value


def _key_parts(key: cst.BaseExpression) -> list[cst.BaseExpression] | None:
    """The components of a key: tuple elements, f-string fields, or the key itself."""
    if isinstance(key, cst.Tuple):
        return [e.value for e in key.elements]
    if isinstance(key, cst.FormattedString):
        return [p.expression for p in key.parts if isinstance(p, cst.FormattedStringExpression)]
    if isinstance(key, (cst.SimpleString, cst.Integer, cst.Float)):
        return None
    return [key]


def _names_in(expr: cst.BaseExpression):  # type: ignore[no-untyped-def]
    """Every Name and Attribute node inside `expr` (callee names included)."""
    stack: list[cst.CSTNode] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.Name, cst.Attribute)):
            yield node
        stack.extend(traversal.children(node))


def _mapping_name(mapping: cst.BaseExpression) -> str | None:
    """`_cache` for `self._cache` or `self._cache[k]`."""
    while isinstance(mapping, cst.Subscript):
        mapping = mapping.value
    return last_name(mapping)


def _fallback_id(expr: cst.BaseExpression) -> cst.BaseExpression | None:
    """`d.id` for `d.meta.get("source_id", d.id)`: a lookup of an id-named key falling back to an id; for
    `d.id or d.name or ""`, the id the others stand in for when it is empty."""
    if isinstance(expr, cst.BooleanOperation) and isinstance(expr.operator, cst.Or):
        return _fallback_id(expr.left) or expr.left
    if not (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "get"):
        return None
    if len(expr.args) != 2:
        return None
    key = string_value(expr.args[0].value)
    parts = name_parts(key or "")
    return expr.args[1].value if parts and parts[-1] in ID_PARTS else None


def _owner_code(module: cst.Module, span_id: cst.BaseExpression) -> str:
    """`s` for the id `s.span_id` or `s["id"]`; the id's own code for a bare name."""
    span_id = _fallback_id(span_id) or span_id
    if isinstance(span_id, cst.Call) and span_id.args:
        span_id = span_id.args[0].value
    if isinstance(span_id, (cst.Attribute, cst.Subscript)):
        return module.code_for_node(span_id.value)
    return module.code_for_node(span_id)


def _id_key_function(decorator: cst.BaseExpression, vocabulary: Vocabulary) -> cst.BaseExpression | None:
    """In a decorator's arguments, the body of a cache's key function that reads only an id of its one
    parameter (`key_func=lambda span: span["span_id"]`, `key=lambda s: s.id`), else None."""
    for node in traversal.descendants(decorator) if isinstance(decorator, cst.Call) else ():
        if not (isinstance(node, cst.Arg) and node.keyword is not None and node.keyword.value in _KEY_FUNCTION_KEYWORDS
                and isinstance(node.value, cst.Lambda) and len(node.value.params.params) == 1):
            continue
        param, body = node.value.params.params[0].name.value, node.value.body
        field = string_key(body) if isinstance(body, cst.Subscript) else body.attr.value if isinstance(body, cst.Attribute) else None
        if field is not None and isinstance(body.value, cst.Name) and body.value.value == param and (
            field in vocabulary.id_fields or name_parts(field)[-1:] == ["id"]
        ):
            return body
    return None


# Keywords that give a cache the function computing its key (LangGraph's `CachePolicy(key_func=...)`, cachetools' `key=`).
_KEY_FUNCTION_KEYWORDS = frozenset({"key_func", "key"})


def _decorator_name(decorator: cst.BaseExpression) -> str:
    if isinstance(decorator, cst.Call):
        decorator = decorator.func
    name = dotted_name(decorator)
    return name.split(".")[-1] if name else ""


def _is_empty(value: cst.BaseExpression) -> bool:
    if isinstance(value, (cst.SimpleString, cst.Integer, cst.Float)):
        return True
    if isinstance(value, cst.Name):
        return value.value in ("None", "True", "False")
    if isinstance(value, (cst.List, cst.Tuple, cst.Dict, cst.Set)):
        return not value.elements
    return False
