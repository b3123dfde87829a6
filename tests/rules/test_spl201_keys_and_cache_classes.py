"""SPL201 on caches a new user writes: a field of a class named as a cache, a key that falls back to
the span id (`meta.get("doc_id", d.id)`), a span known only by its class's own id field, a value
computed into a local first. Each is reported; its look-alike (keyed on id and content hash, the
span itself stored, a non-cache class) is quiet."""

from __future__ import annotations

import pytest

from spanlint import Settings, check_source

_PASSAGE = (
    "from dataclasses import dataclass\n"
    "\n\n"
    "@dataclass\n"
    "class Passage:\n"
    "    passage_id: str\n"
    "    text: str\n"
    "\n\n"
)


def _lines(source: str) -> list[int]:
    return [d.location.line for d in check_source(source, "app.py", Settings(select=("SPL201",))) if d.code == "SPL201"]


PAIRS = [
    pytest.param(  # a field of a class named as a cache, keyed on the passage's own id field
        _PASSAGE
        + "class TokenCountCache:\n"
        "    def __init__(self, tokenizer):\n"
        "        self.tokenizer = tokenizer\n"
        "        self.table = {}\n"
        "\n"
        "    def count(self, p):\n"
        "        n = self.tokenizer.count(p.text)\n"
        "        self.table[p.passage_id] = n\n"
        "        return n\n",
        [17],
        _PASSAGE
        + "class TokenCountCache:\n"
        "    def __init__(self, tokenizer):\n"
        "        self.tokenizer = tokenizer\n"
        "        self.table = {}\n"
        "\n"
        "    def count(self, p):\n"
        "        n = self.tokenizer.count(p.text)\n"
        "        self.table[(p.passage_id, hash(p.text))] = n\n"
        "        return n\n",
        id="cache-class-field-own-id-vs-content-hash",
    ),
    pytest.param(  # keyed on a metadata id that falls back to the document id
        "class Embeddings:\n"
        "    def __init__(self, model):\n"
        "        self.model = model\n"
        "        self.memo = {}\n"
        "\n"
        "    def vector(self, chunk):\n"
        "        key = chunk.metadata.get('source_id', chunk.id)\n"
        "        if key not in self.memo:\n"
        "            self.memo[key] = self.model.encode(chunk.content)\n"
        "        return self.memo[key]\n",
        [9, 10],
        "class Embeddings:\n"
        "    def __init__(self, model):\n"
        "        self.model = model\n"
        "        self.memo = {}\n"
        "\n"
        "    def vector(self, chunk):\n"
        "        key = (chunk.metadata.get('source_id', chunk.id), chunk.metadata.get('version'))\n"
        "        if key not in self.memo:\n"
        "            self.memo[key] = self.model.encode(chunk.content)\n"
        "        return self.memo[key]\n",
        id="metadata-id-fallback-vs-versioned-key",
    ),
    pytest.param(  # a class named as a cache keeps vectors under the passage id; its twin keeps the passage itself
        _PASSAGE
        + "class PassageCache:\n"
        "    def __init__(self, embed):\n"
        "        self.embed = embed\n"
        "        self.rows = {}\n"
        "\n"
        "    def put(self, p):\n"
        "        vec = self.embed(p.text)\n"
        "        self.rows[p.passage_id] = vec\n",
        [17],
        _PASSAGE
        + "class PassageCache:\n"
        "    def __init__(self, embed):\n"
        "        self.embed = embed\n"
        "        self.rows = {}\n"
        "\n"
        "    def put(self, p):\n"
        "        self.rows[p.passage_id] = p\n",
        id="cache-class-vector-vs-the-passage-itself",
    ),
    pytest.param(  # the same mapping in a class not named as a cache is not one
        _PASSAGE
        + "class VectorCache:\n"
        "    def __init__(self, embed):\n"
        "        self.embed = embed\n"
        "        self.shelf = {}\n"
        "\n"
        "    def put(self, p):\n"
        "        vec = self.embed(p.text)\n"
        "        self.shelf[p.passage_id] = vec\n",
        [17],
        _PASSAGE
        + "class Library:\n"
        "    def __init__(self, embed):\n"
        "        self.embed = embed\n"
        "        self.shelf = {}\n"
        "\n"
        "    def put(self, p):\n"
        "        vec = self.embed(p.text)\n"
        "        self.shelf[p.passage_id] = vec\n",
        id="cache-class-vs-other-class",
    ),
]


@pytest.mark.parametrize(("hazard", "lines", "look_alike"), PAIRS)
def test_the_cache_is_reported_and_its_look_alike_is_quiet(hazard: str, lines: list[int], look_alike: str) -> None:
    assert _lines(hazard) == lines
    assert _lines(look_alike) == []

