"""The design notes' own operators and the shipped example's operators, guarded end to end."""

from __future__ import annotations

import copy
import importlib.util
import sys
from pathlib import Path

import pytest

import seed_evidence
import seed_stability
from runtime_guard import ProvenanceError, StaleSpanError, guard

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "context_buffer.py"


def load_example():
    spec = importlib.util.spec_from_file_location("shipped_context_buffer", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


# --- copy-on-rewrite (retained span id is not a stability token) ---------------------------------

def test_seed_copy_on_rewrite_passes_and_leaves_the_old_span_readable():
    buffer = seed_stability.ContextBuffer()
    buffer.add(seed_stability.Span("task", "find the deploy target"))
    artifact = buffer.derive("task", (0, 4))
    rewrite = guard("rewrite", copy_on_rewrite=True)(seed_stability.ContextBuffer.rewrite)

    new = rewrite(buffer, "task", "deploy target: staging-eu", "summarize")

    assert new.span_id == "task@summarize:1" and new.version == 1
    assert buffer.use(artifact, "task") == "find"  # the old span and its artifact still hold
    assert seed_stability.safe_use(buffer, buffer.derive(new.span_id, (0, 6)), new.span_id) == "deploy"


def test_seed_buffer_with_an_in_place_rewrite_is_rejected_and_restored():
    buffer = seed_stability.ContextBuffer()
    buffer.add(seed_stability.Span("task", "find the deploy target"))

    @guard("rewrite")
    def rewrite_in_place(self, span_id, text):
        self._spans[span_id].content = text

    with pytest.raises(StaleSpanError, match=r"span 'task'.*version 0 -> 0 is not greater"):
        rewrite_in_place(buffer, "task", "something else")
    assert buffer._spans["task"].content == "find the deploy target"


# --- provenance (self-edits must not destroy their evidence) -------------------------------------

def evidence_context():
    return [seed_evidence.Span("t112", "ingest/v3 superseded", {"t7", "t8"}),
            seed_evidence.Span("t7", "tool output"), seed_evidence.Span("t8", "tool output")]


@pytest.fixture
def guarded_seed(monkeypatch):
    """The seed's compact and prune_span, both guarded (compact calls the guarded prune_span)."""
    monkeypatch.setattr(seed_evidence, "prune_span", guard("prune")(seed_evidence.prune_span))
    return guard("prune")(seed_evidence.compact)


def test_seed_compact_records_under_the_edit_id_and_passes(guarded_seed):
    context, log = evidence_context(), seed_evidence.DecisionLog()
    guarded_seed(context, log, "compact-1")
    assert [span.text for span in context] == ["[pruned]"] * 3
    assert log.has_rationale("compact-1") and len(log.entries) == 1


def test_seed_prune_span_alone_passes_once_the_rationale_is_in_the_log():
    prune_span = guard("prune")(seed_evidence.prune_span)
    log = seed_evidence.DecisionLog()
    log.record(edit_id="e1", rationale="superseded at turn 112", evidence_span="t112")
    span = seed_evidence.Span("t7", "tool output")
    prune_span(span, log, "e1")
    assert span.text == "[pruned]"

    with pytest.raises(ProvenanceError, match="span 't8'"):
        prune_span(seed_evidence.Span("t8", "tool output"), log, "e2")


def test_compaction_that_records_under_another_edit_is_rejected_with_log_and_spans_restored():
    @guard("prune")
    def compact_wrongly(context, log, edit_id):
        log.record(edit_id="some-other-edit", rationale="...", evidence_span="t112")
        for span in context:
            span.text = "[pruned]"

    context, log = evidence_context(), seed_evidence.DecisionLog()
    before = copy.deepcopy(context)
    with pytest.raises(ProvenanceError, match=r"span 't7'.*Restored .*decision log.*\(verified\)"):
        compact_wrongly(context, log, "compact-2")
    assert context == before and log.entries == []


# --- the shipped example ---------------------------------------------------------------------------

def example_buffer(module):
    buffer = module.ContextBuffer(summarize=lambda text: text[: len(text) // 2], embed=lambda text: [len(text)])
    for i in range(4):
        buffer.add(module.Span(f"s{i}", f"turn {i} " + "x" * 40))
    return buffer


def test_example_compact_is_accepted_its_log_found_on_self():
    module = load_example()
    buffer = example_buffer(module)
    guard("prune")(module.ContextBuffer.compact)(buffer, 100)
    assert len(buffer._spans) == 2
    assert [entry["span_id"] for entry in buffer.decision_log.entries] == ["s0", "s1"]


def test_example_forget_last_decision_is_rejected_and_the_entry_restored():
    module = load_example()
    buffer = example_buffer(module)
    guard("prune")(module.ContextBuffer.compact)(buffer, 100)
    entries = list(buffer.decision_log.entries)
    with pytest.raises(ProvenanceError, match="decision log lost 1 entries"):
        guard("prune")(module.ContextBuffer.forget_last_decision)(buffer)
    assert buffer.decision_log.entries == entries


def test_example_compress_task_without_a_version_bump_is_rejected_and_restored():
    module = load_example()
    buffer = example_buffer(module)
    before = copy.deepcopy(buffer._spans)
    with pytest.raises(StaleSpanError, match=r"span 's1'.*version 0 -> 0 is not greater"):
        guard("rewrite")(module.ContextBuffer.compress_task)(buffer, "s1")
    assert buffer._spans == before


def test_example_redact_without_a_new_hash_is_rejected_but_repairable():
    module = load_example()
    buffer = example_buffer(module)
    buffer._spans["s2"].content = "token sk-1 here"
    buffer._spans["s2"].content_hash = module.digest("token sk-1 here")
    with pytest.raises(StaleSpanError, match="stored hash .* is not the digest"):
        guard("rewrite")(module.ContextBuffer.redact)(buffer, "s2", "sk-1")
    assert buffer._spans["s2"].version == 0
    with pytest.warns(Warning, match="Repaired in place"):
        guard("rewrite", on_violation="repair")(module.ContextBuffer.redact)(buffer, "s2", "sk-1")
    span = buffer._spans["s2"]
    assert span.version == 1 and span.content_hash == module.digest(span.content)


def test_example_collect_tombstones_records_each_removal():
    module = load_example()
    buffer = example_buffer(module)
    buffer._spans["s3"].tombstoned = True
    guard("prune")(module.ContextBuffer.collect_tombstones)(buffer, -1.0)
    assert "s3" not in buffer._spans and buffer.decision_log.entries[-1]["span_id"] == "s3"


def test_example_free_functions_on_messages_and_chunks():
    module = load_example()
    message = module.ChatMessage("m1", "user", "hello   world")
    with pytest.raises(StaleSpanError, match="neither a version nor a hash"):
        guard("rewrite")(module.normalize_whitespace)(message)
    assert message.content == "hello   world"

    chunk = module.RetrievedChunk("c1", "old text", embedding=[0.1])
    with pytest.raises(StaleSpanError, match="derived field 'embedding'"):
        guard("rewrite")(module.refresh_chunk)(chunk, "new text")
    assert chunk.text == "old text" and chunk.version == 0
