"""Latency of `spanlint server` from a change to its diagnostics, on large files.

    python bench/lsp_latency.py [--edits N]

Starts the server over stdio with pygls's LanguageClient (as an editor would), opens each file, then
sends N whole-document changes, each waiting for the diagnostics of that document version; prints the
median and 90th percentile, which include the server's debounce (`lint.server.DEBOUNCE_SECONDS`),
and the server process's CPU time per change (user + system, from /proc: the latency less the
debounce on an idle core, whatever else the machine runs).
Files: the stdlib's largest module with one span operator appended (a large file with few rule
candidates), and copies of the example's operators (every function a candidate, `--dense-lines`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from spanlint.server import DEBOUNCE_SECONDS  # noqa: E402

OPERATOR = "\n\ndef shorten(span):\n    span.content = span.content[:100]\n"


def largest_stdlib_module() -> Path:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    files = [p for p in stdlib.glob("*.py")]
    return max(files, key=lambda p: p.read_bytes().count(b"\n"))


def generated_module(lines: int) -> str:
    example = (REPO / "examples" / "context_buffer.py").read_text()
    body = example.split("class ContextBuffer:", 1)[1]
    parts = [example.split("class ContextBuffer:", 1)[0]]
    copy = 0
    while sum(part.count("\n") for part in parts) < lines:
        parts.append(f"class ContextBuffer{copy}:" + body)
        copy += 1
    return "".join(parts)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(path: Path, source: str, edits: int) -> tuple[list[float], list[float]]:
    client = LanguageClient("spanlint-bench", "1")
    published: dict[int, float] = {}
    arrived = asyncio.Event()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
        published[params.version or 0] = time.perf_counter()
        arrived.set()

    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    await client.start_io(sys.executable, "-m", "spanlint", "server", cwd=str(path.parent), env=environment)
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), root_uri=path.parent.as_uri()))
    client.initialized(lsp.InitializedParams())
    uri = path.as_uri()

    async def wait_for(version: int) -> float:
        while version not in published:
            arrived.clear()
            await asyncio.wait_for(arrived.wait(), 600)
        return published[version]

    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "python", 1, source)))
    await wait_for(1)
    pid = client._server.pid  # the server process pygls started
    latencies, cpu = [], []
    for version in range(2, edits + 2):
        text = source + f"\n# edit {version}\n"
        before = cpu_seconds(pid)
        sent = time.perf_counter()
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [lsp.TextDocumentContentChangeWholeDocument(text=text)],
        ))
        latencies.append(await wait_for(version) - sent)
        cpu.append(cpu_seconds(pid) - before)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return latencies, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--dense-lines", type=int, default=500)
    args = parser.parse_args()
    stdlib = largest_stdlib_module()
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        (root / "pyproject.toml").write_text("[project]\nname = 'bench'\n")
        cases = {
            f"stdlib {stdlib.name} + one operator": stdlib.read_text(encoding="utf-8") + OPERATOR,
        }
        cases["example operators copied: every function a candidate"] = generated_module(args.dense_lines)
        print(f"debounce {DEBOUNCE_SECONDS * 1000:.0f} ms (included below)")
        for name, source in cases.items():
            path = root / ("case_" + str(len(os.listdir(root))) + ".py")
            path.write_text(source)
            latencies, cpu = asyncio.run(measure(path, source, args.edits))
            latencies.sort()
            median = statistics.median(latencies) * 1000
            p90 = latencies[int(0.9 * (len(latencies) - 1))] * 1000
            print(f"{name}: {source.count(chr(10)):,} lines, change -> diagnostics median {median:.0f} ms, "
                  f"p90 {p90:.0f} ms; server CPU per change median {statistics.median(cpu) * 1000:.0f} ms; "
                  f"{len(latencies)} edits; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
