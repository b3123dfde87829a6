"""Runtime settings and the store namespaces the app writes to."""

from pydantic import BaseModel, Field

NOTES_NS = "profile_notes"


def memory_ns(user_id: str) -> tuple[str, ...]:
    return ("memories", user_id)


def decisions_ns(thread_id: str) -> tuple[str, ...]:
    return ("decisions", thread_id)


def scoped_ns(kind: str, scope: str) -> tuple[str, ...]:
    return (kind, scope)  # vectors, offsets, digests


class PromptProfile(BaseModel):
    id: str
    text: str


class AgentSettings(BaseModel):
    model: str = "anthropic:claude-3-5-haiku-latest"
    max_context_messages: int = 40
    digest_max_chars: int = 2400
    active_profile: str = "support"
    profiles: dict[str, PromptProfile] = Field(
        default_factory=lambda: {"support": PromptProfile(id="support", text="You are a careful support assistant.")}
    )

    def override_profile(self, profile_id: str, text: str) -> PromptProfile:
        profile = self.profiles[profile_id]
        profile.text = text
        return profile

    @property
    def system_prompt(self) -> str:
        return self.profiles[self.active_profile].text
