"""Graph state."""

from typing import Annotated

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import NotRequired, TypedDict


class SupportState(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]
    summary: NotRequired[str]
    summary_sources: NotRequired[list[str]]
    customer_id: NotRequired[str]
    ticket_id: NotRequired[str]
