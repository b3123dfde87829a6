"""A tiny text UI showing the window while the agent runs."""

from scratchpad.models import PanelLabel


class Panel:
    def __init__(self) -> None:
        self.labels: dict[str, PanelLabel] = {}
        self.history: list[str] = []

    def set_status(self, key: str, text: str) -> None:
        label = self.labels.setdefault(key, PanelLabel(key=key, text=""))
        label.text = text
        label.tooltip = text[:80]

    def show(self, window) -> str:
        rows = [f"{s.seg_id:>16} r{s.rev} {s.kind:<8} {s.body[:60]!r}" for s in window]
        self.history.append("\n".join(rows))
        if len(self.history) > 50:
            del self.history[:-50]
        return self.history[-1]
