"""The pre-commit case over many files: `spanlint check FILE` on a sample of a corpus's files (run by hand).

    /work/.venv/bin/python bench/one_file_sample.py [--corpus agents|stdlib|PATH] [--every N]

`run.py` times three files (the median-size one, the 90th percentile, the largest); this times
every Nth file (by path) twice, one process per run:

* in the project: the corpus (a private copy, marked as a project with `.git`) with the cache
  primed by a whole-project run; the file gets a comment line appended before its run, so it is
  linted again, as a file changed before a commit;
* alone: the file copied into a project of its own, `--no-cache`.

Prints the median, 90th percentile and maximum wall time of each, and how many runs took at most
300 ms (the issue's target for the pre-commit case).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cases import SPANLINT_ALL_RULES, SPANLINT_CHECK, SPANLINT_JSON_OUTPUT, compile_spanlint, mark_project
from corpus import CORPUS_NAMES, DEFAULT_CACHE_DIR, python_files
from run import copy_corpus, resolve_corpus

TARGET_SECONDS = 0.3


def timed(command: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, capture_output=True, check=False)
    return time.perf_counter() - start


def summary(label: str, seconds: list[float]) -> str:
    ordered = sorted(seconds)
    count = len(ordered)
    within = sum(s <= TARGET_SECONDS for s in ordered)
    return (f"{label}: {count} files, median {ordered[count // 2] * 1000:.0f} ms, "
            f"p90 {ordered[(count - 1) * 9 // 10] * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms; "
            f"<= {TARGET_SECONDS * 1000:.0f} ms: {within} of {count}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="agents", help=f"{' or '.join(CORPUS_NAMES)} or a path")
    parser.add_argument("--every", type=int, default=41, help="time every Nth file (default: %(default)s)")
    parser.add_argument("--spanlint", default=str(Path(sys.executable).with_name("spanlint")))
    args = parser.parse_args()
    print(f"spanlint: {compile_spanlint(args.spanlint)}")
    corpus = resolve_corpus(args.corpus, DEFAULT_CACHE_DIR)
    with tempfile.TemporaryDirectory(prefix="spanlint-sample-") as temp:
        project = copy_corpus(corpus, Path(temp) / "project" / corpus.name)
        mark_project(project)
        check = [args.spanlint, *SPANLINT_CHECK, *SPANLINT_ALL_RULES, *SPANLINT_JSON_OUTPUT]
        subprocess.run([*check, "."], cwd=project, capture_output=True, check=False)  # primes the cache
        in_project: list[float] = []
        alone: list[float] = []
        for index, path in enumerate(python_files(project)[:: args.every]):
            own = Path(temp) / "alone" / str(index)
            own.mkdir(parents=True)
            mark_project(own)
            shutil.copy2(path, own / path.name)
            alone.append(timed([*check, "--no-cache", path.name], own))
            with path.open("a") as handle:
                handle.write("\n# spanlint-sample edit\n")
            in_project.append(timed([*check, str(path.relative_to(project))], project))
        print(summary("in the project, cache primed, file edited", in_project))
        print(summary("alone, no cache", alone))


if __name__ == "__main__":
    main()
