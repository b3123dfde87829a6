# rules: SPL401
"""Context-window trimming in graph-state style agents: free functions, async, state dicts."""
from typing import Any

MAX_MESSAGES = 40


def count_tokens(messages: list[Any]) -> int:
    return sum(len(str(m)) // 4 for m in messages)


def trim_state(state: dict[str, Any], max_tokens: int) -> dict[str, Any]:
    while count_tokens(state["messages"]) > max_tokens:
        state["messages"].pop(0)  # expect: SPL401
    return state


def trim_state_logged(state: dict[str, Any], max_tokens: int, audit_log: list) -> dict[str, Any]:
    while count_tokens(state["messages"]) > max_tokens:
        audit_log.append({"dropped": state["messages"][0], "reason": "token budget"})
        state["messages"].pop(0)
    return state


async def drop_tool_outputs(ctx) -> None:
    ctx.messages[:] = [m for m in ctx.messages if m.role != "tool"]  # expect: SPL401


async def drop_tool_outputs_logged(ctx) -> None:
    await ctx.decision_log.record("drop tool outputs", ids=[m.id for m in ctx.messages if m.role == "tool"])
    ctx.messages[:] = [m for m in ctx.messages if m.role != "tool"]


def cap_history(agent) -> None:
    if len(agent.messages) > MAX_MESSAGES:
        del agent.messages[: len(agent.messages) - MAX_MESSAGES]  # expect: SPL401


def trim_messages(messages: list[Any], max_tokens: int) -> list[Any]:
    # A pure function: works on its own copy and returns it; the caller decides.
    kept = list(messages)
    while kept and count_tokens(kept) > max_tokens:
        kept.pop(0)
    return kept


def last_n(messages: list[Any], n: int) -> list[Any]:
    return messages[-n:]


def forget_old_turns(session, keep_last: int) -> None:
    session.turns = session.turns[-keep_last:]  # expect: SPL401
    session.ledger.append(f"kept the last {keep_last} turns")
