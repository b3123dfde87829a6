from typing import Any, Dict, List, Mapping

from autogen_core.model_context import BufferedChatCompletionContext
from autogen_core.models import AssistantMessage, LLMMessage, UserMessage

from .operators import redact_text


class RedactingContext(BufferedChatCompletionContext):
    def __init__(self, buffer_size: int) -> None:
        super().__init__(buffer_size=buffer_size)
        self.versions: Dict[int, int] = {}

    async def get_messages(self) -> List[LLMMessage]:
        messages = await super().get_messages()
        return [self._clean(m) for m in messages]

    def _clean(self, m: LLMMessage) -> LLMMessage:
        if isinstance(m, (UserMessage, AssistantMessage)) and isinstance(m.content, str):
            return m.model_copy(update={"content": redact_text(m.content)})
        return m

    async def scrub(self) -> None:
        for i, m in enumerate(self._messages):
            if isinstance(m, UserMessage) and isinstance(m.content, str):
                self._messages[i] = m.model_copy(update={"content": redact_text(m.content)})

    async def load_state(self, state: Mapping[str, Any]) -> None:
        await super().load_state(state)
        self.versions = {i: 1 for i in range(len(self._messages))}
