import json
from pathlib import Path

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.conditions import MaxMessageTermination
from autogen_agentchat.teams import RoundRobinGroupChat
from autogen_ext.models.openai import OpenAIChatCompletionClient

from .context import RedactingContext
from .memory_glue import SpanMemory
from .settings import Settings


def build_team(settings: Settings) -> RoundRobinGroupChat:
    client = OpenAIChatCompletionClient(model=settings.model)
    memory = SpanMemory(name="spans")
    writer = AssistantAgent("writer", model_client=client, memory=[memory],
                            model_context=RedactingContext(buffer_size=settings.buffer_size))
    critic = AssistantAgent("critic", model_client=client)
    return RoundRobinGroupChat([writer, critic], termination_condition=MaxMessageTermination(6))


async def checkpoint(team: RoundRobinGroupChat, path: Path) -> None:
    state = await team.save_state()
    path.write_text(json.dumps(state), encoding="utf-8")


async def restore(team: RoundRobinGroupChat, path: Path) -> None:
    await team.load_state(json.loads(path.read_text(encoding="utf-8")))
