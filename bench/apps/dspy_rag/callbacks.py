"""DSPy callback handlers installed through ``dspy.configure(callbacks=...)``."""

from __future__ import annotations

import time
from typing import Any

import dspy
from dspy.utils.callback import BaseCallback

from .textutil import content_digest

_TYPOGRAPHY = {"\u2026": "...", "\u2014": " - ", "\u00a0": " ", "\u201c": '"', "\u201d": '"'}


class TraceRecorder(BaseCallback):
    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def on_module_start(self, call_id: str, instance: Any, inputs: dict[str, Any]) -> None:
        self.events.append({"call_id": call_id, "event": "start", "module": type(instance).__name__, "at": time.time()})

    def on_module_end(self, call_id: str, outputs: Any | None, exception: BaseException | None = None) -> None:
        self.events.append(
            {"call_id": call_id, "event": "end", "ok": exception is None, "at": time.time()}
        )

    def on_tool_end(
        self, call_id: str, outputs: dict[str, Any] | None, exception: BaseException | None = None
    ) -> None:
        self.events.append({"call_id": call_id, "event": "tool_end", "ok": exception is None, "at": time.time()})


class TypographyNormalizer(BaseCallback):
    """Canonicalizes typography in passages emitted by the ingest module."""

    def __init__(self) -> None:
        self._ingest_calls: set[str] = set()

    def on_module_start(self, call_id: str, instance: Any, inputs: dict[str, Any]) -> None:
        if type(instance).__name__ == "Ingest":
            self._ingest_calls.add(call_id)

    def on_module_end(self, call_id: str, outputs: Any | None, exception: BaseException | None = None) -> None:
        if call_id not in self._ingest_calls:
            return
        self._ingest_calls.discard(call_id)
        if exception is not None or not isinstance(outputs, dspy.Prediction):
            return
        for passage in outputs.get("passages", None) or []:
            canon = passage.text
            for src, dst in _TYPOGRAPHY.items():
                canon = canon.replace(src, dst)
            if canon != passage.text:
                passage.text = canon
                passage.version += 1
                passage.content_hash = content_digest(canon)
