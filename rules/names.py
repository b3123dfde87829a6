"""The names the rules and their pre-filters share: method, function and field names with a fixed
meaning in span code, and how a name splits into words.

Words that users may configure (content fields, cache words, decision-log names...) live in the
vocabulary (`runtime_guard.vocabulary`); the names here are those of Python and its libraries.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

from runtime_guard.vocabulary import Vocabulary

_WORD_SPLIT = re.compile(r"_+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def name_parts(name: str) -> list[str]:
    """The lower-case word parts of a snake_case or CamelCase name (`TextNode` -> text, node)."""
    return [p.lower() for p in _WORD_SPLIT.split(name) if p]


# Methods that build an object: the writes in them make it, they do not rewrite it.
CONSTRUCTORS = frozenset({"__init__", "__post_init__", "__new__", "__attrs_post_init__", "model_post_init"})
# Constructors and test fixtures: a decision log filled in one of these is being built, not edited.
BUILDERS = CONSTRUCTORS | {"setUp"}
# Decorators of validators, which normalise a value while the object is being built.
VALIDATOR_DECORATORS = frozenset(
    {"validator", "root_validator", "model_validator", "field_validator", "post_load", "pre_load"}
)
# Calls whose result is a fresh object (a copy), not the span the argument names.
COPY_CALLS = frozenset({"copy", "deepcopy", "model_copy", "_replace", "replace", "evolve", "with_changes", "clone"})
# Methods that change a list in place (`span.chunks.append(...)` rewrites list-valued content).
IN_PLACE_METHODS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse"})
# Methods that change a list, deque, set or dict other than by appending (an edit of a log's past).
EDITING_METHODS = frozenset(
    {"pop", "popleft", "popitem", "remove", "clear", "insert", "sort", "reverse", "discard", "rotate"}
)
# Methods that remove items from a container.
REMOVING_METHODS = frozenset({"pop", "popleft", "popitem", "remove", "clear", "discard"})
# Methods of LlamaIndex indices, docstores and vector stores and of Haystack document stores that
# delete stored nodes or documents by id (`index.delete_nodes(ids)`, `store.delete_documents(ids)`).
STORE_DELETE_METHODS = frozenset(
    {"delete_nodes", "adelete_nodes", "delete_ref_doc", "adelete_ref_doc", "delete_document", "adelete_document",
     "delete_documents"}
)
# A store's plain delete: by id when given `ids=` (LangChain's `VectorStore.delete(ids=...)`, Chroma's
# and Pinecone's `delete(ids=...)`), or when called on a store (LangGraph's `BaseStore.delete(namespace,
# key)`, mem0's `memory.delete(memory_id)`, Letta's `client.agents.passages.delete(passage_id, ...)`).
PLAIN_DELETES = frozenset({"delete", "adelete"})
# Name parts of a receiver that make it a store of spans (with the span nouns, plural: `passages`).
STORE_WORDS = frozenset({"store", "docstore", "vectorstore", "index", "collection", "memory", "memories", "archive", "archival"})


def is_store_delete(call_method: str, keywords: Iterable[str]) -> bool:
    """A store's delete of spans by id whatever the store: a method of `STORE_DELETE_METHODS`,
    `delete(ids=...)` (a plain `delete` on a store is judged by the caller: `PLAIN_DELETES`), or a
    delete named for what a store keeps, told its id (`delete_memory(memory_id=...)`,
    `delete_user_memory(memory_id=m.memory_id, user_id=u)`, `remove_message(message_id=...)`)."""
    if call_method in STORE_DELETE_METHODS or (call_method in PLAIN_DELETES and "ids" in keywords):
        return True
    parts = name_parts(call_method)
    return len(parts) >= 2 and parts[0] in _DELETE_VERBS and parts[-1] in _STORED_NOUNS and any(
        name_parts(k)[-1:] == ["id"] and name_parts(k)[0] in _STORED_NOUNS for k in keywords
    )


_DELETE_VERBS = frozenset({"delete", "adelete", "remove", "aremove"})
# What a store keeps, by the last word of its delete method (`delete_user_memory`) and its id keyword (`memory_id`).
_STORED_NOUNS = frozenset({
    "memory", "memories", "document", "documents", "doc", "docs", "node", "nodes", "message", "messages",
    "passage", "passages", "chunk", "chunks", "span", "spans", "block", "blocks",
})


# Attributes under which a log object keeps its entries: `audit_log.entries`.
ENTRY_ATTRIBUTES = frozenset({"entries", "records", "events", "items", "rows", "lines", "history"})
# Methods that send a prompt to a model (`llm.complete(...)`, `chain.invoke(...)`, `generator.run(...)`).
MODEL_CALLS = frozenset(
    {"complete", "acomplete", "invoke", "ainvoke", "run", "arun", "generate", "agenerate", "chat", "achat",
     "predict", "apredict", "create", "acreate", "call", "acall"}
)


def names_model_call(name: str | None) -> bool:
    """`complete`, `ainvoke`, a private one of them (`self._generate(prompt)`), or a name starting with
    a word saying so (`llm_response_forget`, `generate_reply`, `chat_completion`): a call that may run a model."""
    if not name:
        return False
    parts = name_parts(name)
    return name.lstrip("_") in MODEL_CALLS or (len(parts) > 1 and parts[0] in _MODEL_CALL_FIRST_WORDS)


# First words of a method name that say it runs a model (`llm_response`, `generate_reply`).
_MODEL_CALL_FIRST_WORDS = frozenset({"llm", "chat", "generate", "agenerate", "complete", "acomplete", "invoke", "ainvoke", "predict"})


# Word parts of a receiver that is a model or a model's client: `self.model.invoke(...)`, `llm.complete(...)`,
# `client.chat.completions.create(...)`. What such a call returns is the model's new reply.
MODEL_RECEIVER_WORDS = frozenset({"model", "models", "llm", "llms", "lm", "client", "chain", "completions", "runnable", "agent"})
# Fields of a span that hold a mapping of extra facts about it (`doc.metadata`, `msg.additional_kwargs`):
# a version or hash kept under one of its keys (`node.metadata["span_version"]`) tracks the content.
METADATA_FIELDS = frozenset({"metadata", "meta", "meta_data", "custom_metadata", "additional_kwargs", "extra_info"})
# Word parts of a name that make it a configuration (`self.settings`, `cfg`, `AgentSettings`): its
# numbers are limits chosen by a person, not positions computed from a span.
CONFIG_WORDS = frozenset({"settings", "config", "configuration", "cfg", "conf", "options", "opts", "preferences"})
# Calls that make a record class: `Citation = namedtuple("Citation", [...])`.
RECORD_FACTORIES = frozenset({"namedtuple", "NamedTuple", "TypedDict", "make_dataclass"})
# Last word parts of a name that make it an id (`span_id`, `uuid`).
ID_PARTS = frozenset({"id", "ids", "uid", "uuid"})
# Word parts of a digest of content (`content_sha256`, `fingerprint`).
DIGEST_WORDS = frozenset({"sha", "sha1", "sha256", "md5", "fingerprint", "blake2b", "xxhash"})


def tracking_words(vocabulary: Vocabulary) -> frozenset[str]:
    """Last word parts of fields that track which content a record was made from: versions, hashes, digests."""
    return frozenset({name_parts(f)[-1] for f in (*vocabulary.version_fields, *vocabulary.hash_fields)} | DIGEST_WORDS)


@lru_cache(maxsize=8)
def backing_content_fields(vocabulary: Vocabulary) -> tuple[str, ...]:
    """Private attributes that hold a class's content behind a property (`_content`, `_text`): content
    of a class that declares one, never of a value known only by its name."""
    return tuple(f"_{f}" for f in vocabulary.class_content_fields)


@lru_cache(maxsize=8)
def content_write_fields(vocabulary: Vocabulary) -> tuple[str, ...]:
    """The attributes a content write may assign: the content fields and their backing fields."""
    return vocabulary.content_fields + backing_content_fields(vocabulary)


# Name parts of derived fields that are recomputed together: resetting one of a family says the
# others were thought of (`end_char_idx` beside `start_char_idx`); another family may still be stale.
_DERIVED_FAMILIES = (
    ("embedding", frozenset({"embedding", "embeddings", "vector", "vectors", "embed"})),
    ("offsets", frozenset({"offset", "offsets", "idx", "char", "chars", "bounds", "boundaries", "positions", "sentence", "sentences"})),
    ("count", frozenset({"token", "tokens", "count", "counts"})),
)


def derived_family(name: str) -> str:
    """The family of a derived field (`embedding`, `offsets`, `count`), or the field itself."""
    parts = set(name_parts(name))
    return next((family for family, words in _DERIVED_FAMILIES if parts & words), name)


def is_derived_field(name: str, vocabulary: Vocabulary) -> bool:
    """A field holding something computed from the content: a derived field of the vocabulary
    (`embedding`, `offsets`), a name ending in one of its one-word fields or their plural
    (`token_offsets`, `chunk_embeddings`, `text_vector`), or the spans of a text unit (`sentence_spans`)."""
    if name in vocabulary.derived_fields:
        return True
    parts = name_parts(name)
    return len(parts) > 1 and (parts[-1] in derived_endings(vocabulary) or (parts[-1] == "spans" and parts[-2] in _TEXT_UNITS))


# Word parts of attributes and keys that hold offsets into a text.
_OFFSET_PARTS = frozenset(
    {"start", "end", "begin", "stop", "offset", "offsets", "idx", "index", "pos", "position", "char", "chars",
     "loc", "location", "range", "ranges", "span", "from", "to", "left", "right", "boundaries", "bounds"}
)
# Units whose spans are offsets into a text: `token_spans`, `char_spans`, `sentence_spans`.
_TEXT_UNITS = frozenset({"token", "char", "sentence", "word", "line", "byte"})


def names_offsets(name: str) -> bool:
    """`start`, `char_offsets`, `token_spans`: a name that says it holds offsets into a text."""
    parts = name_parts(name)
    return bool(_OFFSET_PARTS.intersection(parts)) or (len(parts) > 1 and parts[-1] == "spans" and parts[-2] in _TEXT_UNITS)

# Methods of a span that return its content (LlamaIndex's `BaseNode.get_content()`, `get_text()`).
CONTENT_GETTERS = frozenset({"get_content", "get_text"})
_CONTENT_READS: dict[tuple[str, ...], re.Pattern[str]] = {}


def content_read_pattern(vocabulary: Vocabulary) -> re.Pattern[str]:
    """Text reading a content field: an attribute (`.text`), a mapping span's item (`["text"]`), or
    `get_content(`."""
    found = _CONTENT_READS.get(vocabulary.content_fields)
    if found is None:
        fields = "|".join(map(re.escape, vocabulary.content_fields))
        found = _CONTENT_READS[vocabulary.content_fields] = re.compile(
            rf"\.(?:{fields})\b|\[[\"'](?:{fields})[\"']\]|get_content\(" if fields else r"get_content\("
        )
    return found


_DERIVED_ENDINGS: dict[tuple[str, ...], frozenset[str]] = {}


def derived_endings(vocabulary: Vocabulary) -> frozenset[str]:
    """Last name parts that make a field derived (`is_derived_field`)."""
    found = _DERIVED_ENDINGS.get(vocabulary.derived_fields)
    if found is None:
        words = [f for f in vocabulary.derived_fields if "_" not in f]
        found = _DERIVED_ENDINGS[vocabulary.derived_fields] = frozenset(words + [w + "s" for w in words if not w.endswith("s")])
    return found


# Nouns that name a summary in a prompt's prose (`Write a five-line news digest`), not in identifiers,
# where `digest` is a hash.
SUMMARY_PROSE_NOUNS = ("digest", "digests", "recap", "recaps", "synopsis", "synopses")


@lru_cache(maxsize=8)
def summarize_request(vocabulary: Vocabulary, any_case: bool = True) -> re.Pattern[str]:
    """Text asking for a summary, in any case: a summarize word's stem at the start of a word
    (`Summarize the notes`, `condensed`), or a producing verb at most three words before a summary
    word (`Extend the summary`, `Write a concise summary`; not `Answer using this summary`) or, with
    only spaces between the words (prose, not code such as `h.update(b); h.digest()`), a summary noun
    (`Write a five-line news digest`).

    Without `any_case`, the pattern is for lower-cased text, which it searches ~2.5x faster."""
    def case(words: Iterable[str]) -> list[str]:
        return [w if any_case else w.lower() for w in words]

    stems = sorted({w.rstrip("e") for w in case(vocabulary.summarize_words)})
    return re.compile(
        r"\b(?:(?:%s)|(?:%s)\b(?:(?:\W+\w+){0,3}?\W+(?:%s)|%s(?:%s))\b)"
        % ("|".join(map(re.escape, stems)), _summary_verbs(case(vocabulary.summary_verbs)), "|".join(case(vocabulary.summary_words)),
           _PROSE_WORDS, "|".join(SUMMARY_PROSE_NOUNS)),
        re.IGNORECASE if any_case else 0,
    )


_PROSE_WORDS = r"(?:[ \t]+[\w-]+){0,3}?[ \t]+"  # up to three words between a verb and a summary noun


def _summary_verbs(verbs: Iterable[str]) -> str:
    """The producing verbs of a summary request: the vocabulary's (`summary_verbs`) and those of prose,
    including the ones that fold several texts into one (`Merge these summaries into a weekly one`)."""
    return "|".join(sorted({
        *verbs, "extend", "write", "continue", "merge", "combine", "consolidate",
        "rewrite", "revise", "amend", "expand", "maintain",  # `Rewrite the summary to include ...`
    }))


@lru_cache(maxsize=8)
def summary_noun_request(vocabulary: Vocabulary) -> re.Pattern[str]:
    """The text just before a summary noun (`SUMMARY_PROSE_NOUNS`) that makes `summarize_request` match
    there (`Write a five-line news `): searched only where such a noun occurs, which is cheaper on
    code than running `summarize_request` over a file that says `digest`."""
    return re.compile(r"\b(?:%s)\b%s$" % (_summary_verbs(vocabulary.summary_verbs), _PROSE_WORDS), re.IGNORECASE)


def earlier_summary_slots(text: str, vocabulary: Vocabulary) -> list[str]:
    """The names of a prompt's placeholders labelled as the summary made before (`Earlier digest:\\n{earlier}`,
    `This is the summary so far: {summary}`, `Current summary: {s}`); escape sequences count as spaces."""
    return _earlier_summary_slot(vocabulary).findall(_ESCAPE.sub(" ", text))


@lru_cache(maxsize=8)
def _earlier_summary_slot(vocabulary: Vocabulary) -> re.Pattern[str]:
    nouns = "|".join((*vocabulary.summary_words, *SUMMARY_PROSE_NOUNS))
    return re.compile(
        r"(?:\b(?:previous|prior|earlier|existing|current|running|last|old)\s+(?:%s)|\b(?:%s)\s+so\s+far)"
        r"[^{}\w]{0,8}\{(\w+)\}" % (nouns, nouns),
        re.IGNORECASE,
    )


_ESCAPE = re.compile(r"\\.")


def literal_asks_for_summary(source_text: str, vocabulary: Vocabulary) -> bool:
    """The source text of a string literal (or of an f-string's text part) asks for a summary
    (`summarize_request`); its escape sequences (`\\n`) count as spaces."""
    return summarize_request(vocabulary).search(_ESCAPE.sub(" ", source_text)) is not None
