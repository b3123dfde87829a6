"""Nothing the guard produces (errors, warnings, log records, reprs, reports) contains span content."""

from __future__ import annotations

import logging
import warnings

import pytest

from guard_spans import SECRET, Span, make_spans
from runtime_guard import DecisionLog, SpanCache, SpanInvariantError, check_artifact, guard
from runtime_guard.guard import violation_listeners


def operators(mode):
    """A bad rewrite, prune and summarize operator under `mode`."""

    @guard("rewrite", on_violation=mode)
    def rewrite(spans):
        spans[0].content = SECRET + " rewritten " + SECRET

    @guard("prune", on_violation="raise" if mode == "repair" else mode)
    def prune(spans, decision_log):
        removed = spans.pop(0)
        decision_log.record(action="prune", reason=f"dropped {removed.content}")
        spans[0].content = "[pruned]"

    @guard("summarize", on_violation="raise" if mode == "repair" else mode)
    def summarize(spans):
        return Span("summary", "summary of " + SECRET)

    return rewrite, prune, summarize


def secret_spans():
    spans = make_spans(3)
    spans[0].content = SECRET
    spans[0].rewrite(SECRET)
    spans[1].rewrite(SECRET * 2)
    spans[2].embedding = [0.5]
    return spans


@pytest.mark.parametrize("mode", ["raise", "warn", "log", "repair"])
@pytest.mark.parametrize("kind", ["rewrite", "prune", "summarize"])
def test_secret_never_appears_in_anything_the_guard_produces(mode, kind, caplog):
    rewrite, prune, summarize = operators(mode)
    reports = []
    violation_listeners.append(reports.append)
    produced: list[str] = []
    try:
        with caplog.at_level(logging.DEBUG, logger="runtime_guard"), \
                warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            spans = secret_spans()
            try:
                if kind == "rewrite":
                    rewrite(spans)
                elif kind == "prune":
                    prune(spans, DecisionLog())
                else:
                    summarize([summarize(spans)])
            except SpanInvariantError as error:
                produced += [str(error), repr(error), str(error.args)]
    finally:
        violation_listeners.remove(reports.append)
    produced += [str(w.message) for w in caught]
    produced += [record.getMessage() for record in caplog.records] + [repr(r.args) for r in caplog.records]
    produced += [repr(report) for report in reports]
    assert reports, "the bad operator was not reported"
    assert produced
    for text in produced:
        assert SECRET not in text
        assert SECRET[:12] not in text


def test_artifact_errors_and_reprs_do_not_leak():
    span = Span("a", SECRET)
    cache = SpanCache(lambda s: s.content)
    cache.get(span)
    span.content = SECRET + "!"
    texts = [repr(cache), repr(DecisionLog())]
    with pytest.raises(SpanInvariantError) as caught:
        cache.get(span)
    texts.append(str(caught.value))
    with pytest.raises(SpanInvariantError) as caught:
        check_artifact({"version": 0, "offsets": [10 ** 6]}, span)
    texts.append(str(caught.value))
    assert all(SECRET[:12] not in text for text in texts)
