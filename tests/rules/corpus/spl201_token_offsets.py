# rules: SPL201
"""Token offsets and counts memoized per message, as a chat buffer does."""
import functools

from mylib.tokenizer import encode, offsets_of

TOKEN_COUNT_CACHE: dict[str, int] = {}
_offsets_memo = {}


def count_tokens(message):
    if message.id not in TOKEN_COUNT_CACHE:
        TOKEN_COUNT_CACHE[message.id] = len(encode(message.content))  # expect: SPL201
    return TOKEN_COUNT_CACHE[message.id]  # expect: SPL201


def offsets(msg):
    return _offsets_memo.setdefault(msg.message_id, offsets_of(msg.text))  # expect: SPL201


def offsets_by_hash(msg):
    return _offsets_memo.setdefault((msg.message_id, msg.content_hash), offsets_of(msg.text))


class Buffer:
    def __init__(self, messages):
        self.messages = list(messages)
        self.token_offsets = {m.id: offsets_of(m.content) for m in messages}  # expect: SPL201
        self.by_id = {m.id: m for m in messages}
        self.lengths = {m.id: len(m.content) for m in messages}  # expect: SPL201

    def window(self):
        # A local map, rebuilt on every call: nothing stale survives.
        local_offsets = {m.id: offsets_of(m.content) for m in self.messages}
        return local_offsets


@functools.lru_cache(maxsize=2048)
def cached_encoding(message_id: str):  # expect: SPL201
    return encode(STORE.load(message_id).content)


@functools.lru_cache(maxsize=2048)
def encoding_for(message_id: str, content_hash: str):
    return encode(STORE.load(message_id).content)


@functools.cache
def tokenizer_for(model_name: str):
    return load_tokenizer(model_name)


SPAN_TOKENS = {s.span_id: encode(s.content) for s in load_spans()}  # expect: SPL201
SPAN_BY_ID = {s.span_id: s for s in load_spans()}
