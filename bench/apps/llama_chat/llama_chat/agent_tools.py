"""Agent mode: a FunctionAgent that can act on its own conversation."""

from typing import TYPE_CHECKING, List, Optional

from llama_index.core.agent.workflow import AgentOutput, FunctionAgent
from llama_index.core.llms import LLM, ChatMessage, MessageRole, TextBlock
from llama_index.core.tools import FunctionTool
from llama_index.core.workflow import Context

if TYPE_CHECKING:
    from .engine import ChatSession


def make_tools(session: "ChatSession") -> List[FunctionTool]:
    async def forget_turn(turn_id: str) -> str:
        """Remove a turn the user asked the assistant to forget."""
        span = session.transcript.drop(turn_id)
        if span is None:
            return f"no turn {turn_id}"
        history = await session.memory.aget_all()
        await session.memory.aset([m for m in history if m.additional_kwargs.get("turn_id") != turn_id])
        return f"forgot {turn_id}"

    async def correct_turn(turn_id: str, corrected: str) -> str:
        """Replace an earlier user message with the user's correction."""
        history = await session.memory.aget_all()
        for msg in history:
            if msg.additional_kwargs.get("turn_id") == turn_id:
                msg.content = corrected
                break
        else:
            return f"no turn {turn_id}"
        await session.memory.aset(history)
        return "updated"

    async def retract_answer(turn_id: str, reason: str) -> str:
        """Withdraw an earlier answer that turned out to be wrong."""
        if session.transcript.get(turn_id) is None:
            return f"no turn {turn_id}"
        session.log.record("retract", [turn_id], reason)
        new = session.transcript.rewrite_as_new(turn_id, f"[retracted: {reason}]", op="retract")
        return new.span_id

    return [
        FunctionTool.from_defaults(async_fn=forget_turn),
        FunctionTool.from_defaults(async_fn=correct_turn),
        FunctionTool.from_defaults(async_fn=retract_answer),
    ]


def build_agent(session: "ChatSession", llm: LLM) -> FunctionAgent:
    tools = make_tools(session)
    return FunctionAgent(name="support", system_prompt=session.settings.system_prompt, tools=tools, llm=llm)


async def run_turn(
    agent: FunctionAgent, session: "ChatSession", text: str,
    attachment_note: Optional[str] = None, ctx: Optional[Context] = None,
) -> str:
    msg = ChatMessage(role=MessageRole.USER, blocks=[TextBlock(text=text)])
    if attachment_note:
        msg.content = f"{text}\n\n(Attached: {attachment_note})"
    handler = agent.run(user_msg=msg, memory=session.memory, ctx=ctx)
    result: AgentOutput = await handler
    return result.response.content or ""
