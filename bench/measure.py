"""Run one command as a fresh process tree; measure its wall time and peak memory.

CPU time is user + system time of the whole tree (from the same wait4 call); with other
load on the machine it is a steadier figure than wall time, and the 1-minute load average at
the end of each run is kept to show such load.

Memory is measured two ways (both reported):

* max single-process RSS, exact: ``os.wait4`` on the direct child returns the kernel's
  ``ru_maxrss`` for that child and every descendant it waited for (the same number
  ``/usr/bin/time -v`` prints as "Maximum resident set size"). It is the peak of the largest
  single process, so for a multi-process tool it is the per-worker (or main process) peak.
* tree total RSS, sampled: a thread sums the RSS of every live process in the tree every
  ``SAMPLE_INTERVAL_SECONDS`` from ``/proc/<pid>/stat``; short spikes between samples are missed.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

SAMPLE_INTERVAL_SECONDS = 0.05
PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024


@dataclass(frozen=True)
class Measurement:
    """One whole-process run."""

    wall_seconds: float
    cpu_seconds: float
    load_average: float
    max_process_rss_kib: int
    tree_rss_peak_kib: int
    processes_seen: int
    returncode: int


def read_process_table() -> dict[int, tuple[int, int]]:
    """pid -> (parent pid, RSS in KiB) for every process visible in /proc."""
    table = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat_file:
                stat = stat_file.read()
        except OSError:  # the process exited while we looked
            continue
        # Fields after the ")" closing the command name: state, ppid, ... rss is the 22nd.
        fields = stat[stat.rindex(b")") + 2:].split()
        table[int(entry.name)] = (int(fields[1]), int(fields[21]) * PAGE_KIB)
    return table


def descendants_rss(root_pid: int) -> dict[int, int]:
    """RSS in KiB of root_pid and each of its live descendants."""
    table = read_process_table()
    children: dict[int, list[int]] = {}
    for pid, (parent, _rss) in table.items():
        children.setdefault(parent, []).append(pid)
    tree, pending = {}, [root_pid]
    while pending:
        pid = pending.pop()
        if pid in table:
            tree[pid] = table[pid][1]
            pending.extend(children.get(pid, ()))
    return tree


class TreeSampler(threading.Thread):
    """Samples a process tree's total RSS until stopped."""

    def __init__(self, root_pid: int) -> None:
        super().__init__(daemon=True)
        self.root_pid = root_pid
        self.peak_total_kib = 0
        self.pids_seen: set[int] = set()
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.is_set():
            tree = descendants_rss(self.root_pid)
            self.pids_seen.update(tree)
            self.peak_total_kib = max(self.peak_total_kib, sum(tree.values()))
            self._stop_event.wait(SAMPLE_INTERVAL_SECONDS)

    def stop(self) -> None:
        self._stop_event.set()
        self.join()


def measure(command: list[str], *, cwd: Path | None = None, stdout_path: Path | None = None,
            stderr_path: Path | None = None, env: dict[str, str] | None = None) -> Measurement:
    """Run command to completion; stdout/stderr go to the given files (or are discarded)."""
    with open_or_devnull(stdout_path) as stdout, open_or_devnull(stderr_path) as stderr:
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, stdout=stdout, stderr=stderr, env=env)
        sampler = TreeSampler(process.pid)
        sampler.start()
        _pid, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        sampler.stop()
    load_average = os.getloadavg()[0]
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    return Measurement(
        wall_seconds=wall,
        cpu_seconds=usage.ru_utime + usage.ru_stime,
        load_average=load_average,
        max_process_rss_kib=usage.ru_maxrss,
        tree_rss_peak_kib=sampler.peak_total_kib,
        processes_seen=len(sampler.pids_seen),
        returncode=process.returncode,
    )


def open_or_devnull(path: Path | None):
    """A writable file at path, or /dev/null."""
    return open(path if path is not None else os.devnull, "wb")
