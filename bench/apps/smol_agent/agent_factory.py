"""Builds the smolagents CodeAgent with the app's tools and step callbacks."""

from __future__ import annotations

from smolagents import CodeAgent, InferenceClientModel
from smolagents.memory import ActionStep, PlanningStep
from smolagents.models import Model

from .citations import CitationIndex
from .memory_glue import StepLedger, make_observation_trimmer
from .settings import Settings
from .summarization import RollingSummarizer


def build_model(settings: Settings) -> Model:
    return InferenceClientModel(model_id=settings.model_id, provider=settings.provider)


def log_plan(memory_step: PlanningStep) -> None:
    print(f"[plan] {memory_step.plan.splitlines()[0] if memory_step.plan else ''}")


def build_agent(
    settings: Settings,
    model: Model,
    tools: list,
    ledger: StepLedger,
    citations: CitationIndex,
    summarizer: RollingSummarizer,
) -> CodeAgent:
    callbacks = {
        ActionStep: [
            ledger.on_action_step,
            citations.on_action_step,
            make_observation_trimmer(settings.observation_char_limit),
            summarizer.on_action_step,
        ],
        PlanningStep: [log_plan],
    }
    return CodeAgent(
        tools=tools,
        model=model,
        max_steps=settings.max_steps,
        planning_interval=settings.planning_interval,
        step_callbacks=callbacks,
        name="smol_researcher",
        description="Researches a question while managing its own context buffer.",
    )
