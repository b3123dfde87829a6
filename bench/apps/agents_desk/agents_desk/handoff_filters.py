"""Handoff input filters used when triage hands a ticket to billing or tech support."""

from __future__ import annotations

import copy
import re

from agents import HandoffInputData, TResponseInputItem
from agents.extensions import handoff_filters

_CARD = re.compile(r"\b(?:\d[ -]?){13,16}\b")


def _mask(text: str) -> str:
    return _CARD.sub("[card]", text)


def mask_cards_in_place(data: HandoffInputData) -> HandoffInputData:
    if isinstance(data.input_history, str):
        return data.clone(input_history=_mask(data.input_history))
    for item in data.input_history:
        content = item.get("content")  # type: ignore[union-attr]
        if isinstance(content, str) and "id" in item:
            item["content"] = _mask(content)  # type: ignore[typeddict-item]
    return data


def mask_cards(data: HandoffInputData) -> HandoffInputData:
    if isinstance(data.input_history, str):
        return data.clone(input_history=_mask(data.input_history))
    history: list[TResponseInputItem] = []
    for item in data.input_history:
        content = item.get("content")  # type: ignore[union-attr]
        if isinstance(content, str) and _CARD.search(content):
            fresh = {k: v for k, v in copy.deepcopy(item).items() if k != "id"}
            fresh["content"] = _mask(content)
            history.append(fresh)  # type: ignore[arg-type]
        else:
            history.append(item)
    return data.clone(input_history=tuple(history))


def billing_filter(data: HandoffInputData) -> HandoffInputData:
    return mask_cards(handoff_filters.remove_all_tools(data))


def tech_filter(data: HandoffInputData) -> HandoffInputData:
    return mask_cards_in_place(handoff_filters.remove_all_tools(data))
