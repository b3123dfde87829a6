"""Held-out SPL101-SPL104 cases whose span classes or helpers live in another module of the project."""

from __future__ import annotations


import pytest

from spanlint import Settings, check_source
from tests.rules.conftest import expected_findings
from spanlint.rules.project import ProjectIndex, summarize_source
from runtime_guard.vocabulary import DEFAULT_VOCABULARY

CODES = ("SPL101", "SPL102", "SPL103", "SPL104")

MODELS = '''
from dataclasses import dataclass, field


@dataclass
class Record:
    id: str
    content: str
    version: int = 0
    content_hash: str = ""


@dataclass
class Memo:
    id: str
    body: str


@dataclass
class Fragment:
    id: str
    text: str
    embedding: list[float] = field(default_factory=list)
    version: int = 0


class Addressed:
    def __init__(self, id: str, content: str) -> None:
        self.id = id
        self.content = content

    @property
    def digest(self) -> str:
        return str(hash(self.content))
'''

HELPERS = '''
import hashlib


def advance(record) -> None:
    record.version += 1


def reseal(record) -> None:
    record.content_hash = hashlib.sha256(record.content.encode()).hexdigest()


def invalidate(fragment) -> None:
    fragment.embedding = []
    fragment.version += 1


def log_only(record) -> None:
    print(record.id)
'''

USER = '''
from models import Addressed, Fragment, Memo, Record
from helpers import advance, invalidate, log_only, reseal


def rewrite(record: Record, text: str) -> None:
    record.content = text  # expect: SPL101, SPL102


def rewrite_advanced(record: Record, text: str) -> None:
    record.content = text  # expect: SPL102
    advance(record)


def rewrite_sealed(record: Record, text: str) -> None:
    record.content = text
    advance(record)
    reseal(record)


def rewrite_logged(record: Record, text: str) -> None:
    record.content = text  # expect: SPL101, SPL102
    log_only(record)


def rewrite_memo(memo: Memo, text: str) -> None:
    memo.body = text  # expect: SPL103


def rewrite_memos(memos: dict[str, Memo], key: str, text: str) -> None:
    memo = memos[key]
    memo.body += text  # expect: SPL103


def rewrite_fragment(fragment: Fragment, text: str) -> None:
    fragment.text = text  # expect: SPL101, SPL104


def rewrite_fragment_invalidated(fragment: Fragment, text: str) -> None:
    fragment.text = text
    invalidate(fragment)


def rewrite_addressed(item: Addressed, text: str) -> None:
    item.content = text


def build(text: str) -> Record:
    record = Record(id="r", content="")
    record.content = text
    return record
'''


def _index() -> ProjectIndex:
    sources = {"models.py": MODELS, "helpers.py": HELPERS, "user.py": USER}
    return ProjectIndex.merge(
        DEFAULT_VOCABULARY, [summarize_source(s, DEFAULT_VOCABULARY, p) for p, s in sources.items()]
    )



@pytest.mark.parametrize("code", CODES)
def test_cross_module_cases(code: str) -> None:
    found = {
        (d.location.line, d.code)
        for d in check_source(USER, "user.py", Settings(select=(code,)), project=_index())
        if d.code == code
    }
    expected = {(line, c) for line, c in expected_findings(USER) if c == code}
    assert sorted(found - expected) == [], "false positives"
    assert sorted(expected - found) == [], "missed findings"


# Spec (b): a class with an id and a content field is a span. These blind held-out cases have no span
# noun in the class name, no version and no hash; their own `id` and a `body`/`text` field suffice.
WEAK_RECORDS = '''
from dataclasses import dataclass


@dataclass
class Memo:
    id: str
    body: str


class Note:
    def __init__(self, id: str, text: str) -> None:
        self.id = id
        self.text = text

    def replace(self, text: str) -> None:
        self.text = text  # expect: SPL103


def rewrite_memo(memo: Memo, text: str) -> None:
    memo.body = text  # expect: SPL103


def edit_notes(notes: list[Note]) -> None:
    for note in notes:
        note.text = note.text.strip()  # expect: SPL103
'''


def test_weak_records_with_an_id_are_spans() -> None:
    found = {(d.location.line, d.code) for d in check_source(WEAK_RECORDS, "notes.py", Settings(select=("SPL103",)))}
    assert found == expected_findings(WEAK_RECORDS)
