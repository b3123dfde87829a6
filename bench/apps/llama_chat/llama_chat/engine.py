"""Chat session: retrieval-augmented answers with numbered citations."""

import asyncio
from typing import Dict, List, Optional, Tuple

from llama_index.core.chat_engine import ContextChatEngine
from llama_index.core.chat_engine.types import AgentChatResponse
from llama_index.core.llms import LLM, ChatMessage, MessageRole
from llama_index.core.prompts import PromptTemplate
from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import BaseNode, NodeWithScore

from .citations import cite_all, render_citation
from .compaction import apply_trim, collect, plan_trim, shrink_memory
from .config import AssistantSettings
from .decision_log import DecisionLog
from .memory_blocks import build_memory
from .records import Citation, SourceRef
from .sources import strip_boilerplate
from .summarizer import ConversationSummarizer
from .transcript import Transcript

FOLLOWUP_PROMPT = PromptTemplate("Suggest three short follow-up questions for this answer:\n{answer}")


class ChatSession:
    def __init__(
        self, settings: AssistantSettings, llm: LLM, retriever: BaseRetriever, session_id: str
    ) -> None:
        self.settings = settings
        self._llm = llm
        self.transcript = Transcript(session_id)
        self.log = DecisionLog()
        self.memory = build_memory(settings, session_id, llm)
        self.summarizer = ConversationSummarizer(llm)
        self.engine = ContextChatEngine.from_defaults(
            retriever=retriever, memory=self.memory, system_prompt=settings.system_prompt, llm=llm
        )
        self.nodes: Dict[str, BaseNode] = {}
        self.citations: Dict[str, List[Citation]] = {}
        self._followups: Dict[str, List[str]] = {}
        self._lock = asyncio.Lock()

    async def ask(self, question: str) -> Tuple[str, List[Citation]]:
        async with self._lock:
            user = self.transcript.append(ChatMessage(role=MessageRole.USER, content=question))
            response: AgentChatResponse = await self.engine.achat(question)
            sources = strip_boilerplate(response.source_nodes)
            for nws in sources:
                self.nodes[nws.node_id] = nws.node
            cites = cite_all(sources)
            answer = ChatMessage(role=MessageRole.ASSISTANT, content=response.response)
            answer.additional_kwargs["sources"] = [self._ref(n) for n in sources]
            turn = self.transcript.append(answer, produced_by="assistant")
            self.citations[turn.span_id] = cites
            await self._tag_memory(user.span_id, turn.span_id)
            await self._housekeeping()
            return response.response, cites

    @staticmethod
    def _ref(nws: NodeWithScore) -> SourceRef:
        end = min(len(nws.get_content()), 200)
        return SourceRef(node_id=nws.node_id, score=nws.get_score(), start=0, end=end)

    async def _tag_memory(self, *turn_ids: str) -> None:
        # The engine wrote this exchange to memory itself; link it to our turn ids.
        history = await self.memory.aget_all()
        for msg, turn_id in zip(history[-len(turn_ids):], turn_ids):
            msg.additional_kwargs.setdefault("turn_id", turn_id)
        await self.memory.aset(history)

    async def _housekeeping(self) -> None:
        plan = plan_trim(self.transcript, int(self.settings.token_limit * 0.8))
        if plan.drop:
            doomed = [s for s in self.transcript if s.span_id in plan.drop]
            await self.summarizer.fold_in(doomed)
            apply_trim(self.transcript, self.log, plan)
        await shrink_memory(self.memory, self.log, self.settings.memory_keep_last)
        collect(self.transcript, self.log, [lambda sid: sid in self.citations])

    def render_sources(self, turn_id: str) -> List[str]:
        return [render_citation(c, self.nodes) for c in self.citations.get(turn_id, [])]

    def sentence_at(self, mark: Tuple[str, int, str], index: int) -> Optional[str]:
        span_id, version, content_hash = mark
        span = self.transcript.get(span_id)
        if span is None or (span.version, span.content_hash) != (version, content_hash):
            return None
        if index >= len(span.sentence_offsets):
            return None
        start, end = span.sentence_offsets[index]
        return span.text[start:end]

    async def suggest_followups(self, turn_id: str) -> List[str]:
        if turn_id in self._followups:
            return self._followups[turn_id]
        span = self.transcript.get(turn_id)
        if span is None:
            return []
        raw = await self._llm.apredict(FOLLOWUP_PROMPT, answer=span.text)
        items = [line.strip("-*0123456789. ").strip() for line in raw.splitlines() if line.strip()]
        self._followups[turn_id] = items[:3]
        return self._followups[turn_id]
