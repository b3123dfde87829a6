"""Classes of installed packages read from source (`rules.environment`), and how the project index uses them."""

from __future__ import annotations

import sys
from pathlib import Path

from spanlint import Settings, check_source
from spanlint.rules.environment import FrameworkClasses, interpreter_paths
from spanlint.rules.project import ProjectIndex, summarize_source
from runtime_guard.vocabulary import DEFAULT_VOCABULARY

SCHEMA = '''\
from typing import Optional
from pydantic import BaseModel


class BaseNode(BaseModel):
    id_: str
    embedding: Optional[list[float]] = None

    def set_content(self, value: str) -> None:
        raise NotImplementedError

    @property
    def hash(self) -> str:
        return ""


class TextNode(BaseNode):
    text: str = ""
    start_char_idx: Optional[int] = None
'''


def _site(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    return root


def _index(frameworks: FrameworkClasses, source: str = "") -> ProjectIndex:
    index = ProjectIndex.merge(DEFAULT_VOCABULARY, [summarize_source(source, DEFAULT_VOCABULARY, "app.py")])
    index.frameworks = frameworks
    return index


def test_re_exports_are_followed_to_the_defining_module(tmp_path: Path) -> None:
    site = _site(tmp_path, {
        "fw/__init__.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from fw.core import TextNode as Node\n",
        "fw/core/__init__.py": "from .schema import *\n",
        "fw/core/schema.py": SCHEMA + "__all__ = ['TextNode']\n",
    })
    index = _index(FrameworkClasses([str(site)]))
    node = index.class_named("Node", None, "fw")
    assert node is not None and node.name == "TextNode"
    assert node.content_fields == ("text",) and node.derived_fields == ("embedding", "start_char_idx")
    assert node.hash_is_property and node.content_setters == ("set_content",)
    assert index.class_named("BaseNode", None, "fw.core") is None  # not in `__all__`


def test_a_stub_and_a_namespace_package_spread_over_two_entries(tmp_path: Path) -> None:
    first = _site(tmp_path / "one", {"ns/other.py": ""})
    second = _site(tmp_path / "two", {"ns/nodes/__init__.pyi": SCHEMA})
    frameworks = FrameworkClasses([str(first), str(second)])
    assert frameworks.class_facts("ns.nodes", "TextNode") is not None


def test_an_application_class_extends_a_framework_class(tmp_path: Path) -> None:
    site = _site(tmp_path, {"fw/schema.py": SCHEMA})
    app = "from fw.schema import TextNode\n\nclass SupportNode(TextNode):\n    ticket: str = ''\n"
    support = _index(FrameworkClasses([str(site)]), app).span_class("SupportNode")
    assert support is not None and support.derived_fields == ("embedding", "start_char_idx")
    assert {"TextNode", "BaseNode"} <= support.ancestors


def test_the_environment_s_source_wins_over_the_bundled_facts(tmp_path: Path) -> None:
    versioned = SCHEMA.replace('    text: str = ""\n', '    text: str = ""\n    version: int = 0\n')
    site = _site(tmp_path, {"llama_index/core/schema.py": versioned})
    frameworks = FrameworkClasses([str(site)])
    node = _index(frameworks).class_named("TextNode", None, "llama_index.core.schema")
    assert node is not None and node.version_fields == ("version",)
    assert not frameworks.from_bundled

    bundled = FrameworkClasses([str(tmp_path / "empty")])
    node = _index(bundled).class_named("TextNode", None, "llama_index.core.schema")
    assert node is not None and node.version_fields == () and node.derived_fields
    assert bundled.from_bundled == {"llama_index.core.schema"}
    assert "bundled facts used for llama_index.core.schema" in (bundled.note() or "")


def test_facts_are_kept_per_distribution_and_version(tmp_path: Path) -> None:
    site = _site(tmp_path / "site", {"fw/schema.py": SCHEMA, "fw-1.0.dist-info/METADATA": ""})
    store = tmp_path / "store"
    assert FrameworkClasses([str(site)], store).class_facts("fw.schema", "TextNode") is not None
    assert [p.relative_to(store).as_posix() for p in store.rglob("*.json")] == ["fw-1.0/fw.schema.json"]
    (site / "fw" / "schema.py").write_text("")  # the same version: its kept facts are used
    assert FrameworkClasses([str(site)], store).class_facts("fw.schema", "TextNode") is not None


def test_kept_facts_read_back_are_the_facts_read_from_source(tmp_path: Path) -> None:
    """A second run, which reads the kept facts, knows what the first read from the source: method
    return types, numeric fields and defaults included."""
    store_source = SCHEMA + (
        "\n\nclass NodeStore:\n    limit: int = 10\n\n"
        "    def get(self, node_id: str) -> TextNode:\n        return TextNode()\n"
    )
    site = _site(tmp_path / "site", {"fw/schema.py": store_source, "fw-1.0.dist-info/METADATA": ""})
    store = tmp_path / "store"
    first = FrameworkClasses([str(site)], store).class_facts("fw.schema", "NodeStore")
    again = FrameworkClasses([str(site)], store).class_facts("fw.schema", "NodeStore")
    assert first is not None and first.returns == (("get", "TextNode"),) and first.numeric == {"limit"}
    assert again == first


def test_bundled_facts_know_what_a_document_store_returns(tmp_path: Path) -> None:
    """Without Haystack installed (a pre-commit environment), what `filter_documents` returns is a
    Haystack `Document`."""
    bundled = FrameworkClasses([str(tmp_path / "empty")])
    store = _index(bundled).class_named("InMemoryDocumentStore", None, "haystack.document_stores.in_memory")
    assert store is not None and store.return_type("filter_documents") == "Document"


def test_another_interpreter_s_path_is_asked_once(tmp_path: Path) -> None:
    paths = interpreter_paths(sys.executable, tmp_path)
    assert any(p.endswith("site-packages") for p in paths)
    (remembered,) = tmp_path.glob("interpreter-*.json")
    remembered.write_text('["/remembered"]')
    assert interpreter_paths(sys.executable, tmp_path) == ["/remembered"]


def test_bundled_facts_know_autogen_s_model_messages_have_no_id(tmp_path: Path) -> None:
    """AutoGen's model clients take `autogen_core.models` messages: content without an id, not spans,
    so an in-place `rstrip` of the last one is no rewrite of a span (autogen-ext's model clients)."""
    bundled = FrameworkClasses([str(tmp_path / "empty")])
    message = _index(bundled).class_named("AssistantMessage", None, "autogen_core.models")
    assert message is not None and message.content_fields == ("content",)
    assert message.id_fields == () and not message.is_span
    assert "autogen_core.models" in bundled.from_bundled


def test_how_spanlint_is_started_changes_neither_its_environment_nor_its_cache_keys(tmp_path: Path) -> None:
    # The `spanlint` script puts its directory first on `sys.path`, `python -m spanlint` the current
    # directory: neither is part of the environment (a run of each would otherwise empty the other's cache).
    import subprocess

    show = "from spanlint.rules.environment import FrameworkClasses as F; print(F.for_environment(None, None).fingerprint)"
    script = tmp_path / "bin" / "tool.py"
    script.parent.mkdir()
    script.write_text(show + "\n", encoding="utf-8")
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "pkg.dist-info").mkdir()  # what a fingerprint reads from a sys.path entry
    (tmp_path / "bin" / "tool.dist-info").mkdir()
    env = {k: v for k, v in __import__("os").environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    (tmp_path / "project" / "show_fingerprint.py").write_text(show + "\n", encoding="utf-8")
    runs = [
        subprocess.run([sys.executable, str(script)], cwd=tmp_path / "project", env=env, capture_output=True, text=True),
        subprocess.run([sys.executable, "-m", "show_fingerprint"], cwd=tmp_path / "project", env=env, capture_output=True, text=True),
        subprocess.run([sys.executable, "-c", show], cwd=tmp_path / "project", env=env, capture_output=True, text=True),
        subprocess.run([sys.executable, "-c", show], cwd=tmp_path, env=env, capture_output=True, text=True),
    ]
    assert all(run.returncode == 0 for run in runs), [run.stderr for run in runs]
    assert len({run.stdout for run in runs}) == 1


def test_a_value_read_through_framework_fields_and_methods_has_their_annotated_class(tmp_path: Path) -> None:
    """`agent_state.memory.get_block(label)`: the field's and the method's classes are looked up where
    the framework's own modules import them from, though the application never imports them."""
    site = _site(tmp_path, {
        "fw/__init__.py": "",
        "fw/block.py": "from pydantic import BaseModel\n\nclass Block(BaseModel):\n    id: str\n    label: str\n    value: str\n",
        "fw/memory.py": (
            "from pydantic import BaseModel\nfrom fw.block import Block\n\n"
            "class Memory(BaseModel):\n    blocks: list[Block] = []\n\n"
            "    def get_block(self, label: str) -> Block:\n        return next(b for b in self.blocks if b.label == label)\n"
        ),
        "fw/agent.py": "from pydantic import BaseModel\nfrom fw.memory import Memory\n\nclass AgentState(BaseModel):\n    id: str\n    memory: Memory\n",
    })
    app = (
        "from fw.agent import AgentState\n\n"
        "def condense(agent_state: AgentState) -> None:\n"
        "    timeline = agent_state.memory.get_block('timeline')\n"
        "    timeline.value = timeline.value[-2000:]\n"
    )
    index = _index(FrameworkClasses([str(site)]), app)
    found = [(d.location.line, d.code) for d in check_source(app, "app.py", Settings(select=["SPL103"]), index)]
    assert found == [(5, "SPL103")]


def test_a_class_bound_under_a_second_name_is_that_class(tmp_path: Path) -> None:
    """`CallbackContext = Context` (Google ADK): the alias's fields and properties are the class's, so
    what the application reads through them has their classes."""
    site = _site(tmp_path, {
        "fw/__init__.py": "",
        "fw/events.py": "from pydantic import BaseModel\n\nclass Event(BaseModel):\n    id: str\n    content: str\n",
        "fw/session.py": "from pydantic import BaseModel\nfrom fw.events import Event\n\nclass Session(BaseModel):\n    events: list[Event] = []\n",
        "fw/context.py": (
            "from fw.session import Session\n\nclass Context:\n    @property\n    def session(self) -> Session:\n"
            "        return self._session\n"
        ),
        "fw/callback_context.py": "from .context import Context\n\nCallbackContext = Context\n",
    })
    app = (
        "from fw.callback_context import CallbackContext\n\n"
        "def redact(callback_context: CallbackContext) -> None:\n"
        "    for i, event in enumerate(callback_context.session.events):\n"
        "        callback_context.session.events[i] = event.model_copy(update={'content': scrub(event.content)})\n"
    )
    frameworks = FrameworkClasses([str(site)])
    assert frameworks.class_facts("fw.callback_context", "CallbackContext").name == "Context"
    index = _index(frameworks, app)
    found = [(d.location.line, d.code) for d in check_source(app, "app.py", Settings(select=["SPL103"]), index)]
    assert found == [(5, "SPL103")]
