"""One user's assistant: memory recall, prompt assembly, tools, bookkeeping."""

from __future__ import annotations

import logging
import re

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import BaseTool
from mem0 import AsyncMemory

from .buffer import ContextBuffer
from .citations import CitationIndex
from .config import AssistantSettings
from .decision_log import DecisionLog
from .embeddings_cache import MemoryRanker, SpanEmbedder
from .history import ConversationWindow
from .memory_store import MemoryHit, MemoryStore
from .prompting import TokenBudget, build_prompt
from .records import ContextSpan
from .redaction import redact_for_upload
from .summarizer import Summarizer
from .tools import run_tool_calls
from .ui import ChatPanel

logger = logging.getLogger(__name__)
_REASONING = re.compile(r"<think>.*?</think>\s*", re.DOTALL)


class Assistant:
    def __init__(self, settings: AssistantSettings, llm: BaseChatModel, embeddings: Embeddings,
                 tools: list[BaseTool], session_id: str) -> None:
        self.settings = settings
        self.log = DecisionLog()
        self.buffer = ContextBuffer(self.log)
        self.memory = MemoryStore(AsyncMemory.from_config(settings.mem0_config()), settings.user_id, self.log)
        self.window = ConversationWindow(session_id, self.log, settings.max_history_tokens)
        self.summarizer = Summarizer(llm)
        self.citations = CitationIndex(self.buffer)
        self.embedder, self.ranker = SpanEmbedder(embeddings), MemoryRanker(embeddings)
        self.budget = TokenBudget(settings.context_token_limit)
        self.panel = ChatPanel()
        self.tools = {t.name: t for t in tools}
        self.llm = llm.bind_tools(tools) if tools else llm

    def _sync_memory_span(self, hit: MemoryHit) -> ContextSpan:
        sid = f"mem:{hit['id']}"
        span = self.buffer.get(sid)
        if span is None:
            span = self.buffer.add(ContextSpan(sid, hit["memory"], source="memory", memory_id=hit["id"]))
        elif span.content != hit["memory"]:
            span = self.buffer.revise(sid, hit["memory"], "mem0-update")
        if span.embedding is None:
            span.embedding = self.embedder.embed(span)
        return span

    async def _context_for(self, text: str) -> list[ContextSpan]:
        hits = await self.memory.recall(text)
        spans = [self._sync_memory_span(h) for h in await self.ranker.rank(text, hits)]
        if (summary := self.summarizer.current) is not None:
            spans.insert(0, ContextSpan(summary.summary_id, summary.text, source="summary"))
        if self.settings.redact_before_upload:
            for span in spans:
                redact_for_upload(span)
        return self.budget.select(spans)

    async def handle_turn(self, text: str) -> AIMessage:
        human = self.window.append(HumanMessage(text))
        bubble = self.panel.open("assistant")
        spans = await self._context_for(text)
        reply = await self.llm.ainvoke(build_prompt(self.settings.persona, spans, self.window.history.messages))
        if isinstance(reply, AIMessage) and reply.tool_calls:
            self.window.append(reply)
            for tm in await run_tool_calls(reply, self.tools):
                self.window.append(tm)
            reply = await self.llm.ainvoke(build_prompt(self.settings.persona, spans, self.window.history.messages))
        self.window.append(reply)
        if self.settings.hide_reasoning and "<think>" in reply.text:
            reply.content = _REASONING.sub("", reply.text)
        answer_id = reply.id or bubble.id
        for span in spans:
            if span.source == "memory" and span.content[:40] in reply.text:
                self.citations.cite(answer_id, span, span.content[:40])
        self.panel.finish(bubble.id, reply.text, self.citations.footnotes(answer_id))
        try:
            await self.memory.remember([human, reply])
        except Exception:
            logger.exception("mem0 add failed; turn not remembered")
        await self._housekeeping()
        return reply

    async def _housekeeping(self) -> None:
        if self.window.tokens() > self.settings.max_history_tokens:
            self.window.shorten_tool_results()
            dropped = self.window.compact()
            if dropped:
                await self.summarizer.roll_up(dropped)
        self.buffer.collect_garbage()
        self.buffer.gc_tombstones(max_age_s=24 * 3600)
