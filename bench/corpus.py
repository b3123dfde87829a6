"""Build and describe spanlint's benchmark corpora (code nobody on the team wrote).

    python bench/corpus.py [DIR]      (default DIR: ~/.cache/spanlint-corpus)

Produces, idempotently (same layout, pins and stamps as the team's original corpus.sh, so an
existing cache is reused as is):

    DIR/agents/<package>/...  the .py members of PINNED wheels of agent / memory frameworks
    DIR/triage/<package>/...  the same for frameworks kept out of `agents` (issue 14: real code
                              the rules were not tuned on; untimed, triaged in docs/real-world.md)
    DIR/stdlib/...            the .py files of the running python3's stdlib
                              (top-level test/ and site-packages/ excluded)
    DIR/wheels/               the downloaded wheels (a rebuild needs no network)
    DIR/.stamps/              one stamp per finished package, named with its pinned version
    DIR/.semgrepignore        empty: with `semgrep --project-root DIR` it replaces semgrep's
                              default ignore list (which drops test/ and tests/ directories),
                              so semgrep scans the same files as the other tools

Env: PYTHON (default python3): its pip downloads the wheels and its stdlib is copied.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

DEFAULT_CACHE_DIR = Path.home() / ".cache" / "spanlint-corpus"
CORPUS_NAMES = ("agents", "triage", "stdlib")

# Pins chosen 2026-12-01: the latest release on PyPI that day, except letta (see below).
# (directory name, pip requirement)
AGENT_PINS = (
    ("langchain-core", "langchain-core==1.8.4"),
    ("langchain", "langchain==1.5.2"),
    ("langgraph", "langgraph==1.2.24"),
    ("langmem", "langmem==0.0.30"),
    ("llama-index-core", "llama-index-core==0.14.25"),
    # letta: the latest letta (0.34.12) is a 79 MB manylinux wheel that ships the Node.js
    # "letta-code" CLI and only 5 .py files (~1k lines). 0.16.8 is the last release that is
    # the Python agent/memory server (536 .py files, ~138k lines, 1.5 MB wheel), so it is
    # pinned instead of letta-client (a generated REST SDK).
    ("letta", "letta==0.16.8"),
    ("mem0ai", "mem0ai==2.2.1"),
    ("autogen-agentchat", "autogen-agentchat==0.7.5"),
    ("autogen-core", "autogen-core==0.7.5"),
    ("crewai", "crewai==1.15.30"),
    ("openai-agents", "openai-agents==0.24.0"),
)

# Pins chosen 2026-12-01, each the latest release on PyPI that day (`pip index versions`): the
# frameworks of issue 14's "real code not tuned on", kept apart from AGENT_PINS so the timed
# `agents` corpus stays comparable with earlier runs. Every finding on them is triaged in
# docs/real-world.md. Why each is in: what it does with context spans.
TRIAGE_PINS = (
    # LangChain's integrations: chat-history stores, retrievers, document transformers,
    # memory classes editing message lists and documents.
    ("langchain-community", "langchain-community==0.4.2"),
    # Experimental chains and agents: generative-agent memory, summarizing and compressing chains.
    ("langchain-experimental", "langchain-experimental==0.4.2"),
    # AutoGen's extensions: model contexts, memory (ChromaDB, Redis, mem0), task-centric memory.
    ("autogen-ext", "autogen-ext==0.7.5"),
    # An agent framework with its own memory, message and compression (summarize-and-prune) code.
    ("agentscope", "agentscope==2.0.11"),
    # Multi-agent framework: roles keep message memories, documents and RAG stores.
    ("metagpt", "metagpt==0.8.2"),
    # Conversation memory with summaries, artifacts with ids, vector stores, rulesets.
    ("griptape", "griptape==1.13.0"),
    # LLM call layer: messages, responses, tool calls, history edited by the caller.
    ("mirascope", "mirascope==2.8.2"),
    # State machines whose state holds chat histories; persisters and trackers. The latest
    # `burr` (0.42.0) is an empty wheel that only requires apache-burr ("this package has moved
    # to apache-burr"), so the code is pinned under its new name, at that name's latest release.
    ("burr", "apache-burr==0.43.0"),
    # LlamaIndex integration packages that edit or rank nodes after retrieval (compressing,
    # reranking, PII-masking node text in place) and a memory store: beside llama-index-core
    # (in `agents`), so their nodes resolve to its classes only when both corpora are linted
    # together; alone they are third-party names.
    ("llama-index-postprocessor-longllmlingua", "llama-index-postprocessor-longllmlingua==0.7.0"),
    ("llama-index-postprocessor-rankgpt-rerank", "llama-index-postprocessor-rankgpt-rerank==0.6.0"),
    ("llama-index-postprocessor-presidio", "llama-index-postprocessor-presidio==0.7.0"),
    ("llama-index-postprocessor-cohere-rerank", "llama-index-postprocessor-cohere-rerank==0.10.0"),
    ("llama-index-postprocessor-colbert-rerank", "llama-index-postprocessor-colbert-rerank==0.6.0"),
    ("llama-index-retrievers-bm25", "llama-index-retrievers-bm25==0.8.0"),
    ("llama-index-memory-mem0", "llama-index-memory-mem0==2.1.0"),
)


@dataclass(frozen=True)
class CorpusSize:
    """How much Python a directory holds (lines as `wc -l`, plus an unterminated last line)."""

    files: int
    lines: int
    bytes: int


def python_files(root: Path) -> list[Path]:
    """Every .py file under root, sorted, so all tools and runs see the same order."""
    found = []
    for dirpath, _dirnames, filenames in os.walk(root):
        found.extend(Path(dirpath, name) for name in filenames if name.endswith(".py"))
    return sorted(found)


def count_lines(data: bytes) -> int:
    """Newlines, plus one for a last line without a newline."""
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def measure_size(root: Path) -> CorpusSize:
    """Files, lines and bytes of the .py files under root."""
    files = lines = size = 0
    for path in python_files(root):
        data = path.read_bytes()
        files += 1
        lines += count_lines(data)
        size += len(data)
    return CorpusSize(files, lines, size)


def build_wheels(cache_dir: Path, corpus: str, pins: tuple[tuple[str, str], ...],
                 python: str) -> None:
    """Download each pinned wheel (if its stamp is missing) and unzip only its .py members."""
    for name, requirement in pins:
        version = requirement.split("==", 1)[1]
        stamp = cache_dir / ".stamps" / f"{corpus}-{name}-{version}"
        package_dir = cache_dir / corpus / name
        if stamp.exists() and package_dir.is_dir():
            print(f"skip   {requirement} (present)")
            continue
        print(f"fetch  {requirement}")
        for old_stamp in (cache_dir / ".stamps").glob(f"{corpus}-{name}-*"):
            old_stamp.unlink()
        wheel = download_wheel(requirement, cache_dir / "wheels", python)
        shutil.rmtree(package_dir, ignore_errors=True)
        package_dir.mkdir(parents=True)
        extracted = extract_python_members(wheel, package_dir)
        print(f"       unzipped {extracted} .py files from {wheel.name}")
        stamp.touch()


def download_wheel(requirement: str, wheel_dir: Path, python: str) -> Path:
    """`pip download` one wheel (never an sdist), keep it in wheel_dir, return its path."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [python, "-m", "pip", "download", "--disable-pip-version-check", "-q",
             "--no-deps", "--only-binary=:all:", "-d", tmp, requirement],
            check=True,
        )
        (wheel,) = Path(tmp).glob("*.whl")
        kept = wheel_dir / wheel.name
        shutil.copyfile(wheel, kept)
    return kept


def extract_python_members(wheel: Path, dest: Path) -> int:
    """Unzip the .py members of a wheel into dest, refusing absolute or escaping paths."""
    with zipfile.ZipFile(wheel) as archive:
        members = [m for m in archive.namelist() if m.endswith(".py")]
        for member in members:
            normalized = os.path.normpath(member)
            if normalized.startswith("..") or os.path.isabs(normalized):
                continue
            archive.extract(member, dest)
    return len(members)


def build_stdlib(cache_dir: Path, python: str) -> None:
    """Copy the stdlib .py files of `python` (without test/ and site-packages/)."""
    probe = "import sysconfig, platform; print(sysconfig.get_paths()['stdlib']); " \
            "print(platform.python_version())"
    stdlib, version = subprocess.run(
        [python, "-c", probe], check=True, capture_output=True, text=True
    ).stdout.split()
    stamp = cache_dir / ".stamps" / f"stdlib-{version}"
    dest = cache_dir / "stdlib"
    if stamp.exists() and dest.is_dir():
        print(f"skip   stdlib of Python {version} (present)")
        return
    print(f"copy   stdlib of Python {version} from {stdlib}")
    for old_stamp in (cache_dir / ".stamps").glob("stdlib-*"):
        old_stamp.unlink()
    shutil.rmtree(dest, ignore_errors=True)
    for source in stdlib_sources(Path(stdlib)):
        target = dest / source.relative_to(stdlib)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    stamp.touch()


def stdlib_sources(stdlib: Path) -> list[Path]:
    """Regular .py files of the stdlib, skipping the top-level test/ and site-packages/."""
    sources = []
    for dirpath, dirnames, filenames in os.walk(stdlib):
        if Path(dirpath) == stdlib:
            dirnames[:] = [d for d in dirnames if d not in ("test", "site-packages")]
        for name in filenames:
            path = Path(dirpath, name)
            if name.endswith(".py") and path.is_file() and not path.is_symlink():
                sources.append(path)
    return sources


def build_corpora(cache_dir: Path = DEFAULT_CACHE_DIR, python: str | None = None) -> None:
    """Build (or reuse) every corpus and the empty .semgrepignore under cache_dir."""
    python = python or os.environ.get("PYTHON", "python3")
    for sub in ("agents", "triage", "wheels", ".stamps"):
        (cache_dir / sub).mkdir(parents=True, exist_ok=True)
    build_wheels(cache_dir, "agents", AGENT_PINS, python)
    build_wheels(cache_dir, "triage", TRIAGE_PINS, python)
    build_stdlib(cache_dir, python)
    (cache_dir / ".semgrepignore").touch()


def print_sizes(cache_dir: Path) -> None:
    """Per-package and total counts, the same table corpus.sh printed."""
    print(f"\n{'corpus/package':44s} {'files':>7s} {'lines':>9s} {'bytes':>11s}")
    for corpus in ("agents", "triage"):
        total = CorpusSize(0, 0, 0)
        for package in sorted(p for p in (cache_dir / corpus).iterdir() if p.is_dir()):
            size = measure_size(package)
            total = CorpusSize(total.files + size.files, total.lines + size.lines,
                               total.bytes + size.bytes)
            label = f"{corpus}/{package.name}"
            print(f"  {label:42s} {size.files:7d} {size.lines:9d} {size.bytes:11d}")
        label = f"{corpus} (total)"
        print(f"{label:44s} {total.files:7d} {total.lines:9d} {total.bytes:11d}")
    size = measure_size(cache_dir / "stdlib")
    print(f"{'stdlib':44s} {size.files:7d} {size.lines:9d} {size.bytes:11d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cache_dir", nargs="?", type=Path, default=DEFAULT_CACHE_DIR)
    args = parser.parse_args()
    build_corpora(args.cache_dir)
    print_sizes(args.cache_dir)


if __name__ == "__main__":
    sys.exit(main())
