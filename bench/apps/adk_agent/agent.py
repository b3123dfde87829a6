"""ADK wiring: the LlmAgent, the App and its compaction config."""

from __future__ import annotations

from google.adk.agents import LlmAgent
from google.adk.apps.app import App
from google.adk.apps.app import EventsCompactionConfig

from .buffer import ContextBuffer
from .callbacks import redact_history_before_model
from .callbacks import scrub_response_after_model
from .settings import APP_NAME
from .settings import Settings
from .summarize import SourceEventsSummarizer
from .summarize import TextGenerator
from .tools import build_tools


def build_agent(settings: Settings, buffer: ContextBuffer, preset: str = "brief") -> LlmAgent:
    return LlmAgent(
        name="briefdesk_agent",
        model=settings.model,
        description="Answers research questions and writes cited briefings.",
        instruction=settings.active_instruction(preset)
        + "\n\nRunning summary: {rolling_summary?}",
        tools=build_tools(buffer),
        before_model_callback=redact_history_before_model,
        after_model_callback=scrub_response_after_model,
        output_key="last_answer",
    )


def build_app(settings: Settings, buffer: ContextBuffer, generate: TextGenerator) -> App:
    return App(
        name=APP_NAME,
        root_agent=build_agent(settings, buffer),
        events_compaction_config=EventsCompactionConfig(
            summarizer=SourceEventsSummarizer(generate),
            compaction_interval=settings.compaction_interval,
            overlap_size=settings.compaction_overlap,
        ),
    )
