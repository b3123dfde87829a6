# rules: SPL201
"""Caches keyed on ids that are not span ids, and pure memoized functions."""
import functools
import hashlib
from functools import lru_cache

import requests

_HTTP_CACHE: dict[str, str] = {}
_user_cache = {}
_session_store = {}


def fetch(url: str) -> str:
    if url not in _HTTP_CACHE:
        _HTTP_CACHE[url] = requests.get(url, timeout=10).text
    return _HTTP_CACHE[url]


def profile(user):
    _user_cache[user.id] = render(user.name, user.email)
    return _user_cache[user.id]


def session(request):
    _session_store[request.id] = {"started": request.started_at}
    return _session_store.get(request.id)


@lru_cache(maxsize=None)
def fib(n: int) -> int:
    return n if n < 2 else fib(n - 1) + fib(n - 2)


@functools.cache
def slug(title: str) -> str:
    return title.lower().replace(" ", "-")


class RowCache:
    def __init__(self, db):
        self.db = db
        self._cache = {}

    def row(self, row_id: int):
        if row_id not in self._cache:
            self._cache[row_id] = self.db.fetch(row_id)
        return self._cache[row_id]


class Digests:
    def __init__(self):
        self.digest_cache = {}

    def digest(self, blob):
        self.digest_cache[blob.id] = hashlib.sha256(blob.data).hexdigest()
        return self.digest_cache[blob.id]


class Graph:
    def __init__(self):
        self.node_index = {}
        self.nodes = []

    def add_node(self, node):
        self.node_index[node.node_id] = len(self.nodes)
        self.nodes.append(node)

    def position(self, node_id):
        return self.node_index[node_id]
