# rules: SPL301
"""Compression, summary formatting and predicates that are not summarizing a summary."""
import bz2
import gzip
import lzma
import zlib
from zlib import compress


def archive(summary: bytes) -> bytes:
    return zlib.compress(summary)


def archive_all(summary_bytes: bytes) -> bytes:
    packed = gzip.compress(summary_bytes)
    return lzma.compress(bz2.compress(packed))


def render(summary):
    return _format_summary(summary)


def maybe(messages, summary, tokens):
    if should_summarize(messages, summary, tokens):
        return None
    return get_summary(summary)


class Report:
    def __init__(self, summary):
        self.summary = summary

    def print_summary(self):
        print_summary(self.summary)


class SummaryWriter:
    def compress(self, data):
        return zlib.compressobj().compress(data)


def build(summarizer_cls, summary_config):
    summarizer = Summarizer(summary_config)
    return summarizer_cls(summary_config)


def first_time(llm, transcript):
    summary = llm.summarize(transcript)
    return summary


def chain_type_is_not_lineage(llm, existing_summary, docs):
    chain = load_summarize_chain(llm, chain_type="map_reduce")
    log("summarizing again")
    return llm.summarize(existing_summary, docs)  # expect: SPL301


def logged_link(llm, existing_summary, docs, journal):
    journal.write(f"resummarized from {len(docs)} docs")
    return llm.summarize(existing_summary, docs)


def record_helper(llm, existing_summary, docs):
    new = llm.summarize(existing_summary, docs)
    record_lineage(new, parent_summary_id=existing_summary.id)
    return new


def shrink_bytes(data: bytes, limit: int) -> bytes:
    from_module = data
    while len(from_module) > limit:
        from_module = compress(from_module)
    return from_module
