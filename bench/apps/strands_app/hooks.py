"""Hook providers wiring the context bookkeeping into the Strands agent lifecycle."""

from __future__ import annotations

import copy
import re
from typing import Any

from strands.hooks import (
    AfterInvocationEvent,
    BeforeModelCallEvent,
    HookProvider,
    HookRegistry,
    MessageAddedEvent,
    MessageUpdatedEvent,
)

from .buffer import SPAN_VERSION, ContextBuffer, hash_of, span_meta, stamp
from .embeddings import EmbeddingIndex
from .offsets import OffsetIndex
from .operators import normalize_whitespace

_SIGNOFF = re.compile(r"\n+(let me know if.*|hope this helps.*|best regards.*)$", re.I | re.S)


class ContextBookkeeping(HookProvider):
    def __init__(self, store: ContextBuffer, embeddings: EmbeddingIndex, offsets: OffsetIndex) -> None:
        self.store = store
        self.embeddings = embeddings
        self.offsets = offsets

    def register_hooks(self, registry: HookRegistry, **kwargs: Any) -> None:
        registry.add_callback(MessageAddedEvent, self.on_message_added)
        registry.add_callback(MessageUpdatedEvent, self.on_message_updated)
        registry.add_callback(BeforeModelCallEvent, self.before_model_call)
        registry.add_callback(AfterInvocationEvent, self.after_invocation)

    def on_message_added(self, event: MessageAddedEvent) -> None:
        meta = span_meta(event.message)
        meta.setdefault(SPAN_VERSION, 0)
        hash_of(event.message)

    def on_message_updated(self, event: MessageUpdatedEvent) -> None:
        stamp(event.message)
        self.embeddings.invalidate(event.tracking_id)
        self.offsets.drop(event.tracking_id)

    def before_model_call(self, event: BeforeModelCallEvent) -> None:
        normalize_whitespace(event.agent.messages)

    def after_invocation(self, event: AfterInvocationEvent) -> None:
        messages = event.agent.messages
        if not messages or messages[-1]["role"] != "assistant":
            return
        tidied = copy.deepcopy(messages[-1])
        for block in tidied["content"]:
            if "text" in block:
                block["text"] = _SIGNOFF.sub("", block["text"]).rstrip()
        messages[-1] = tidied
