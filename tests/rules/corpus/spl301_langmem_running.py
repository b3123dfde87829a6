# rules: SPL301
"""A running summary whose object records the ids of the summarized messages (tracked lineage)."""
from dataclasses import dataclass


@dataclass
class RunningSummary:
    summary: str
    summarized_message_ids: set[str]
    last_summarized_message_id: str | None


@dataclass
class PlainSummary:
    summary: str


def summarize_messages(messages, *, running_summary: RunningSummary | None, model):
    return model.invoke(messages)


def plain_summarize(messages, *, running_summary: PlainSummary | None, model):
    return model.invoke(messages)


def node(context, messages, model):
    return summarize_messages(messages, running_summary=context.get("running_summary"), model=model)


def plain_node(context, messages, model):
    return plain_summarize(messages, running_summary=context.get("running_summary"), model=model)  # expect: SPL301


def update(running_summary: RunningSummary, messages, model):
    return summarize_messages(messages + [running_summary.summary], running_summary=None, model=model)


def update_plain(existing_summary: PlainSummary, messages, model):
    return plain_summarize(messages + [existing_summary.summary], running_summary=None, model=model)  # expect: SPL301
