"""Are the rules' pre-scans sound on real code, and how many files does each let through?

    python bench/prescan_soundness.py [--counts-only] [CORPUS ...]
    (default: ~/.cache/spanlint-corpus/{agents,stdlib})

For each corpus: the project pass over every file (its CPU time), then per rule how many files pass
its text pre-scan (`may_match`), how many pass both pre-scans (the summary's shapes too), and how
many files reach LibCST at all (any selected rule passes). Unless `--counts-only`, every file is
then linted with `--select ALL` with and without the pre-scans (the project index built from the
whole corpus, as the CLI does) and any difference in findings is printed: there must be none.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from spanlint.engine import lint_source  # noqa: E402
from spanlint.source import SourceError, decode_source  # noqa: E402
from spanlint.settings import Settings  # noqa: E402
from spanlint.rules import all_rules  # noqa: E402
from spanlint.rules.project import ProjectIndex, summarize_source  # noqa: E402

DEFAULT_CORPORA = [Path.home() / ".cache" / "spanlint-corpus" / name for name in ("agents", "stdlib")]
SKIPPED = frozenset({"SPL000", "SPL900"})  # computed by the engine, not gated by pre-scans


def read_corpus(root: Path) -> list[tuple[str, str]]:
    sources = []
    for path in sorted(root.rglob("*.py")):
        try:
            sources.append((str(path), decode_source(path.read_bytes())))
        except (OSError, SourceError):
            continue
    return sources


def examine(root: Path, counts_only: bool) -> bool:
    settings = Settings(select=("ALL",))
    vocabulary = settings.vocabulary
    rules = [r for r in all_rules() if r.code not in SKIPPED]
    sources = read_corpus(root)
    started = time.process_time()
    summaries = [summarize_source(source, vocabulary, path) for path, source in sources]
    project_cpu = time.process_time() - started
    text_pass: Counter[str] = Counter()
    both_pass: Counter[str] = Counter()
    parsed = 0
    for (path, source), summary in zip(sources, summaries):
        if summary.syntax_error is not None:
            continue
        passing = False
        for rule in rules:
            if rule.may_match(source, vocabulary):
                text_pass[rule.code] += 1
                if rule.may_match_summary(summary):
                    both_pass[rule.code] += 1
                    passing = True
        parsed += passing
    print(f"## {root}: {len(sources)} files, project pass {project_cpu:.2f} s CPU")
    print("| rule | text pre-scan | both pre-scans |")
    print("|---|---:|---:|")
    for rule in rules:
        print(f"| {rule.code} | {text_pass[rule.code]} | {both_pass[rule.code]} |")
    print(f"files parsed by LibCST (any rule passes): {parsed} of {len(sources)}")
    if counts_only:
        return True
    project = ProjectIndex.merge(vocabulary, summaries)
    differing = 0
    started = time.process_time()
    for (path, source), summary in zip(sources, summaries):
        with_prescan = lint_source(source, path, settings, project, summary)
        without = lint_source(source, path, settings, project, summary, prescan=False)
        if with_prescan != without:
            differing += 1
            missed = sorted({(d.code, d.location.line) for d in without} - {(d.code, d.location.line) for d in with_prescan})
            print(f"DIFFERENT: {path}: missed with the pre-scan: {missed}")
    print(f"soundness: {differing} of {len(sources)} files differ ({time.process_time() - started:.0f} s CPU)")
    return differing == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="*", type=Path, default=DEFAULT_CORPORA)
    parser.add_argument("--counts-only", action="store_true", help="skip the soundness check")
    args = parser.parse_args()
    sound = [examine(root, args.counts_only) for root in args.corpora]
    return 0 if all(sound) else 1


if __name__ == "__main__":
    sys.exit(main())
