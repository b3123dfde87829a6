"""LibCST as `cst`, loaded on first use.

Importing LibCST takes ~90 ms (it builds ~290 node dataclasses), a third of the 300 ms a
pre-commit run of one file may take, and two files in three hold no rule candidate: they are never
parsed. Modules that use LibCST only inside functions write `from rules.lazy_libcst import cst`
instead of `import libcst as cst`; the package loads when an attribute of `cst` is first read
(the standard library's `importlib.util.LazyLoader`).

`import libcst` anywhere reads the module's `__spec__`, which loads it: that is why the name comes
from here. A process that imported LibCST already gets that module.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType
from typing import TYPE_CHECKING


def _lazy(name: str) -> ModuleType:
    """The module `name`, imported now if it is already, else when one of its attributes is read."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.loader is not None, f"{name} is not installed"
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


if TYPE_CHECKING:
    import libcst as cst
else:
    cst = _lazy("libcst")
