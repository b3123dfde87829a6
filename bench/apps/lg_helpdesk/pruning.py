from __future__ import annotations

import json
from collections.abc import Sequence

from langchain_core.messages import AIMessage, AnyMessage, RemoveMessage, ToolMessage, message_to_dict
from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from .decision_log import DecisionLog
from .settings import HelpdeskSettings
from .state import HelpdeskContext, HelpdeskState
from .tokens import make_token_counter

_count = make_token_counter()
TOOL_RESULT_LIMIT = 1200


def _cut_point(messages: Sequence[AnyMessage], keep_last: int) -> int:
    """Index before which messages may go, never splitting an AI tool call from its results."""
    cut = max(0, len(messages) - keep_last)
    while cut > 0 and isinstance(messages[cut], ToolMessage):
        cut -= 1
    return cut


def trim_history(
    state: HelpdeskState,
    config: RunnableConfig,
    runtime: Runtime[HelpdeskContext],
    *,
    settings: HelpdeskSettings,
) -> dict:
    messages = state["messages"]
    if _count(messages) <= settings.max_history_tokens:
        return {}
    cut = _cut_point(messages, settings.keep_last_messages)
    doomed = [m for m in messages[:cut] if m.id and m.id != state.get("summarized_through")]
    if not doomed:
        return {}
    thread_id = config["configurable"]["thread_id"]
    store = runtime.store
    DecisionLog(store).record(
        "trim_history",
        reason=f"history over {settings.max_history_tokens} tokens; kept last {len(messages) - cut}",
        subject_ids=[m.id for m in doomed],
        thread_id=thread_id,
        evidence={"summary_through": state.get("summarized_through")},
    )
    for m in doomed:
        store.put(("transcripts", thread_id), m.id, {"message": message_to_dict(m)}, index=False)
    return {"messages": [RemoveMessage(id=m.id) for m in doomed]}


def _shrink_tool_payload(content: str, limit: int) -> str:
    try:
        data = json.loads(content)
    except ValueError:
        return content[:limit] + " …[truncated]"
    if isinstance(data, list):
        data = {"items": data[:5], "total": len(data)}
    if isinstance(data, dict):
        data = {k: v for k, v in data.items() if not isinstance(v, (dict, list)) or k == "items"}
    return json.dumps(data, separators=(",", ":"))[:limit]


async def acompress_tool_results(state: HelpdeskState) -> dict:
    """Older tool outputs are kept, but only in compact form, to leave room for the model."""
    messages = state["messages"]
    last_ai = max((i for i, m in enumerate(messages) if isinstance(m, AIMessage)), default=-1)
    touched = []
    for m in messages[:last_ai]:
        if isinstance(m, ToolMessage) and isinstance(m.content, str):
            if len(m.content) > TOOL_RESULT_LIMIT:
                m.content = _shrink_tool_payload(m.content, TOOL_RESULT_LIMIT)
                touched.append(m)
    return {"messages": touched} if touched else {}
