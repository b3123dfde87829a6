"""Running over many files: SPL000 for files that cannot be linted, determinism, crashes, pre-scan."""

from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path

import libcst
import pytest

import spanlint
import spanlint.source
from spanlint import Settings, check_source
from spanlint.cache import RACY_NS
from spanlint.config import ConfigResolver
from spanlint.runner import PARALLEL_THRESHOLD, RunOptions, check_paths, check_stdin
from spanlint.rules.spl101_in_place_rewrite_without_version_bump import InPlaceRewriteWithoutVersionBump
from tests.lint.conftest import CLEAN, REWRITE, Opens, forked_workers, write_tree



def _run(root: Path, jobs: int = 1, prescan: bool = True):
    return check_paths([root], ConfigResolver(isolated=True), RunOptions(jobs=jobs, prescan=prescan))


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("def f(:\n    pass\n", "syntax error"),
        (b"x = '\xff\xfe'\n", "cannot decode"),
        (b"# -*- coding: latin-9000 -*-\nx = 1\n", "cannot decode"),
        (b"x = 1\x00\n", "NUL bytes"),
        ("x = " + "(" * 5000 + ")" * 5000 + "\n", ""),
    ],
)
def test_unlintable_file_is_spl000_and_the_rest_are_linted(project: Path, content: str | bytes, reason: str) -> None:
    write_tree(project, {"bad.py": content, "good.py": REWRITE, "empty.py": ""})
    result = _run(project)
    assert [(d.path, d.code) for d in result.diagnostics] == [("bad.py", "SPL000"), ("good.py", "SPL101")]
    assert reason in result.diagnostics[0].message
    assert result.files == ["bad.py", "empty.py", "good.py"]


def test_latin1_file_with_a_coding_cookie_is_linted(project: Path) -> None:
    write_tree(project, {"a.py": "# -*- coding: latin-1 -*-\n".encode() + REWRITE.encode() + b"# caf\xe9\n"})
    assert [d.code for d in _run(project).diagnostics] == ["SPL101"]


def test_exception_in_a_rule_is_an_internal_error_not_a_finding(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def visit_Assign(self, node):  # LibCST finds visitor methods by their name
        raise ValueError("boom")

    monkeypatch.setattr(InPlaceRewriteWithoutVersionBump, "visit_Assign", visit_Assign)
    write_tree(project, {"a.py": REWRITE, "b.py": "print(1)\n"})
    result = _run(project)
    assert result.diagnostics == []
    (error,) = result.internal_errors
    assert (error.path, error.code, error.location.line, error.message) == ("a.py", "SPL101", 2, "ValueError: boom")


def _many_files(root: Path) -> None:
    files = {f"pkg{i % 3}/mod{i:02}.py": REWRITE if i % 2 else CLEAN for i in range(PARALLEL_THRESHOLD + 8)}
    files["pkg0/broken.py"] = "def f(:\n"
    write_tree(root, files)


def test_output_is_the_same_whatever_the_job_count(project: Path) -> None:
    _many_files(project)
    one, two = _run(project, jobs=1), _run(project, jobs=2)
    assert one.diagnostics == two.diagnostics
    assert one.files == two.files
    assert len(one.diagnostics) == (PARALLEL_THRESHOLD + 8) // 2 + 1
    assert [d.sort_key for d in one.diagnostics] == sorted(d.sort_key for d in one.diagnostics)


def _crash_on_poison(job, project, summary=None, prescan=True, source=None):
    if job.path.endswith("poison.py"):
        os._exit(70)  # what a segfault in a native parser looks like to the pool
    return _real_lint_file(job, project, summary, prescan, source)


_real_lint_file = spanlint.runner.lint_file


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork", reason="the patched worker must be inherited")
def test_worker_crash_costs_only_its_file(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _many_files(project)
    write_tree(project, {"pkg1/poison.py": REWRITE})
    with monkeypatch.context() as patched:
        patched.setattr(spanlint.runner, "lint_file", _crash_on_poison)
        crashed = _run(project, jobs=2)
    poison = [d for d in crashed.diagnostics if d.path == "pkg1/poison.py"]
    assert [(d.code, "crashed" in d.message) for d in poison] == [("SPL000", True)]
    expected = [d for d in _run(project, jobs=1).diagnostics if d.path != "pkg1/poison.py"]
    assert [d for d in crashed.diagnostics if d.path != "pkg1/poison.py"] == expected


def test_project_index_comes_from_the_project_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_tree(tmp_path, {
        "repo/pyproject.toml": "",
        "repo/models/doc.py": "class DocSpan:\n    span_id: str\n    content: str\n",
        "repo/ops/edit.py": "def f(d):\n    return d\n",
    })
    seen = []

    def recording(job, project, summary=None, prescan=True, source=None):
        index = project() if callable(project) else project  # without a pool: made when a file needs it
        seen.append((index.span_class("DocSpan"), summary))
        return _real_lint_file(job, project, summary, prescan, source)

    monkeypatch.setattr(spanlint.runner, "lint_file", recording)
    check_paths([tmp_path / "repo/ops/edit.py"], ConfigResolver(isolated=True), RunOptions(jobs=1))
    ((span_class, summary),) = seen
    assert span_class is not None and span_class.path.endswith("doc.py")
    assert summary is not None and summary.syntax_error is None


def test_stdin_is_linted_under_its_stdin_filename(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": "per-file-ignores: {'tests/*': [SPL101]}\n"})
    resolver = ConfigResolver()
    assert [d.path for d in check_stdin(REWRITE.encode(), "src/x.py", resolver).diagnostics] == ["src/x.py"]
    assert check_stdin(REWRITE.encode(), "tests/x.py", resolver).diagnostics == []
    assert [d.path for d in check_stdin(REWRITE.encode(), None, resolver).diagnostics] == ["-"]


def test_paths_outside_the_current_directory_are_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_tree(tmp_path, {"elsewhere/a.py": REWRITE, "here/.keep": ""})
    monkeypatch.chdir(tmp_path / "here")
    (finding,) = spanlint.check_paths([tmp_path / "elsewhere"])
    assert finding.path == (tmp_path / "elsewhere/a.py").as_posix()


def test_python_api(project: Path) -> None:
    write_tree(project, {"b.py": REWRITE, "a.py": REWRITE, ".spanlint.yaml": "ignore: [SPL101]\n"})
    assert spanlint.check_paths(["."]) == []
    found = spanlint.check_paths(["."], Settings())
    assert [(d.path, d.code) for d in found] == [("a.py", "SPL101"), ("b.py", "SPL101")]
    assert [d.code for d in check_source(REWRITE)] == ["SPL101"]


def test_nodes_built_after_a_lint_are_still_validated() -> None:
    # The parse skips LibCST's per-node validation; fixes and user code building nodes later keep it.
    assert check_source(REWRITE, "spans.py", Settings(select=("SPL101",)))
    with pytest.raises(libcst.CSTValidationError):
        libcst.Name("not a name")


LATIN_1_REWRITE = "# -*- coding: latin-1 -*-\n" + REWRITE.replace("[:100]", "[:100]  # café", 1)


@pytest.mark.parametrize("cache", [False, True])
def test_a_linted_file_is_read_once_from_the_project_pass_to_the_code_frame(
    project: Path, opened: Opens, cache: bool
) -> None:
    from spanlint.reporters import render_full

    write_tree(project, {".spanlint.yaml": "root: true\n", "other.py": CLEAN, "ops.py": CLEAN})
    options = RunOptions(jobs=1, cache=cache)
    check_paths([project], ConfigResolver(), options)  # primes the cache when there is one
    (project / "ops.py").write_bytes(LATIN_1_REWRITE.encode("latin-1"))
    opened.clear()
    result = check_paths([project / "ops.py"], ConfigResolver(), options)
    report = render_full(result, False)
    assert [d.code for d in result.diagnostics] == ["SPL101"]
    assert "café" in report  # the frame is decoded as the file declares, like the lint
    assert opened.count(str(project / "ops.py")) == 1


@forked_workers
@pytest.mark.parametrize("cache", [False, True])
def test_a_pool_run_reads_each_file_once_from_the_project_pass_to_the_code_frame(
    project: Path, opened: Opens, cache: bool
) -> None:
    from spanlint.reporters import render_full

    files = {f"pkg/mod{i:02}.py": REWRITE if i % 2 else CLEAN for i in range(PARALLEL_THRESHOLD + 4)}
    write_tree(project, {".spanlint.yaml": "root: true\n", **files, "pkg/ops.py": LATIN_1_REWRITE.encode("latin-1")})
    opened.clear()
    result = check_paths([project], ConfigResolver(), RunOptions(jobs=2, cache=cache))  # a cold cache
    report = render_full(result, False)
    assert len(result.diagnostics) == (PARALLEL_THRESHOLD + 4) // 2 + 1
    assert "café" in report
    assert {opened.count(project / name) for name in [*files, "pkg/ops.py"]} == {1}


def test_a_warm_run_reads_only_the_files_it_lints(project: Path, opened: Opens) -> None:
    files = {f"mod{i:02}.py": REWRITE if i % 2 else CLEAN for i in range(PARALLEL_THRESHOLD + 4)}
    write_tree(project, {".spanlint.yaml": "root: true\n", **files})
    for name in files:  # older than the cache's racy window: their stat is trusted
        os.utime(project / name, ns=(time.time_ns() - 10 * RACY_NS,) * 2)
    options = RunOptions(jobs=2, cache=True)
    first = check_paths([project], ConfigResolver(), options)
    (project / "mod00.py").write_text(CLEAN + "# a comment: the project index is unchanged\n")
    opened.clear()
    again = check_paths([project], ConfigResolver(), options)
    assert again.diagnostics == first.diagnostics
    assert [name for name in files if opened.count(project / name)] == ["mod00.py"]
    assert opened.count(project / "mod00.py") == 1


@forked_workers
def test_past_the_held_bytes_limit_each_pass_reads_the_file_itself(
    project: Path, opened: Opens, monkeypatch: pytest.MonkeyPatch
) -> None:
    _many_files(project)
    held = _run(project, jobs=2)
    monkeypatch.setattr(spanlint.source, "HELD_BYTES_LIMIT", 0)
    opened.clear()
    read_in_workers = _run(project, jobs=2)
    assert read_in_workers.diagnostics == held.diagnostics
    assert opened.count(project / "pkg0/mod00.py") == 2  # the project pass, then the lint pass
