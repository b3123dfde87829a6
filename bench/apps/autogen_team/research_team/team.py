"""Builds the research team and runs a session from the command line."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import List, Optional, Sequence

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.messages import BaseAgentEvent, BaseChatMessage
from autogen_agentchat.teams import BaseGroupChat, RoundRobinGroupChat, SelectorGroupChat
from autogen_core.models import ChatCompletionClient, ModelInfo

from .compaction import collect_tombstones, compact_context, retire_low_value_notes, shrink_context
from .console import StatusPanel, run_with_console
from .decision_log import DecisionLog
from .embeddings import EmbeddingCache, NoteIndex, hashing_embedder
from .memory import NoteMemory
from .model_context import CriticContext, ResearchContext
from .notes import NoteStore
from .settings import TeamSettings, from_env
from .state import load_session, save_session
from .summary import RollingSummary
from .tools import Workspace, make_tools
from .transcript import chat_only, render, scrubbed


def model_client(settings: TeamSettings) -> ChatCompletionClient:
    try:
        from autogen_ext.models.openai import OpenAIChatCompletionClient
    except ImportError:
        from autogen_ext.models.replay import ReplayChatCompletionClient

        return ReplayChatCompletionClient(
            ["I will search the notes first.", "Looks consistent with the sources.", "Draft ready. TERMINATE", "No findings saved yet."],
            model_info=ModelInfo(
                vision=False, function_calling=True, json_output=False, family="unknown", structured_output=False
            ),
        )
    return OpenAIChatCompletionClient(model=settings.model)


def pick_speaker(messages: Sequence[BaseAgentEvent | BaseChatMessage]) -> Optional[str]:
    if not messages or messages[-1].source == "user":
        return "researcher"
    if messages[-1].source == "researcher":
        return "critic"
    return None


def build_team(
    settings: TeamSettings, client: ChatCompletionClient, ws: Workspace, contexts: List[ResearchContext]
) -> BaseGroupChat:
    tools = make_tools(ws)
    researcher_ctx = ResearchContext()
    writer_ctx = ResearchContext()
    contexts.extend([researcher_ctx, writer_ctx])
    researcher = AssistantAgent(
        "researcher",
        model_client=client,
        tools=tools,
        model_context=researcher_ctx,
        memory=[ws.memory],
        system_message="Find sources, save findings as notes and cite exact passages.",
        reflect_on_tool_use=True,
    )
    critic = AssistantAgent(
        "critic",
        model_client=client,
        tools=[t for t in tools if t.name in {"check_citation", "search_notes"}],
        model_context=CriticContext(keep_last=8),
        system_message="Challenge weak claims. Every claim needs a citation that checks out.",
    )
    writer = AssistantAgent(
        "writer",
        model_client=client,
        model_context=writer_ctx,
        memory=[ws.memory],
        system_message="Write the brief from pinned findings only. Say TERMINATE when done.",
    )
    stop = TextMentionTermination("TERMINATE") | MaxMessageTermination(settings.max_messages)
    if settings.team_kind == "selector":
        return SelectorGroupChat(
            [researcher, critic, writer],
            model_client=client,
            termination_condition=stop,
            selector_func=pick_speaker,
        )
    return RoundRobinGroupChat([researcher, critic, writer], termination_condition=stop)


async def housekeeping(
    settings: TeamSettings, ws: Workspace, log: DecisionLog, contexts: List[ResearchContext]
) -> None:
    for ctx in contexts:
        await shrink_context(ctx, log, max_chars=settings.tool_output_chars)
        await compact_context(ctx, log, budget=settings.context_budget_tokens)
    retire_low_value_notes(ws.store, log)
    collect_tombstones(ws.store, ws.index, ws.cache, log, ws.cited(), min_age_s=settings.tombstone_ttl_s)


async def run(task: str, settings: TeamSettings, resume: Optional[Path] = None) -> str:
    client = model_client(settings)
    store = NoteStore()
    cache = EmbeddingCache(hashing_embedder())
    ws = Workspace(store=store, cache=cache, index=NoteIndex(store, cache), memory=NoteMemory())
    log = DecisionLog()
    contexts: List[ResearchContext] = []
    team = build_team(settings, client, ws, contexts)
    if resume is not None and resume.exists():
        await load_session(resume, team, ws, log)
    result = await run_with_console(team.run_stream(task=task), StatusPanel())
    await housekeeping(settings, ws, log, contexts)
    summary = RollingSummary(client, store)
    await summary.refresh()
    session_dir = Path(settings.session_dir)
    session_dir.mkdir(parents=True, exist_ok=True)
    await save_session(session_dir / "last.json", team, ws, log)
    return render(scrubbed(chat_only(result.messages)))


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(prog="research-team")
    parser.add_argument("task")
    parser.add_argument("--resume", type=Path)
    parser.add_argument("--selector", action="store_true")
    args = parser.parse_args(argv)
    settings = from_env()
    if args.selector:
        settings.apply({"team_kind": "selector"})
    print(asyncio.run(run(args.task, settings, args.resume)))


if __name__ == "__main__":
    main()
