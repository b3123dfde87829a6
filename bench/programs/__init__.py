"""A seeded generator of small labelled agent projects for measuring spanlint (issue 14).

`generate(seed, count)` returns `count` distinct programs, half hazards and half their safe twins;
each records its place in the product (`Program.dims`) and the findings its hazard calls for
(`Program.labels`). See README.md beside this file.
"""

from __future__ import annotations

import hashlib
import random

from bench.programs.code import Label, Program
from bench.programs.families import FAMILIES

# How often each family is drawn: the rewrite rules are four rules and the most forms.
WEIGHTS = {"rewrite": 5, "cache": 2, "slice": 2, "prune": 3, "log": 1, "gc": 1, "summary": 1, "record": 1}

__all__ = ["Label", "Program", "generate"]


def generate(seed: int, count: int) -> list[Program]:
    """`count` distinct programs (pairs of a hazard and its twin), the same for the same seed."""
    rng = random.Random(seed)
    families = [f for f, w in WEIGHTS.items() for _ in range(w)]
    seen: set[str] = set()
    out: list[Program] = []
    while len(out) < count:
        family = families[rng.randrange(len(families))]
        for program in FAMILIES[family](random.Random(rng.random())):
            digest = hashlib.sha256(repr(sorted(program.files.items())).encode()).hexdigest()
            if digest in seen or len(out) >= count:
                continue
            seen.add(digest)
            program.name = f"p{len(out):05d}_{family}_{program.dims['polarity'][:3]}"
            out.append(program)
    return out
