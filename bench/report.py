"""Summaries of timed cases: the markdown table, the ratios, and the machine description."""

from __future__ import annotations

import os
import platform
import statistics
from importlib import metadata

from cases import Case

KIB_PER_MIB = 1024


def median_seconds(case: Case) -> float:
    return statistics.median(m.wall_seconds for m in case.measurements)


def machine_description() -> list[str]:
    """nproc, memory, CPU model, Python and libcst versions, as markdown bullet lines."""
    return [
        f"- nproc: {len(os.sched_getaffinity(0))}",
        f"- memory: {total_memory_gib():.1f} GiB",
        f"- CPU: {cpu_model()}",
        f"- Python: {platform.python_version()} ({platform.python_implementation()})",
        f"- libcst: {metadata.version('libcst')}",
        f"- kernel: {platform.release()}",
    ]


def total_memory_gib() -> float:
    with open("/proc/meminfo") as meminfo:
        for line in meminfo:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) / KIB_PER_MIB ** 2
    return float("nan")


def cpu_model() -> str:
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "?"


def results_table(cases: list[Case], floor_one_process: Case | None) -> list[str]:
    """One markdown row per measured case."""
    rows = [
        "| case | files | lines | runs | median s | min-max s | lines/s | CPU s "
        "| max proc RSS MiB | tree RSS peak MiB | procs | load | x floor 1p | output |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    floor_seconds = median_seconds(floor_one_process) if floor_one_process else None
    for case in cases:
        if not case.measurements:
            rows.append(f"| {case.label} | {case.size.files} | {case.size.lines} | 0 "
                        f"| failed | | | | | | | | | {case.notes} |")
            continue
        walls = [m.wall_seconds for m in case.measurements]
        median = median_seconds(case)
        ratio = f"{median / floor_seconds:.2f}" if floor_seconds else "n/a"
        rows.append(
            f"| {case.label} | {case.size.files} | {case.size.lines} | {len(walls)} "
            f"| {median:.2f} | {min(walls):.2f}-{max(walls):.2f} "
            f"| {case.size.lines / median:,.0f} "
            f"| {statistics.median(m.cpu_seconds for m in case.measurements):.1f} "
            f"| {max(m.max_process_rss_kib for m in case.measurements) / KIB_PER_MIB:.0f} "
            f"| {max(m.tree_rss_peak_kib for m in case.measurements) / KIB_PER_MIB:.0f} "
            f"| {max(m.processes_seen for m in case.measurements)} "
            f"| {max(m.load_average for m in case.measurements):.1f} | {ratio} "
            f"| {'; '.join(filter(None, (case.notes, case.output_summary)))} |"
        )
    return rows


def spanlint_ratios(spanlint_cold: Case | None, references: dict[str, Case | None]) -> list[str]:
    """spanlint cold median divided by each reference's median, as bullet lines."""
    if spanlint_cold is None or not spanlint_cold.measurements:
        return ["- spanlint ratios: n/a (spanlint not measured)"]
    lines = []
    for name, reference in references.items():
        if reference is None or not reference.measurements:
            lines.append(f"- spanlint / {name}: n/a ({name} not measured)")
        else:
            ratio = median_seconds(spanlint_cold) / median_seconds(reference)
            lines.append(f"- spanlint / {name}: {ratio:.2f}")
    return lines


def scaling_lines(cases: list[Case]) -> list[str]:
    """Per-line time of each scaled run, and its growth relative to 1x."""
    measured = [case for case in cases if case.measurements]
    if not measured:
        return []
    base = measured[0]
    base_per_line = median_seconds(base) / base.size.lines
    lines = ["| scale | lines | median s | us/line | per-line vs 1x |",
             "|---:|---:|---:|---:|---:|"]
    for case in measured:
        per_line = median_seconds(case) / case.size.lines
        lines.append(f"| {case.scale}x | {case.size.lines} | {median_seconds(case):.2f} "
                     f"| {per_line * 1e6:.1f} | {per_line / base_per_line:.2f} |")
    return lines
