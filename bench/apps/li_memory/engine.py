from llama_index.core import VectorStoreIndex
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms import LLM
from llama_index.core.memory import ChatMemoryBuffer, Memory
from llama_index.core.schema import TextNode

from .blocks import SourceSummaryBlock
from .postprocess import CopyRedactPostprocessor


def build_memory(session_id: str, llm: LLM, token_limit: int) -> Memory:
    return Memory.from_defaults(session_id=session_id, token_limit=token_limit,
                                memory_blocks=[SourceSummaryBlock(llm=llm, priority=1)])


def build_chat(llm: LLM) -> SimpleChatEngine:
    return SimpleChatEngine.from_defaults(llm=llm, memory=ChatMemoryBuffer.from_defaults(token_limit=3000))


def build_query(nodes: list[TextNode], llm: LLM):
    index = VectorStoreIndex(nodes)
    return index.as_chat_engine(llm=llm, node_postprocessors=[CopyRedactPostprocessor()])
