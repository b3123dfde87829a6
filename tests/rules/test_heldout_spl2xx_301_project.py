"""SPL201 across files: the span class lives in another module of the linted tree."""

from __future__ import annotations

from spanlint import Settings, check_source
from spanlint.rules.project import ProjectIndex, summarize_source
from runtime_guard.vocabulary import DEFAULT_VOCABULARY

MODELS = '''
from dataclasses import dataclass


@dataclass
class Fragment:
    id: str
    text: str


@dataclass
class Record:
    id: str
    payload: bytes
'''

CACHES = '''
from models import Fragment, Record


class FragmentCache:
    def __init__(self, model):
        self.model = model
        self._embedding_cache = {}
        self._row_cache = {}

    def embed(self, item: Fragment):
        self._embedding_cache[item.id] = self.model.encode(item.text)

    def remember(self, item: Record):
        self._row_cache[item.id] = len(item.payload)

    def embed_keyed(self, item: Fragment):
        return self._embedding_cache.get((item.id, hash(item.text)))
'''


def _findings(project: ProjectIndex | None) -> set[tuple[int, str]]:
    found = check_source(CACHES, "caches.py", Settings(select=("SPL201",)), project=project)
    return {(d.location.line, d.code) for d in found}


def _project() -> ProjectIndex:
    sources = ((MODELS, "models.py"), (CACHES, "caches.py"))
    return ProjectIndex.merge(DEFAULT_VOCABULARY, [summarize_source(src, DEFAULT_VOCABULARY, path) for src, path in sources])


def test_span_class_from_another_module() -> None:
    # Fragment has an id and a content field: its embedding keyed on the bare id is reported;
    # Record has no content field, and the tuple key carries the content.
    assert _findings(_project()) == {(12, "SPL201")}


def test_without_the_other_module_nothing_is_known() -> None:
    assert _findings(None) == set()
