"""Benchmark spanlint against the LibCST parse floor, Fixit and semgrep (run by hand).

    /work/.venv/bin/python bench/run.py [--corpus agents|stdlib|PATH] [--reps N]
        [--tools floor,fixit,semgrep,spanlint] [--jobs N] [--check-determinism]

Runs of different cases alternate (round-robin, starting one case later each round); each
case reports the median whole-process wall time, lines/second and peak memory. Results are
printed and appended to bench/RESULTS.md. See bench/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import filecmp
import os
import shutil
import sys
import tempfile
from pathlib import Path

import cases as case_builders
import report
from cases import Case
from corpus import CORPUS_NAMES, DEFAULT_CACHE_DIR, build_corpora, measure_size
from measure import SAMPLE_INTERVAL_SECONDS, measure

ALL_TOOLS = ("floor", "fixit", "semgrep", "spanlint")
PEER_VENVS = Path("/work/.bench-venvs")
DEFAULT_RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
SCALE_FACTORS = (1, 2, 4)
STDERR_TAIL_LINES = 15
SAMPLE_INTERVAL_MS = round(SAMPLE_INTERVAL_SECONDS * 1000)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="agents",
                        help="agents, stdlib (built under --cache-dir if missing) or a path")
    parser.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE_DIR,
                        help="where the named corpora live (default: %(default)s)")
    parser.add_argument("--reps", type=int, default=3, help="timed runs per case")
    parser.add_argument("--fixit-reps", type=int, default=1,
                        help="timed Fixit runs (a full run takes minutes)")
    parser.add_argument("--tools", default=",".join(ALL_TOOLS),
                        help="comma-separated subset of: " + ",".join(ALL_TOOLS))
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)),
                        help="processes for spanlint and semgrep; the floor is measured "
                             "with 1 and this many (default: nproc)")
    parser.add_argument("--fixit", help="fixit executable (default: the bench venv's, or PATH)")
    parser.add_argument("--semgrep", help="semgrep executable (default: likewise)")
    parser.add_argument("--spanlint", help="spanlint executable (default: beside this python, "
                                           "or PATH)")
    parser.add_argument("--no-scaling", action="store_true",
                        help="skip the spanlint 1x/2x/4x scaling runs")
    parser.add_argument("--check-determinism", action="store_true",
                        help="compare spanlint JSON output across jobs, cache and pre-scan")
    parser.add_argument("--results", type=Path, default=DEFAULT_RESULTS,
                        help="markdown file the dated section is appended to")
    parser.add_argument("--no-record", action="store_true", help="print only")
    parser.add_argument("--keep-temp", action="store_true", help="keep copies and outputs")
    args = parser.parse_args(argv)
    args.tools = [tool.strip() for tool in args.tools.split(",") if tool.strip()]
    unknown = set(args.tools) - set(ALL_TOOLS)
    if unknown:
        parser.error(f"unknown tools: {', '.join(sorted(unknown))}")
    return args


def resolve_corpus(name_or_path: str, cache_dir: Path) -> Path:
    """A named corpus under cache_dir (built if missing), or an existing directory."""
    if name_or_path in CORPUS_NAMES:
        corpus = cache_dir / name_or_path
        if not corpus.is_dir():
            print(f"corpus {corpus} missing: building it")
            build_corpora(cache_dir)
        return corpus
    corpus = Path(name_or_path).resolve()
    if not corpus.is_dir():
        sys.exit(f"corpus {corpus} is not a directory")
    return corpus


def copy_corpus(corpus: Path, destination: Path) -> Path:
    """A private copy of corpus (so the real one is never written to)."""
    shutil.copytree(corpus, destination)
    return destination


def build_scaled_copies(corpus: Path, temp: Path) -> dict[int, Path]:
    """For each factor k, a directory holding k copies of corpus under distinct paths."""
    scaled = {}
    for factor in SCALE_FACTORS:
        root = temp / f"scale-{factor}x"
        for index in range(factor):
            copy_corpus(corpus, root / f"copy-{index}" / corpus.name)
        scaled[factor] = root
    return scaled


class Harness:
    """Builds the cases for the available tools, runs them alternately, and reports."""

    def __init__(self, args: argparse.Namespace, corpus: Path, temp: Path) -> None:
        self.args = args
        self.corpus = corpus
        self.temp = temp
        self.size = measure_size(corpus)  # also brings the corpus into the page cache
        self.versions: dict[str, str] = {}
        self.skipped: list[str] = []
        self.spanlint: str | None = None

    # --- building cases ----------------------------------------------------------------

    def build_cases(self) -> list[Case]:
        built: list[Case] = []
        if "floor" in self.args.tools:
            built.extend(self.floor_cases())
        if "fixit" in self.args.tools:
            built.extend(self.fixit_cases())
        if "semgrep" in self.args.tools:
            built.extend(self.semgrep_cases())
        if "spanlint" in self.args.tools:
            built.extend(self.spanlint_cases())
        return built

    def skip(self, tool: str, reason: str) -> list[Case]:
        message = f"{tool}: skipped ({reason})"
        print(message)
        self.skipped.append(message)
        return []

    def floor_cases(self) -> list[Case]:
        process_counts = sorted({1, self.args.jobs})
        return [case_builders.floor_case(self.corpus, self.size, jobs, self.args.reps)
                for jobs in process_counts]

    def fixit_cases(self) -> list[Case]:
        fixit = case_builders.find_executable(self.args.fixit, PEER_VENVS / "fixit" / "bin",
                                              "fixit")
        if fixit is None:
            return self.skip("fixit", "not installed; see bench/README.md")
        self.versions["fixit"] = case_builders.tool_version(fixit)
        workdir = self.temp / "fixit-cwd"
        workdir.mkdir()
        return [case_builders.fixit_case(fixit, self.corpus, self.size, self.args.fixit_reps,
                                         workdir)]

    def semgrep_cases(self) -> list[Case]:
        semgrep = case_builders.find_executable(
            self.args.semgrep, PEER_VENVS / "semgrep" / "bin", "semgrep")
        if semgrep is None:
            return self.skip("semgrep", "not installed; see bench/README.md")
        project_root = case_builders.semgrep_project_root(self.corpus)
        if project_root is None:
            project_root = self.corpus
            print(f"semgrep: no .semgrepignore at or above {self.corpus}; semgrep's default "
                  "ignore list applies (it drops test/ and tests/ directories)")
        # Without --disable-version-check, `semgrep --version` waits ~95 s for the network.
        self.versions["semgrep"] = case_builders.tool_version(semgrep,
                                                              "--disable-version-check")
        output_dir = self.temp / "semgrep-output"
        output_dir.mkdir()
        return [case_builders.semgrep_case(semgrep, self.corpus, project_root, self.size,
                                           self.args.jobs, self.args.reps, output_dir)]

    def spanlint_cases(self) -> list[Case]:
        spanlint = case_builders.find_executable(
            self.args.spanlint, Path(sys.executable).parent, "spanlint")
        if spanlint is None or not case_builders.spanlint_available(spanlint):
            return self.skip("spanlint", "not installed or `spanlint check --help` fails")
        self.spanlint = spanlint
        print(f"spanlint: {case_builders.compile_spanlint(spanlint)}")
        self.versions["spanlint"] = case_builders.tool_version(spanlint)
        work_copy = copy_corpus(self.corpus, self.temp / "spanlint-work" / self.corpus.name)
        return case_builders.spanlint_cases(spanlint, work_copy, self.temp / "spanlint-alone",
                                            self.size, self.args.jobs, self.args.reps)

    # --- running -------------------------------------------------------------------------

    def run_alternating(self, to_run: list[Case]) -> None:
        """Warm-ups first (every case's, before any timed run), then rounds of one run per
        case, rotating the starting case."""
        for case in to_run:
            for _ in range(case.warm_up_runs):
                print(f"warm-up  {case.label}", flush=True)
                self.run_once(case, case.warm_up_command or case.command, record=False)
        rounds = max((case.repetitions for case in to_run), default=0)
        for round_index in range(rounds):
            shift = round_index % len(to_run)
            for case in to_run[shift:] + to_run[:shift]:
                if case.failed or len(case.measurements) >= case.repetitions:
                    continue
                if case.before_each_run:
                    case.before_each_run(round_index)
                self.run_once(case, case.command, record=True)

    def run_once(self, case: Case, command: list[str], *, record: bool) -> None:
        slug = "".join(c if c.isalnum() else "-" for c in case.label)
        stdout = self.temp / f"{slug}.out"
        stderr = self.temp / f"{slug}.err"
        result = measure(command, cwd=case.cwd, stdout_path=stdout, stderr_path=stderr)
        if result.returncode not in case.ok_returncodes:
            case.failed = True
            print(f"FAILED   {case.label}: exit {result.returncode}\n  {' '.join(command)}")
            tail = stderr.read_text(errors="replace").splitlines()[-STDERR_TAIL_LINES:]
            print("\n".join(f"  | {line}" for line in tail))
            return
        print(f"{result.wall_seconds:8.2f}s wall {result.cpu_seconds:8.2f}s CPU "
              f"load {result.load_average:4.1f}  {case.label}", flush=True)
        if record:
            case.measurements.append(result)
            if case.describe_output:
                case.output_summary = case.describe_output(stdout, stderr)

    # --- determinism -----------------------------------------------------------------------

    def check_determinism(self) -> list[str]:
        """spanlint JSON output must be byte-identical across jobs, cache and pre-scan."""
        if self.spanlint is None:
            return ["- determinism: n/a (spanlint not measured)"]
        work = copy_corpus(self.corpus, self.temp / "determinism" / self.corpus.name)
        command = case_builders.spanlint_command
        jobs = max(2, self.args.jobs)
        variants = {
            "jobs 1, no cache": command(self.spanlint, work, 1, cache=False),
            f"jobs {jobs}, no cache": command(self.spanlint, work, jobs, cache=False),
            "cache on, first run": command(self.spanlint, work, jobs, cache=True),
            "cache on, second run": command(self.spanlint, work, jobs, cache=True),
            "pre-scan off": command(self.spanlint, work, jobs, cache=False, prescan=False),
        }
        outputs = {}
        for name, variant in variants.items():
            outputs[name] = self.temp / f"determinism-{len(outputs)}.json"
            result = measure(variant, cwd=work, stdout_path=outputs[name],
                             stderr_path=outputs[name].with_suffix(".err"))
            if result.returncode not in case_builders.SPANLINT_OK_RETURNCODES:
                return [f"- determinism: FAILED to run `{' '.join(variant)}` "
                        f"(exit {result.returncode})"]
        baseline_name, baseline = next(iter(outputs.items()))
        lines = []
        for name, output in list(outputs.items())[1:]:
            same = filecmp.cmp(baseline, output, shallow=False)
            verdict = "identical" if same else "DIFFERENT"
            lines.append(f"- determinism, {name} vs {baseline_name}: {verdict}")
        for line in lines:
            print(line)
        return lines


def section_title(args: argparse.Namespace, measured_tools: set[str]) -> str:
    kind = "spanlint vs floor and peers" if "spanlint" in measured_tools else "peers and floor"
    stamp = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    return f"## {stamp}: {kind}, {args.corpus} corpus"


def write_report(harness: Harness, main_cases: list[Case], scaled: list[Case],
                 determinism: list[str], argv: list[str]) -> list[str]:
    """The dated markdown section (also printed)."""
    by_label = {case.label: case for case in main_cases}
    floor_one = by_label.get("parse floor (1 proc)")
    measured_tools = {case.tool for case in main_cases if case.measurements}
    repetition_note = (f"Repetitions: {harness.args.reps} per case"
                       + (f", Fixit {harness.args.fixit_reps}" if "fixit" in measured_tools
                          and harness.args.fixit_reps != harness.args.reps else "")
                       + "; medians of whole-process wall time.")
    lines = [
        section_title(harness.args, measured_tools), "",
        f"Command: `{' '.join(['python', 'bench/run.py', *argv])}`", "",
        *report.machine_description(),
        *(f"- {tool}: {version}" for tool, version in sorted(harness.versions.items())),
        "",
        f"Corpus: `{harness.corpus}`: {harness.size.files} files, {harness.size.lines} lines, "
        f"{harness.size.bytes} bytes. {repetition_note} Jobs: {harness.args.jobs}.", "",
        *report.results_table(main_cases, floor_one), "",
        *report.spanlint_ratios(by_label.get("spanlint cold (--no-cache)"), {
            "floor (1 proc)": floor_one,
            f"floor ({harness.args.jobs} proc)": by_label.get(
                f"parse floor ({harness.args.jobs} proc)"),
            "Fixit": by_label.get("Fixit lint (built-in rules)"),
            "semgrep": by_label.get("semgrep (SPL101+201+301 rules)"),
        }),
        *(f"- {message}" for message in harness.skipped),
    ]
    if scaled:
        lines += ["", "Scaling (spanlint cold):", "", *report.scaling_lines(scaled)]
    if determinism:
        lines += ["", *determinism]
    lines += ["", "CPU s: median user+system time of the process tree. load: highest 1-minute "
              "load average seen at the end of a run (above nproc, other work shared the "
              "CPUs and wall times are inflated).",
              "Memory: *max proc RSS* is the kernel's ru_maxrss from wait4 (largest single "
              "process of the tree: per-worker peak for pools); *tree RSS peak* sums the RSS "
              f"of all live processes, sampled every {SAMPLE_INTERVAL_MS} ms from /proc.", ""]
    return lines


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    corpus = resolve_corpus(args.corpus, args.cache_dir)
    temp = Path(tempfile.mkdtemp(prefix="spanlint-bench-"))
    try:
        harness = Harness(args, corpus, temp)
        print(f"corpus {corpus}: {harness.size.files} files, {harness.size.lines} lines")
        main_cases = harness.build_cases()
        harness.run_alternating(main_cases)
        scaled: list[Case] = []
        if harness.spanlint and not args.no_scaling:
            scaled = case_builders.scaling_cases(
                harness.spanlint, build_scaled_copies(corpus, temp), args.jobs, args.reps)
            harness.run_alternating(scaled)
        determinism = harness.check_determinism() if args.check_determinism else []
        lines = write_report(harness, main_cases, scaled, determinism, argv)
    finally:
        if args.keep_temp:
            print(f"kept {temp}")
        else:
            shutil.rmtree(temp, ignore_errors=True)
    print("\n".join(lines))
    if not args.no_record:
        with args.results.open("a") as results:
            results.write("\n".join(lines) + "\n")
        print(f"appended to {args.results}")


if __name__ == "__main__":
    main()
