"""SPL401-SPL403 through helpers of another module, aliases and paths (issue 14, items 3-6)."""

from __future__ import annotations

from spanlint import Settings, check_source
from spanlint.rules.project import ProjectIndex, summarize_source
from runtime_guard.vocabulary import DEFAULT_VOCABULARY

HELPERS = '''
def prune_one(spans, sid):
    spans[sid].tombstoned = True


def drop_noted(decision_log, spans, sid):
    decision_log.record(action="drop", span_id=sid)
    del spans[sid]
'''

OPS = '''
from helpers import drop_noted, prune_one


class Compactor:
    def compact(self, ctx, stale):
        for sid in stale:
            prune_one(ctx.spans, sid)

    def compact_noted(self, ctx, stale):
        for sid in stale:
            drop_noted(ctx.decision_log, ctx.spans, sid)

    def trim_one_branch(self, n):
        if self.verbose:
            self.decision_log.record(action="trim", n=n)
        hist = self.messages
        self.messages = hist[n:]

    def trim_both_branches(self, n):
        if self.verbose:
            self.decision_log.record(action="trim", n=n, dropped=self.messages[:n])
        else:
            self.decision_log.record(action="trim", n=n)
        hist = self.messages
        self.messages = hist[n:]
'''


def _findings(select: str, **files: str) -> list[tuple[str, str, int]]:
    settings = Settings(select=(select,))
    project = ProjectIndex.merge(DEFAULT_VOCABULARY, [summarize_source(s, DEFAULT_VOCABULARY, f"{n}.py") for n, s in files.items()])
    return sorted(
        (d.code, name, d.location.line)
        for name, source in files.items()
        for d in check_source(source, f"{name}.py", settings, project)
    )


def test_a_helper_of_another_module_that_prunes_without_a_record_is_reported_at_the_call() -> None:
    found = [f for f in _findings("SPL401", helpers=HELPERS, ops=OPS) if f[1] == "ops"]
    assert ("SPL401", "ops", 8) in found  # prune_one(ctx.spans, sid)
    assert all(line not in range(10, 13) for _, _, line in found)  # drop_noted records first


def test_a_record_in_one_branch_does_not_cover_the_prune_and_one_in_both_does() -> None:
    found = [line for _, name, line in _findings("SPL401", helpers=HELPERS, ops=OPS) if name == "ops"]
    assert 18 in found  # self.messages = hist[n:], recorded only when verbose
    assert 26 not in found


def test_a_decision_log_edited_through_an_alias_and_a_log_typed_attribute() -> None:
    source = '''
from log import DecisionLog


class Keeper:
    def __init__(self):
        self.book = DecisionLog()

    def amend(self):
        entries = self.book.entries
        if (rows := entries) is not None:
            rows[-1]["reason"] = "superseded"

    def undo(self):
        first, count = self.book.entries, 1
        del first[-count:]
'''
    log = "class DecisionLog:\n    def __init__(self):\n        self.entries = []\n"
    assert [f[2] for f in _findings("SPL402", log=log, keeper=source) if f[1] == "keeper"] == [12, 16]


def test_a_liveness_check_in_another_branch_does_not_cover_a_tombstone_collected_by_age() -> None:
    source = '''
import time


class Collector:
    def collect(self, spans, quick):
        live = spans
        now = time.time()
        if quick:
            for sid, s in list(live.items()):
                if s.tombstoned and now - s.tombstoned_at > self.ttl:
                    del live[sid]
            return
        for sid, s in list(live.items()):
            if s.tombstoned and now - s.tombstoned_at > self.ttl and not self.holders.get(sid):
                del live[sid]

    def trim_old_live(self, max_age):
        now = time.time()
        self.spans = [s for s in self.spans if now - s.deleted_at < max_age or s.tombstoned]
'''
    assert [f[2] for f in _findings("SPL403", collector=source)] == [12]
