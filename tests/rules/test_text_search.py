"""The text searches every pre-filter builds on: word alternations and the lines holding a match."""

from __future__ import annotations

import random
import re

from spanlint.rules.prescan import alternation, match_lines


def test_alternation_matches_exactly_its_words() -> None:
    rng = random.Random(7)
    for _ in range(500):
        words = {"".join(rng.choice("ab._") for _ in range(rng.randint(1, 5))) for _ in range(rng.randint(1, 8))}
        whole = re.compile(rf"(?:{alternation(words)})\Z")
        probes = words | {"".join(rng.choice("ab._") for _ in range(rng.randint(1, 6))) for _ in range(40)}
        assert {p for p in probes if whole.match(p)} == words


def test_alternation_of_no_words_matches_nothing() -> None:
    assert re.search(alternation([]), "anything at all") is None


def test_match_lines_reports_each_line_once_whatever_its_line_breaks() -> None:
    cache = re.compile("cache")
    for newline in ("\n", "\r\n", "\r"):
        source = newline.join(["cache = {}", "x = 1", "cache[a] = cache[b]", "", "y = cache"])
        assert match_lines(source, cache) == [1, 3, 5]


def test_match_lines_merges_the_lines_of_several_patterns() -> None:
    source = "a = 1\nb = 2\na = b\n"
    assert match_lines(source, re.compile("a"), re.compile("b")) == [1, 2, 3]


def test_match_lines_finds_a_match_after_a_multiline_one() -> None:
    # The first match ends on line 2; a match starting later on line 2 is still found.
    source = "call(x,\n  y) ; other\n"
    assert match_lines(source, re.compile(r"call\([^)]*\)|other")) == [1, 2]
