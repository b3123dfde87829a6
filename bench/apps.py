"""Lint the blind-written applications in bench/apps/ and score the findings against labels.json.

Each application is copied to a temporary directory and linted there as its own project
(`python -m spanlint check --select ALL --output-format json --no-cache <app>`), so no setting of
this repository applies to it. Scoring is rule-agnostic: a hazard is found when any finding's line
lies within its label's lines in that file (or in one of its `also` ranges: the same bug at another
place a linter may report it, e.g. a record type and the function that builds it); a finding on no
hazard line is a false alarm, classed by the safe look-alike label it falls on (or `unlabelled`).
Precision counts findings: those on a hazard's lines over all findings.

    python bench/apps.py                 # every app, markdown tables and lists on stdout
    python bench/apps.py --app docs_qa   # one app
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

APPS = Path(__file__).resolve().parent / "apps"


def load_labels(apps_dir: Path) -> tuple[list[dict], list[dict]]:
    """The labels, each checked against the line it names (a label that drifted is an error)."""
    data = json.loads((apps_dir / "labels.json").read_text(encoding="utf-8"))
    for label in data["hazards"] + data["safe"]:
        for rng in ranges(label):
            lines = (apps_dir / rng["file"]).read_text(encoding="utf-8").splitlines()
            first = rng["first_line"]
            if not 1 <= first <= rng["last_line"] <= len(lines) or lines[first - 1].strip() != rng["anchor"]:
                sys.exit(f"bench/apps.py: label drifted: {rng['file']}:{first} is not {rng['anchor']!r}")
    return data["hazards"], data["safe"]


def ranges(label: dict) -> list[dict]:
    return [label, *label.get("also", [])]


def lint(app: str, apps_dir: Path, python: str, frameworks: str | None) -> tuple[list[dict], str]:
    """Findings of spanlint on a copy of the app (file names relative to bench/apps), and its notes;
    `frameworks` is the interpreter whose installed packages define the imported classes."""
    with tempfile.TemporaryDirectory(prefix="spanlint-apps-") as tmp:
        shutil.copytree(apps_dir / app, Path(tmp) / app)
        proc = subprocess.run(
            [python, "-m", "spanlint", "check", "--select", "ALL", "--output-format", "json", "--no-cache", app]
            + (["--python", frameworks] if frameworks else []),
            cwd=tmp, capture_output=True, text=True,
        )
    if proc.returncode not in (0, 1) or (proc.returncode == 1 and not proc.stdout.strip()):
        sys.exit(f"bench/apps.py: spanlint exited {proc.returncode} on {app}:\n{proc.stderr}")
    findings = json.loads(proc.stdout or "[]")
    for f in findings:
        f["filename"] = Path(f["filename"]).as_posix()
    return findings, proc.stderr.strip()


def covering(labels: list[dict], file: str, row: int) -> dict | None:
    return next(
        (l for l in labels for r in ranges(l) if r["file"] == file and r["first_line"] <= row <= r["last_line"]), None
    )


def ratio(a: int, b: int) -> str:
    return f"{a / b:.2f}" if b else "–"


def table(header: list[str], rows: list[list]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--apps-dir", type=Path, default=APPS)
    ap.add_argument("--app", action="append", help="only this app (repeatable)")
    ap.add_argument("--python", default=sys.executable, help="python whose spanlint is run")
    ap.add_argument(
        "--frameworks", metavar="PYTHON", help="python with the apps' frameworks installed (spanlint's --python)"
    )
    args = ap.parse_args()

    hazards, safe = load_labels(args.apps_dir)
    apps = sorted({l["file"].split("/")[0] for l in hazards + safe})
    if args.app:
        unknown = sorted(set(args.app) - set(apps))
        if unknown:
            sys.exit(f"bench/apps.py: no such app: {', '.join(unknown)} (apps: {', '.join(apps)})")
        apps = [a for a in apps if a in args.app]
    hazards = [h for h in hazards if h["file"].split("/")[0] in apps]

    found: dict[int, list[dict]] = defaultdict(list)  # hazard index -> findings on it
    false_alarms: list[tuple[dict, str]] = []
    per_app = {}
    per_code: dict[str, Counter] = defaultdict(Counter)
    notes = []
    for app in apps:
        findings, note = lint(app, args.apps_dir, args.python, args.frameworks)
        if note:
            notes.append(f"{app}: {note}")
        on_hazard = 0
        for f in findings:
            row = f["location"]["row"]
            hit = covering(hazards, f["filename"], row)
            if hit is not None:
                found[hazards.index(hit)].append(f)
                on_hazard += 1
                per_code[f["code"]]["on hazard"] += 1
            else:
                twin = covering(safe, f["filename"], row)
                false_alarms.append((f, twin["kind"] if twin else "unlabelled"))
                per_code[f["code"]]["false alarm"] += 1
        app_hazards = [i for i, h in enumerate(hazards) if h["file"].split("/")[0] == app]
        per_app[app] = (len(app_hazards), sum(1 for i in app_hazards if i in found), len(findings), on_hazard)

    total_findings = sum(v[2] for v in per_app.values())
    total_on = sum(v[3] for v in per_app.values())
    n_found = len(found)
    print(f"## {len(hazards)} hazards in {len(apps)} apps: recall {ratio(n_found, len(hazards))}, "
          f"precision {ratio(total_on, total_findings)} ({total_on} of {total_findings} findings on a hazard line)\n")
    rows = [[a, f"{fo}/{t}", ratio(fo, t), n, on, n - on, ratio(on, n)] for a, (t, fo, n, on) in per_app.items()]
    rows.append(["**all**", f"{n_found}/{len(hazards)}", ratio(n_found, len(hazards)), total_findings, total_on,
                 total_findings - total_on, ratio(total_on, total_findings)])
    print(table(["app", "found", "recall", "findings", "on hazard", "false alarms", "precision"], rows) + "\n")

    kinds: dict[str, list[int]] = defaultdict(list)
    for i, h in enumerate(hazards):
        kinds[h["kind"]].append(i)
    print(table(["hazard kind", "found", "recall"],
                [[k, f"{sum(i in found for i in ix)}/{len(ix)}", ratio(sum(i in found for i in ix), len(ix))]
                 for k, ix in sorted(kinds.items())]) + "\n")

    print(table(["code", "findings on a hazard", "false alarms"],
                [[c, n["on hazard"], n["false alarm"]] for c, n in sorted(per_code.items())]) + "\n")

    fa_classes = Counter(cls for _, cls in false_alarms)
    print(table(["false alarms on", "findings"], [[c, n] for c, n in fa_classes.most_common()]) + "\n")

    print("### Found\n")
    for k, ix in sorted(kinds.items()):
        for i in ix:
            if i in found:
                h = hazards[i]
                codes = ", ".join(sorted({f["code"] for f in found[i]}))
                print(f"- {k}: {h['file']}:{h['first_line']}-{h['last_line']} by {codes}")
    print("\n### Misses\n")
    for k, ix in sorted(kinds.items()):
        for i in ix:
            if i not in found:
                h = hazards[i]
                print(f"- {k}: {h['file']}:{h['first_line']}-{h['last_line']} — {h['why']}")
    print("\n### False alarms\n")
    for cls in sorted(fa_classes):
        for f, c in false_alarms:
            if c == cls:
                print(f"- {cls}: {f['filename']}:{f['location']['row']} {f['code']} {f['message']}")
    if notes:
        print("\n### spanlint notes\n")
        for n in notes:
            print(f"- {n}")


if __name__ == "__main__":
    main()
