"""Decorator forms, callables, modes from the environment, unchecked calls and operator errors."""

from __future__ import annotations

import asyncio
import inspect
import warnings

import pytest

from guard_spans import Buffer, Span, make_spans
from runtime_guard import NoSpanFoundWarning, SpanInvariantError, StaleSpanError, SummaryChainError, guard
from runtime_guard import ProvenanceError


def test_errors_derive_from_span_invariant_error_and_runtime_error():
    for error in (StaleSpanError, ProvenanceError, SummaryChainError):
        assert issubclass(error, SpanInvariantError)
    assert issubclass(SpanInvariantError, RuntimeError)


@pytest.mark.parametrize("decorate", [
    guard("rewrite"), guard.rewrite, guard.rewrite(on_violation="raise"),
])
def test_every_decorator_form_guards_and_keeps_metadata(decorate):
    def compress_task(buffer, span_id: str) -> None:
        """Compress the current task."""
        buffer[span_id].content = "compressed"

    guarded = decorate(compress_task)
    assert guarded.__wrapped__ is compress_task
    assert guarded.__doc__ == "Compress the current task."
    assert inspect.signature(guarded) == inspect.signature(compress_task)
    with pytest.raises(StaleSpanError):
        guarded(Buffer(make_spans(2)), "s1")


def test_shortcut_with_options_uses_them():
    @guard.rewrite(on_violation="warn")
    def edit(span):
        span.content = "x"

    with pytest.warns(Warning, match="StaleSpanError"):
        edit(Span("a", "old"))


@pytest.mark.parametrize("arguments, message", [
    (("delete",), "kind must be one of"),
    (("rewrite",), None),
    (("prune",), None),
])
def test_kind_is_validated(arguments, message):
    if message:
        with pytest.raises(ValueError, match=message):
            guard(*arguments)
    else:
        assert callable(guard(*arguments))


@pytest.mark.parametrize("kind, options", [
    ("rewrite", {"on_violation": "explode"}),
    ("prune", {"on_violation": "repair"}),
    ("summarize", {"copy_on_rewrite": True}),
    ("rewrite", {"decision_log": []}),
])
def test_options_that_do_not_apply_are_refused(kind, options):
    with pytest.raises(ValueError):
        guard(kind, **options)


class Planner:
    def __init__(self, spans):
        self._spans = spans

    @guard("rewrite")
    def rewrite_task(self, index, text, bump):
        span = self._spans[index]
        span.content = text
        if bump:
            span.version += 1
            span.content_hash = __import__("guard_spans").sha(text)

    @guard("rewrite")
    @classmethod
    def edit_class(cls, span, text):
        span.content = text

    @staticmethod
    @guard("rewrite")
    def edit_static(span, text):
        span.content = text


def test_methods_classmethods_and_staticmethods_are_guarded():
    planner = Planner(make_spans(3))
    planner.rewrite_task(0, "bumped", True)
    with pytest.raises(StaleSpanError):
        planner.rewrite_task(1, "not bumped", False)
    assert planner._spans[1].version == 1 and planner._spans[1].content != "not bumped"
    with pytest.raises(StaleSpanError):
        Planner.edit_class(Span("c", "old"), "new")
    with pytest.raises(StaleSpanError):
        Planner.edit_static(Span("s", "old"), "new")


def test_async_operators_are_guarded():
    @guard("rewrite")
    async def edit(span, bump):
        await asyncio.sleep(0)
        span.content = "new"
        if bump:
            span.rewrite("new")

    assert inspect.iscoroutinefunction(edit)
    span = Span("a", "old")
    with pytest.raises(StaleSpanError):
        asyncio.run(edit(span, False))
    assert span.content == "old"
    asyncio.run(edit(span, True))
    assert span.version == 2


def test_reentrant_guarded_operators():
    @guard("rewrite")
    def inner(span, text):
        span.rewrite(text)

    @guard("rewrite")
    def outer(spans):
        for span in spans:
            inner(span, span.content + "!")

    spans = make_spans(3)
    outer(spans)
    assert [s.version for s in spans] == [2, 2, 2]

    @guard("rewrite")
    def outer_bad(spans):
        inner(spans[0], "fine")
        spans[1].content = "stale"

    with pytest.raises(StaleSpanError, match="span 's1'"):
        outer_bad(spans)
    assert spans[0].version == 2 and spans[1].content.endswith("!")


def test_operator_exception_propagates_unchanged_and_is_not_a_violation():
    class OperatorFailed(Exception):
        pass

    failure = OperatorFailed("model timeout")

    @guard("rewrite")
    def failing(span):
        span.content = "half done"
        raise failure

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(OperatorFailed) as caught:
            failing(Span("a", "old"))
    assert caught.value is failure
    assert caught.value.__cause__ is None and caught.value.__context__ is None


@pytest.mark.parametrize("env, raised", [("off", None), ("warn", None), ("raise", StaleSpanError)])
def test_environment_overrides_the_mode(monkeypatch, env, raised):
    monkeypatch.setenv("SPANLINT_GUARD", env)

    @guard("rewrite", on_violation="log")
    def edit(span):
        span.content = "new"

    span = Span("a", "old")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if raised:
            with pytest.raises(raised):
                edit(span)
        else:
            edit(span)
    assert len(caught) == (1 if env == "warn" else 0)
    assert span.content == ("old" if raised else "new")


def test_unknown_environment_value_is_ignored_with_a_warning(monkeypatch):
    monkeypatch.setenv("SPANLINT_GUARD", "loud")

    @guard("rewrite")
    def edit(span):
        span.content = "new"

    with pytest.warns(RuntimeWarning, match="not one of"), pytest.raises(StaleSpanError):
        edit(Span("a", "old"))


def test_no_span_found_is_said_once_per_operator():
    @guard("rewrite")
    def operates_on_text(text):
        return text.upper()

    with pytest.warns(NoSpanFoundWarning, match="operates_on_text found no span .*str"):
        operates_on_text("a")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert operates_on_text("b") == "B"


def test_off_mode_skips_snapshots_entirely(monkeypatch):
    monkeypatch.setenv("SPANLINT_GUARD", "off")
    looked_at = []

    class Watched:
        @property
        def content(self):
            looked_at.append("content")
            return "x"

        span_id = "w"

    @guard("rewrite")
    def noop(span):
        return span

    noop(Watched())
    assert looked_at == []
