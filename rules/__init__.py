"""The rule registry: every rule module in this package named `splNNN_*.py` defines one `Rule`.

The engine knows rules only through `all_rules()` and `find_rule()`.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from functools import lru_cache

from spanlint.rules.base import Fix, Invalid, Rule, Valid

__all__ = ["Fix", "Invalid", "Rule", "Valid", "all_prefilters", "all_rules", "find_rule"]

_RULE_MODULE = re.compile(r"^spl\d{3}_\w+$")


@lru_cache(maxsize=1)
def all_rules() -> tuple[type[Rule], ...]:
    """Every registered rule, ordered by code."""
    found: list[type[Rule]] = []
    for info in pkgutil.iter_modules(__path__):
        if not _RULE_MODULE.match(info.name):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.extend(
            obj
            for obj in vars(module).values()
            # `type(obj)`: `isinstance` would read `__class__` of the lazily loaded `cst`, loading LibCST
            if issubclass(type(obj), type) and issubclass(obj, Rule) and obj is not Rule
            and obj.__module__ == module.__name__
        )
    return tuple(sorted(found, key=lambda r: r.code))


@lru_cache(maxsize=1)
def all_prefilters() -> tuple[type, ...]:
    """The pre-filter classes of the registered rules (`rules.prescan.Prefilter`), each once."""
    return tuple(dict.fromkeys(rule.prefilter for rule in all_rules() if rule.prefilter is not None))


def find_rule(selector: str) -> type[Rule] | None:
    """The rule whose code (any case) or kebab name is `selector`, if any."""
    wanted = selector.strip()
    for rule in all_rules():
        if rule.code.lower() == wanted.lower() or rule.name == wanted:
            return rule
    return None
