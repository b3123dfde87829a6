"""Compare spanlint's read-only traversal (`rules.traversal`) with LibCST's `visit_batched` on a corpus.

    /work/.venv/bin/python bench/traversal.py /root/.cache/spanlint-corpus/agents [--jobs 2] [--select ALL]

Lints CORPUS once per traversal (each with the shape pre-scan on and off), renders the findings as
JSON, and checks the outputs are byte-identical; prints each run's wall time. Exit 1 on a
difference. No cache is used or written.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import libcst as cst

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spanlint.config import ConfigResolver  # noqa: E402
from spanlint.reporters import render_json  # noqa: E402
from spanlint.runner import RunOptions, check_paths  # noqa: E402
from spanlint.settings import Settings  # noqa: E402
from spanlint.rules import traversal  # noqa: E402

# Each traversal as (batched rule visits, one visitor's visit).
TRAVERSALS = {
    "spanlint": (traversal.visit_batched, traversal.visit),
    "libcst": (cst.visit_batched, lambda node, visitor: node.visit(visitor)),
}


def lint_json(corpus: Path, name: str, prescan: bool, jobs: int, select: tuple[str, ...]) -> tuple[str, float]:
    """The JSON report of CORPUS linted with the traversal `name`, and the wall time it took."""
    traversal.visit_batched, traversal.visit = TRAVERSALS[name]  # forked workers see it too
    resolver = ConfigResolver.fixed(Settings(select=select)) if select else ConfigResolver()
    start = time.perf_counter()
    result = check_paths([corpus], resolver, RunOptions(jobs=jobs, prescan=prescan, cache=False))
    return render_json(result, color=False), time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--select", default="", help="comma-separated selectors (default: the configured rules)")
    args = parser.parse_args()
    select = tuple(s for s in args.select.split(",") if s)
    same = True
    for prescan in (True, False):
        outputs = {}
        for name in TRAVERSALS:
            outputs[name], seconds = lint_json(args.corpus, name, prescan, args.jobs, select)
            findings = outputs[name].count('"code":')
            print(f"pre-scan {'on ' if prescan else 'off'}  {name:8}  {seconds:7.2f} s  {findings} findings")
        identical = outputs["spanlint"] == outputs["libcst"]
        same = same and identical
        print(f"pre-scan {'on ' if prescan else 'off'}  JSON {'identical' if identical else 'DIFFERS'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
