"""Rule documentation pages, `spanlint init`, and the progress bar."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from spanlint.cli import app
from spanlint.config import load_config_file, settings_from_files
from spanlint.docs import DOCS_DIR, pages, rule_markdown, stale_pages
from spanlint.reporters import rule_url
from spanlint.rules import all_rules
from tests.lint.conftest import REWRITE, write_tree

runner = CliRunner()


def test_committed_rule_pages_are_up_to_date() -> None:
    assert stale_pages(DOCS_DIR) == [], "rule docs are out of date: run `python -m spanlint.docs`"


def test_every_rule_has_a_page_with_its_own_docs_and_its_url_points_at_it() -> None:
    for rule in all_rules():
        page = pages()[f"{rule.code}.md"]
        assert rule_markdown(rule) in page and rule.docs.strip() in page
        assert rule_url(rule.code).endswith(f"/docs/rules/{rule.code}.md")
        assert f"[{rule.code}]({rule.code}.md)" in pages()["README.md"]


def test_docs_command_writes_and_checks_pages(tmp_path: Path) -> None:
    target = tmp_path / "rules"
    assert runner.invoke(app, ["docs", "--write", str(target)]).exit_code == 0
    assert runner.invoke(app, ["docs", "--write", str(target), "--check"]).exit_code == 0
    page = target / "SPL101.md"
    page.write_text(page.read_text() + "edited\n")
    (target / "SPL999.md").write_text("a rule that no longer exists\n")
    checked = runner.invoke(app, ["docs", "--write", str(target), "--check"])
    assert checked.exit_code == 1 and "SPL101.md" in checked.stderr and "SPL999.md" in checked.stderr
    runner.invoke(app, ["docs", "--write", str(target)])
    assert stale_pages(target) == [] and not (target / "SPL999.md").exists()


def test_init_writes_a_starter_configuration_that_loads(project: Path) -> None:
    assert runner.invoke(app, ["init"]).exit_code == 0
    written = (project / ".spanlint.yaml").read_text()
    assert written.startswith("#")
    loaded = load_config_file(project / ".spanlint.yaml")
    assert loaded is not None and loaded.is_root
    assert settings_from_files([loaded]).exclude  # the starter's example excludes are live settings
    refused = runner.invoke(app, ["init"])
    assert refused.exit_code == 2 and "already exists" in refused.stderr
    (project / ".spanlint.yaml").write_text("root: true\n")
    assert runner.invoke(app, ["init", "--force"]).exit_code == 0
    assert (project / ".spanlint.yaml").read_text() == written


def _run_on_a_terminal(root: Path, environment: dict[str, str]) -> str:
    """Run `spanlint check` with stdout and stderr on a pseudo-terminal; what the terminal shows."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "spanlint", "check", "--no-cache", "-j", "2"], cwd=root, env=environment,
        stdin=subprocess.DEVNULL, stdout=follower, stderr=follower,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=120)
    os.close(leader)
    return b"".join(chunks).decode(errors="replace")


def test_progress_bar_on_a_terminal_only_outside_ci(tmp_path: Path) -> None:
    write_tree(tmp_path, {".spanlint.yaml": "root: true\n", **{f"m{i}.py": REWRITE for i in range(220)}})
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2]), "TERM": "xterm"}
    environment.pop("CI", None)
    assert "Linting" in _run_on_a_terminal(tmp_path, environment)
    assert "Linting" not in _run_on_a_terminal(tmp_path, {**environment, "CI": "true"})
    piped = subprocess.run(
        [sys.executable, "-m", "spanlint", "check", "--no-cache"], cwd=tmp_path, env=environment,
        capture_output=True, text=True,
    )
    assert piped.stderr == "" and "Found 220 errors." in piped.stdout
