"""Application settings and prompt templates."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict

from pydantic_settings import BaseSettings, SettingsConfigDict

import langroid.language_models as lm
from langroid.agent.chat_agent import ChatAgentConfig
from langroid.agent.special.doc_chat_agent import DocChatAgentConfig
from langroid.embedding_models.models import OpenAIEmbeddingsConfig
from langroid.parsing.parser import ParsingConfig
from langroid.vector_store.qdrantdb import QdrantDBConfig


class AppSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CTXKEEPER_")

    chat_model: str = lm.OpenAIChatModel.GPT4o.value
    embed_model: str = "text-embedding-3-small"
    collection: str = "ctxkeeper-docs"
    storage_path: str = ".qdrant/ctxkeeper"
    history_token_budget: int = 6000
    tombstone_grace_s: float = 15 * 60.0
    job_retention_s: float = 24 * 3600.0
    decision_log_path: str = "var/decisions.jsonl"
    db_path: str = "var/ctxkeeper.sqlite3"


@dataclass
class PromptTemplate:
    id: str
    text: str
    description: str = ""


DEFAULT_TEMPLATES: Dict[str, PromptTemplate] = {
    "system": PromptTemplate(
        id="system",
        text="You are a careful research assistant. Cite sources with [n].",
    ),
    "summary": PromptTemplate(
        id="summary",
        text="Summarize the following conversation turns faithfully:\n{turns}",
    ),
    "rolling": PromptTemplate(
        id="rolling",
        text=(
            "Here is the running summary so far:\n{summary}\n\n"
            "Update it with these new turns:\n{turns}"
        ),
    ),
}


class TemplateRegistry:
    def __init__(self, templates: Dict[str, PromptTemplate] | None = None) -> None:
        self._templates = dict(templates or DEFAULT_TEMPLATES)

    def get(self, template_id: str) -> PromptTemplate:
        return self._templates[template_id]

    def override(self, template_id: str, text: str) -> PromptTemplate:
        tpl = self._templates[template_id]
        tpl.text = text
        return tpl


def llm_config(settings: AppSettings) -> lm.OpenAIGPTConfig:
    return lm.OpenAIGPTConfig(chat_model=settings.chat_model, temperature=0.1)


def chat_config(settings: AppSettings, templates: TemplateRegistry) -> ChatAgentConfig:
    return ChatAgentConfig(
        name="Assistant",
        llm=llm_config(settings),
        system_message=templates.get("system").text,
        parsing=ParsingConfig(),
    )


def doc_config(settings: AppSettings) -> DocChatAgentConfig:
    return DocChatAgentConfig(
        name="Librarian",
        llm=llm_config(settings),
        vecdb=QdrantDBConfig(
            collection_name=settings.collection,
            storage_path=settings.storage_path,
            embedding=OpenAIEmbeddingsConfig(model_name=settings.embed_model),
        ),
        parsing=ParsingConfig(chunk_size=200, overlap=30),
    )
