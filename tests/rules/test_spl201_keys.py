"""SPL201 on caches a new user writes: a key that falls back to the span id (`meta.get("doc_id", d.id)`),
a span known only by its class's own id field (`p.passage_id`, `p` unannotated), a value computed into
a local first. Each is reported; its look-alike (keyed on the id and a content hash or version, the
span itself stored) is quiet."""

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
    pytest.param(  # keyed on the passage's own id field, the count computed into a local
        _PASSAGE
        + "class TokenCounter:\n"
        "    def __init__(self, tokenizer):\n"
        "        self.tokenizer = tokenizer\n"
        "        self.memo = {}\n"
        "\n"
        "    def count(self, p):\n"
        "        n = self.tokenizer.count(p.text)\n"
        "        self.memo[p.passage_id] = n\n"
        "        return n\n",
        [17],
        _PASSAGE
        + "class TokenCounter:\n"
        "    def __init__(self, tokenizer):\n"
        "        self.tokenizer = tokenizer\n"
        "        self.memo = {}\n"
        "\n"
        "    def count(self, p):\n"
        "        n = self.tokenizer.count(p.text)\n"
        "        self.memo[(p.passage_id, hash(p.text))] = n\n"
        "        return n\n",
        id="own-id-field-vs-content-hash",
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
    pytest.param(  # vectors kept under the passage id; the twin keeps the passage itself
        _PASSAGE
        + "class PassageVectors:\n"
        "    def __init__(self, embed):\n"
        "        self.embed = embed\n"
        "        self.store = {}\n"
        "\n"
        "    def put(self, p):\n"
        "        vec = self.embed(p.text)\n"
        "        self.store[p.passage_id] = vec\n",
        [17],
        _PASSAGE
        + "class PassageVectors:\n"
        "    def __init__(self, embed):\n"
        "        self.embed = embed\n"
        "        self.store = {}\n"
        "\n"
        "    def put(self, p):\n"
        "        self.store[p.passage_id] = p\n",
        id="vector-vs-the-passage-itself",
    ),
]


@pytest.mark.parametrize(("hazard", "lines", "look_alike"), PAIRS)
def test_the_cache_is_reported_and_its_look_alike_is_quiet(hazard: str, lines: list[int], look_alike: str) -> None:
    assert _lines(hazard) == lines
    assert _lines(look_alike) == []

