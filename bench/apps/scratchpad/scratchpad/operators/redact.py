"""Redact secrets that tools echo back into the context."""

import re

from scratchpad.models import Segment, digest

SECRET = re.compile(r"(?i)(api[_-]?key|token|password)\s*[:=]\s*\S+")
EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")


def redact_segment(seg: Segment) -> Segment:
    if not SECRET.search(seg.body):
        return seg
    seg.body = SECRET.sub(r"\1=<redacted>", seg.body)
    seg.digest = digest(seg.body)
    return seg


def redact_emails(seg: Segment) -> Segment:
    cleaned = EMAIL.sub("<email>", seg.body)
    if cleaned == seg.body:
        return seg
    seg.body = cleaned
    seg.rev = seg.rev + 1
    seg.digest = digest(cleaned)
    seg.embedding = None
    seg.token_offsets = []
    return seg


def scrub_all(segments, strict=False):
    for s in segments:
        try:
            new_body = SECRET.sub("<redacted>", s.body)
            s.body = new_body
            s.rev += 1
            s.digest = digest(new_body)
        except re.error:
            if strict:
                raise
            s.body = "<redacted>"
