"""The `guard` decorator: snapshot the spans a call reaches, check the kind's invariant after it, and
raise (restoring everything), warn, log or repair on a violation."""

from __future__ import annotations

import functools
import inspect
import logging
import os
import threading
import warnings
from collections.abc import Mapping
from typing import Any, Callable, NamedTuple, TypeVar

from runtime_guard.errors import (
    NoSpanFoundWarning, ProvenanceError, SpanGuardWarning, SpanInvariantError, StaleSpanError,
    SummaryChainError,
)
from runtime_guard.invariants import (
    Finding, LogSnapshot, check_prune, check_rewrite, check_summarize, ids_in, is_decision_log,
)
from runtime_guard.lineage import LINEAGE
from runtime_guard.schema import SpanSchema, reader_for
from runtime_guard.snapshot import CallSnapshot, attributes_of
from runtime_guard.decision_log import DecisionLog

F = TypeVar("F", bound=Callable[..., Any])

ENV_VAR = "SPANLINT_GUARD"
KINDS = ("rewrite", "prune", "summarize")
MODES = ("raise", "warn", "log", "repair")
ENV_MODES = ("off", "warn", "raise")
ERRORS: dict[str, type[SpanInvariantError]] = {
    "rewrite": StaleSpanError, "prune": ProvenanceError, "summarize": SummaryChainError,
}
MAX_FINDINGS_SHOWN = 10

logger = logging.getLogger("runtime_guard")


class ViolationReport(NamedTuple):
    """What a guard reports to its listeners (the pytest plugin) about one violating call."""

    kind: str
    operator: str
    error: str
    mode: str
    message: str


# Called with every ViolationReport, whatever the mode; the pytest plugin listens here.
violation_listeners: list[Callable[[ViolationReport], None]] = []
_warned_env_values: set[str] = set()
_lock = threading.Lock()


def _env_mode() -> str | None:
    value = os.environ.get(ENV_VAR)
    if not value:
        return None
    mode = value.strip().lower()
    if mode in ENV_MODES:
        return mode
    with _lock:
        first = value not in _warned_env_values
        _warned_env_values.add(value)
    if first:
        warnings.warn(f"{ENV_VAR}={value!r} is not one of {', '.join(ENV_MODES)}; ignored", RuntimeWarning,
                      stacklevel=4)
    return None


class _Call:
    """The state of one guarded call between its snapshot and its check."""

    __slots__ = ("snapshot", "log", "inputs", "lineage")

    def __init__(self, snapshot: CallSnapshot) -> None:
        self.snapshot = snapshot
        self.log: LogSnapshot | None = None
        self.inputs: list = []
        self.lineage: set = set()


class _Guard:
    """One decorated operator's guard: its kind, mode and how it reads spans."""

    def __init__(self, kind: str, func: Callable[..., Any], on_violation: str, schema: SpanSchema,
                 decision_log: Any, copy_on_rewrite: bool) -> None:
        self.kind = kind
        self.func = func
        self.on_violation = on_violation
        self.reader = reader_for(schema)
        self.decision_log = decision_log
        self.copy_on_rewrite = copy_on_rewrite
        self.name = f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', repr(func))}"
        try:
            parameters = inspect.signature(func).parameters.values()
        except (TypeError, ValueError):
            parameters = ()
        self.positional = [p.name for p in parameters
                           if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        self.has_self = bool(self.positional) and self.positional[0] in ("self", "cls")
        self.no_span_said = False

    def mode(self) -> str:
        """The mode in force for the next call: SPANLINT_GUARD if set, else on_violation."""
        return _env_mode() or self.on_violation

    def before(self, args: tuple, kwargs: dict, mode: str) -> _Call | None:
        """Snapshot the call's spans; for summarize, check its inputs before the operator runs."""
        vocabulary = self.reader.vocabulary
        named = list(zip(self.positional, args)) + [(None, a) for a in args[len(self.positional):]]
        named += list(kwargs.items())
        snapshot = CallSnapshot(self.reader)
        call = _Call(snapshot)
        for index, (name, value) in enumerate(named):
            added = snapshot.add_argument(value)
            if self.kind == "summarize":
                if name in vocabulary.lineage_keywords:
                    call.lineage |= ids_in(value, self.reader)
                elif not (index == 0 and self.has_self):
                    call.inputs += added
        if not snapshot.all_records:
            self._say_no_span(named, mode)
            return None
        if self.kind == "prune":
            log = self._find_log(named)
            if log is not None and not is_decision_log(log):
                self._violate([Finding(f"decision log of type {type(log).__name__} is neither a "
                                       f"DecisionLog nor a list")], mode, call, called=False)
                log = None
            call.log = LogSnapshot(log) if log is not None else None
        elif self.kind == "summarize":
            findings = check_summarize(snapshot, call.inputs, call.lineage)
            if findings:
                self._violate(findings, mode, call, called=False)
        return call

    def after(self, call: _Call, result: Any, mode: str) -> None:
        """Check the kind's invariant on the spans the call left; act on a violation."""
        snapshot = call.snapshot
        current = snapshot.current_spans()
        if self.kind == "rewrite":
            findings = check_rewrite(snapshot, current, self.copy_on_rewrite)
        elif self.kind == "prune":
            findings = check_prune(snapshot, current, call.log, self.reader.vocabulary.tombstone_markers)
        else:
            self._record_summaries(call, current, result)
            return
        if findings:
            self._violate(findings, mode, call, called=True)

    def _find_log(self, named: list[tuple[str | None, Any]]) -> Any:
        if self.decision_log is not None:
            log = self.decision_log
            return log() if callable(log) and not is_decision_log(log) else log
        names = self.reader.vocabulary.decision_log_names
        for name, value in named:
            if name in names or isinstance(value, DecisionLog):
                return value
        for _, value in named:
            if isinstance(value, (list, tuple, dict, str, bytes, type)):
                continue
            for name, attribute in attributes_of(value):
                if name.lstrip("_") in names or isinstance(attribute, DecisionLog):
                    return attribute
        return None

    def _record_summaries(self, call: _Call, current: dict[Any, Any], result: Any) -> None:
        snapshot = call.snapshot
        sources = frozenset(call.lineage) if call.lineage else frozenset(
            record.key for record in call.inputs if not isinstance(record.key, tuple))
        outputs = [span for key, span in current.items() if key not in snapshot.records]
        results = result.values() if isinstance(result, Mapping) else (
            result if isinstance(result, (list, tuple)) else (result,))
        outputs += [span for span in results if self.reader.span_type(span) is not None]
        for span in outputs:
            LINEAGE.record(span, sources)

    def _say_no_span(self, named: list[tuple[str | None, Any]], mode: str) -> None:
        with _lock:
            if self.no_span_said:
                return
            self.no_span_said = True
        types = ", ".join(sorted({type(value).__name__ for _, value in named})) or "no arguments"
        message = (f"guard({self.kind!r}) on {self.name} found no span in its arguments ({types}); "
                   f"calls without spans go unchecked. Pass a span, a mapping or list of spans, or an "
                   f"object holding one, or give schema= if your fields have other names. "
                   f"(Said once per operator.)")
        if mode == "log":
            logger.warning(message)
        else:
            warnings.warn(message, NoSpanFoundWarning, stacklevel=4)

    def _violate(self, findings: list[Finding], mode: str, call: _Call, called: bool) -> None:
        error = ERRORS[self.kind]
        shown = "; ".join(f.text for f in findings[:MAX_FINDINGS_SHOWN])
        if len(findings) > MAX_FINDINGS_SHOWN:
            shown += f"; and {len(findings) - MAX_FINDINGS_SHOWN} more"
        header = f"guard({self.kind!r}) on {self.name}: {shown}."
        if mode == "repair" and not self._repair(findings):
            mode = "raise"
            header += " Repair was impossible (no version or hash to set, unknown digest, or a field refused)."
        if mode == "raise":
            message = f"{header} {self._roll_back(call) if called else 'The operator was not called; nothing changed.'}"
        elif mode == "repair":
            message = f"{header} Repaired in place: version bumped, hash recomputed, stale derived fields reset."
        else:
            message = f"{header} Changes kept (mode {mode!r})."
        report = ViolationReport(self.kind, self.name, error.__name__, mode, message)
        for listener in list(violation_listeners):
            listener(report)
        if mode == "raise":
            raise error(message)
        if mode == "log":
            logger.warning("%s: %s", error.__name__, message)
        else:
            warnings.warn(f"{error.__name__}: {message}", SpanGuardWarning, stacklevel=4)

    def _roll_back(self, call: _Call) -> str:
        containers, spans = call.snapshot.restore()
        restored = f"{containers} container(s) and {spans} span(s) the call changed"
        if call.log is not None:
            call.log.restore()
            restored += ", and the decision log,"
        return f"Restored {restored} to their exact pre-call state; nothing was lost."

    def _repair(self, findings: list[Finding]) -> bool:
        if any(f.repair is None or f.current is None for f in findings):
            return False
        try:
            for finding in findings:
                for name, value in finding.repair.items():
                    setattr(finding.current, name, value)
        except Exception:
            return False
        return True


def guard(kind: str, *, on_violation: str = "raise", schema: SpanSchema | None = None,
          decision_log: Any = None, copy_on_rewrite: bool = False) -> Callable[[F], F]:
    """Decorate an operator that edits spans so each call keeps the invariant of its `kind`.

    kind: "rewrite", "prune" or "summarize". on_violation: "raise" (restore, then raise), "warn",
    "log" or "repair" (rewrite only). schema: field names and digest overriding the vocabulary.
    decision_log (prune only): the log, or a callable returning it. copy_on_rewrite (rewrite only):
    any content change at an existing id is a violation. SPANLINT_GUARD=off|warn|raise overrides
    the mode.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if on_violation not in MODES:
        raise ValueError(f"on_violation must be one of {', '.join(MODES)}, not {on_violation!r}")
    if on_violation == "repair" and kind != "rewrite":
        raise ValueError("on_violation='repair' applies to rewrite guards only")
    if copy_on_rewrite and kind != "rewrite":
        raise ValueError("copy_on_rewrite applies to rewrite guards only")
    if decision_log is not None and kind != "prune":
        raise ValueError("decision_log applies to prune guards only")

    def decorate(func: F) -> F:
        if isinstance(func, (classmethod, staticmethod)):
            return type(func)(decorate(func.__func__))
        if not callable(func):
            raise TypeError(f"guard({kind!r}) decorates a callable, not {type(func).__name__}")
        checker = _Guard(kind, func, on_violation, schema, decision_log, copy_on_rewrite)

        if inspect.iscoroutinefunction(func):
            @functools.wraps(func)
            async def guarded_async(*args: Any, **kwargs: Any) -> Any:
                mode = checker.mode()
                if mode == "off":
                    return await func(*args, **kwargs)
                call = checker.before(args, kwargs, mode)
                result = await func(*args, **kwargs)
                if call is not None:
                    checker.after(call, result, mode)
                return result

            return guarded_async  # type: ignore[return-value]

        @functools.wraps(func)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            mode = checker.mode()
            if mode == "off":
                return func(*args, **kwargs)
            call = checker.before(args, kwargs, mode)
            result = func(*args, **kwargs)
            if call is not None:
                checker.after(call, result, mode)
            return result

        return guarded  # type: ignore[return-value]

    return decorate


def _kind_shortcut(kind: str) -> Callable[..., Any]:
    def shortcut(func: Callable[..., Any] | None = None, /, **options: Any) -> Any:
        decorator = guard(kind, **options)
        return decorator if func is None else decorator(func)

    shortcut.__name__ = shortcut.__qualname__ = kind
    shortcut.__doc__ = (f"guard({kind!r}): use as @guard.{kind} or @guard.{kind}(on_violation=...).")
    return shortcut


guard.rewrite = _kind_shortcut("rewrite")  # type: ignore[attr-defined]
guard.prune = _kind_shortcut("prune")  # type: ignore[attr-defined]
guard.summarize = _kind_shortcut("summarize")  # type: ignore[attr-defined]
