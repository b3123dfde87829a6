# rules: SPL202
"""Shapes met triaging frameworks the rules were not tuned on (issue 14): a channel reads a wiki document
in block ranges. The read result and the tool's parameters carry the document id and a start position, but
the position pages through the document (a `next_start_index`, or a start beside how many blocks to
read); it does not point into text the way a citation's start and end do."""
from pydantic import BaseModel, Field


class ParamsBase(BaseModel):
    pass


class WikiDocument(BaseModel):
    node_id: str
    name: str
    content: list[str]
    next_start_index: int | None = None


class ReadWikiDocumentParams(ParamsBase):
    node_id: str = Field(min_length=1)
    start_index: int = Field(default=0, ge=0)
    max_blocks: int = Field(default=50, ge=1, le=100)


class ListMessagesPage(BaseModel):
    message_id: str
    offset: int = 0
    limit: int = 20


class WikiQuote(BaseModel):  # expect: SPL202
    node_id: str
    text: str
    start_index: int
    end_index: int


class WikiAnchor(BaseModel):  # expect: SPL202
    node_id: str
    start_char_idx: int


class BlockRangeCitation(BaseModel):  # expect: SPL202
    block_id: str
    start_offset: int
    max_blocks: int
    end_offset: int
