"""Decision logs of every common shape, where the guard finds them, what covers a prune, and the
rollback of what a rejected call appended."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

import pytest

from guard_spans import make_spans
from runtime_guard import DecisionLog, ProvenanceError, guard


@dataclass
class SessionDecisionLog:
    entries: list = field(default_factory=list)

    def record(self, **entry):
        self.entries.append(dict(entry))


@dataclass
class TeamAuditLog:
    records: list = field(default_factory=list)

    def append(self, entry):
        self.records.append(entry)


class StreamLog:
    """A log that only records and iterates (its entries are not in a list the guard can reset)."""

    def __init__(self):
        self._store = {}

    def record(self, **entry):
        self._store[len(self._store)] = entry

    def __iter__(self):
        return iter(list(self._store.values()))


def add(log, span_id):
    if isinstance(log, list):
        log.append({"span_id": span_id})
    elif hasattr(log, "record"):
        log.record(action="prune", span_id=span_id)
    else:
        log.append({"span_id": span_id})


@pytest.mark.parametrize("make_log", [list, DecisionLog, SessionDecisionLog, TeamAuditLog])
def test_each_shape_found_by_argument_name_accepts_a_logged_prune_and_rolls_back_an_unlogged_one(make_log):
    @guard("prune")
    def drop(spans, decision_log, logged):
        spans.pop(0)
        add(decision_log, "s0" if logged else "other")

    log = make_log()
    spans = make_spans(3)
    drop(spans, log, True)
    assert len(spans) == 2 and len(list(log if not hasattr(log, "entries") and not hasattr(log, "records")
                                        else getattr(log, "entries", getattr(log, "records", None)))) == 1
    size = len(spans)
    with pytest.raises(ProvenanceError, match=r"span 's1'.*Restored .*and the decision log.*\(verified\)"):
        drop(spans, log, False)
    assert len(spans) == size
    entries = log if isinstance(log, list) else (list(log) if isinstance(log, DecisionLog)
                                                 else getattr(log, "entries", getattr(log, "records", None)))
    assert len(entries) == 1  # what the rejected call appended is gone


@pytest.mark.parametrize("log", [SessionDecisionLog(), TeamAuditLog()])
def test_a_log_is_found_by_its_type_name_under_any_argument_name(log):
    @guard("prune")
    def drop(spans, sink):
        spans.pop()
        add(sink, "s2")

    drop(make_spans(3), log)


def test_a_log_is_found_on_self_and_on_an_argument_attribute():
    class Agent:
        def __init__(self):
            self.spans = make_spans(3)
            self.history = SessionDecisionLog()  # found by its type

        @guard("prune")
        def drop_last(self):
            removed = self.spans.pop()
            self.history.record(action="prune", span_id=removed.span_id)

        @guard("prune")
        def drop_silently(self):
            self.spans.pop()

    agent = Agent()
    agent.drop_last()
    with pytest.raises(ProvenanceError, match="span 's1'"):
        agent.drop_silently()
    assert len(agent.spans) == 2


def test_decision_log_option_as_attribute_name_or_callable_of_the_first_argument():
    buffer = SimpleNamespace(spans=make_spans(3), notes=SessionDecisionLog())

    @guard("prune", decision_log="notes")
    def drop(buffer):
        buffer.spans.pop()
        buffer.notes.record(span_id="s2")

    drop(buffer)

    @guard("prune", decision_log=lambda owner: owner.notes)
    def drop_unlogged(buffer):
        buffer.spans.pop()

    with pytest.raises(ProvenanceError, match="span 's1'"):
        drop_unlogged(buffer)
    assert len(buffer.spans) == 2


def test_an_entry_naming_the_edit_id_covers_every_span_the_call_prunes():
    @guard("prune")
    def compact(spans, log, edit_id):
        log.record(edit_id=edit_id, rationale="superseded")
        for span in spans:
            span.content = "[pruned]"

    compact(make_spans(3), SessionDecisionLog(), "pass-7")

    @guard("prune")
    def compact_under_another_edit(spans, log, edit_id):
        log.record(edit_id="pass-8", rationale="superseded")
        spans[0].content = "[pruned]"

    spans = make_spans(2)
    with pytest.raises(ProvenanceError, match="span 's0'"):
        compact_under_another_edit(spans, SessionDecisionLog(), "pass-9")
    assert spans[0].content.startswith("000000")


def test_a_log_without_a_list_of_entries_is_checked_and_an_undone_append_is_reported():
    @guard("prune")
    def drop(spans, decision_log, logged):
        spans.pop()
        decision_log.record(span_id="s2" if logged else "other")

    log = StreamLog()
    drop(make_spans(3), log, True)
    spans = make_spans(3)
    with pytest.raises(ProvenanceError, match=r"could not restore: the decision log \(a StreamLog") as caught:
        drop(spans, log, False)
    assert "verified" not in str(caught.value) and len(spans) == 3


def test_a_named_argument_that_is_no_log_is_refused_before_the_call():
    called = []

    @guard("prune")
    def drop(spans, decision_log):
        called.append(True)

    with pytest.raises(ProvenanceError, match="keeps no list of entries"):
        drop(make_spans(2), object())
    assert called == []


@pytest.mark.parametrize("how", ["object", "position"])
def test_a_span_without_an_id_is_named_by_the_object_or_its_position(how):
    spans = make_spans(3)
    spans[1].span_id = None

    @guard("prune")
    def drop(spans, decision_log, record):
        removed = spans.pop(1)
        if record:
            decision_log.append({"action": "prune", "span": removed} if how == "object"
                                else {"action": "prune", "index": 1})

    with pytest.raises(ProvenanceError, match="span without an id"):
        drop(spans, [], False)
    assert len(spans) == 3
    drop(spans, [], True)
    assert [s.span_id for s in spans] == ["s0", "s2"]


def test_a_span_without_an_id_in_a_mapping_is_named_by_its_key():
    table = {f"k{i}": span for i, span in enumerate(make_spans(2))}
    table["k0"].span_id = None

    @guard("prune")
    def drop(table, decision_log):
        del table["k0"]
        decision_log.append({"pruned": "k0"})

    drop(table, [])
    assert list(table) == ["k1"]


def test_a_list_named_log_is_the_decision_log_unless_it_holds_spans():
    @guard("prune")
    def drop(spans, log):
        spans.pop()
        log.append({"span_id": "s2"})

    drop(make_spans(3), [])

    @guard("prune")
    def trim(spans, log):
        log.pop()  # `log` here is a transcript of spans, not a decision log

    with pytest.raises(ProvenanceError, match="no decision log was found"):
        trim([], make_spans(2))
