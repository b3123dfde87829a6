"""Cheap token accounting and token-offset maps over span text."""

from __future__ import annotations

import re

from . import records
from .records import Span

_TOKEN = re.compile(r"\w+|[^\w\s]", re.UNICODE)

_TYPOGRAPHY = {
    "\u2026": "...",
    "\u2014": " -- ",
    "\u2013": "-",
    "\u00a0": " ",
    "\u201c": '"',
    "\u201d": '"',
    "\u2018": "'",
    "\u2019": "'",
}


class StaleOffsets(LookupError):
    pass


def tokenize(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _TOKEN.finditer(text)]


_counts: dict[str, int] = {}


def token_count(span: Span) -> int:
    sid = span["id"]
    n = _counts.get(sid)
    if n is None:
        n = len(_TOKEN.findall(span["text"])) + 4
        _counts[sid] = n
    return n


def budget_used(spans: list[Span]) -> int:
    return sum(token_count(s) for s in spans)


def annotate(span: Span) -> Span:
    toks = tokenize(span["text"])
    span["toks"] = toks
    span["ntok"] = len(toks)
    return span


def fix_typography(span: Span) -> Span:
    text = span["text"]
    for bad, good in _TYPOGRAPHY.items():
        text = text.replace(bad, good)
    if text != span["text"]:
        records.set_text(span, text, by="rewrite:typography")
    return span


_maps: dict[tuple[str, int, str], dict] = {}


def offset_map(span: Span) -> dict:
    key = records.fingerprint(span)
    om = _maps.get(key)
    if om is None:
        sid, rev, sha = key
        om = {"span": sid, "rev": rev, "sha": sha, "offsets": tokenize(span["text"])}
        _maps[key] = om
    return om


def slice_tokens(span: Span, om: dict, i: int, j: int) -> str:
    if (om["span"], om["rev"], om["sha"]) != records.fingerprint(span):
        raise StaleOffsets(f"offset map for {om['span']}@{om['rev']} does not match span")
    offs = om["offsets"]
    if not 0 <= i < j <= len(offs):
        raise StaleOffsets(f"token range {i}:{j} outside {len(offs)} tokens")
    return span["text"][offs[i][0]:offs[j - 1][1]]
