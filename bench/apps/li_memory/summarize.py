import uuid

from llama_index.core.llms import LLM

from .models import Span, Summary


def rollup(llm: LLM, previous: Summary, new_spans: list[Span]) -> Summary:
    prompt = previous.text + "\n" + "\n".join(s.content for s in new_spans)
    text = llm.complete(f"Summarize:\n{prompt}").text
    return Summary(previous.summary_id, text, previous.root_ids)


def summarize_from_sources(llm: LLM, sources: list[Span]) -> Summary:
    text = llm.complete("Summarize:\n" + "\n".join(s.content for s in sources)).text
    return Summary(uuid.uuid4().hex, text, [s.span_id for s in sources])


def refine_with_lineage(llm: LLM, previous: Summary, sources: list[Span]) -> Summary:
    text = llm.complete("Summarize:\n" + "\n".join(s.content for s in sources)).text
    roots = previous.root_ids + [s.span_id for s in sources]
    return Summary(uuid.uuid4().hex, text, roots, parent_id=previous.summary_id)
