from dataclasses import dataclass


@dataclass
class Label:
    id: str
    text: str


def relabel(labels: dict[str, Label], key: str, text: str) -> None:
    labels[key].text = text.upper()
