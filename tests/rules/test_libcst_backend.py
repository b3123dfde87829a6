"""The LibCST internals `rules.libcst_backend` relies on are there, in the LibCST range pyproject.toml pins,
and the public API stands in when they are not."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import libcst
import pytest
from packaging.requirements import Requirement

from spanlint.rules import libcst_backend

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_installed_libcst_is_in_the_pinned_range() -> None:
    (line,) = re.findall(r'"(libcst[^"]*)"', PYPROJECT.read_text(encoding="utf-8"))
    requirement = Requirement(line)
    assert requirement.specifier.contains(importlib.metadata.version("libcst"))
    assert requirement.specifier.contains("1.1.0") and not requirement.specifier.contains("2.0.0")


def test_the_internals_are_what_the_backend_expects() -> None:
    assert libcst_backend.validation_can_be_skipped()
    assert libcst_backend.child_fields(libcst.FunctionDef)[:2] == ("leading_lines", "decorators")
    assert libcst.CSTNode.__post_init__ is not libcst_backend._no_validation  # restored after each parse


def test_positions_are_libcsts_without_visiting_the_module(monkeypatch: pytest.MonkeyPatch) -> None:
    module = libcst.parse_module("@decorator\ndef f(x):\n    return x[1:2]  # c\n\nclass C:\n    y: int = 1\n")
    expected = libcst.metadata.MetadataWrapper(module, unsafe_skip_copy=True).resolve(libcst.metadata.PositionProvider)

    def no_visit(*args: object) -> None:
        raise AssertionError("the module was visited")

    monkeypatch.setattr(libcst.metadata.MetadataWrapper, "visit_batched", no_visit)
    assert libcst_backend.positions_can_be_computed_alone()
    assert dict(libcst_backend.positions(module)) == dict(expected)


def test_without_the_internals_the_public_api_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    source = "@decorator\ndef f(x):\n    return x[1:2]\n"
    monkeypatch.setattr(libcst_backend, "validation_can_be_skipped", lambda: False)
    assert libcst_backend.parse_module(source).code == source
    monkeypatch.setattr(libcst_backend, "positions_can_be_computed_alone", lambda: False)
    module = libcst_backend.parse_module(source)
    assert libcst_backend.positions(module)[module.body[0]].start.line == 2  # the `def`, after its decorator
    libcst_backend.child_fields.cache_clear()
    monkeypatch.delattr(libcst.FunctionDef, "_visit_and_replace_children")
    try:
        fields = libcst_backend.child_fields(libcst.FunctionDef)
        assert {"decorators", "params", "body"} <= set(fields) and "name" in fields
    finally:
        libcst_backend.child_fields.cache_clear()


# A fresh interpreter loads LibCST through the backend, with the dataclass code file at argv[1], and
# prints how many texts it compiled and what the generated methods of a few node classes look like.
_LOAD_LIBCST = """
import builtins, dataclasses, inspect, json, sys
from pathlib import Path
from spanlint.rules import libcst_backend
libcst_backend._DATACLASS_CODE_FILE = Path(sys.argv[1])
compiled = []
real_compile = builtins.compile
def counting_compile(source, filename, mode, *args, **kwargs):
    if mode == "exec":  # the generated methods (`typing` compiles string annotations in "eval" mode)
        compiled.append(1)
    return real_compile(source, filename, mode, *args, **kwargs)
builtins.compile = counting_compile
cst = libcst_backend.cst
module = libcst_backend.parse_module("def f(x):\\n    return g(x, y=1)\\n")
builtins.compile = real_compile
described = {
    kind.__name__: [str(inspect.signature(kind.__init__)), repr(kind.__init__.__annotations__), repr(kind(**{}) if kind is cst.Pass else None)]
    for kind in (cst.Name, cst.FunctionDef, cst.Call, cst.Module, cst.Pass)
}
print(json.dumps({"compiled": len(compiled), "described": described, "code": module.code,
                  "exec_left": "exec" in vars(dataclasses)}))
"""

_PLAIN_LIBCST = """
import inspect, json
import libcst as cst
print(json.dumps({kind.__name__: [str(inspect.signature(kind.__init__)), repr(kind.__init__.__annotations__), repr(kind(**{}) if kind is cst.Pass else None)]
                  for kind in (cst.Name, cst.FunctionDef, cst.Call, cst.Module, cst.Pass)}))
"""


def _load(path: Path, **env: str) -> dict:
    import json
    import os
    import subprocess
    import sys

    environment = {name: value for name, value in os.environ.items() if name not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    done = subprocess.run(
        [sys.executable, "-c", _LOAD_LIBCST, str(path)], capture_output=True, text=True, check=True,
        env={**environment, **env},
    )
    return json.loads(done.stdout)


def test_libcst_loads_with_the_dataclass_code_of_an_earlier_load(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    code_file = tmp_path / "dataclass-code.marshal"
    first = _load(code_file)
    assert first["compiled"] > 100 and code_file.exists()  # every generated method compiled, then kept
    second = _load(code_file)
    assert second["compiled"] == 0  # none compiled again
    plain = json.loads(subprocess.run([sys.executable, "-c", _PLAIN_LIBCST], capture_output=True, text=True, check=True).stdout)
    assert first["described"] == second["described"] == plain  # the same methods as LibCST's own import
    assert first["code"] == second["code"] == "def f(x):\n    return g(x, y=1)\n"
    assert not first["exec_left"] and not second["exec_left"]  # `dataclasses` is left as it was


def test_a_damaged_dataclass_code_file_is_ignored_and_replaced(tmp_path: Path) -> None:
    code_file = tmp_path / "dataclass-code.marshal"
    code_file.write_bytes(b"\x00\xffnot marshal data" * 100)
    assert _load(code_file)["compiled"] > 100
    assert _load(code_file)["compiled"] == 0


def test_no_dataclass_code_file_is_written_when_bytecode_is_not(tmp_path: Path) -> None:
    code_file = tmp_path / "dataclass-code.marshal"
    assert _load(code_file, PYTHONDONTWRITEBYTECODE="1")["compiled"] > 100
    assert not code_file.exists() and list(tmp_path.iterdir()) == []
