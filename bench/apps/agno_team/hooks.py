"""Agno run hooks and tool hooks for the team."""
from __future__ import annotations

import time
from typing import Any, Callable, Dict

from agno.run.agent import RunInput, RunOutput
from agno.run.base import RunContext
from agno.utils.log import log_debug

from agno_team.operators import redact_text


def scrub_run_output(run_output: RunOutput, run_context: RunContext) -> None:
    for message in run_output.messages or []:
        if isinstance(message.content, str):
            message.content = redact_text(message.content)
    if isinstance(run_output.content, str):
        run_output.content = redact_text(run_output.content)


def note_input_size(run_input: RunInput, run_context: RunContext) -> None:
    size = len(run_input.input_content_string())
    if run_context.session_state is not None:
        run_context.session_state["last_input_chars"] = size


def audit_tool_call(function_name: str, function_call: Callable, arguments: Dict[str, Any]) -> Any:
    started = time.perf_counter()
    result = function_call(**arguments)
    log_debug(f"tool {function_name} took {time.perf_counter() - started:.3f}s")
    return result
