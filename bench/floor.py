"""Parse floor: read every .py file of a corpus and parse it with libcst.parse_module.

    python bench/floor.py CORPUS [--jobs N]

This is the least work any LibCST linter must do, so spanlint's time is compared to it.
With --jobs > 1 the files are spread over a multiprocessing pool (fork), like a parallel
linter would. Prints one JSON line: files, parse errors, jobs.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
from pathlib import Path

import libcst

from corpus import python_files

CHUNK_SIZE = 8


def parses(path: Path) -> bool:
    """Read and parse one file; False if libcst rejects it."""
    try:
        libcst.parse_module(path.read_bytes())
    except libcst.ParserSyntaxError:
        return False
    return True


def parse_all(files: list[Path], jobs: int) -> list[bool]:
    """Parse files in this process (jobs == 1) or in a pool of `jobs` processes."""
    if jobs == 1:
        return [parses(path) for path in files]
    with multiprocessing.Pool(jobs) as pool:
        return list(pool.imap_unordered(parses, files, chunksize=CHUNK_SIZE))


def main() -> None:
    parser = argparse.ArgumentParser(description="read + libcst.parse_module every file")
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    files = python_files(args.corpus)
    results = parse_all(files, args.jobs)
    print(json.dumps({"files": len(files), "parse_errors": results.count(False),
                      "jobs": args.jobs}))


if __name__ == "__main__":
    main()
