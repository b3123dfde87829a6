"""before/after model callbacks for the briefing agent."""

from __future__ import annotations

from typing import Optional

from google.adk.agents.callback_context import CallbackContext
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.genai import types

from .models import event_text
from .operators import scrub_text


def redact_history_before_model(
    callback_context: CallbackContext, llm_request: LlmRequest
) -> Optional[LlmResponse]:
    events = callback_context.session.events
    for i, event in enumerate(events):
        text = event_text(event)
        if not text:
            continue
        cleaned = scrub_text(text)
        if cleaned == text:
            continue
        events[i] = event.model_copy(
            update={
                "content": types.Content(
                    role=event.content.role,
                    parts=[types.Part.from_text(text=cleaned)],
                )
            }
        )
    callback_context.state["temp:redaction_pass"] = True
    return None


def scrub_response_after_model(
    callback_context: CallbackContext, llm_response: LlmResponse
) -> Optional[LlmResponse]:
    if llm_response.content is None or not llm_response.content.parts:
        return None
    texts = [p.text for p in llm_response.content.parts if p.text]
    if not texts:
        return None
    cleaned = [scrub_text(t) for t in texts]
    if cleaned == texts:
        return None
    return LlmResponse(
        content=types.Content(
            role="model", parts=[types.Part.from_text(text=t) for t in cleaned]
        ),
        usage_metadata=llm_response.usage_metadata,
        finish_reason=llm_response.finish_reason,
    )
