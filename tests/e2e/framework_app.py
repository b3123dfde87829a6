"""A small application whose spans are LlamaIndex nodes and LangChain messages, with each hazard of
issue 15 marked `# expect: SPLxxx` and its safe twin unmarked (no finding allowed there)."""

from __future__ import annotations

import re
from pathlib import Path

_EXPECT = re.compile(r"#\s*expect:\s*(SPL\d{3})")

FILES = {
    "app/__init__.py": "",
    "app/models.py": '''\
from llama_index.core.schema import TextNode


class SupportNode(TextNode):
    ticket: str = ""
''',
    "app/retrieval.py": '''\
from llama_index.core.schema import Document, NodeWithScore, TextNode

from app.models import SupportNode


def shorten(node: TextNode, limit: int) -> None:
    node.text = node.text[:limit]  # expect: SPL104


def shorten_safe(node: TextNode, limit: int) -> None:
    node.text = node.text[:limit]
    node.embedding = None
    node.start_char_idx = node.end_char_idx = None


def shorten_copy(node: TextNode, limit: int) -> TextNode:
    return TextNode(text=node.text[:limit], metadata=dict(node.metadata))


def redact(doc: Document) -> None:
    doc.set_content(doc.text.replace("secret", "[x]"))  # expect: SPL104


def redact_safe(doc: Document) -> None:
    doc.set_content(doc.text.replace("secret", "[x]"))
    doc.embedding = None


def upper_results(results: list[NodeWithScore]) -> None:
    for result in results:
        result.node.text = result.node.text.upper()  # expect: SPL104


def tag_results(results: list[NodeWithScore]) -> None:
    for result in results:
        result.node.metadata["seen"] = True


def close_ticket(node: SupportNode) -> None:
    node.text = node.text + " [closed]"  # expect: SPL104


def close_ticket_safe(node: SupportNode) -> None:
    node.ticket = ""
''',
    "app/chat.py": '''\
import uuid

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage


def strip_reasoning(message: AIMessage) -> None:
    message.content = message.content.split("</think>")[-1]  # expect: SPL103


def strip_reasoning_safe(message: AIMessage) -> None:
    message.content = message.content.split("</think>")[-1]
    message.id = str(uuid.uuid4())


def strip_reasoning_copy(message: AIMessage) -> AIMessage:
    return AIMessage(content=message.content.split("</think>")[-1])


def truncate_tools(history: list[BaseMessage], limit: int) -> None:
    for entry in history:
        if isinstance(entry, ToolMessage):
            entry.content = entry.content[:limit]  # expect: SPL103


def count_tools(history: list[BaseMessage]) -> int:
    return sum(isinstance(entry, ToolMessage) for entry in history)
''',
    "app/store.py": '''\
import uuid

from langchain_core.messages import BaseMessage
from llama_index.core.schema import TextNode


def retitle(nodes: list[TextNode], index: int, text: str) -> None:
    nodes[index] = nodes[index].model_copy(update={"text": text})  # expect: SPL104


def retitle_safe(nodes: list[TextNode], index: int, text: str) -> None:
    nodes[index] = nodes[index].model_copy(
        update={"text": text, "embedding": None, "start_char_idx": None, "end_char_idx": None}
    )


def edit(history: list[BaseMessage], index: int, text: str) -> None:
    history[index] = history[index].model_copy(update={"content": text})  # expect: SPL103


def edit_safe(history: list[BaseMessage], index: int, text: str) -> None:
    history[index] = history[index].model_copy(update={"content": text, "id": str(uuid.uuid4())})
''',
    "app/graph.py": '''\
from langchain_core.messages import AIMessage


def clean_last(state):
    state["messages"][-1].content = state["messages"][-1].content.strip()  # expect: SPL103
    return state


def clean_last_safe(state) -> dict:
    last = state["messages"][-1]
    return {"messages": [AIMessage(content=last.content.strip())]}
''',
}


def write_app(root: Path) -> Path:
    """The application's files under `root` (a project: it gets a `.git` marker)."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    (root / ".spanlint.yaml").write_text("root: true\n")
    for relative, text in FILES.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    return root


def expected() -> set[tuple[str, int, str]]:
    """(path, line, code) of every marked hazard."""
    return {
        (relative, number, match.group(1))
        for relative, text in FILES.items()
        for number, line in enumerate(text.splitlines(), start=1)
        if (match := _EXPECT.search(line))
    }
