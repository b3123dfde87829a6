"""Which files a run lints: walking, .gitignore files, exclude patterns, explicit files."""

from __future__ import annotations

from pathlib import Path

from spanlint.config import ConfigResolver
from spanlint.discovery import discover, project_root
from tests.lint.conftest import REWRITE, write_tree


def _found(paths: list[str], root: Path, *, force_exclude: bool = False, resolver: ConfigResolver | None = None) -> list[str]:
    resolver = resolver or ConfigResolver()
    files = discover([root / p for p in paths], resolver.settings_for, force_exclude=force_exclude)
    return [f.relative_to(root).as_posix() for f in files]


def test_walks_python_sources_and_stubs_only(project: Path) -> None:
    write_tree(project, {"a.py": REWRITE, "pkg/b.pyi": "", "pkg/c.txt": "", "pkg/d.pyc": "", "e.py.bak": ""})
    assert _found(["."], project) == ["a.py", "pkg/b.pyi"]


def test_builtin_excludes_skip_environments_and_vcs(project: Path) -> None:
    write_tree(project, {"a.py": "", ".venv/lib/x.py": "", "node_modules/y.py": "", "build/z.py": "", ".git/h.py": ""})
    assert _found(["."], project) == ["a.py"]


def test_nested_gitignore_files_with_negation(project: Path) -> None:
    write_tree(project, {
        ".git/HEAD": "",
        ".gitignore": "generated/\n*_pb2.py\n",
        "app/.gitignore": "local_*.py\n!local_keep.py\n",
        "app/main.py": "",
        "app/local_scratch.py": "",
        "app/local_keep.py": "",
        "app/api_pb2.py": "",
        "generated/out.py": "",
        "sub/.gitignore": "!*_pb2.py\n",
        "sub/kept_pb2.py": "",
    })
    assert _found(["."], project) == ["app/local_keep.py", "app/main.py", "sub/kept_pb2.py"]


def test_gitignore_of_repository_applies_when_walking_a_subdirectory(project: Path) -> None:
    write_tree(project, {".git/HEAD": "", ".gitignore": "scratch.py\n", "src/scratch.py": "", "src/ok.py": ""})
    assert _found(["src"], project) == ["src/ok.py"]


def test_configured_exclude_is_relative_to_the_config_file(project: Path) -> None:
    write_tree(project, {
        ".spanlint.yaml": "exclude: ['fixtures/', 'legacy/old.py']\n",
        "fixtures/f.py": "",
        "tests/fixtures/g.py": "",
        "legacy/old.py": "",
        "legacy/new.py": "",
        "other/legacy/old.py": "",
    })
    assert _found(["."], project) == ["legacy/new.py", "other/legacy/old.py"]


def test_explicit_file_is_linted_unless_force_exclude(project: Path) -> None:
    write_tree(project, {".spanlint.yaml": "exclude: ['vendored/']\n", ".gitignore": "ignored.py\n",
                         "vendored/v.py": "", "ignored.py": ""})
    assert _found(["vendored/v.py", "ignored.py"], project) == ["ignored.py", "vendored/v.py"]
    assert _found(["vendored/v.py", "ignored.py"], project, force_exclude=True) == []


def test_explicit_non_python_file_is_linted(project: Path) -> None:
    write_tree(project, {"script": REWRITE})
    assert _found(["script"], project) == ["script"]


def test_each_file_once(project: Path) -> None:
    write_tree(project, {"pkg/a.py": ""})
    assert _found([".", "pkg", "pkg/a.py"], project) == ["pkg/a.py"]


def test_project_root_is_the_nearest_marked_ancestor(tmp_path: Path) -> None:
    write_tree(tmp_path, {"repo/pyproject.toml": "", "repo/src/pkg/a.py": "", "bare/x/a.py": "", "bare/y/b.py": "",
                          "cfg/.spanlint.yaml": "root: true\n", "cfg/sub/c.py": "", "nonroot/.spanlint.yaml": "select: [SPL101]\n",
                          "nonroot/d.py": ""})
    assert project_root([tmp_path / "repo/src/pkg/a.py"]) == tmp_path / "repo"
    assert project_root([tmp_path / "bare/x/a.py", tmp_path / "bare/y/b.py"]) == tmp_path / "bare"
    assert project_root([tmp_path / "cfg/sub/c.py"]) == tmp_path / "cfg"
    assert project_root([tmp_path / "nonroot/d.py"]) == tmp_path / "nonroot"
