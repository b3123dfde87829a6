"""The installed command, run the way a user runs it: a separate process, real stdin/stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REWRITE = "def compress(span):\n    span.content = span.content[:100]\n"
SCRIPT = Path(sys.executable).with_name("spanlint")


def _environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    # The checkout under test comes first, whatever the environment has installed.
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2]), **(extra or {})}
    environment.pop("SPANLINT_OUTPUT_FORMAT", None)
    return environment


def spanlint(*args: str, cwd: Path, stdin: str | None = None, env: dict[str, str] | None = None):
    environment = _environment(env)
    return subprocess.run(
        [sys.executable, "-m", "spanlint", *args], cwd=cwd, input=stdin, capture_output=True, text=True,
        env=environment, timeout=120,
    )


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "ops.py").write_text(REWRITE)
    (tmp_path / "pkg" / "ok.py").write_text("x = 1\n")
    (tmp_path / "broken.py").write_bytes(b"def f(:\n")
    return tmp_path


def test_check_reports_and_fails(tree: Path) -> None:
    done = spanlint("check", "--output-format", "concise", cwd=tree)
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[:2] == [
        "broken.py:1:7: SPL000 syntax error: invalid syntax",
        "pkg/ops.py:2:5: SPL101 `span.content` rewritten in place without bumping its version",
    ]


def test_piped_full_output_has_no_color(tree: Path) -> None:
    done = spanlint("check", "pkg", cwd=tree, env={"FORCE_COLOR": "1"})
    assert "\x1b[" not in done.stdout and "^^^^" in done.stdout


def test_clean_tree_exits_0(tree: Path) -> None:
    done = spanlint("check", "pkg/ok.py", cwd=tree)
    assert (done.returncode, done.stdout.strip()) == (0, "All checks passed!")


def test_stdin(tree: Path) -> None:
    done = spanlint("check", "-", "--stdin-filename", "pkg/new.py", "--output-format", "json", cwd=tree, stdin=REWRITE)
    assert done.returncode == 1
    assert [f["filename"] for f in json.loads(done.stdout)] == ["pkg/new.py"]


def test_usage_and_config_errors_exit_2_without_traceback(tree: Path) -> None:
    (tree / ".spanlint.yaml").write_text("select: !!python/name:os.system\n")
    done = spanlint("check", cwd=tree)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "invalid YAML" in done.stderr and ".spanlint.yaml" in done.stderr
    (tree / ".spanlint.yaml").unlink()
    assert spanlint("check", "--select", "NOPE", cwd=tree).returncode == 2


def test_parallel_run_matches_serial(tree: Path) -> None:
    for i in range(30):
        (tree / "pkg" / f"m{i}.py").write_text(REWRITE if i % 3 else "y = 2\n")
    serial = spanlint("check", "--output-format", "json", "--jobs", "1", cwd=tree)
    parallel = spanlint("check", "--output-format", "json", "--jobs", "2", cwd=tree)
    assert serial.stdout == parallel.stdout and len(json.loads(serial.stdout)) == 22


@pytest.mark.skipif(not SCRIPT.exists(), reason="no installed spanlint script next to this interpreter")
def test_installed_script(tree: Path) -> None:
    done = subprocess.run(
        [str(SCRIPT), "rules"], cwd=tree, capture_output=True, text=True, timeout=120, env=_environment()
    )
    assert done.returncode == 0 and "SPL101" in done.stdout


# Prints the exit code and whether LibCST's node classes were loaded.
_LOADS_LIBCST = """\
import sys
from spanlint.cli import main
sys.argv = ["spanlint", *sys.argv[1:]]
try:
    main()
except SystemExit as done:
    print(done.code, "libcst._nodes.base" in sys.modules)
"""


def test_libcst_is_loaded_only_for_a_file_a_rule_may_match(tree: Path) -> None:
    # Importing LibCST is a third of a pre-commit run; two files in three hold no rule candidate.
    def run(path: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", _LOADS_LIBCST, "check", "--select", "ALL", "--no-cache", path],
            cwd=tree, capture_output=True, text=True, env=_environment(), timeout=120,
        )
        return done.stdout.splitlines()[-1]

    assert run("pkg/ok.py") == "0 False"
    assert run("pkg/ops.py") == "1 True"
