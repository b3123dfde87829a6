"""Rewrite invariants across span shapes, digests, derived fields, modes and restore."""

from __future__ import annotations

import copy
import hashlib
import logging
import warnings
from dataclasses import dataclass, replace

import attrs
import pydantic
import pytest

from guard_spans import Buffer, Message, Node, Span, make_spans, sha
from runtime_guard import SpanGuardWarning, SpanSchema, StaleSpanError, exempt, guard
from runtime_guard import schema as schema_module


@guard("rewrite")
def rewrite_in_place(buffer, span_id, text):
    buffer[span_id].content = text


@guard("rewrite")
def rewrite_properly(buffer, span_id, text):
    buffer[span_id].rewrite(text)


def test_in_place_rewrite_without_version_is_rejected_and_restored():
    buffer = Buffer(make_spans(5))
    before = copy.deepcopy(buffer._spans)
    with pytest.raises(StaleSpanError, match=r"span 's2'.*version 1 -> 1 is not greater") as caught:
        rewrite_in_place(buffer, "s2", "the new task")
    assert "Restored" in str(caught.value)
    assert buffer._spans == before


def test_rewrite_with_bumped_version_and_hash_passes():
    buffer = Buffer(make_spans(5))
    rewrite_properly(buffer, "s2", "the new task")
    assert buffer["s2"].version == 2 and buffer["s2"].content == "the new task"


def test_bumped_version_with_stale_hash_is_rejected():
    @guard("rewrite")
    def bump_only(buffer, span_id):
        span = buffer[span_id]
        span.content = "changed"
        span.version += 1

    buffer = Buffer(make_spans(3))
    with pytest.raises(StaleSpanError, match="stored hash .* is not the digest of the new content"):
        bump_only(buffer, "s1")
    assert buffer["s1"].version == 1


def test_copy_on_rewrite_new_id_passes_and_leaves_old_span_readable():
    @guard("rewrite", copy_on_rewrite=True)
    def copy_rewrite(spans, index):
        old = spans[index]
        spans.append(Span(old.span_id + "-v2", "rewritten"))

    spans = make_spans(3)
    old_content = spans[1].content
    copy_rewrite(spans, 1)
    assert spans[1].content == old_content and spans[-1].span_id == "s1-v2"


def test_copy_on_rewrite_forbids_even_a_versioned_in_place_change():
    @guard("rewrite", copy_on_rewrite=True)
    def versioned_in_place(spans, index):
        spans[index].rewrite("rewritten")

    spans = make_spans(3)
    with pytest.raises(StaleSpanError, match="copy_on_rewrite requires a new id"):
        versioned_in_place(spans, 0)
    assert spans[0].version == 1


def test_replacing_the_span_object_at_its_id_is_checked_too():
    @guard("rewrite")
    def replace_frozen(table, span_id, version_step):
        old = table[span_id]
        table[span_id] = replace(old, content="new", version=old.version + version_step, content_hash=sha("new"))

    table = {span.span_id: span for span in make_spans(3)}
    replace_frozen(table, "s0", 1)
    assert table["s0"].version == 2
    original = table["s1"]
    with pytest.raises(StaleSpanError):
        replace_frozen(table, "s1", 0)
    assert table["s1"] is original


def test_derived_fields_must_be_reset_when_content_changes():
    @guard("rewrite")
    def keep_embedding(span):
        span.content = "new"
        span.version += 1
        span.content_hash = sha("new")

    span = Span("a", "old", embedding=[0.1, 0.2])
    with pytest.raises(StaleSpanError, match="derived field 'embedding' was neither reset nor recomputed"):
        keep_embedding(span)
    span.embedding = None
    keep_embedding(span)  # nothing derived left to go stale
    assert span.version == 2


@pytest.mark.parametrize("digest", [hashlib.sha1, hashlib.md5, hashlib.blake2b])
def test_digest_is_inferred_from_pre_call_state(digest):
    @dataclass
    class Chunk:
        chunk_id: str
        text: str
        rev: int
        digest: str

    def hexdigest(text):
        return digest(text.encode()).hexdigest()

    @guard("rewrite")
    def rewrite(chunk, digest_of):
        chunk.text = "new text"
        chunk.rev += 1
        chunk.digest = digest_of("new text")

    rewrite(Chunk("c", "old", 1, hexdigest("old")), hexdigest)
    with pytest.raises(StaleSpanError, match="is not the digest"):
        rewrite(Chunk("d", "old", 1, hexdigest("old")), lambda text: sha("something else"))


def test_unknown_digest_only_requires_the_hash_to_change():
    @dataclass
    class Opaque:
        id: str
        body: str
        version: int
        etag: str

    @guard("rewrite")
    def rewrite(span, etag):
        span.body = "new"
        span.version += 1
        span.etag = etag

    rewrite(Opaque("a", "old", 1, "etag-1"), "etag-2")
    with pytest.raises(StaleSpanError, match="did not change with the content"):
        rewrite(Opaque("b", "old", 1, "etag-1"), "etag-1")


def test_schema_names_fields_and_digest():
    class Record:
        def __init__(self, key, payload, gen, sig):
            self.key, self.payload, self.gen, self.sig = key, payload, gen, sig

    def short_digest(content):
        return sha(content)[:12]

    schema = SpanSchema(id_field="key", content_field="payload", version_field="gen", hash_field="sig",
                        digest=short_digest)

    @guard("rewrite", schema=schema)
    def rewrite(record, sig):
        record.payload = "new"
        record.gen += 1
        record.sig = sig

    rewrite(Record("k", "old", 1, short_digest("old")), short_digest("new"))
    with pytest.raises(StaleSpanError, match="span 'k'"):
        rewrite(Record("k", "old", 1, short_digest("old")), sha("new"))


def test_unchanged_content_is_never_hashed():
    calls = []

    def counting_digest(content):
        calls.append(content)
        return sha(content)

    @guard("rewrite", schema=SpanSchema(digest=counting_digest))
    def rewrite_one(buffer, span_id):
        buffer[span_id].rewrite("new content")

    buffer = Buffer(make_spans(1000))
    rewrite_one(buffer, "s7")
    assert calls == ["new content"]


def test_digest_inference_hashes_only_the_changed_span(monkeypatch):
    hashed = []
    for name in ("sha256", "sha1", "md5", "blake2b"):
        original = getattr(hashlib, name)

        def counting(data=b"", *args, _original=original, **kwargs):
            hashed.append(bytes(data))
            return _original(data, *args, **kwargs)

        monkeypatch.setattr(schema_module.hashlib, name, counting)

    @dataclass
    class Fresh:  # a new type, so no digest was inferred for it before
        span_id: str
        content: str
        version: int
        content_hash: str

    spans = [Fresh(f"f{i}", f"content {i}", 1, sha(f"content {i}")) for i in range(500)]

    @guard("rewrite")
    def rewrite_one(spans, index):
        spans[index].content = "new"
        spans[index].version += 1
        spans[index].content_hash = sha("new")

    hashed.clear()
    rewrite_one(spans, 3)
    assert b"content 3" in hashed  # the digest was inferred from the changed span's old state
    assert set(hashed) <= {b"content 3", b"new"}


@pytest.mark.parametrize("stored", ["salted sha256", "short tag"])
def test_a_hash_that_is_no_known_digest_is_inferred_once_per_type_not_on_every_call(monkeypatch, stored):
    hashed = []
    original = hashlib.sha256

    def counting(data=b"", *args, **kwargs):
        hashed.append(bytes(data))
        return original(data, *args, **kwargs)

    monkeypatch.setattr(schema_module.hashlib, "sha256", counting)

    def own_hash(text):
        digest = original(("salt" + text).encode()).hexdigest()
        return digest if stored == "salted sha256" else digest[:16]

    @dataclass
    class Salted:  # a new type, so no digest was inferred for it before
        span_id: str
        content: str
        version: int
        content_hash: str

    spans = [Salted(f"f{i}", "x" * 1000 + str(i), 1, own_hash("x" * 1000 + str(i))) for i in range(50)]

    @guard("rewrite")
    def rewrite_one(spans, index):
        spans[index].content = f"new {index}"
        spans[index].version += 1
        spans[index].content_hash = own_hash(f"new {index}")

    for index in range(50):
        rewrite_one(spans, index)
    assert len(hashed) == (1 if stored == "salted sha256" else 0)  # one failed try, then never again


def test_attrs_and_pydantic_spans():
    @attrs.define
    class AttrsSpan:
        span_id: str
        content: str
        version: int
        content_hash: str

    class PydanticSpan(pydantic.BaseModel):
        span_id: str
        content: str
        version: int
        content_hash: str

    for make in (AttrsSpan, PydanticSpan):
        spans = [make(span_id="a", content="old", version=1, content_hash=sha("old"))]
        snapshot = copy.deepcopy(spans)
        with pytest.raises(StaleSpanError):
            rewrite_in_place({"a": spans[0]}, "a", "new")
        assert spans == snapshot

        @guard("rewrite")
        def good(span):
            span.content, span.version, span.content_hash = "new", span.version + 1, sha("new")

        good(spans[0])
        assert spans[0].version == 2


def test_llamaindex_style_node_is_content_addressed_but_offsets_must_move():
    @guard("rewrite")
    def retext(nodes, index, text, reset_offsets):
        nodes[index].text = text
        if reset_offsets:
            nodes[index].start_char_idx = nodes[index].end_char_idx = None

    nodes = [Node("n0", "alpha beta"), Node("n1", "gamma delta", 0, 11)]
    retext(nodes, 0, "alpha", False)  # hash is a property of the text: content-addressed
    with pytest.raises(StaleSpanError, match="derived field 'start_char_idx'"):
        retext(nodes, 1, "gamma", False)
    assert nodes[1].text == "gamma delta"
    retext(nodes, 1, "gamma", True)


def test_langchain_style_message_without_version_or_hash_is_stale_until_exempted():
    class ChatMessage(Message):
        pass

    @guard("rewrite")
    def edit(messages, index):
        messages[index].content = "edited"

    messages = [ChatMessage("m1", "hello")]
    with pytest.raises(StaleSpanError, match="neither a version nor a hash"):
        edit(messages, 0)
    assert messages[0].content == "hello"
    exempt(ChatMessage)
    with pytest.warns(Warning, match="found no span"):
        edit(messages, 0)
    assert messages[0].content == "edited"


def test_span_without_id_is_checked_by_identity():
    @guard("rewrite")
    def edit(spans):
        spans[0].content = "new"

    spans = [Span(None, "old")]
    with pytest.raises(StaleSpanError, match="span without an id"):
        edit(spans)
    assert spans[0].content == "old"


def test_restore_puts_back_containers_rebound_attributes_and_added_fields():
    @guard("rewrite")
    def messy(buffer):
        buffer._spans["s0"].content = "bad"
        buffer._spans["s0"].note = "added attribute"
        buffer._spans = {"other": Span("other", "x")}

    buffer = Buffer(make_spans(2))
    spans_dict = buffer._spans
    with pytest.raises(StaleSpanError):
        messy(buffer)
    assert buffer._spans is spans_dict and list(spans_dict) == ["s0", "s1"]
    assert not hasattr(spans_dict["s0"], "note") and spans_dict["s0"].content.startswith("000000")


def test_warn_mode_keeps_the_change_and_warns():
    @guard("rewrite", on_violation="warn")
    def edit(span):
        span.content = "new"

    span = Span("a", "old")
    with pytest.warns(SpanGuardWarning, match="StaleSpanError: .*span 'a'.*Changes kept"):
        edit(span)
    assert span.content == "new"


def test_log_mode_logs_on_runtime_guard_logger(caplog):
    @guard("rewrite", on_violation="log")
    def edit(span):
        span.content = "new"

    span = Span("a", "old")
    with caplog.at_level(logging.WARNING, logger="runtime_guard"), warnings.catch_warnings():
        warnings.simplefilter("error")
        edit(span)
    assert [r.name for r in caplog.records] == ["runtime_guard"]
    assert "StaleSpanError" in caplog.text and "span 'a'" in caplog.text
    assert span.content == "new"


def test_repair_bumps_version_recomputes_hash_resets_derived_and_warns():
    @guard.rewrite(on_violation="repair")
    def edit(span):
        span.content = "new"

    span = Span("a", "old", version=4, embedding=[1.0])
    with pytest.warns(SpanGuardWarning, match="Repaired in place"):
        edit(span)
    assert (span.content, span.version, span.content_hash, span.embedding) == ("new", 5, sha("new"), None)


def test_repair_that_is_impossible_restores_and_raises():
    @guard.rewrite(on_violation="repair")
    def edit(messages):
        messages[0].content = "edited"

    messages = [Message("m", "hello")]
    with pytest.raises(StaleSpanError, match="Repair was impossible"):
        edit(messages)
    assert messages[0].content == "hello"
