"""What the harness times: one `Case` per row of the results table, built per tool.

Every case is a whole-process command line. Tools that are not installed are skipped by
`find_executable` returning None; the caller prints why.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from corpus import CorpusSize, count_lines, measure_size, python_files

BENCH_DIR = Path(__file__).resolve().parent
FLOOR_SCRIPT = BENCH_DIR / "floor.py"
SEMGREP_RULES_DIR = BENCH_DIR / "semgrep"

# --- spanlint command-line interface the harness relies on (the lead provides it) ---------
SPANLINT_CHECK = ("check",)
SPANLINT_NO_CACHE = "--no-cache"
SPANLINT_NO_PRESCAN = "--no-prescan"  # hidden flag: disable the project pre-scan
SPANLINT_JOBS = "--jobs"
SPANLINT_JSON_OUTPUT = ("--output-format", "json")
SPANLINT_ALL_RULES = ("--select", "ALL")  # the targets are for every rule, SPL900 included
SPANLINT_OK_RETURNCODES = frozenset({0, 1})  # 1: findings reported
# spanlint's project root (where its cache lives, whose files feed the project index) is the
# nearest ancestor holding .git or pyproject.toml; its walk skips .git.
SPANLINT_PROJECT_MARKER = ".git"

# The one-file cases (pre-commit): files picked by size, as percentiles of the corpus's files
# sorted by (size, path); 50 is the median-size file, 100 the largest.
ONE_FILE_PERCENTILES = (50, 90, 100)
ALONE_PERCENTILE = 50  # the one file also timed alone, outside any project, without cache

FIXIT_OK_RETURNCODES = frozenset({0, 1})  # 1: lint errors reported
SEMGREP_OK_RETURNCODES = frozenset({0})


@dataclass
class Case:
    """One timed command: a row of the results table."""

    label: str
    tool: str
    command: list[str]
    size: CorpusSize
    ok_returncodes: frozenset[int] = frozenset({0})
    cwd: Path | None = None
    repetitions: int = 1
    warm_up_runs: int = 0
    warm_up_command: list[str] | None = None  # what a warm-up runs, if not `command`
    before_each_run: Callable[[int], None] | None = None
    describe_output: Callable[[Path, Path], str] | None = None
    scale: int = 1
    notes: str = ""
    failed: bool = False
    measurements: list = field(default_factory=list)
    output_summary: str = ""


def find_executable(explicit: str | None, venv_bin: Path, name: str) -> str | None:
    """explicit path, else venv_bin/name, else `name` on PATH; None if none exists."""
    for candidate in (explicit, str(venv_bin / name)):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return shutil.which(name)


def tool_version(executable: str, *extra_args: str) -> str:
    """First line of `executable --version [extra_args]`, or '?'."""
    try:
        result = subprocess.run([executable, "--version", *extra_args], capture_output=True,
                                text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    lines = (result.stdout or result.stderr).strip().splitlines()
    return lines[0] if lines else "?"


# --- parse floor ---------------------------------------------------------------------------

def floor_case(corpus: Path, size: CorpusSize, jobs: int, repetitions: int) -> Case:
    """read + libcst.parse_module of every file, in `jobs` processes."""
    return Case(
        label=f"parse floor ({jobs} proc)",
        tool="floor",
        command=[sys.executable, str(FLOOR_SCRIPT), str(corpus), "--jobs", str(jobs)],
        size=size,
        repetitions=repetitions,
        describe_output=describe_floor_output,
    )


def describe_floor_output(stdout: Path, _stderr: Path) -> str:
    report = json.loads(stdout.read_text())
    return f"{report['files']} files parsed, {report['parse_errors']} parse errors"


# --- Fixit -----------------------------------------------------------------------------------

def fixit_case(fixit: str, corpus: Path, size: CorpusSize, repetitions: int,
               workdir: Path) -> Case:
    """`fixit lint CORPUS` with Fixit's built-in rules (one worker per CPU, not settable)."""
    return Case(
        label="Fixit lint (built-in rules)",
        tool="fixit",
        command=[fixit, "lint", str(corpus)],
        size=size,
        ok_returncodes=FIXIT_OK_RETURNCODES,
        cwd=workdir,
        repetitions=repetitions,
        describe_output=describe_fixit_output,
    )


def describe_fixit_output(stdout: Path, stderr: Path) -> str:
    findings = sum(1 for line in stdout.open(errors="replace") if re.match(r"\S+@\d+:\d+ ", line))
    checked = re.search(r"(\d+) files checked", stderr.read_text(errors="replace"))
    files = checked.group(1) if checked else "?"
    return f"{files} files checked, {findings} findings"


# --- semgrep ---------------------------------------------------------------------------------

def semgrep_project_root(corpus: Path) -> Path | None:
    """The nearest directory at or above corpus holding a .semgrepignore, if any."""
    for directory in (corpus, *corpus.parents):
        if (directory / ".semgrepignore").is_file():
            return directory
    return None


def semgrep_case(semgrep: str, corpus: Path, project_root: Path, size: CorpusSize,
                 jobs: int, repetitions: int, output_dir: Path) -> Case:
    """semgrep with the SPL101/201/301 rule files, offline, scanning the same files."""
    return Case(
        label="semgrep (SPL101+201+301 rules)",
        tool="semgrep",
        command=[semgrep, "scan", "--config", str(SEMGREP_RULES_DIR), "--metrics=off",
                 "--disable-version-check", "--project-root", str(project_root),
                 "--jobs", str(jobs), "--json", "--output", str(output_dir / "semgrep.json"),
                 str(corpus)],
        size=size,
        ok_returncodes=SEMGREP_OK_RETURNCODES,
        repetitions=repetitions,
        describe_output=lambda _stdout, _stderr: describe_semgrep_output(
            output_dir / "semgrep.json"),
    )


def describe_semgrep_output(json_path: Path) -> str:
    report = json.loads(json_path.read_text())
    per_rule: dict[str, int] = {}
    for result in report["results"]:
        rule = result["check_id"].rsplit(".", 1)[-1]
        per_rule[rule] = per_rule.get(rule, 0) + 1
    counts = ", ".join(f"{rule} {count}" for rule, count in sorted(per_rule.items()))
    scanned = len(report.get("paths", {}).get("scanned", []))
    return (f"{scanned} files scanned, findings: {counts or 'none'}, "
            f"{len(report['errors'])} errors")


# --- spanlint --------------------------------------------------------------------------------

def compile_spanlint(spanlint: str) -> str:
    """Compile spanlint's modules to bytecode with the interpreter of the `spanlint` script, as
    `pip install` does (an editable install, or PYTHONDONTWRITEBYTECODE=1 as on the machine this
    was written on, would leave every run compiling them again). Returns what happened."""
    with open(spanlint, "rb") as script:
        first_line = script.readline().decode(errors="replace").strip()
    if not first_line.startswith("#!"):
        return "bytecode not compiled (the spanlint script names no interpreter)"
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    result = subprocess.run(
        [first_line[2:].strip(), "-c", COMPILE_SPANLINT], env=environment, capture_output=True, text=True,
        timeout=300,
    )
    return "bytecode compiled" if result.returncode == 0 else f"bytecode not compiled: {result.stderr.strip()}"


# spanlint installs as `spanlint` and `spanlint.rules` (before issue 17: top-level `lint` and `rules`).
COMPILE_SPANLINT = (
    "import compileall, importlib, os\n"
    "try:\n"
    "    packages = [importlib.import_module(n) for n in ('spanlint', 'spanlint.rules', 'runtime_guard')]\n"
    "except ImportError:\n"
    "    packages = [importlib.import_module(n) for n in ('lint', 'rules', 'runtime_guard')]\n"
    "for package in packages:\n"
    "    assert compileall.compile_dir(os.path.dirname(package.__file__), quiet=1)\n"
)


def spanlint_available(spanlint: str) -> bool:
    """True if `spanlint check --help` runs."""
    try:
        result = subprocess.run([spanlint, *SPANLINT_CHECK, "--help"], capture_output=True,
                                timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0


def spanlint_command(spanlint: str, target: Path, jobs: int, *, cache: bool,
                     prescan: bool = True) -> list[str]:
    """`spanlint check` with JSON output, so runs can also be compared byte for byte."""
    command = [spanlint, *SPANLINT_CHECK, *SPANLINT_ALL_RULES, *SPANLINT_JSON_OUTPUT, SPANLINT_JOBS, str(jobs)]
    if not cache:
        command.append(SPANLINT_NO_CACHE)
    if not prescan:
        command.append(SPANLINT_NO_PRESCAN)
    return [*command, str(target)]


def spanlint_cases(spanlint: str, work_copy: Path, scratch: Path, size: CorpusSize, jobs: int,
                   repetitions: int) -> list[Case]:
    """Cold, warm, warm with one file changed, and one file (pre-commit) at a few sizes.

    The private copy is marked as a project (so its root, and cache, are the copy's even when
    one file is linted) and is also the working directory: the cache spanlint writes lands in
    the temp dir, never in the corpus or the repository. The one file timed alone is copied
    into `scratch`, a project of its own.
    """
    samples = files_at_percentiles(work_copy, ONE_FILE_PERCENTILES)
    alone = copy_into_own_project(samples[ALONE_PERCENTILE], scratch)
    mark_project(work_copy)
    largest = samples[max(ONE_FILE_PERCENTILES)]

    def cached(target: Path) -> list[str]:
        return spanlint_command(spanlint, target, jobs, cache=True)

    def uncached(target: Path) -> list[str]:
        return spanlint_command(spanlint, target, jobs, cache=False)

    def describe(path: Path) -> str:
        return f"{path.relative_to(work_copy)}, {file_size(path).lines:,} lines"

    common = dict(tool="spanlint", ok_returncodes=SPANLINT_OK_RETURNCODES, cwd=work_copy,
                  repetitions=repetitions)
    alone_common = dict(common, cwd=alone.parent)
    # A one-file case's warm-up primes the cache for the whole project, as earlier runs do
    # before a commit; its edit then makes the file one the linter must lint again.
    one_file_cases = [
        Case(label=f"spanlint one file, p{percentile} (cache primed, file edited)",
             command=cached(path), size=file_size(path), warm_up_runs=1,
             warm_up_command=cached(work_copy), before_each_run=appending_comment(path),
             notes=f"file: {describe(path)}", **common)
        for percentile, path in samples.items()
    ]
    return [
        Case(label="spanlint cold (--no-cache)", command=uncached(work_copy), size=size,
             **common),
        Case(label="spanlint warm (cache primed)", command=cached(work_copy), size=size,
             warm_up_runs=1, **common),
        Case(label="spanlint warm, 1 file changed", command=cached(work_copy), size=size,
             before_each_run=appending_comment(largest), notes=f"changed: {describe(largest)}",
             **common),
        *one_file_cases,
        Case(label=f"spanlint one file alone, p{ALONE_PERCENTILE} (no cache)",
             command=uncached(alone), size=file_size(alone),
             notes=f"file: {describe(samples[ALONE_PERCENTILE])}, alone in its project",
             **alone_common),
    ]


def files_at_percentiles(root: Path, percentiles: Iterable[int]) -> dict[int, Path]:
    """For each percentile p, the .py file at index (n - 1) * p // 100 of root's n files sorted
    by (size, path): p50 is the median-size file, p100 the largest."""
    by_size = sorted(python_files(root), key=lambda path: (path.stat().st_size, path))
    return {percentile: by_size[(len(by_size) - 1) * percentile // 100]
            for percentile in percentiles}


def file_size(path: Path) -> CorpusSize:
    """One file's size, as a corpus of one file."""
    return CorpusSize(1, count_lines(path.read_bytes()), path.stat().st_size)


def mark_project(directory: Path) -> None:
    """Make directory a project root for spanlint (a repository that is not a real one)."""
    (directory / SPANLINT_PROJECT_MARKER).mkdir(parents=True, exist_ok=True)


def copy_into_own_project(source: Path, directory: Path) -> Path:
    """A copy of source alone in directory, which becomes a project holding only it."""
    mark_project(directory)
    return Path(shutil.copy2(source, directory / source.name))


def appending_comment(path: Path) -> Callable[[int], None]:
    """A `before_each_run` that appends a comment line to path: an edit the linter must lint
    again (the file's content changes; its part of the project index does not)."""
    def append(repetition: int) -> None:
        with path.open("a") as handle:
            handle.write(f"\n# spanlint-bench edit {repetition}\n")
    return append


def scaling_cases(spanlint: str, scaled_copies: dict[int, Path], jobs: int,
                  repetitions: int) -> list[Case]:
    """spanlint cold on 1x, 2x, 4x the corpus (copies under distinct paths)."""
    return [
        Case(label=f"spanlint cold, {factor}x corpus", tool="spanlint",
             command=spanlint_command(spanlint, copy, jobs, cache=False),
             size=measure_size(copy), ok_returncodes=SPANLINT_OK_RETURNCODES, cwd=copy,
             repetitions=repetitions, scale=factor)
        for factor, copy in scaled_copies.items()
    ]
