"""Citations pointing into agent observations."""

from __future__ import annotations

from dataclasses import dataclass

from smolagents.memory import ActionStep, AgentMemory

from .models import digest
from .store import StaleSpanError


@dataclass(frozen=True)
class Citation:
    step_number: int
    start: int
    end: int
    label: str = ""


@dataclass(frozen=True)
class StampedCitation:
    step_number: int
    start: int
    end: int
    observations_hash: str


def action_steps(memory: AgentMemory) -> dict[int, ActionStep]:
    return {s.step_number: s for s in memory.steps if isinstance(s, ActionStep)}


def cite(step: ActionStep, needle: str, label: str = "") -> Citation | None:
    obs = step.observations or ""
    i = obs.find(needle)
    if i < 0:
        return None
    return Citation(step_number=step.step_number, start=i, end=i + len(needle), label=label)


def render_citation(memory: AgentMemory, citation: Citation) -> str:
    step = action_steps(memory)[citation.step_number]
    quote = (step.observations or "")[citation.start : citation.end]
    return f"[step {citation.step_number}] \u201c{quote}\u201d"


def cite_stamped(step: ActionStep, needle: str) -> StampedCitation | None:
    obs = step.observations or ""
    i = obs.find(needle)
    if i < 0:
        return None
    return StampedCitation(step.step_number, i, i + len(needle), digest(obs))


def render_stamped(memory: AgentMemory, citation: StampedCitation) -> str:
    step = action_steps(memory).get(citation.step_number)
    if step is None:
        raise StaleSpanError(f"step {citation.step_number} no longer in memory")
    obs = step.observations or ""
    if digest(obs) != citation.observations_hash:
        raise StaleSpanError(f"observations of step {citation.step_number} changed since citation")
    return f"[step {citation.step_number}] \u201c{obs[citation.start : citation.end]}\u201d"


class CitationIndex:
    def __init__(self) -> None:
        self.citations: list[Citation] = []
        self.watch_terms: list[str] = []

    def on_action_step(self, memory_step: ActionStep, agent=None) -> None:
        for term in self.watch_terms:
            c = cite(memory_step, term, label=term)
            if c is not None:
                self.citations.append(c)
