"""Digests of a user's history, kept in the store next to the memories."""

import uuid
from datetime import datetime, timezone
from typing import Any, Awaitable, Callable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore, SearchItem

from graph_memory.records import AgentState, GraphContext
from graph_memory.settings import scoped_ns
from graph_memory.textutil import as_text, digest

ROLLING_KEY = "rolling"
_DIGEST_PROMPT = "Summarize the user's situation, open issues and stated preferences in under 200 words."
_MERGE_PROMPT = "Merge these summaries into one weekly overview."

Node = Callable[[AgentState, Runtime[GraphContext]], Awaitable[dict[str, Any]]]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


async def _complete(model: BaseChatModel, instruction: str, body: str) -> str:
    reply = await model.ainvoke([SystemMessage(content=instruction), HumanMessage(content=body)])
    return as_text(reply.content).strip()


def make_digest_node(model: BaseChatModel, max_chars: int = 2400) -> Node:
    async def refresh_digest(state: AgentState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
        ns = scoped_ns("digests", runtime.context.user_id)
        sources = [m for m in state["messages"] if m.type in ("human", "ai") and as_text(m.content).strip()][-30:]
        if not sources:
            return {}
        text = await _complete(model, _DIGEST_PROMPT, "\n".join(f"{m.type}: {as_text(m.content)}" for m in sources))
        prior = await runtime.store.aget(ns, ROLLING_KEY)
        version = (int(prior.value.get("version", 0)) if prior else 0) + 1
        await runtime.store.aput(ns, ROLLING_KEY, {
            "text": text, "kind": "summary", "version": version, "content_hash": digest(text),
            "source_ids": [m.id for m in sources if m.id], "at": _now(),
        })
        if len(text) > max_chars:
            await condense_digest(runtime.store, ns, model, max_chars)
        return {"digest_key": ROLLING_KEY}

    return refresh_digest


async def condense_digest(store: BaseStore, ns: tuple[str, ...], model: BaseChatModel, max_chars: int) -> None:
    current = await store.aget(ns, ROLLING_KEY)
    if current is None:
        return
    value = dict(current.value)
    shorter = await _complete(model, f"Shorten this summary to under {max_chars} characters.", value["text"])
    value.update(text=shorter, content_hash=digest(shorter), at=_now())
    await store.aput(ns, ROLLING_KEY, value)


async def _merge_dailies(store: BaseStore, user_id: str, model: BaseChatModel) -> tuple[list[SearchItem], str]:
    dailies = await store.asearch(scoped_ns("digests", user_id), filter={"kind": "summary"}, limit=7)
    if not dailies:
        return [], ""
    return dailies, await _complete(model, _MERGE_PROMPT, "\n\n".join(d.value["text"] for d in dailies))


async def weekly_rollup(store: BaseStore, user_id: str, model: BaseChatModel) -> str:
    dailies, text = await _merge_dailies(store, user_id, model)
    if not dailies:
        return ""
    key = f"week-{datetime.now(timezone.utc):%G-%V}"
    await store.aput(scoped_ns("digests", user_id), key, {"text": text, "kind": "weekly", "content_hash": digest(text)})
    return key


async def weekly_rollup_traced(store: BaseStore, user_id: str, model: BaseChatModel) -> str:
    dailies, text = await _merge_dailies(store, user_id, model)
    if not dailies:
        return ""
    key = f"week-{datetime.now(timezone.utc):%G-%V}-{uuid.uuid4().hex[:6]}"
    roots = sorted({sid for d in dailies for sid in d.value.get("source_ids", [])})
    await store.aput(scoped_ns("digests", user_id), key, {
        "text": text, "kind": "weekly", "content_hash": digest(text),
        "derived_from": [d.key for d in dailies], "source_ids": roots,
    })
    return key
