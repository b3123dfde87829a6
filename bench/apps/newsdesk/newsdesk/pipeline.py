"""Indexing pipeline."""

from haystack import Pipeline
from haystack.components.writers import DocumentWriter
from haystack.document_stores.in_memory import InMemoryDocumentStore
from haystack.document_stores.types import DuplicatePolicy

from newsdesk.components.cached_embedder import StoryCachedEmbedder
from newsdesk.components.cleaners import DatelineRemover, HtmlStripper, Truncator

store = InMemoryDocumentStore()


def indexing_pipeline() -> Pipeline:
    p = Pipeline()
    p.add_component("html", HtmlStripper())
    p.add_component("dateline", DatelineRemover())
    p.add_component("truncate", Truncator())
    p.add_component("embed", StoryCachedEmbedder())
    p.add_component("write", DocumentWriter(document_store=store, policy=DuplicatePolicy.OVERWRITE))
    p.connect("html.documents", "dateline.documents")
    p.connect("dateline.documents", "truncate.documents")
    p.connect("truncate.documents", "embed.documents")
    p.connect("embed.documents", "write.documents")
    return p
