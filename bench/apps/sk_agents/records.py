"""Vector store record types for span retrieval."""

from dataclasses import dataclass
from typing import Annotated

from semantic_kernel.data.vector import VectorStoreField, vectorstoremodel

EMBEDDING_DIMENSIONS = 1536


@vectorstoremodel(collection_name="span_chunks")
@dataclass
class SpanChunk:
    chunk_id: Annotated[str, VectorStoreField("key")]
    span_id: Annotated[str, VectorStoreField("data", is_indexed=True)]
    start: Annotated[int, VectorStoreField("data")]
    end: Annotated[int, VectorStoreField("data")]
    text: Annotated[str, VectorStoreField("data", is_full_text_indexed=True)]
    embedding: Annotated[
        list[float] | None, VectorStoreField("vector", dimensions=EMBEDDING_DIMENSIONS)
    ] = None


@vectorstoremodel(collection_name="passages")
@dataclass
class PassageRecord:
    passage_id: Annotated[str, VectorStoreField("key")]
    span_id: Annotated[str, VectorStoreField("data", is_indexed=True)]
    span_version: Annotated[int, VectorStoreField("data")]
    span_hash: Annotated[str, VectorStoreField("data", is_indexed=True)]
    start: Annotated[int, VectorStoreField("data")]
    end: Annotated[int, VectorStoreField("data")]
    text: Annotated[str, VectorStoreField("data")]
    embedding: Annotated[
        list[float] | None, VectorStoreField("vector", dimensions=EMBEDDING_DIMENSIONS)
    ] = None
