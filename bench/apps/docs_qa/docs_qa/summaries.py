"""Per-section summaries shown on the landing page."""

from __future__ import annotations

from typing import Dict, List

from llama_index.core.llms import LLM
from llama_index.core.schema import TextNode

SUMMARY_PROMPT = "Summarize this handbook section in five bullet points:\n\n{text}"


class SectionDigest:
    def __init__(self, llm: LLM) -> None:
        self.llm = llm
        self.digests: Dict[str, str] = {}

    def update(self, section: str, new_nodes: List[TextNode]) -> str:
        """Called after each ingestion batch; folds the new chunks into the section's digest."""
        previous = self.digests.get(section, "")
        fresh = "\n".join(n.get_content() for n in new_nodes)
        summary = self.llm.complete(SUMMARY_PROMPT.format(text=previous + "\n" + fresh)).text
        self.digests[section] = summary
        return summary


def summarize_section(llm: LLM, section: str, nodes: List[TextNode]) -> TextNode:
    text = "\n".join(n.get_content() for n in nodes)
    summary = llm.complete(SUMMARY_PROMPT.format(text=text)).text
    return TextNode(text=summary, metadata={"section": section, "source_node_ids": [n.node_id for n in nodes]})


def summarize_summaries(llm: LLM, summaries: List[TextNode]) -> TextNode:
    """A one-paragraph overview of the whole handbook from the section summaries."""
    text = "\n".join(s.get_content() for s in summaries)
    overview = llm.complete(SUMMARY_PROMPT.format(text=text)).text
    return TextNode(text=overview, metadata={"kind": "overview"})
