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
from runtime_guard.decision_log import LogSnapshot, is_decision_log, is_named_decision_log
from runtime_guard.invariants import Finding, check_prune, check_rewrite, check_summarize, ids_in
from runtime_guard.lineage import LINEAGE
from runtime_guard.schema import MISSING, SpanSchema, read, reader_for
from runtime_guard.serial import HOLDS, enter, held_ids, leave
from runtime_guard.snapshot import CallSnapshot, SpanGroup, attributes_of

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

    __slots__ = ("snapshot", "log", "inputs", "lineage", "edit_ids")

    def __init__(self, snapshot: CallSnapshot) -> None:
        self.snapshot = snapshot
        self.log: LogSnapshot | None = None
        self.inputs: list = []
        self.lineage: set = set()
        self.edit_ids: tuple = ()

    def restore(self) -> tuple[int, int, list[str], bool]:
        """Restore the spans, containers and decision log; return how many containers and spans
        were restored, what could not be, and whether the log was restored."""
        containers, spans, problems = self.snapshot.restore()
        log_restored = False
        if self.log is not None and self.log.changed():
            problems += self.log.restore()
            log_restored = True
        return containers, spans, problems, log_restored


class _Guard:
    """One decorated operator's guard: its kind, mode and how it reads spans."""

    def __init__(self, kind: str, func: Callable[..., Any], on_violation: str, schema: SpanSchema,
                 decision_log: Any, copy_on_rewrite: bool, transactional: bool) -> None:
        self.kind = kind
        self.transactional = transactional
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

    def named(self, args: tuple, kwargs: dict) -> list[tuple[str | None, Any]]:
        named = list(zip(self.positional, args)) + [(None, a) for a in args[len(self.positional):]]
        return named + list(kwargs.items())

    def snapshot(self, named: list[tuple[str | None, Any]], mode: str) -> _Call | None:
        """Snapshot the call's spans; for summarize, check its inputs before the operator runs."""
        vocabulary = self.reader.vocabulary
        snapshot = CallSnapshot(self.reader)
        call = _Call(snapshot)
        for index, (name, value) in enumerate(named):
            found = snapshot.add_argument(value)
            if self.kind != "summarize":
                continue
            if name in vocabulary.lineage_keywords:
                call.lineage |= ids_in(value, self.reader)
            elif not (index == 0 and self.has_self):
                call.inputs += found
        if not snapshot.found_spans():
            self._say_no_span(named, mode)
            return None
        if self.kind == "prune":
            log = self._find_log(named)
            if log is not None and not is_decision_log(log, vocabulary):
                self._violate([Finding(f"decision log of type {type(log).__name__} keeps no list of entries "
                                       f"({', '.join(vocabulary.log_entry_fields[:3])}) and has no "
                                       f"record/append method with iterable entries")], mode, call, called=False)
                log = None
            call.log = LogSnapshot(log, vocabulary) if log is not None else None
            call.edit_ids = tuple(value for name, value in named
                                  if name in vocabulary.edit_id_names and value is not None)
        elif self.kind == "summarize":
            findings = check_summarize(snapshot, call.inputs, call.lineage)
            if findings:
                self._violate(findings, mode, call, called=False)
        return call

    def hold_found(self, call: _Call | None, held: list[int], owner: Any) -> list[int]:
        """Hold what the snapshot found the call uses and let go of the arguments that reach no
        span (a client object shared by every call must not serialise them); `held` is updated.
        Return the ids another call holds, to wait for."""
        targets = held_ids(call.snapshot.lock_targets()) if call is not None else []
        more = [i for i in targets if i not in set(held)]
        if more and not HOLDS.try_hold(more, owner):
            return more
        held += more
        wanted = set(targets)
        unused = [i for i in held if i not in wanted]
        if unused:
            HOLDS.release(unused)
            held[:] = [i for i in held if i in wanted]
        return []

    def after(self, call: _Call | None, result: Any, mode: str) -> None:
        """Check the kind's invariant on the spans the call left; act on a violation."""
        if call is None:
            return
        snapshot = call.snapshot
        try:
            current = snapshot.current_spans()
            if self.kind == "rewrite":
                findings = check_rewrite(snapshot, current, self.copy_on_rewrite)
            elif self.kind == "prune":
                findings = check_prune(snapshot, current, call.log, self.reader.vocabulary.tombstone_markers,
                                       call.edit_ids)
            else:
                self._record_summaries(call, current, result)
                return
        except Exception as error:  # a value the checks cannot read: refuse the call rather than pass it
            findings = [Finding(f"the guard could not check the call ({type(error).__name__} while reading "
                                f"its spans)")]
        if findings:
            self._violate(findings, mode, call, called=True)

    def abort(self, call: _Call | None) -> None:
        """The operator raised: restore what it changed (transactional guards only)."""
        if call is None or not self.transactional:
            return
        try:
            call.restore()
        except Exception as error:  # the operator's own exception is the one to propagate
            logger.warning("restoring after a failed call of %s raised %s", self.name, type(error).__name__)

    def _find_log(self, named: list[tuple[str | None, Any]]) -> Any:
        """The call's decision log: `decision_log=` (the log, an attribute name on the first
        argument, or a callable given the first argument or nothing), else an argument named or
        typed like a log, else such an attribute on an argument (or `self`)."""
        vocabulary = self.reader.vocabulary
        option = self.decision_log
        first = named[0][1] if named else None
        if option is not None:
            if isinstance(option, str):
                found = read(first, option)
                return None if found is MISSING else found
            if is_decision_log(option, vocabulary) or not callable(option):
                return option
            return option(first) if _takes_an_argument(option) and named else option()
        names = vocabulary.decision_log_names + vocabulary.guard_log_names
        for name, value in named:
            if name in names and not self._holds_spans(value):
                return value
        for _, value in named:
            if is_named_decision_log(value, vocabulary):
                return value
        for _, value in named:
            if isinstance(value, (list, tuple, dict, str, bytes, type)) or value is None:
                continue
            for name, attribute in attributes_of(value):
                if ((name.lstrip("_") in names and is_decision_log(attribute, vocabulary)
                     and not self._holds_spans(attribute)) or is_named_decision_log(attribute, vocabulary)):
                    return attribute
        return None

    def _holds_spans(self, value: Any) -> bool:
        """Whether `value` is a list of spans (a transcript named `log` is not a decision log)."""
        return isinstance(value, list) and bool(value) and self.reader.span_type(value[0]) is not None

    def _record_summaries(self, call: _Call, current: dict[Any, Any], result: Any) -> None:
        snapshot = call.snapshot
        keys = (entry.keys if type(entry) is SpanGroup else () if isinstance(entry.key, tuple) else (entry.key,)
                for entry in call.inputs)
        sources = frozenset(call.lineage) if call.lineage else frozenset().union(*keys)  # sets merged as tables
        outputs = snapshot.new_spans(current)
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
        repair_failed = mode == "repair" and not self._repair(findings)
        if repair_failed:
            mode = "raise"
        outcome = self._roll_back(call) if mode == "raise" and called else ""
        shown = "; ".join(f.text for f in findings[:MAX_FINDINGS_SHOWN])
        if len(findings) > MAX_FINDINGS_SHOWN:
            shown += f"; and {len(findings) - MAX_FINDINGS_SHOWN} more"
        header = f"guard({self.kind!r}) on {self.name}: {shown}."
        if repair_failed:
            header += " Repair was impossible (no version or hash to set, unknown digest, or a field refused)."
        if mode == "raise":
            message = f"{header} {outcome if called else 'The operator was not called; nothing changed.'}"
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
        """Restore what the call changed, re-read it, and say what was restored."""
        try:
            containers, spans, problems, log_restored = call.restore()
        except Exception as error:
            return (f"Restoring the pre-call state failed ({type(error).__name__}); the spans may be "
                    f"left as the call made them.")
        restored = f"{containers} container(s) and {spans} span(s) the call changed"
        if log_restored:
            restored += ", and the decision log,"
        if not problems:
            return f"Restored {restored} to their exact pre-call state (verified); nothing was lost."
        shown = "; ".join(problems[:MAX_FINDINGS_SHOWN])
        return (f"Restored {restored}, but could not restore: {shown}. That state is left as the call "
                f"made it.")

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
          decision_log: Any = None, copy_on_rewrite: bool = False, transactional: bool = False
          ) -> Callable[[F], F]:
    """Decorate an operator that edits spans so each call keeps the invariant of its `kind`.

    kind: "rewrite", "prune" or "summarize". on_violation: "raise" (restore, then raise), "warn",
    "log" or "repair" (rewrite only). schema: field names and digest overriding the vocabulary.
    decision_log (prune only): the log, the name of an attribute of the first argument holding it,
    or a callable returning it (given the first argument if it takes one). copy_on_rewrite (rewrite
    only): any content change at an existing id is a violation. transactional: when the operator
    raises, restore what it changed, then re-raise its exception. SPANLINT_GUARD=off|warn|raise
    overrides the mode.
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
        checker = _Guard(kind, func, on_violation, schema, decision_log, copy_on_rewrite, transactional)

        if inspect.iscoroutinefunction(func):
            @functools.wraps(func)
            async def guarded_async(*args: Any, **kwargs: Any) -> Any:
                mode = checker.mode()
                if mode == "off":
                    return await func(*args, **kwargs)
                owner, token = enter()
                named = checker.named(args, kwargs)
                held = await HOLDS.hold_async(_argument_ids(named), owner)
                try:
                    call = checker.snapshot(named, mode)
                    wait = checker.hold_found(call, held, owner)
                    if wait:
                        held += await HOLDS.hold_async(wait, owner)
                        call = checker.snapshot(named, mode)  # what it saw may have been half-done
                    try:
                        result = await func(*args, **kwargs)
                    except BaseException:
                        checker.abort(call)
                        raise
                    checker.after(call, result, mode)
                    return result
                finally:
                    HOLDS.release(held)
                    leave(token)

            return guarded_async  # type: ignore[return-value]

        @functools.wraps(func)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            mode = checker.mode()
            if mode == "off":
                return func(*args, **kwargs)
            owner, token = enter()
            named = checker.named(args, kwargs)
            held = HOLDS.hold(_argument_ids(named), owner)
            try:
                call = checker.snapshot(named, mode)
                wait = checker.hold_found(call, held, owner)
                if wait:
                    held += HOLDS.hold(wait, owner)
                    call = checker.snapshot(named, mode)  # what it saw may have been half-done
                try:
                    result = func(*args, **kwargs)
                except BaseException:
                    checker.abort(call)
                    raise
                checker.after(call, result, mode)
                return result
            finally:
                HOLDS.release(held)
                leave(token)

        return guarded  # type: ignore[return-value]

    return decorate


def _argument_ids(named: list[tuple[str | None, Any]]) -> list[int]:
    """The ids of a call's arguments that can hold spans (the guard holds them during the call)."""
    return held_ids(value for _, value in named
                    if value is not None and not isinstance(value, (str, bytes, int, float, bool, type)))


def _takes_an_argument(function: Callable[..., Any]) -> bool:
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) for p in parameters)


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
