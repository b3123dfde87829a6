"""Reliability test helpers: run the real command in a subprocess, as a user would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# A function that rewrites span content in place and never bumps the version: one SPL101 at 2:5.
REWRITE = "def compress(span):\n    span.content = span.content[:100]\n"


@dataclass
class Run:
    code: int
    findings: list[dict]
    stderr: str

    def by_file(self) -> dict[str, list[tuple[str, int, int, str]]]:
        """Findings per file as (code, line, column, message)."""
        found: dict[str, list[tuple[str, int, int, str]]] = {}
        for f in self.findings:
            where = f["location"]
            found.setdefault(f["filename"], []).append((f["code"], where["row"], where["column"], f["message"]))
        return found


def spanlint(cwd: Path, *args: str, stdin: bytes | None = None, timeout: float = 60) -> Run:
    """`python -m spanlint check ARGS --output-format json` in `cwd`, with this checkout's code."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("SPANLINT_OUTPUT_FORMAT", None)
    done = subprocess.run(
        [sys.executable, "-m", "spanlint", "check", *args, "--output-format", "json"],
        cwd=cwd, env=env, input=stdin, capture_output=True, timeout=timeout,
        stdin=None if stdin is not None else subprocess.DEVNULL,
    )
    stdout = done.stdout.decode()
    findings = json.loads(stdout) if stdout.strip() else []
    return Run(done.returncode, findings, done.stderr.decode())


def relative(run: Run, root: Path) -> dict[str, list[tuple[str, int, int, str]]]:
    """`run.by_file()` keyed by paths relative to `root` (the command reports them relative to its cwd)."""
    return {os.path.relpath(name, root) if os.path.isabs(name) else name: found for name, found in run.by_file().items()}
