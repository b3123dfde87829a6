"""Make `rules/frameworks/facts.json`: the span types of the main frameworks, from pinned wheels.

    python tools/make_framework_facts.py [--wheels DIR]

Downloads each pinned wheel (`pip download --no-deps`, into `--wheels`, default a temporary
directory), unpacks only its `.py`/`.pyi` members, reads the classes listed in TARGETS with the
extractor spanlint uses on an installed environment (`rules.environment`), and writes what they
declare, their bases and the re-exports that lead to them: sorted, compact and deterministic, so
a change to the output reviews like a change to code. Rerun it after changing a pin or a target.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from spanlint.rules.environment import BUNDLED_FACTS, FACTS_FORMAT, FrameworkClasses, ModuleFacts, encode_module  # noqa: E402
from spanlint.rules.project import CONTAINER_METHODS, NEUTRAL_BASES, RECORD_LIBRARIES, ClassFacts  # noqa: E402
from runtime_guard.vocabulary import DEFAULT_VOCABULARY  # noqa: E402

PINS = {
    "llama-index-core": "0.14.25",
    "langchain-core": "1.8.3",
    "langgraph": "1.2.24",
    "letta": "0.16.8",
    "crewai": "1.15.30",
    "haystack-ai": "3.4.1",
    "semantic-kernel": "1.45.0",
    "autogen-agentchat": "0.7.5",
    "autogen-core": "0.7.5",
    "openai-agents": "0.24.0",
}
# Module -> the classes an application imports from it.
TARGETS = {
    "llama_index.core": ("Document",),
    "llama_index.core.schema": ("BaseNode", "Document", "ImageNode", "IndexNode", "Node", "NodeWithScore", "TextNode"),
    "langchain_core.messages": (
        "AIMessage", "AIMessageChunk", "BaseMessage", "BaseMessageChunk", "ChatMessage", "FunctionMessage",
        "HumanMessage", "RemoveMessage", "SystemMessage", "ToolMessage",
    ),
    "langchain_core.documents": ("Document",),
    "langgraph.graph": ("MessagesState",),
    "langgraph.graph.message": ("MessagesState",),
    "letta.schemas.block": ("BaseBlock", "Block"),
    "letta.schemas.message": ("Message",),
    "crewai.memory": ("MemoryRecord",),
    "crewai.memory.types": ("MemoryRecord",),
    "haystack": ("Document",),
    # stores, histories and retrievers: what their methods return tells what is read out of them
    "haystack.document_stores.in_memory": ("InMemoryDocumentStore",),
    "langchain_core.vectorstores": ("InMemoryVectorStore", "VectorStore"),
    "langchain_core.chat_history": ("BaseChatMessageHistory", "InMemoryChatMessageHistory"),
    "langchain_core.retrievers": ("BaseRetriever",),
    "llama_index.core.storage.docstore": ("BaseDocumentStore", "SimpleDocumentStore"),
    "llama_index.core.retrievers": ("BaseRetriever",),
    "semantic_kernel.contents.chat_history": ("ChatHistory",),
    "autogen_core.model_context": ("BufferedChatCompletionContext", "ChatCompletionContext"),
    "haystack.dataclasses": ("ChatMessage", "Document"),
    "semantic_kernel.contents": ("ChatMessageContent",),
    "semantic_kernel.contents.chat_message_content": ("ChatMessageContent",),
    "autogen_agentchat.messages": (
        "BaseChatMessage", "BaseTextChatMessage", "HandoffMessage", "MultiModalMessage", "StopMessage",
        "TextMessage", "ToolCallSummaryMessage",
    ),
    # what AutoGen's model clients take and return (`ChatCompletionClient.create(messages)`)
    "autogen_core.models": (
        "AssistantMessage", "FunctionExecutionResultMessage", "SystemMessage", "UserMessage",
    ),
    "agents": ("HandoffOutputItem", "MessageOutputItem", "ReasoningItem", "ToolCallItem", "ToolCallOutputItem"),
    "agents.items": ("HandoffOutputItem", "MessageOutputItem", "ReasoningItem", "ToolCallItem", "ToolCallOutputItem"),
}
# Methods kept: those the rules ask about (content setters, bump and rehash methods, a container's).
KEPT_METHODS = frozenset({
    *DEFAULT_VOCABULARY.content_setters, *DEFAULT_VOCABULARY.bump_methods, *DEFAULT_VOCABULARY.rehash_methods,
    *CONTAINER_METHODS,
})


def download(wheels: Path) -> list[Path]:
    found = []
    for distribution, version in sorted(PINS.items()):
        wanted = f"{distribution.replace('-', '_')}-{version}-"
        have = [w for w in wheels.glob("*.whl") if w.name.lower().startswith(wanted.lower())]
        if not have:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "-d", str(wheels),
                 f"{distribution}=={version}"],
                check=True,
            )
            have = [w for w in wheels.glob("*.whl") if w.name.lower().startswith(wanted.lower())]
        found.append(have[0])
    return found


def unpack(wheels: list[Path], site: Path) -> None:
    """The Python sources of the wheels, as an installed environment would hold them."""
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.namelist():
                if member.endswith((".py", ".pyi")) and ".." not in Path(member).parts:
                    archive.extract(member, site)


class Collector:
    """The modules (with only the kept classes and bindings) that resolving the targets reads."""

    def __init__(self, site: Path) -> None:
        self.site = site
        self.classes = FrameworkClasses([str(site)])
        self.kept: dict[str, ModuleFacts] = {}

    def follow(self, module: str, name: str, required: bool = True) -> None:
        """Resolve `from module import name` as `FrameworkClasses.class_facts` does, keeping each hop.
        A target that does not resolve stops the script; a base class that does not (a library's) is left out."""
        hops: list[tuple[str, str, tuple[str, str]]] = []
        for _ in range(20):
            facts = self.classes.module(module) if module.split(".")[0] not in RECORD_LIBRARIES else None
            if facts is not None and name in facts.classes:
                for hop_module, hop_name, bound in hops:
                    self.kept.setdefault(hop_module, ModuleFacts()).names[hop_name] = bound
                self._keep(module, facts.classes[name])
                return
            bound = facts.names.get(name) if facts is not None else None
            if facts is not None and (bound is None or not bound[1]):
                star = next((s for s in facts.stars if (f := self.classes.module(s)) is not None and f.exported(name)
                             and (name in f.classes or name in f.names)), None)
                bound = (star, name) if star else None
            if bound is None:
                if required:
                    raise SystemExit(f"{module}: {name} not found in the wheels")
                return
            hops.append((module, name, bound))
            module, name = bound
        raise SystemExit(f"{module}: {name}: too many re-exports")

    def _keep(self, module: str, found: ClassFacts) -> None:
        kept = self.kept.setdefault(module, ModuleFacts())
        if found.name in kept.classes:
            return
        kept.classes[found.name] = replace(
            found, methods=found.methods & KEPT_METHODS, path=Path(found.path).relative_to(self.site).as_posix()
        )
        for base, base_module in zip(found.bases, found.base_modules or ("",) * len(found.bases)):
            if base_module.split(".")[0] == module.split(".")[0] and base not in NEUTRAL_BASES:
                self.follow(base_module, base, required=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheels", type=Path, help="where the wheels are downloaded (kept between runs)")
    parser.add_argument("--output", type=Path, default=BUNDLED_FACTS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="spanlint-facts-") as temporary:
        wheels = args.wheels or Path(temporary) / "wheels"
        wheels.mkdir(parents=True, exist_ok=True)
        site = Path(temporary) / "site"
        unpack(download(wheels), site)
        collector = Collector(site)
        for module, names in sorted(TARGETS.items()):
            for name in names:
                collector.follow(module, name)
    data = {
        "format": FACTS_FORMAT,
        "distributions": dict(sorted(PINS.items())),
        "modules": {module: encode_module(facts) for module, facts in sorted(collector.kept.items())},
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    count = sum(len(f.classes) for f in collector.kept.values())
    print(f"{args.output}: {count} classes in {len(collector.kept)} modules")


if __name__ == "__main__":
    main()
