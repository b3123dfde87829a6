# rules: SPL101, SPL102, SPL103, SPL104
"""Look-alikes: HTTP caches, LRU entries, storage blocks, compression, hashing, graph nodes."""
import hashlib
import time
import zlib
from dataclasses import dataclass


@dataclass
class CacheEntry:
    key: str
    value: bytes
    expires: float


class HttpCache:
    def __init__(self):
        self._entries = {}

    def refresh(self, key: str, body: bytes) -> None:
        entry = self._entries[key]
        entry.value = body
        entry.expires = time.time() + 60


def compress_block(block, level=6):
    block.value = zlib.compress(block.value, level)


def checksum(blob: bytes) -> str:
    digest = hashlib.sha1(blob).hexdigest()
    return digest


class LinkedList:
    class Node:
        def __init__(self, value):
            self.value = value
            self.next = None

    def update(self, index, value):
        node = self.head
        for _ in range(index):
            node = node.next
        node.value = value


def relabel(graph, mapping):
    for node in graph.nodes:
        node.text = mapping.get(node.text, node.text)


def response_payload(response):
    message = response.choices[0].message
    message.content = message.content.strip()
    return message


def request_payload(data):
    for msg in data["messages"]:
        msg.content = msg.content or "."
