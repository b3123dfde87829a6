from dataclasses import dataclass


@dataclass
class Settings:
    id: str = "default"
    text: str = "ag-memory"
    buffer_size: int = 40
    tombstone_ttl_s: float = 3600.0
    model: str = "gpt-4o-mini"


def apply_override(settings: Settings, key: str, value: str) -> Settings:
    settings.text = value if key == "text" else settings.text
    return settings
