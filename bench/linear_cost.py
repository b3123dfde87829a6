"""Time per MB of generated modules from 0.1 to 10 MB: every stage must be linear in a file's size.

Each module is what a code generator emits, in one of several shapes (`SHAPES`); each size runs in a
fresh process (`--select ALL`, no cache, one job, `max-file-bytes` raised), timed from after
start-up and a warm-up file to the end of `check_paths` (discovery, project pass, lint, fixes'
edits). Prints one row per (shape, size) and, per shape, the largest CPU time per MB over the
smallest: flat within 2x is the target (CPU time: on a shared machine wall time mostly measures
the other processes).

    python bench/linear_cost.py                       # every shape, 0.1 0.25 0.5 1 2 5 10 MB
    python bench/linear_cost.py --shapes models --sizes 0.1 1
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _models(i: int) -> str:
    # pydantic-like models and untyped writes: each write guesses its class by name (`block`).
    return (
        f"class Block{i}(BaseModel):\n    id: str\n    content: str\n\n\n"
        f"def edit{i}(block):\n    block.content = block.content.strip()\n\n\n"
    )


def _dataclasses(i: int) -> str:
    # dataclasses and typed writes with a version: one SPL101 with a fix each.
    return (
        f"@dataclass\nclass Span{i}:\n    id: str\n    content: str\n    version: int = 0\n\n\n"
        f"def trim{i}(span: Span{i}) -> None:\n    span.content = span.content[:{i % 100 + 1}]\n\n\n"
    )


def _orm(i: int) -> str:
    # SQLAlchemy-like declarative classes with a method writing another row's content.
    return (
        f"class Node{i}(Base):\n    __tablename__ = 'node{i}'\n    id = Column(Integer, primary_key=True)\n"
        f"    content = Column(String)\n\n    def copy_from(self, node):\n        node.content = self.content\n\n\n"
    )


def _protobuf(i: int) -> str:
    # protobuf-like message classes: no span edits, many classes and attributes.
    return (
        f"class Message{i}(object):\n    __slots__ = ('id', 'content', 'field_{i}')\n\n"
        f"    def __init__(self, id, content):\n        self.id = id\n        self.content = content\n"
        f"        self.field_{i} = None\n\n\n"
    )


def _table(i: int) -> str:
    # one big dict literal (a generated lookup table).
    return f"    'key{i}': {{'id': {i}, 'content': 'value {i}', 'tags': [1, 2, 3]}},\n"


SHAPES = {
    "models": ("from pydantic import BaseModel\n\n\n", _models, ""),
    "dataclasses": ("from dataclasses import dataclass\n\n\n", _dataclasses, ""),
    "orm": ("from sqlalchemy import Column, Integer, String\n\n\n", _orm, ""),
    "protobuf": ("", _protobuf, ""),
    "table": ("TABLE = {\n", _table, "}\n"),
}
SIZES = (0.1, 0.25, 0.5, 1, 2, 5, 10)


def generate(shape: str, megabytes: float) -> str:
    """A module of `shape` as close to `megabytes` MB as whole units make it (never over)."""
    head, unit, tail = SHAPES[shape]
    target = int(megabytes * 1_000_000) - len(head) - len(tail)
    parts, size, i = [], 0, 0
    while True:
        part = unit(i)
        if size + len(part) > target:
            break
        parts.append(part)
        size += len(part)
        i += 1
    return head + "".join(parts) + tail


_CHILD = """
import json, resource, sys, time
from pathlib import Path
from spanlint.config import ConfigResolver
from spanlint.runner import RunOptions, check_paths
from spanlint.settings import Settings
settings = Settings(select=("ALL",), max_file_bytes=10**9)
resolver = ConfigResolver.fixed(settings)
options = RunOptions(jobs=1, cache=False)
warm = Path(sys.argv[2])
warm.write_text("class Span:\\n    id: str\\n    content: str\\n\\ndef f(span: Span):\\n    span.content = 'x'\\n")
check_paths([str(warm)], resolver, options)
start, cpu = time.perf_counter(), time.process_time()
result = check_paths([sys.argv[1]], resolver, options)
elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": elapsed, "cpu": cpu, "findings": len(result.diagnostics), "peak_mib": peak}))
"""


def measure(shape: str, megabytes: float, timeout: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="spanlint-linear-") as directory:
        module = Path(directory, "generated", f"{shape}.py")
        warm = Path(directory, "warm", "warm.py")
        module.parent.mkdir()
        warm.parent.mkdir()
        text = generate(shape, megabytes)
        module.write_text(text)
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        try:
            done = subprocess.run(
                [sys.executable, "-c", _CHILD, str(module), str(warm)],
                capture_output=True, text=True, env=env, timeout=timeout, check=True,
            )
            found = json.loads(done.stdout)
        except subprocess.TimeoutExpired:
            found = {"seconds": float("inf"), "cpu": float("inf"), "findings": None, "peak_mib": None}
        found["megabytes"] = len(text.encode()) / 1_000_000
        return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES))
    parser.add_argument("--sizes", nargs="+", type=float, default=list(SIZES))
    parser.add_argument("--timeout", type=float, default=3600, help="seconds per module")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f} (nproc {os.cpu_count()})")
    print("| shape | MB | wall s | CPU s | CPU s/MB | findings | peak MiB |\n|---|---:|---:|---:|---:|---:|---:|", flush=True)
    spreads = {}
    for shape in args.shapes:
        rates = []
        for size in args.sizes:
            found = measure(shape, size, args.timeout)
            rate = found["cpu"] / found["megabytes"]
            rates.append(rate)
            peak = "-" if found["peak_mib"] is None else f"{found['peak_mib']:.0f}"
            print(
                f"| {shape} | {found['megabytes']:.2f} | {found['seconds']:.2f} | {found['cpu']:.2f} | {rate:.1f} "
                f"| {found['findings']} | {peak} |", flush=True,
            )
        spreads[shape] = max(rates) / min(rates)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    for shape, spread in spreads.items():
        print(f"{shape}: largest/smallest CPU time per MB = {spread:.2f}" + ("" if spread <= 2 else "  (over 2x)"))


if __name__ == "__main__":
    main()
