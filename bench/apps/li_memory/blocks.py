from typing import Any, List, Optional

from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.llms import LLM
from llama_index.core.memory.memory import BaseMemoryBlock
from pydantic import Field


class RollingSummaryBlock(BaseMemoryBlock[str]):
    name: str = "rolling_summary"
    llm: LLM
    summary: str = ""

    async def _aget(self, messages: Optional[List[ChatMessage]] = None, **block_kwargs: Any) -> str:
        return self.summary

    async def _aput(self, messages: List[ChatMessage]) -> None:
        joined = "\n".join(m.content or "" for m in messages)
        resp = await self.llm.acomplete(f"Update summary:\n{self.summary}\n{joined}")
        self.summary = resp.text


class SourceSummaryBlock(BaseMemoryBlock[str]):
    name: str = "source_summary"
    llm: LLM
    sources: List[ChatMessage] = Field(default_factory=list)
    summary: str = ""

    async def _aget(self, messages: Optional[List[ChatMessage]] = None, **block_kwargs: Any) -> str:
        return self.summary

    async def _aput(self, messages: List[ChatMessage]) -> None:
        self.sources.extend(messages)
        joined = "\n".join(m.content or "" for m in self.sources)
        resp = await self.llm.acomplete(f"Summarize:\n{joined}")
        self.summary = resp.text
