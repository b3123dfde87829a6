"""The default span vocabulary: the names that make code span-like.

This module is the single home of the defaults. The linter's rules and the runtime guard both read it,
and it imports nothing, so the guard stays standard-library only. The linter's `vocabulary`
configuration key overrides any of these fields by name.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Mapping


def _t(*names: str) -> tuple[str, ...]:
    return tuple(names)


@dataclass(frozen=True)
class Vocabulary:
    """Names that identify spans, their fields and the operations on them."""

    span_nouns: tuple[str, ...] = _t(
        "span", "node", "chunk", "block", "segment", "message", "msg", "turn", "passage", "entry"
    )
    id_fields: tuple[str, ...] = _t(
        "span_id", "id", "id_", "node_id", "message_id", "block_id", "chunk_id"
    )
    content_fields: tuple[str, ...] = _t("content", "text", "body", "value", "tokens", "messages", "page_content")
    # Content fields specific enough that a span noun in the owner's name suffices (no module context needed).
    strong_content_fields: tuple[str, ...] = _t("content", "tokens", "messages", "page_content")
    # Content fields that make a class declaring its own id (`id`, not `message_id`) a span with no
    # other evidence (`Note(id, text)`). `value` is not one: `Setting(id, value)` is configuration.
    class_content_fields: tuple[str, ...] = _t("content", "text", "body", "tokens", "messages")
    # Span nouns specific enough that they suffice with any content field; the others (`node`, `message`,
    # `block`, `entry`...) need a strong content field or span context in the module.
    strong_span_nouns: tuple[str, ...] = _t("span", "chunk", "passage", "segment")
    # Span classes of well-known libraries: a module naming one shows span context even when the
    # library is not part of the linted tree.
    span_class_names: tuple[str, ...] = _t(
        "TextNode", "BaseNode", "NodeWithScore", "ChatMessage", "BaseMessage", "AIMessage", "HumanMessage",
        "SystemMessage", "ToolMessage", "Passage", "Span",
    )
    # Classes (and their subclasses) whose in-place rewrites the project accepts: not spans to the
    # linter (`AIMessage` when its consumers never key on the id), as `runtime_guard.exempt` is to the guard.
    not_span_classes: tuple[str, ...] = ()
    # Names of collections that hold spans even without a span noun (`buffer.get(k)`).
    container_nouns: tuple[str, ...] = _t("buffer", "transcript")
    # Modules whose import marks span nouns as look-alikes (AST, XML/HTML, GUI, email nodes/blocks/messages).
    lookalike_modules: tuple[str, ...] = _t(
        "ast", "libcst", "lib2to3", "parso", "astroid", "xml", "lxml", "html", "bs4", "tkinter", "email",
        "docutils", "markdown", "mistune", "networkx", "graphviz", "sqlglot", "tree_sitter", "jinja2",
    )
    version_fields: tuple[str, ...] = _t("version", "rev", "revision", "generation")
    hash_fields: tuple[str, ...] = _t("content_hash", "hash", "digest", "checksum", "etag")
    derived_fields: tuple[str, ...] = _t(
        "embedding", "vector", "start_char_idx", "end_char_idx", "offsets", "token_count", "n_tokens"
    )
    summarize_words: tuple[str, ...] = _t(
        "summarize", "summarise", "condense", "compress", "resummarize"
    )
    summary_verbs: tuple[str, ...] = _t(
        "predict", "generate", "create", "make", "build", "update", "new", "compute", "produce",
        "refresh", "roll", "shorten", "tighten", "refine",
    )
    not_summarize_modules: tuple[str, ...] = _t("zlib", "gzip", "lzma", "bz2", "brotli", "zstd", "snappy")
    # A callee whose first word is one of these only mentions summarizing (`should_summarize`,
    # `get_summarizer_model`, `package_summarize_message`): it does not produce a summary.
    not_summarize_prefixes: tuple[str, ...] = _t(
        "should", "is", "can", "has", "needs", "need", "get", "init", "calculate", "check", "package",
        "format", "load", "parse", "render", "validate", "estimate", "count", "set", "enable", "disable",
        "use", "with", "log", "print", "display",
    )
    summary_words: tuple[str, ...] = _t("summary", "summaries")
    # Words of a mapping's name that make it a cache of something (SPL201).
    cache_words: tuple[str, ...] = _t(
        "cache", "cached", "caches", "memo", "memos", "memoized", "index", "store", "embedding",
        "embeddings", "offsets", "citations",
    )
    # Words of a name that say its value is derived from span content (SPL201, SPL202).
    derived_words: tuple[str, ...] = _t(
        "embedding", "embeddings", "vector", "vectors", "offset", "offsets", "citation", "citations",
        "tokens", "score", "scores", "similarity", "distance",
    )
    cache_decorators: tuple[str, ...] = _t(
        "lru_cache", "cache", "cached", "alru_cache", "memoize", "memoized", "cachedmethod"
    )
    bump_methods: tuple[str, ...] = _t("bump", "bump_version", "touch", "mark_modified")
    rehash_methods: tuple[str, ...] = _t("rehash", "recompute_hash", "update_hash")
    content_setters: tuple[str, ...] = _t(
        "set_content", "set_text", "update_content", "replace_content"
    )
    tombstone_markers: tuple[str, ...] = _t("[pruned]", "[removed]", "<tombstone>")
    tombstone_flags: tuple[str, ...] = _t("tombstoned", "deleted", "killed", "retracted")
    decision_log_names: tuple[str, ...] = _t(
        "decision_log", "decisions", "audit_log", "audit", "provenance", "ledger", "journal"
    )
    record_methods: tuple[str, ...] = _t("record", "append", "log", "write")
    # Argument and attribute names the runtime guard also takes for a decision log (`compact(spans, log)`).
    guard_log_names: tuple[str, ...] = _t("log", "decision_logs", "audit_trail")
    # Endings of a class name that make its instances decision logs (runtime guard).
    decision_log_types: tuple[str, ...] = _t("DecisionLog", "AuditLog", "EditLog", "PruneLog", "Ledger", "Journal")
    # Attributes of a decision-log object holding its list of entries (runtime guard).
    log_entry_fields: tuple[str, ...] = _t("entries", "records", "log", "_entries", "_records", "_log")
    # Arguments naming the edit a prune call performs (`compact(context, log, edit_id)`): an entry
    # naming that edit covers every span the call prunes (runtime guard).
    edit_id_names: tuple[str, ...] = _t("edit_id", "decision_id", "edit", "pass_id")
    prune_words: tuple[str, ...] = _t(
        "prune", "pruning", "trim", "evict", "eviction", "compact", "compaction", "truncate", "drop",
        "forget", "shrink", "cull", "gc", "purge", "expire", "sweep", "vacuum", "stale", "oldest",
        "overflow", "excess", "budget", "fit",
    )
    age_words: tuple[str, ...] = _t(
        "age", "ttl", "now", "time", "timestamp", "monotonic", "utcnow", "expiry", "expires", "expired",
        "elapsed", "created_at", "deleted_at", "tombstoned_at", "removed_at", "turn", "turns", "tick",
        "ticks", "epoch", "older", "deadline", "step", "steps", "round", "rounds", "iteration",
    )
    liveness_words: tuple[str, ...] = _t(
        "holder", "holders", "held", "refcount", "refcounts", "live_refs", "refs", "weakref", "weakrefs",
        "referenced", "referrers", "has_holders", "is_referenced", "pinned", "pins", "lease", "leases",
        "readers", "in_use", "live", "alive", "cited", "cites", "citations", "references", "used_by",
    )
    check_words: tuple[str, ...] = _t(
        "check", "verify", "validate", "ensure", "stale", "fresh", "is_current", "matches",
    )
    lineage_keywords: tuple[str, ...] = _t(
        "parent", "parents", "source_ids", "sources", "lineage", "derived_from", "chain"
    )
    summary_provenance_fields: tuple[str, ...] = _t("produced_by",)
    summary_provenance_prefixes: tuple[str, ...] = _t("rewrite:summarize",)
    summary_flags: tuple[str, ...] = _t("is_summary",)
    metadata_fields: tuple[str, ...] = _t("metadata",)
    offset_fields: tuple[str, ...] = _t(
        "start_char_idx", "end_char_idx", "offsets", "offset_map", "start", "end"
    )
    digest_function: str | None = None

    @classmethod
    def from_mapping(cls, overrides: Mapping[str, Any], base: "Vocabulary | None" = None) -> "Vocabulary":
        """Return `base` (default: the defaults) with the fields named in `overrides` replaced.

        Keys may use `-` or `_`. Raises `KeyError` for an unknown field and `TypeError` for a value
        of the wrong type, each naming the key.
        """
        base = base or DEFAULT_VOCABULARY
        known = {f.name: f for f in fields(cls)}
        changes: dict[str, Any] = {}
        for raw_key, value in overrides.items():
            key = str(raw_key).replace("-", "_")
            if key not in known:
                raise KeyError(raw_key)
            if key == "digest_function":
                if value is not None and not isinstance(value, str):
                    raise TypeError(f"{raw_key}: expected a dotted function name, got {type(value).__name__}")
                changes[key] = value
                continue
            if isinstance(value, str) or not isinstance(value, (list, tuple)) or not all(
                isinstance(v, str) for v in value
            ):
                raise TypeError(f"{raw_key}: expected a list of strings")
            changes[key] = tuple(value)
        return replace(base, **changes)


DEFAULT_VOCABULARY = Vocabulary()
