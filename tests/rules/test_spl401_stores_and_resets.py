"""SPL401 on framework stores (LlamaIndex indices and docstores, Haystack document stores), LangGraph's
`REMOVE_ALL_MESSAGES` and a buffer held in a field of `self`: each removal is reported when nothing is
recorded before it, and its look-alike (recorded first, the store's own API, tombstone collection,
the whole history written back) is quiet."""

from __future__ import annotations

import pytest

from spanlint import Settings, check_source


def _lines(source: str) -> list[int]:
    return [d.location.line for d in check_source(source, "app.py", Settings(select=("SPL401",))) if d.code == "SPL401"]


_REVIEW_LOG = (
    "class ReviewLog:\n"
    "    def __init__(self):\n"
    "        self._entries = []\n"
    "\n"
    "    def note(self, what, ids, why):\n"
    "        self._entries.append((what, ids, why))\n"
    "\n\n"
)

PAIRS = [
    pytest.param(  # a LlamaIndex index: nodes deleted, then the reason noted in a log typed as one
        _REVIEW_LOG
        + "def unpublish(index, node_ids, review: ReviewLog, why):\n"
        "    index.delete_nodes(node_ids)\n"
        "    review.note('unpublish', node_ids, why)\n",
        [10],
        _REVIEW_LOG
        + "def unpublish(index, node_ids, review: ReviewLog, why):\n"
        "    for nid in node_ids:\n"
        "        review.note('unpublish', [nid], why)\n"
        "    index.delete_nodes(node_ids)\n",
        id="index-delete-nodes-noted-after",
    ),
    pytest.param(  # a docstore's ref docs deleted for being expired, no log at all
        "def refresh(docstore, catalogue):\n"
        "    expired = [ref for ref, info in catalogue.items() if info['ttl'] <= 0]\n"
        "    for ref in expired:\n"
        "        docstore.delete_ref_doc(ref, raise_error=False)\n",
        [4],
        "class Index:\n"
        "    def delete_ref_doc(self, ref_doc_id):\n"
        "        node_ids = self.ref_doc_info[ref_doc_id]\n"
        "        self.delete_nodes(node_ids)\n",
        id="docstore-expired-refs",
    ),
    pytest.param(  # a Haystack store held by the object, which holds an audit log too
        "class Moderator:\n"
        "    def __init__(self, store, audit_log):\n"
        "        self.store = store\n"
        "        self.audit_log = audit_log\n"
        "\n"
        "    def takedown(self, doc_ids, complaint):\n"
        "        self.store.delete_documents(doc_ids)\n"
        "        self.audit_log.append({'op': 'takedown', 'ids': doc_ids, 'why': complaint})\n",
        [7],
        "class Moderator:\n"
        "    def __init__(self, store, audit_log):\n"
        "        self.store = store\n"
        "        self.audit_log = audit_log\n"
        "\n"
        "    def takedown(self, doc_ids, complaint):\n"
        "        self.audit_log.append({'op': 'takedown', 'ids': doc_ids, 'why': complaint})\n"
        "        self.store.delete_documents(doc_ids)\n",
        id="document-store-recorded-first",
    ),
    pytest.param(  # tombstones collected from a docstore: garbage collection (SPL403), not a prune
        "def shrink_index(index, keep_ids):\n"
        "    gone = [nid for nid in index.docstore.docs if nid not in keep_ids]\n"
        "    for nid in gone:\n"
        "        index.delete_ref_doc(nid)\n",
        [4],
        "def shrink_index(index, now, ttl):\n"
        "    for nid, deleted_at in list(index.tombstones.items()):\n"
        "        if now - deleted_at > ttl:\n"
        "            index.delete_ref_doc(nid)\n",
        id="index-shrunk-vs-tombstones-collected",
    ),
    pytest.param(  # LangGraph: the whole history replaced by its last turns
        "from langchain_core.messages import RemoveMessage\n"
        "from langgraph.graph.message import REMOVE_ALL_MESSAGES\n"
        "\n"
        "def new_topic(state):\n"
        "    recent = state['messages'][-3:]\n"
        "    return {'messages': [RemoveMessage(id=REMOVE_ALL_MESSAGES), *recent]}\n",
        [6],
        "from langchain_core.messages import RemoveMessage\n"
        "from langgraph.graph.message import REMOVE_ALL_MESSAGES\n"
        "\n"
        "def scrub_all(state):\n"
        "    cleaned = [scrub(m) for m in state['messages']]\n"
        "    return {'messages': [RemoveMessage(id=REMOVE_ALL_MESSAGES)] + cleaned}\n",
        id="remove-all-keeping-a-tail-vs-writing-all-back",
    ),
    pytest.param(  # a buffer in a field of `self`, dropping through its own method; the class holds a log
        "class Buffer:\n"
        "    def __init__(self):\n"
        "        self._spans = {}\n"
        "\n"
        "    def evict_one(self, span_id):\n"
        "        self._spans.pop(span_id, None)\n"
        "\n\n"
        "class Agent:\n"
        "    def __init__(self, ledger):\n"
        "        self.buffer = Buffer()\n"
        "        self.ledger = ledger\n"
        "\n"
        "    def forget(self, span_id):\n"
        "        self.buffer.evict_one(span_id)\n",
        [15],
        "class Buffer:\n"
        "    def __init__(self):\n"
        "        self._spans = {}\n"
        "\n"
        "    def evict_one(self, span_id):\n"
        "        self._spans.pop(span_id, None)\n"
        "\n\n"
        "class Agent:\n"
        "    def __init__(self, ledger):\n"
        "        self.buffer = Buffer()\n"
        "        self.ledger = ledger\n"
        "\n"
        "    def forget(self, span_id, why):\n"
        "        self.ledger.record('forget', span_id, why)\n"
        "        self.buffer.evict_one(span_id)\n",
        id="held-buffer-method",
    ),
]


@pytest.mark.parametrize(("hazard", "lines", "look_alike"), PAIRS)
def test_the_removal_is_reported_and_its_look_alike_is_quiet(hazard: str, lines: list[int], look_alike: str) -> None:
    assert _lines(hazard) == lines
    assert _lines(look_alike) == []
