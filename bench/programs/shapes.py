"""How a value reaches the statement under test (acquisition, alias chain) and the control flow
around that statement.

An *action* is the statement a hazard is about (a write, a prune, a cache write, a slice...) in a
bad form (the hazard) and a good form (its fix); `control_flow` puts it on paths so that a
positive program has exactly one path through a bad form and a negative program none.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

from bench.programs.code import Code, block, indent, line, retag


@dataclass
class Action:
    """The statement under test. `core` is the statement (its reported line tagged HIT); `pre` and
    `post` are a fix separable from it (a rationale recorded before, a version bumped after);
    `good` is the whole fixed form, `bad` the hazardous one."""

    core: Callable[[], Code]
    pre: Callable[[], Code] | None = None
    post: Callable[[], Code] | None = None
    inline_good: Callable[[], Code] | None = None
    after: Callable[[], Code] = lambda: []  # done by every form anyway (an embedded chunk's version bump)
    tail: Callable[[], Code] | None = None  # done by the bad form only, after the core (a rationale recorded too late)

    def bad(self) -> Code:
        return self.hazardous_core() + self.after()

    def hazardous_core(self) -> Code:
        return self.core() + (self.tail() if self.tail else [])

    def good(self) -> Code:
        if self.inline_good is not None:
            return self.inline_good() + self.after()
        return (self.pre() if self.pre else []) + self.core() + self.after() + (self.post() if self.post else [])

    @property
    def fixable(self) -> bool:
        """Whether the good form differs from the bad one (a write to a type without version or
        hash has no fix in place)."""
        return self.inline_good is not None or self.pre is not None or self.post is not None

    @property
    def separable(self) -> bool:
        return self.inline_good is None and (self.pre is not None or self.post is not None)


CONTROL_FLOW = ("straight", "if_write", "if_one", "fix_one", "loop_break", "loop_continue", "try_except",
                "try_finally", "with", "match", "early_return", "flag")


def applicable_control_flow(action: Action) -> list[str]:
    shapes = ["straight", "if_write", "loop_break", "loop_continue", "try_except", "with", "match"]
    if action.fixable:  # shapes whose hazard has a fixed form on its other paths
        shapes += ["if_one", "early_return"]
    if action.separable:
        shapes.append("fix_one")
    if action.separable and action.post is not None:
        shapes += ["try_finally", "flag"]
    return shapes


def control_flow(shape: str, action: Action, hazard: bool, exit_kw: str, rng: random.Random) -> Code:
    """`action` on the paths of `shape`: with `hazard`, one path goes through the bad form (its
    HIT lines are the finding); without, every path is fixed."""
    bad = action.bad if hazard else action.good
    good = lambda: retag(action.good(), None)  # noqa: E731 - a fixed form is never a finding
    if shape == "straight":
        return bad()
    if shape == "if_write":
        return block("if self.strict:", bad())
    if shape == "if_one":
        other = bad() if hazard else line('logger.debug("lenient edit")') + good()
        return block("if self.strict:", good()) + block("else:", other)
    if shape == "fix_one":
        if action.pre is not None:
            fix = block("if self.strict:", action.pre())
            if not hazard:
                fix += block("else:", line('logger.debug("lenient edit")') + action.pre())
            return fix + (action.hazardous_core() if hazard else retag(action.core(), None)) + action.after()
        fix = block("if self.strict:", action.post())
        if not hazard:
            fix += block("else:", line('logger.debug("lenient edit")') + action.post())
        return (action.hazardous_core() if hazard else retag(action.core(), None)) + action.after() + fix
    if shape == "loop_break":
        return block("for attempt in range(self.retries):", block("if self.ready(attempt):", bad() + line("break")))
    if shape == "loop_continue":
        return block("for pattern in self.patterns:", block("if not self.applies(pattern):", line("continue")) + bad() + line("break"))
    if shape == "try_except":
        return block("try:", bad()) + block("except ValueError:", line('logger.warning("edit failed")'))
    if shape == "try_finally":
        tail = line("self.edits += 1") if hazard else action.post()
        return block("try:", (action.hazardous_core() if hazard else retag(action.core(), None)) + action.after()) + block("finally:", tail)
    if shape == "with":
        return block("with self._lock:", bad())
    if shape == "match":
        return block("match self.mode:", block('case "strict":', bad()) + block("case _:", line('logger.debug("edit skipped")')))
    if shape == "early_return":
        if action.separable and action.post is not None and rng.random() < 0.5:
            core = (action.hazardous_core() if hazard else retag(action.core(), None)) + action.after()
            leave = block("if self.dry_run:", line(exit_kw))
            return core + leave + action.post() if hazard else core + action.post() + leave
        return block("if self.dry_run:", bad() + line(exit_kw)) + good()
    if shape == "flag":
        loop = block("for pattern in self.patterns:", block("if self.applies(pattern):",
                     (action.hazardous_core() if hazard else retag(action.core(), None)) + action.after() + line("changed = True") + line("break")))
        guard = "if changed and self.track_versions:" if hazard else "if changed:"
        return line("changed = False") + loop + block(guard, action.post())
    raise ValueError(shape)


ALIAS_KINDS = ("plain", "tuple", "walrus", "comprehension")


def alias_chain(start: str, names: list[str], kinds: list[str], ident: Callable[[str], str]) -> tuple[Code, int, str]:
    """Rebind `start` through one alias per kind; the code (each walrus opens an `if`), how many
    levels it indents what follows, and the last name."""
    code: Code = []
    depth = 0
    current = start
    for kind, name in zip(kinds, names):
        if kind == "plain":
            step = line(f"{name} = {current}")
        elif kind == "tuple":
            step = line(f"{name}, {name}_key = {current}, {ident(current)}")
        elif kind == "walrus":
            step = line(f"if ({name} := {current}) is not None:")
        else:
            step = line(f"{name} = next(o for o in [{current}] if o is not None)")
        code += indent(step, depth)
        depth += kind == "walrus"
        current = name
    return code, depth, current


@dataclass
class Acquired:
    """How the subject reached the function: parameters, the code that reads it, the indentation
    that code opens, and, when it was read out of a container, that container and the key."""

    params: list[str]
    code: Code
    depth: int
    var: str
    store: str | None = None
    key: str | None = None
    in_loop: bool = False
    holder: bool = False  # the program needs the holder class
    self_store: str | None = None  # the attribute of `self` holding the spans (and its annotation)
    notes: list[str] = field(default_factory=list)
