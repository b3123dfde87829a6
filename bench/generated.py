"""Precision and recall of spanlint on the generated labelled programs, per dimension value.

    python bench/generated.py                       # 6,000 programs, seed 14: print the table
    python bench/generated.py --write-results       # and record it in bench/RESULTS.md
    python bench/generated.py --count 400 --dump /tmp/gen-failures
    python bench/generated.py --cli-check 40        # the CLI agrees with the in-process run

Each program is linted as its own project (its own project index: no class or helper of another
program is seen), with every rule selected. A finding is right when a label has its code and path
and its line lies within the labelled statement; a label is found when some finding is right for it.
Findings on `dont_care` lines count neither way. Misses and false alarms are dumped (dimensions,
labels, findings, sources) for whoever fixes the analysis.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent)]

from bench.programs import Label, Program, generate  # noqa: E402

SEED = 14
COUNT = 6000
# The dimensions reported, in order; `alias_kind` is one row per kind of alias in the chain.
DIMENSIONS = ("rule", "family", "form", "alias_depth", "alias_kind", "control_flow", "location", "naming", "annotation",
              "acquisition", "twin", "polarity")
TARGET_P, TARGET_R = 0.98, 0.95


@dataclass(frozen=True, order=True)
class Finding:
    code: str
    path: str
    line: int
    message: str = ""


@dataclass
class Outcome:
    """One program's findings judged against its labels."""

    program: Program
    findings: list[Finding]
    right: list[Finding] = field(default_factory=list)
    wrong: list[Finding] = field(default_factory=list)  # false alarms
    found: list[Label] = field(default_factory=list)
    missed: list[Label] = field(default_factory=list)


def _matches(f: Finding, label: Label) -> bool:
    return (label.code in (f.code, "*")) and label.path == f.path and label.start <= f.line <= label.end


def judge(program: Program, findings: list[Finding]) -> Outcome:
    out = Outcome(program, findings)
    for f in findings:
        if any(_matches(f, d) for d in program.dont_care):
            continue
        (out.right if any(_matches(f, label) for label in program.labels) else out.wrong).append(f)
    for label in program.labels:
        (out.found if any(_matches(f, label) for f in findings) else out.missed).append(label)
    return out


_FRAMEWORKS: list = []


def lint_program(program: Program) -> list[Finding]:
    """spanlint's findings on `program`, linted as a project of its own (public API), with the
    framework classes of this environment, as the command line reads them (`--cli-check`)."""
    from spanlint import Settings, check_source
    from spanlint.rules.environment import FrameworkClasses
    from spanlint.rules.project import ProjectIndex, summarize_source

    settings = Settings(select=("ALL",))
    summaries = [summarize_source(source, settings.vocabulary, path) for path, source in sorted(program.files.items())]
    project = ProjectIndex.merge(settings.vocabulary, summaries)
    if not _FRAMEWORKS:  # read once per process: every program is linted in the same environment
        _FRAMEWORKS.append(FrameworkClasses.for_environment(settings.python, None))
    project.frameworks = _FRAMEWORKS[0]
    project.frameworks.own_packages = frozenset(
        part for path in program.files for part in (*path.split("/")[:-1], path.rsplit("/", 1)[-1].removesuffix(".py"))
    )
    findings: list[Finding] = []
    for path, source in sorted(program.files.items()):
        for d in check_source(source, path, settings, project):
            if d.code != "SPL900":
                findings.append(Finding(d.code, path, d.location.line, d.message))
    return findings


def _lint_chunk(programs: list[Program]) -> list[list[Finding]]:
    return [lint_program(p) for p in programs]


def run(programs: list[Program], jobs: int) -> list[Outcome]:
    if jobs <= 1:
        results = _lint_chunk(programs)
    else:
        size = max(1, len(programs) // (jobs * 8))
        chunks = [programs[i:i + size] for i in range(0, len(programs), size)]
        with ProcessPoolExecutor(jobs) as pool:
            results = [r for chunk in pool.map(_lint_chunk, chunks) for r in chunk]
    return [judge(p, f) for p, f in zip(programs, results)]


def write_program(program: Program, root: Path) -> Path:
    """The program's files under `root/<name>`, which holds a `.git` marker (its own project root)."""
    target = root / program.name
    for path, source in program.files.items():
        file = target / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(source, encoding="utf-8")
    (target / ".git").mkdir(exist_ok=True)
    return target


def cli_findings(program: Program, root: Path) -> list[Finding]:
    """spanlint's findings on `program` from the command line, run in the program's directory."""
    where = write_program(program, root)
    exe = Path(sys.executable).with_name("spanlint")
    done = subprocess.run([str(exe), "check", "--select", "ALL", "--output-format", "json", "--no-cache", "."], cwd=where,
                          capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"spanlint exited {done.returncode} on {program.name}: {done.stderr.strip()}")
    return sorted(Finding(d["code"], (where / d["filename"]).resolve().relative_to(where.resolve()).as_posix(), d["location"]["row"])
                  for d in json.loads(done.stdout) if d["code"] != "SPL900")


# ---------------------------------------------------------------- figures

@dataclass
class Tally:
    programs: int = 0
    labels: int = 0
    found: int = 0
    findings: int = 0
    right: int = 0

    @property
    def precision(self) -> float | None:
        return self.right / self.findings if self.findings else None

    @property
    def recall(self) -> float | None:
        return self.found / self.labels if self.labels else None


def dimension_values(program: Program, dimension: str) -> list[str]:
    if dimension == "alias_kind":
        kinds = program.dims.get("alias_kinds", "-")
        return sorted(set(kinds.split("+"))) if kinds != "-" else ["none"]
    if dimension == "rule":
        return []  # per rule: counted by the code of each label and finding
    value = program.dims.get(dimension, "n/a")
    return [] if value in ("n/a", "-") else [value]


def tallies(outcomes: list[Outcome]) -> dict[str, dict[str, Tally]]:
    """For each dimension, each value: programs, labels, labels found, findings, right findings."""
    table: dict[str, dict[str, Tally]] = {d: defaultdict(Tally) for d in DIMENSIONS}
    table["all"] = defaultdict(Tally)
    for o in outcomes:
        for dimension in ("all", *DIMENSIONS):
            values = ["all"] if dimension == "all" else dimension_values(o.program, dimension)
            for value in values:
                t = table[dimension][value]
                t.programs += 1
                t.labels += len(o.found) + len(o.missed)
                t.found += len(o.found)
                t.findings += len(o.right) + len(o.wrong)
                t.right += len(o.right)
        for label in o.found + o.missed:
            t = table["rule"][label.code]
            t.labels += 1
            t.found += label in o.found
        for f in o.right + o.wrong:
            t = table["rule"][f.code]
            t.findings += 1
            t.right += f in o.right
    return table


def _fmt(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}"


def markdown(table: dict[str, dict[str, Tally]]) -> str:
    rows = ["| dimension | value | programs | labels | found | findings | right | P | R | target |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|:---:|"]
    for dimension in ("all", *DIMENSIONS):
        for value in sorted(table[dimension]):
            t = table[dimension][value]
            ok = meets_target(t)
            rows.append(f"| {dimension} | {value} | {t.programs or '–'} | {t.labels} | {t.found} | {t.findings} | {t.right} | "
                        f"{_fmt(t.precision)} | {_fmt(t.recall)} | {'yes' if ok else 'no'} |")
    return "\n".join(rows)


DUMP_MARKER = ".spanlint-generated-dump"


def meets_target(t: Tally) -> bool:
    return (t.precision is None or t.precision >= TARGET_P) and (t.recall is None or t.recall >= TARGET_R)


def floor2(x: float | None) -> float | None:
    """`x` rounded down to two decimals (a floor a ratchet can hold)."""
    return None if x is None else int(x * 100 + 1e-9) / 100


def shortfalls(table: dict[str, dict[str, Tally]]) -> dict[tuple[str, str], tuple[float | None, float | None]]:
    """The values below the target, with their precision and recall floors."""
    return {(d, v): (floor2(t.precision), floor2(t.recall)) for d in ("all", *DIMENSIONS) for v, t in sorted(table[d].items())
            if not meets_target(t)}


def dump(outcomes: list[Outcome], directory: Path) -> int:
    """Each program with a miss or a false alarm: its files and a `case.json` saying what went wrong.

    `directory` must be new, empty or an earlier dump (it holds DUMP_MARKER); an earlier dump's
    programs are replaced, nothing else is ever removed."""
    directory.mkdir(parents=True, exist_ok=True)
    marker = directory / DUMP_MARKER
    if not marker.exists() and any(directory.iterdir()):
        raise SystemExit(f"error: {directory} is neither empty nor an earlier dump; pass another --dump")
    marker.touch()
    for old in directory.glob("p[0-9][0-9][0-9][0-9][0-9]_*"):
        if (old / "case.json").is_file():
            shutil.rmtree(old)
    count = 0
    for o in outcomes:
        if not (o.missed or o.wrong):
            continue
        count += 1
        where = write_program(o.program, directory)
        (where / "case.json").write_text(json.dumps({
            "dims": o.program.dims,
            "labels": [vars(label) for label in o.program.labels],
            "missed": [vars(label) for label in o.missed],
            "false_alarms": [vars(f) for f in o.wrong],
            "findings": [vars(f) for f in o.findings],
        }, indent=2) + "\n", encoding="utf-8")
    return count


def _commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True, check=False)
    return done.stdout.strip() or "unknown"


def write_results(text: str, path: Path = HERE / "RESULTS.md") -> None:
    """Replace the generated-programs section of RESULTS.md (or append it)."""
    marker = "## Generated labelled programs"
    current = path.read_text(encoding="utf-8")
    start = current.find(marker)
    if start >= 0:
        end = current.find("\n## ", start + len(marker))
        current = current[:start].rstrip() + "\n\n" + (current[end + 1:] if end >= 0 else "")
    path.write_text(current.rstrip() + "\n\n" + text.rstrip() + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--count", type=int, default=COUNT)
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--dump", type=Path, default=HERE / "generated-failures",
                        help="a new or earlier dump directory for misses and false alarms (default: bench/generated-failures)")
    parser.add_argument("--no-dump", dest="dump", action="store_const", const=None)
    parser.add_argument("--write-results", action="store_true", help="record the table in bench/RESULTS.md")
    parser.add_argument("--cli-check", type=int, default=0, metavar="N",
                        help="also lint the first N programs with the spanlint command and check it agrees")
    parser.add_argument("--shortfalls", action="store_true",
                        help="print the values below the target as the KNOWN_SHORTFALLS table of tests/reliability/test_generated_labelled.py")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    programs = generate(args.seed, args.count)
    outcomes = run(programs, args.jobs)
    elapsed = time.perf_counter() - started
    table = tallies(outcomes)
    if args.shortfalls:
        print("KNOWN_SHORTFALLS = {")
        for key, floors in shortfalls(table).items():
            print(f"    {key!r}: {floors!r},")
        print("}")
        return 0
    print(markdown(table))
    if args.dump is not None:
        print(f"\n{dump(outcomes, args.dump)} programs with a miss or a false alarm in {args.dump}")
    print(f"{len(programs)} programs linted in {elapsed:.1f} s")
    if args.cli_check:
        with tempfile.TemporaryDirectory() as tmp:
            for o in outcomes[: args.cli_check]:
                expected = sorted(Finding(f.code, f.path, f.line) for f in o.findings)
                got = cli_findings(o.program, Path(tmp))
                if got != expected:
                    print(f"CLI and API disagree on {o.program.name}: {got} vs {expected}")
                    return 1
        print(f"the CLI agrees with the in-process run on {args.cli_check} programs")
    if args.write_results:
        now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M")
        positives = sum(o.program.dims["polarity"] == "positive" for o in outcomes)
        text = (f"## Generated labelled programs ({now} UTC, commit {_commit()})\n\n"
                f"`python bench/generated.py --seed {args.seed} --count {args.count} --write-results`: {len(programs)} programs "
                f"({positives} hazards, {len(programs) - positives} safe twins) from `bench/programs/` "
                f"(dimensions and labelling: bench/programs/README.md), each linted as its own project with every rule; "
                f"{elapsed:.0f} s with {args.jobs} processes. Target: every value P ≥ {TARGET_P}, R ≥ {TARGET_R}. "
                f"`rule` counts labels and findings by their own code; the other rows count every label and finding "
                f"of the programs with that value.\n\n" + markdown(table))
        write_results(text)
        print("recorded in bench/RESULTS.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
