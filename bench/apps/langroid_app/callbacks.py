"""Terminal UI hooks attached through the agent's ``callbacks`` namespace."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List

from langroid.agent.base import Agent


@dataclass
class StatusLabel:
    id: str
    text: str
    style: str = "dim"


@dataclass
class StatusBar:
    labels: Dict[str, StatusLabel] = field(default_factory=dict)
    transcript: List[str] = field(default_factory=list)

    def set(self, label_id: str, text: str, style: str = "dim") -> None:
        label = self.labels.setdefault(label_id, StatusLabel(label_id, text, style))
        label.text = text
        label.style = style

    def render(self) -> str:
        return "  |  ".join(lbl.text for lbl in self.labels.values())


def attach(agent: Agent, bar: StatusBar) -> None:
    def show_llm_response(
        content: str,
        tools_content: str = "",
        is_tool: bool = False,
        cached: bool = False,
        language: str | None = None,
        reasoning: str = "",
    ) -> None:
        bar.transcript.append(content or tools_content)
        bar.set("llm", "tool call" if is_tool else ("cached" if cached else "answer"), "cyan")

    def show_agent_response(content: str, language: str = "text", is_tool: bool = False) -> None:
        bar.transcript.append(content)
        bar.set("agent", f"{agent.config.name}: handled", "green")

    def show_error_message(error: str) -> None:
        bar.set("error", error[:60], "red")

    agent.callbacks.show_llm_response = show_llm_response
    agent.callbacks.show_agent_response = show_agent_response
    agent.callbacks.show_error_message = show_error_message
