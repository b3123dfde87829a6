from __future__ import annotations

import re
from collections.abc import Iterable

from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    HumanMessage,
    RemoveMessage,
    ToolMessage,
    message_to_dict,
)
from langchain_core.runnables import RunnableConfig
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.runtime import Runtime

from .decision_log import DecisionLog
from .settings import HelpdeskSettings
from .state import HelpdeskContext, HelpdeskState

_DEFAULT = HelpdeskSettings()


def scrub(text: str, patterns: Iterable[str] = _DEFAULT.redact_patterns) -> str:
    for p in patterns:
        text = re.sub(p, "[redacted]", text)
    return text


def _redactable(msg: AnyMessage) -> bool:
    return isinstance(msg, (HumanMessage, ToolMessage)) and isinstance(msg.content, str)


def redact_pii(state: HelpdeskState) -> dict:
    """Scrub card numbers / emails / phones before the turn is checkpointed."""
    updates = []
    for msg in state["messages"]:
        if not _redactable(msg):
            continue
        clean = scrub(msg.content)
        if clean != msg.content:
            updates.append(msg.model_copy(update={"content": clean}))
    return {"messages": updates} if updates else {}


def redact_and_archive(
    state: HelpdeskState, config: RunnableConfig, runtime: Runtime[HelpdeskContext]
) -> dict:
    """Strict-tenant variant: originals go to a tombstone namespace, redacted copies get new ids."""
    thread_id = config["configurable"]["thread_id"]
    store = runtime.store
    log = DecisionLog(store)
    rebuilt: list[AnyMessage] = []
    replaced: dict[str, str] = {}
    for msg in state["messages"]:
        if _redactable(msg) and (clean := scrub(msg.content)) != msg.content:
            new_id = f"{msg.id}~r{len(replaced) + 1}"
            replaced[msg.id] = new_id
            rebuilt.append(
                msg.model_copy(
                    update={
                        "id": new_id,
                        "content": clean,
                        "additional_kwargs": {**msg.additional_kwargs, "redacted_from": msg.id},
                    }
                )
            )
        else:
            rebuilt.append(msg)
    if not replaced:
        return {}
    log.record(
        "redact",
        reason="pii pattern match",
        subject_ids=list(replaced),
        thread_id=thread_id,
        evidence={"replaced_by": replaced},
    )
    for old in state["messages"]:
        if old.id in replaced:
            store.put(
                ("tombstones", thread_id),
                old.id,
                {
                    "message": message_to_dict(old),
                    "replaced_by": replaced[old.id],
                    "reason": "redact",
                },
                index=False,
            )
    return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *rebuilt]}


def last_ai_text(state: HelpdeskState) -> str:
    for msg in reversed(state["messages"]):
        if isinstance(msg, AIMessage) and not msg.tool_calls:
            return msg.text
    return ""
