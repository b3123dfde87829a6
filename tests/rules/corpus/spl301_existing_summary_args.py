# rules: SPL301
"""Summaries passed back into summarizers by argument name."""
from typing import Optional


def update_summary(llm, existing_summary: str, new_lines: list[str]) -> str:
    return llm.generate_summary(existing_summary, new_lines)  # expect: SPL301


async def refresh(summarizer, messages, prev_summary: Optional[str] = None):
    return await summarizer.summarize_messages(messages, previous_summary=prev_summary)  # expect: SPL301


def node(state: dict) -> dict:
    result = summarize_messages(state["messages"], running_summary=state.get("summary"))  # expect: SPL301
    return {"summary": result}


def from_state(state: dict) -> str:
    return resummarize(state["summary"], state["messages"])  # expect: SPL301


def with_lineage(state: dict, log) -> str:
    new = resummarize(state["summary"], state["messages"])
    log.record("resummarized", derived_from=state["summary_id"])
    return new


def first_summary(llm, messages, max_summary_tokens: int = 256, summary_prompt: str = "Summarize:"):
    return llm.summarize(messages, max_summary_tokens=max_summary_tokens, prompt=summary_prompt)


def decision_logged(llm, prior_summary, turns, decision_log):
    decision_log.append({"op": "resummarize", "inputs": [t.id for t in turns]})
    return llm.summarize(prior_summary, turns)
