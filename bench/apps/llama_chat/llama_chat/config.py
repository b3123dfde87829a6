"""Runtime settings for the chat assistant."""

from pydantic import BaseModel, Field


class AssistantSettings(BaseModel):
    """Per-tenant settings; edited from the admin console."""

    id: str = Field(default="default", description="Tenant profile id.")
    model_name: str = "gpt-4o-mini"
    system_prompt: str = (
        "You are the Acme support assistant. Answer only from the provided context "
        "and cite sources as [n]."
    )
    house_rules: str = "Never promise refunds. Escalate legal questions to a human."
    token_limit: int = 12_000
    history_token_ratio: float = 0.7
    max_pinned_notes: int = 20
    memory_keep_last: int = 40


def patch_prompt(settings: AssistantSettings, text: str) -> AssistantSettings:
    """Hot-patch the system prompt from the admin console."""
    settings.system_prompt = text.strip()
    return settings
