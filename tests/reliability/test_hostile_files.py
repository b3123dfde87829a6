"""Hostile files through the real command: each is linted normally or is one SPL000 with its reason,
never a hang, crash or traceback, and the good file beside it still gets its finding."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.reliability.helpers import REWRITE, relative, spanlint

# The good file's finding, by code and position (rule messages are the rules' own business).
GOOD = [("SPL101", 2, 5)]


def _where(findings: list[tuple[str, int, int, str]]) -> list[tuple[str, int, int]]:
    return [(code, line, column) for code, line, column, _ in findings]


def _lint_beside_good(root: Path, *args: str) -> dict[str, list[tuple[str, int, int, str]]]:
    (root / "good.py").write_text(REWRITE, encoding="utf-8")
    run = spanlint(root, ".", "--jobs", "1", *args)
    assert run.code == 1, run.stderr
    assert "Traceback" not in run.stderr
    found = relative(run, root)
    assert _where(found.pop("good.py")) == GOOD
    return found


def _refused(found: dict, names: list[str]) -> dict[str, str]:
    """The reason of each file's single SPL000 finding; `names` are the run's only other files."""
    assert sorted(found) == sorted(names)
    reasons = {}
    for name in names:
        ((code, _, _, message),) = found[name]
        assert code == "SPL000", (name, message)
        reasons[name] = message
    return reasons


DEEP = {
    "parentheses": "x = " + "(" * 5000 + "1" + ")" * 5000,
    "unary_minus_in_parentheses": "x = " + "-(" * 5000 + "1" + ")" * 5000,
    "unary_minus": "x = " + "-" * 5000 + "1",
    "sum": "x = " + "+".join(["a"] * 5000),
    "lists": "x = " + "[" * 5000 + "]" * 5000,
    "calls": "x = " + "f(" * 5000 + "1" + ")" * 5000,
    "lambdas": "x = " + "lambda: " * 5000 + "1",
    "attributes": "x = a" + ".b" * 2500,
    "subscripts": "x = a" + "[0]" * 5000,
    "if_statements": "".join(" " * i + "if x:\n" for i in range(1000)) + " " * 1000 + "pass",
}


def test_deeply_nested_files_are_refused_without_crashing_a_single_process_run(tmp_path: Path) -> None:
    # libcst 1.9.0 crashes the process (segmentation fault) on parentheses, lists, calls and lambdas
    # 5,000 deep, and takes minutes on subscripts 5,000 deep (docs/reliability.md): none reaches it.
    for name, source in DEEP.items():
        (tmp_path / f"{name}.py").write_text(source + "\n", encoding="utf-8")
    reasons = _refused(_lint_beside_good(tmp_path), [f"{name}.py" for name in DEEP])
    for name, reason in reasons.items():
        assert any(word in reason for word in ("nest", "too many", "indentation")), (name, reason)


def test_deeply_nested_source_on_stdin_is_refused(tmp_path: Path) -> None:
    run = spanlint(tmp_path, "-", stdin=DEEP["lambdas"].encode())
    assert run.code == 1 and "Traceback" not in run.stderr
    assert [(f["code"], f["filename"]) for f in run.findings] == [("SPL000", "-")]


def test_file_deeper_than_the_default_recursion_limit_is_linted(tmp_path: Path) -> None:
    # 2,000 implicitly concatenated strings nest 2,000 deep in LibCST's tree, like the standard
    # library's pydoc_data/topics.py; the finding below them must still be reported.
    strings = "TEXT = (\n" + "".join(f"    'part {i}'\n" for i in range(2000)) + ")\n"
    (tmp_path / "long_text.py").write_text(strings + REWRITE, encoding="utf-8")
    found = _lint_beside_good(tmp_path)
    assert {name: _where(f) for name, f in found.items()} == {"long_text.py": [("SPL101", 2004, 5)]}


def test_undecodable_files_are_spl000_with_their_reason(tmp_path: Path) -> None:
    files = {
        "undecodable.py": (b"x = '\xff\xfe'\n", "cannot decode"),
        "utf16.py": ("x = 1\n".encode("utf-16"), "UTF-16"),
        "nul.py": (b"x = 1\x00\n", "NUL bytes"),
        "binary.py": (bytes(range(256)) * 8, "NUL bytes"),
    }
    for name, (content, _) in files.items():
        (tmp_path / name).write_bytes(content)
    reasons = _refused(_lint_beside_good(tmp_path), list(files))
    for name, (_, reason) in files.items():
        assert reason in reasons[name], reasons[name]


def test_encodings_and_line_endings_lint_normally_with_right_positions(tmp_path: Path) -> None:
    files = {
        "bom.py": (b"\xef\xbb\xbf" + REWRITE.encode(), 2, 5),
        "cr.py": (REWRITE.replace("\n", "\r").encode(), 2, 5),
        "crlf.py": (REWRITE.replace("\n", "\r\n").encode(), 2, 5),
        "latin1.py": (b"# -*- coding: latin-1 -*-\ndef compress(span):\n    s = '\xe9\xe9'; span.content = s\n", 3, 15),
    }
    for name, (content, _, _) in files.items():
        (tmp_path / name).write_bytes(content)
    found = _lint_beside_good(tmp_path)
    assert {name: _where(f) for name, f in found.items()} == {
        name: [("SPL101", line, column)] for name, (_, line, column) in files.items()
    }


def test_file_over_max_file_bytes_is_refused_without_parsing(tmp_path: Path) -> None:
    # 16 MB: LibCST would need ~5 GB and minutes for it.
    line = "value_%d = {'key': [1, 2, 3], 'other': 'some text here'}\n"
    with (tmp_path / "huge.py").open("w", encoding="utf-8") as file:
        file.writelines(line % i for i in range(300_000))
    assert (tmp_path / "huge.py").stat().st_size > 16_000_000
    reason = _refused(_lint_beside_good(tmp_path), ["huge.py"])["huge.py"]
    assert "too large" in reason and "max-file-bytes" in reason


def test_max_file_bytes_from_configuration_applies(tmp_path: Path) -> None:
    (tmp_path / ".spanlint.yaml").write_text("max-file-bytes: 200\n", encoding="utf-8")
    (tmp_path / "medium.py").write_text(REWRITE + "x = 1\n" * 40, encoding="utf-8")
    reason = _refused(_lint_beside_good(tmp_path), ["medium.py"])["medium.py"]
    assert "over the limit of 200" in reason


def test_unreadable_file_is_spl000(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads files without read permission; test_permission_error_is_spl000 simulates it")
    (tmp_path / "secret.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "secret.py").chmod(0)
    assert "Permission denied" in _refused(_lint_beside_good(tmp_path), ["secret.py"])["secret.py"]


def test_permission_error_is_spl000(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import spanlint.source
    from spanlint.config import ConfigResolver
    from spanlint.runner import RunOptions, check_paths

    (tmp_path / "secret.py").write_text(REWRITE, encoding="utf-8")
    (tmp_path / "good.py").write_text(REWRITE, encoding="utf-8")
    real_open = os.open

    def refusing_open(path, flags, *args, **kwargs):
        if str(path).endswith("secret.py"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(spanlint.source.os, "open", refusing_open)
    monkeypatch.chdir(tmp_path)
    result = check_paths([tmp_path], ConfigResolver(isolated=True), RunOptions(jobs=1))
    found = [(d.path, d.code) for d in result.diagnostics]
    assert found == [("good.py", "SPL101"), ("secret.py", "SPL000")]
    assert result.diagnostics[1].message == "cannot read file: Permission denied"


def test_broken_symlink_and_symlink_loop_are_spl000(tmp_path: Path) -> None:
    (tmp_path / "broken.py").symlink_to(tmp_path / "missing.py")
    (tmp_path / "loop.py").symlink_to(tmp_path / "loop.py")
    found = _lint_beside_good(tmp_path)
    assert found == {
        "broken.py": [("SPL000", 1, 1, "cannot read file: broken symbolic link")],
        "loop.py": [("SPL000", 1, 1, "cannot read file: Too many levels of symbolic links")],
    }


def test_directory_named_like_a_module_is_walked(tmp_path: Path) -> None:
    (tmp_path / "x.py").mkdir()
    (tmp_path / "x.py" / "inner.py").write_text(REWRITE, encoding="utf-8")
    found = _lint_beside_good(tmp_path)
    assert list(found) == ["x.py/inner.py"]
    assert found["x.py/inner.py"][0][0] == "SPL101"
    named = spanlint(tmp_path, "x.py")
    assert [(f["filename"], f["code"]) for f in named.findings] == [("x.py/inner.py", "SPL101")]


def test_fifo_is_skipped_when_walking_and_spl000_when_named(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "x.py")  # reading it would block forever: no writer ever comes
    assert _lint_beside_good(tmp_path) == {}
    named = spanlint(tmp_path, "x.py", "good.py", timeout=30)
    found = relative(named, tmp_path)
    assert _where(found.pop("good.py")) == GOOD
    assert found == {"x.py": [("SPL000", 1, 1, "not a regular file (FIFO)")]}


def test_syntax_warnings_of_linted_code_are_not_printed(tmp_path: Path) -> None:
    (tmp_path / "warns.py").write_text("x = 1(2)\ny = 'a' is 'a'\n" + REWRITE, encoding="utf-8")
    run = spanlint(tmp_path, "warns.py")
    assert (run.code, run.stderr) == (1, "")
    assert [f["code"] for f in run.findings] == ["SPL101"]
