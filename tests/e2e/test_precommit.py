"""The pre-commit hooks, run by the real `pre-commit try-repo` against this checkout.

pre-commit builds a virtualenv with this package in it (from PyPI's libcst, typer...): once per
session, in a shared PRE_COMMIT_HOME. The checkout is copied into a temporary git repository and
committed there, so the hooks tested are the working tree's, committed or not.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parents[2]
PRE_COMMIT = Path(sys.executable).with_name("pre-commit")
SPAN_CLASS = (
    "from dataclasses import dataclass\n\n\n@dataclass\nclass Doc:\n"
    "    span_id: str\n    content: str\n    version: int = 0\n"
)
# `d` is a span only because of `Doc`, defined in another file.
REWRITE_DOC = "def shorten(d: Doc) -> None:\n    d.content = d.content[:10]\n"

pytestmark = pytest.mark.precommit


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=_environment())


def _environment(home: Path | None = None) -> dict[str, str]:
    environment = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    environment.pop("PYTHONPATH", None)  # the hook must run the package pre-commit installed
    if home is not None:
        environment["PRE_COMMIT_HOME"] = str(home)
    return environment


@pytest.fixture(scope="session")
def hook_repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This checkout's working tree (tracked and untracked, not ignored files), committed in a new repository."""
    target = tmp_path_factory.mktemp("hooks") / "spanlint"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=CHECKOUT, check=True, capture_output=True,
    ).stdout.decode().split("\0")
    for relative in filter(None, listed):
        source = CHECKOUT / relative
        if source.is_file():
            (target / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / relative)
    _git("init", "-q", cwd=target)
    _git("add", "-A", cwd=target)
    _git("commit", "-q", "-m", "snapshot", cwd=target)
    return target


@pytest.fixture(scope="session")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git repository with a committed span class in `models.py`."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "models.py").write_text(SPAN_CLASS)
    (root / ".spanlint.yaml").write_text("root: true\nextend-select: [SPL900]\n")
    _git("init", "-q", cwd=root)
    _git("add", "-A", cwd=root)
    _git("commit", "-q", "-m", "models", cwd=root)
    return root


def _try_repo(hook: str, files: list[str], project: Path, hooks: Path, home: Path) -> subprocess.CompletedProcess[str]:
    """Stage `files` (as a commit would) and run `hook` on them only."""
    _git("add", *files, cwd=project)
    return subprocess.run(
        [str(PRE_COMMIT), "try-repo", str(hooks), hook, "--files", *files],
        cwd=project, capture_output=True, text=True, env=_environment(home), timeout=600,
    )


def test_hook_passes_on_a_clean_file(project: Path, hook_repository: Path, pre_commit_home: Path) -> None:
    (project / "clean.py").write_text("from models import Doc\n\n\ndef bump(d: Doc) -> None:\n    d.version += 1\n")
    done = _try_repo("spanlint", ["clean.py"], project, hook_repository, pre_commit_home)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Passed" in done.stdout


def test_hook_fails_with_a_finding_from_a_span_class_in_an_unchanged_file(
    project: Path, hook_repository: Path, pre_commit_home: Path
) -> None:
    (project / "ops.py").write_text("from models import Doc\n\n\n" + REWRITE_DOC)
    done = _try_repo("spanlint", ["ops.py"], project, hook_repository, pre_commit_home)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "ops.py:5:5: SPL101" in done.stdout
    assert "Failed" in done.stdout


def test_fix_hook_rewrites_the_file(project: Path, hook_repository: Path, pre_commit_home: Path) -> None:
    (project / "tidy.py").write_text("x = 1  # noqa: SPL999\ny = 2\n")
    done = _try_repo("spanlint-fix", ["tidy.py"], project, hook_repository, pre_commit_home)
    assert (project / "tidy.py").read_text() == "x = 1\ny = 2\n", done.stdout + done.stderr
    assert done.returncode == 1 and "files were modified by this hook" in done.stdout
    again = _try_repo("spanlint-fix", ["tidy.py"], project, hook_repository, pre_commit_home)
    assert again.returncode == 0, again.stdout + again.stderr


def test_hook_knows_the_frameworks_span_types_without_them_installed(
    project: Path, hook_repository: Path, pre_commit_home: Path
) -> None:
    """pre-commit's environment has spanlint only: the bundled facts give each framework type its rule."""
    from tests.e2e.framework_app import expected, write_app

    write_app(project)
    changed = sorted({path for path, _, _ in expected()})
    done = _try_repo("spanlint", [".spanlint.yaml", *changed], project, hook_repository, pre_commit_home)
    assert done.returncode == 1, done.stdout + done.stderr
    found = set(re.findall(r"^(app/\S+\.py):(\d+):\d+: (SPL\d{3})", done.stdout, re.MULTILINE))
    assert found == {(path, str(line), code) for path, line, code in expected()}, done.stdout
    assert done.stdout.count("bundled facts used for") == 1, done.stdout
