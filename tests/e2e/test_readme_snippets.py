"""The README's snippets work as written: the pre-commit configuration, run by the real pre-commit."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PRE_COMMIT = Path(sys.executable).with_name("pre-commit")
SPANLINT = Path(sys.executable).with_name("spanlint")


def _section_block(heading: str, language: str) -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return re.search(rf"```{language}\n(.*?)```", section, re.S).group(1)


@pytest.mark.skipif(not (PRE_COMMIT.exists() and SPANLINT.exists()), reason="needs pre-commit and spanlint installed")
def test_the_pre_commit_snippet_runs_the_installed_spanlint(tmp_path: Path) -> None:
    environment = {
        **os.environ, "PRE_COMMIT_HOME": str(tmp_path / "home"), "PATH": f"{SPANLINT.parent}{os.pathsep}{os.environ['PATH']}",
        "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    project = tmp_path / "project"
    project.mkdir()
    (project / ".pre-commit-config.yaml").write_text(_section_block("pre-commit", "yaml"))
    (project / "ops.py").write_text("def shorten(span):\n    span.content = span.content[:10]\n")
    (project / "ok.py").write_text("x = 1\n")
    for command in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", *command], cwd=project, check=True, env=environment)

    def run(*files: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(PRE_COMMIT), "run", "--files", *files], cwd=project, capture_output=True,
                              text=True, env=environment, timeout=300)

    failed = run("ops.py")
    assert failed.returncode == 1 and "ops.py:2:5: SPL101" in failed.stdout, failed.stdout + failed.stderr
    passed = run("ok.py")
    assert passed.returncode == 0 and "Passed" in passed.stdout, passed.stdout + passed.stderr
