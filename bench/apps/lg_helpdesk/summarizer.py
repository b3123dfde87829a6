from __future__ import annotations

import uuid
from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage, HumanMessage, SystemMessage, messages_from_dict
from langgraph.store.base import BaseStore

from .memory_store import profile_ns
from .records import digest, utcnow
from .state import HelpdeskState

EXTEND_PROMPT = (
    "This is a summary of the support conversation so far:\n{summary}\n\n"
    "Extend the summary with the new messages above. Keep order numbers, product names, "
    "promised follow-ups and anything the customer was told."
)
CREATE_PROMPT = (
    "Summarize the support conversation above. Keep order numbers, product names, "
    "promised follow-ups and anything the customer was told."
)
CONDENSE_PROMPT = (
    "Condense this customer profile to at most {limit} characters without losing "
    "preferences, entitlements or open issues:\n\n{profile}"
)
ROLLUP_PROMPT = "Combine these daily support digests into one weekly digest:\n\n{digests}"


def _after(messages: Sequence[AnyMessage], message_id: str | None) -> list[AnyMessage]:
    if not message_id:
        return list(messages)
    for i, m in enumerate(messages):
        if m.id == message_id:
            return list(messages[i + 1 :])
    return list(messages)


def summarize_conversation(state: HelpdeskState, *, model: BaseChatModel) -> dict:
    summary = state.get("summary", "")
    pending = _after(state["messages"], state.get("summarized_through"))
    if not pending:
        return {}
    prompt = EXTEND_PROMPT.format(summary=summary) if summary else CREATE_PROMPT
    response = model.invoke([*pending, HumanMessage(content=prompt)])
    return {"summary": response.text, "summarized_through": pending[-1].id}


def rebuild_summary(
    thread_id: str, live: Sequence[AnyMessage], *, store: BaseStore, model: BaseChatModel
) -> dict:
    """Recompute the thread summary from the archived transcript plus live messages."""
    archived = sorted(store.search(("transcripts", thread_id), limit=1000), key=lambda it: it.key)
    sources = [*messages_from_dict([it.value["message"] for it in archived]), *live]
    if not sources:
        return {}
    response = model.invoke(
        [SystemMessage(content=CREATE_PROMPT), *sources, HumanMessage(content="Summary:")]
    )
    store.put(
        ("summaries", thread_id),
        "current",
        {
            "text": response.text,
            "source_ids": [m.id for m in sources],
            "built_at": utcnow(),
        },
        index=False,
    )
    return {"summary": response.text, "summarized_through": sources[-1].id}


async def acondense_profile(
    store: BaseStore, customer_id: str, *, model: BaseChatModel, limit: int = 2400
) -> str | None:
    ns = profile_ns(customer_id)
    item = await store.aget(ns, "summary")
    if item is None or len(item.value.get("text", "")) <= limit:
        return None
    profile = dict(item.value)
    msg = await model.ainvoke(CONDENSE_PROMPT.format(limit=limit, profile=profile["text"]))
    profile["text"] = msg.text
    profile["updated_at"] = utcnow()
    await store.aput(ns, "summary", profile)
    return profile["text"]


def rollup_digest(
    store: BaseStore, customer_id: str, week: str, *, model: BaseChatModel
) -> dict | None:
    """Weekly digest built from that week's daily digests; the chain stays addressable."""
    ns = (*profile_ns(customer_id), "digests")
    dailies = [it for it in store.search(ns, filter={"week": week, "level": "daily"}, limit=7)]
    if not dailies:
        return None
    dailies.sort(key=lambda it: it.key)
    joined = "\n\n".join(f"[{it.key}] {it.value['text']}" for it in dailies)
    msg = model.invoke(ROLLUP_PROMPT.format(digests=joined))
    roots: list[str] = []
    for it in dailies:
        roots.extend(it.value.get("source_ids", []))
    value = {
        "text": msg.text,
        "level": "weekly",
        "week": week,
        "parent_ids": [it.key for it in dailies],
        "parent_hashes": [digest(it.value["text"]) for it in dailies],
        "source_ids": roots,
        "content_hash": digest(msg.text),
        "built_at": utcnow(),
    }
    store.put(ns, f"weekly-{week}-{uuid.uuid4().hex[:6]}", value)
    return value
