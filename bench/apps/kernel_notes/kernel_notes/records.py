"""Records derived from note spans: vector-store chunks, citations, pinned facts."""

from dataclasses import dataclass, field
from typing import Annotated, TypedDict
from uuid import uuid4

from pydantic import Field

from semantic_kernel.data.vector import VectorStoreField, vectorstoremodel
from semantic_kernel.kernel_pydantic import KernelBaseModel


@vectorstoremodel(collection_name="note_chunks")
@dataclass
class NoteChunk:
    text: Annotated[str, VectorStoreField("data", is_full_text_indexed=True)]
    span_id: Annotated[str, VectorStoreField("data", is_indexed=True)]
    span_version: Annotated[int, VectorStoreField("data")]
    span_sha: Annotated[str, VectorStoreField("data")]
    embedding: Annotated[list[float] | None, VectorStoreField("vector", dimensions=1536)] = None
    key: Annotated[str, VectorStoreField("key")] = field(default_factory=lambda: str(uuid4()))


class Citation(TypedDict):
    span_id: str
    start: int
    end: int
    label: str


class CitationRef(KernelBaseModel):
    span_id: str
    version: int
    sha: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    label: str = ""


class PinnedFact(KernelBaseModel):
    fact_id: str
    statement: str
