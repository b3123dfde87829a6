# rules: SPL101, SPL102, SPL103, SPL104
"""Context-window operators over spans known only by name: summarizers, redactors, compaction."""
import re

EMAIL = re.compile(r"\S+@\S+")


def compress(span, llm):
    span.content = llm.summarize(span.content)  # expect: SPL101


def compress_and_bump(span, llm):
    span.content = llm.summarize(span.content)
    span.version += 1


def redact_all(spans):
    for span in spans:
        span.content = EMAIL.sub("[email]", span.content)  # expect: SPL101


def redact_all_bumped(spans):
    for span in spans:
        span.content = EMAIL.sub("[email]", span.content)
        span.version = span.version + 1


def normalize_buffer(self, span_id):
    s = self._spans[span_id]
    s.content = " ".join(s.content.split())  # expect: SPL101


def normalize_from_buffer(buffer, key):
    chunk = buffer.get(key)
    if chunk is not None:
        chunk.text = chunk.text.strip()  # expect: SPL101


def trim_tokens(chunk, limit):
    while len(chunk.tokens) > limit:
        chunk.tokens.pop()  # expect: SPL101


def append_note(segment, note):
    segment.content += "\n" + note  # expect: SPL101
    return segment


def truncate_turns(turns, keep):
    for turn in turns:
        del turn.messages[keep:]  # expect: SPL101


async def summarize_passages(passages, llm):
    for passage in passages:
        passage.text = await llm.asummarize(passage.text)  # expect: SPL101


async def summarize_passages_versioned(passages, llm):
    for passage in passages:
        passage.text = await llm.asummarize(passage.text)
        passage.bump_version()


def rewrite_with_setattr(span, text):
    setattr(span, "content", text)  # expect: SPL101


def rewrite_frozen(span, text):
    object.__setattr__(span, "content", text)
    object.__setattr__(span, "version", span.version + 1)


def rewrite_frozen_unbumped(span, text):
    object.__setattr__(span, "content", text)  # expect: SPL101


def rewrite_via_dict(span, text):
    span.__dict__["content"] = text  # expect: SPL101


def build_summary_span(text):
    span = Span(span_id="s-1", content="")
    span.content = text
    return span


def copy_then_edit(span):
    fresh = span.copy()
    fresh.content = fresh.content.upper()
    return fresh


def read_only(spans):
    return [span.content for span in spans if span.content]
