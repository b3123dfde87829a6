"""An application whose spans are LlamaIndex and LangChain classes, linted by the installed command
with the frameworks installed (the test extra has them) and without them (bundled facts)."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.e2e.framework_app import FILES, expected, write_app
from tests.e2e.test_command import spanlint


@pytest.fixture(scope="session")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The interpreter of a new virtual environment without the frameworks (made once per session)."""
    target = tmp_path_factory.mktemp("bare") / "venv"
    venv.create(target, with_pip=False)
    return str(target / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python"))


@pytest.fixture
def app(tmp_path: Path) -> Path:
    return write_app(tmp_path / "project")


def _findings(done: subprocess.CompletedProcess[str]) -> set[tuple[str, int, str]]:
    assert done.returncode == 1, done.stderr
    return {(d["filename"], d["location"]["row"], d["code"]) for d in json.loads(done.stdout)}


def test_installed_frameworks_give_each_type_its_rule(app: Path) -> None:
    done = spanlint("check", "--output-format", "json", "--python", sys.executable, ".", cwd=app)
    assert _findings(done) == expected()
    assert "bundled facts" not in done.stderr  # both frameworks were read from their installed source


def test_without_the_frameworks_bundled_facts_give_the_same_findings(app: Path, bare_python: str) -> None:
    done = spanlint("check", "--output-format", "json", "--python", bare_python, ".", cwd=app)
    assert _findings(done) == expected()
    notes = [line for line in done.stderr.splitlines() if "note:" in line]
    assert len(notes) == 1, done.stderr
    assert "bundled facts used for langchain_core.messages, llama_index.core.schema" in notes[0]


def test_framework_facts_are_kept_per_distribution_and_version(app: Path) -> None:
    import llama_index.core

    check = ("check", "--output-format", "concise", "--python", sys.executable, "app/retrieval.py")
    first = spanlint(*check, cwd=app)
    kept = sorted(p.relative_to(p.parents[1]).as_posix() for p in (app / ".spanlint_cache" / "frameworks").glob("*/*/*.json"))
    assert f"llama_index_core-{llama_index.core.__version__}/llama_index.core.schema.json" in kept, kept
    (app / "app" / "retrieval.py").write_text(FILES["app/retrieval.py"] + "\n# edited\n")
    again = spanlint(*check, cwd=app)  # the file changed: linted again, with the kept facts
    assert again.stdout.count("SPL104") == first.stdout.count("SPL104") == 4


def test_the_offered_fix_runs_on_real_nodes(app: Path) -> None:
    fixed = spanlint("check", "--fix", "--unsafe-fixes", "--python", sys.executable, "app/retrieval.py", cwd=app)
    assert "Fixed 4 errors, 0 remaining." in fixed.stderr, fixed.stdout + fixed.stderr
    program = (
        "from llama_index.core.schema import Document, NodeWithScore, TextNode\n"
        "from app.retrieval import shorten, redact, upper_results\n"
        "node = TextNode(text='a long text', embedding=[0.1], start_char_idx=0, end_char_idx=11)\n"
        "shorten(node, 6)\n"
        "assert (node.text, node.embedding, node.start_char_idx, node.end_char_idx) == ('a long', None, None, None)\n"
        "doc = Document(text='a secret', embedding=[0.2])\n"
        "redact(doc)\n"
        "assert (doc.text, doc.embedding) == ('a [x]', None)\n"
        "hit = NodeWithScore(node=TextNode(text='x', embedding=[0.3]), score=1.0)\n"
        "upper_results([hit])\n"
        "assert (hit.node.text, hit.node.embedding) == ('X', None)\n"
    )
    ran = subprocess.run([sys.executable, "-c", program], cwd=app, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr


def test_an_interpreter_that_cannot_run_is_a_usage_error(app: Path) -> None:
    done = spanlint("check", "--python", str(app / "no-such-python"), ".", cwd=app)
    assert done.returncode == 2
    assert "no-such-python: cannot use this Python interpreter" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_configuration_names_the_interpreter(app: Path, bare_python: str) -> None:
    (app / ".spanlint.yaml").write_text(f"root: true\npython: {json.dumps(bare_python)}\n")
    done = spanlint("check", "--output-format", "json", ".", cwd=app)
    assert _findings(done) == expected()
    assert "bundled facts used for" in done.stderr


def test_an_exempted_type_and_its_subclasses_are_not_spans(app: Path) -> None:
    (app / ".spanlint.yaml").write_text("root: true\nvocabulary: {not_span_classes: [BaseMessage]}\n")
    done = spanlint("check", "--output-format", "json", "--python", sys.executable, ".", cwd=app)
    assert _findings(done) == {f for f in expected() if f[2] != "SPL103"}


def test_the_language_server_knows_the_frameworks_span_types(app: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The server builds its index itself: it must see the installed frameworks as `check` does.
    from spanlint.server import Linter

    monkeypatch.chdir(app)
    linter = Linter()
    found = set()
    for relative, text in FILES.items():
        if relative.endswith(".py"):
            diagnostics, _ = linter.lint(app / relative, text)
            found |= {(relative, d.location.line, d.code) for d in diagnostics}
    assert found == expected()
