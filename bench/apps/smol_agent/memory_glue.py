"""Glue between smolagents' agent memory / step callbacks and the context buffer."""

from __future__ import annotations

from typing import Callable

from smolagents.agents import MultiStepAgent
from smolagents.memory import ActionStep, MemoryStep, PlanningStep

from .decision_log import DecisionEntry, DecisionLog
from .models import StepStamp, digest


def make_observation_trimmer(limit: int) -> Callable[..., None]:
    def trim_observations(memory_step: ActionStep, agent: MultiStepAgent | None = None) -> None:
        obs = memory_step.observations
        if obs and len(obs) > limit:
            memory_step.observations = obs[:limit] + "\n[... truncated]"

    return trim_observations


class StepLedger:
    def __init__(self) -> None:
        self._stamps: dict[int, StepStamp] = {}

    def on_action_step(self, memory_step: ActionStep, agent: MultiStepAgent | None = None) -> None:
        if memory_step.step_number not in self._stamps:
            self._stamps[memory_step.step_number] = StepStamp(
                memory_step.step_number, 0, digest(memory_step.observations or "")
            )

    def stamp(self, step_number: int) -> StepStamp | None:
        return self._stamps.get(step_number)

    def rewrite_observations(self, step: ActionStep, new_text: str) -> StepStamp:
        prev = self._stamps.get(step.step_number)
        step.observations = new_text
        stamp = StepStamp(step.step_number, (prev.version + 1) if prev else 1, digest(new_text))
        self._stamps[step.step_number] = stamp
        return stamp


def _droppable(step: MemoryStep) -> bool:
    return isinstance(step, ActionStep) and not step.is_final_answer and step.error is None


def compact_memory(agent: MultiStepAgent, log: DecisionLog, keep_last: int = 4) -> int:
    steps = agent.memory.steps
    head, tail = steps[:-keep_last], steps[-keep_last:]
    dropped = [s for s in head if _droppable(s)]
    agent.memory.steps = [s for s in head if not _droppable(s)] + tail
    if dropped:
        log.record(
            DecisionEntry(
                action="compact",
                span_ids=tuple(f"action-{s.step_number}" for s in dropped),
                rationale=f"kept last {keep_last} steps",
            )
        )
    return len(dropped)


def compact_memory_logged(agent: MultiStepAgent, log: DecisionLog, keep_last: int = 4) -> int:
    steps = agent.memory.steps
    head, tail = steps[:-keep_last], steps[-keep_last:]
    dropped = [s for s in head if _droppable(s)]
    for s in dropped:
        log.record(
            DecisionEntry(
                action="compact",
                span_ids=(f"action-{s.step_number}",),
                rationale=f"older than last {keep_last} steps",
                evidence=(digest(s.observations or ""), (s.observations or "")[:200]),
            )
        )
    agent.memory.steps = [s for s in head if not _droppable(s)] + tail
    return len(dropped)


def latest_plan(agent: MultiStepAgent) -> PlanningStep | None:
    for step in reversed(agent.memory.steps):
        if isinstance(step, PlanningStep):
            return step
    return None
