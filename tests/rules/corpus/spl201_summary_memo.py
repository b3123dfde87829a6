# rules: SPL201
"""Summaries and token counts memoized per conversation turn."""
from cachetools import LRUCache, cached

SUMMARY_CACHE = LRUCache(maxsize=512)
turn_summaries = {}


@cached(cache=SUMMARY_CACHE)
def summary_for(turn_id: str) -> str:  # expect: SPL201
    turn = TURNS[turn_id]
    return llm_summarize(turn.content)


def remember(turn):
    turn_summaries[turn.turn_id] = llm_summarize(turn.content)


def remember_cached(turn, memo_cache):
    memo_cache[turn.turn_id] = llm_summarize(turn.content)  # expect: SPL201


def remember_hashed(turn, memo_cache):
    memo_cache[(turn.turn_id, hash(turn.content))] = llm_summarize(turn.content)


class TurnStore:
    """The span store itself: keyed by id, holding the turns."""

    def __init__(self):
        self.store = {}

    def put(self, turn):
        self.store[turn.turn_id] = turn

    def get(self, turn_id):
        return self.store.get(turn_id)


def store_vector(vector_cache, span_id: str, vector: list[float]) -> None:
    vector_cache[span_id] = vector  # expect: SPL201


def store_flag(flag_cache, span_id: str, seen: bool) -> None:
    flag_cache[span_id] = seen
