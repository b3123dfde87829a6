"""The `spanlint` command: a thin layer over discovery, configuration, the runner and the reporters."""

from __future__ import annotations

import dataclasses
import enum
import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, List, Optional

from importlib.metadata import version

import typer

from lint.config import ConfigError, ConfigResolver
from lint.reporters import FORMATS, render_statistics, rule_url
from lint.runner import STDIN, RunOptions, RunResult, check_paths, check_stdin
from lint.settings import SelectorError, Settings, resolve_selector
from rules import all_rules, find_rule
from rules.base import Rule, metadata_of

USAGE_ERROR = 2

app = typer.Typer(
    name="spanlint",
    help="Lint code that edits an AI agent's context spans.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class OutputFormat(str, enum.Enum):
    full = "full"
    concise = "concise"
    json = "json"
    json_lines = "json-lines"
    sarif = "sarif"
    github = "github"
    junit = "junit"


@contextmanager
def _usage_errors() -> Iterator[None]:
    """Turn configuration and selector errors into a one-line message and exit code 2."""
    try:
        yield
    except (ConfigError, SelectorError) as error:
        _fail(str(error))
    except OSError as error:
        _fail(f"{error.filename or ''}: {error.strerror or error}".lstrip(": "))


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"spanlint {version('spanlint')}")
        raise typer.Exit()


@app.callback()
def _options(
    show_version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Lint code that edits an AI agent's context spans."""


def _fail(message: str) -> None:
    typer.echo(f"spanlint: error: {message}", err=True)
    raise typer.Exit(USAGE_ERROR)


def _split(values: Optional[List[str]]) -> tuple[str, ...]:
    """Selectors from repeated and comma-separated options, each checked to name a rule."""
    selectors = tuple(part.strip() for value in values or () for part in value.split(",") if part.strip())
    for selector in selectors:
        try:
            resolve_selector(selector)
        except SelectorError as error:
            raise typer.BadParameter(str(error)) from None
    return selectors


def _resolver(
    config: Optional[Path], isolated: bool, select: tuple[str, ...], extend_select: tuple[str, ...], ignore: tuple[str, ...]
) -> ConfigResolver:
    def overrides(settings: Settings) -> Settings:
        return dataclasses.replace(
            settings,
            select=select or settings.select,
            extend_select=(() if select else settings.extend_select) + extend_select,
            ignore=settings.ignore + ignore,
        )

    return ConfigResolver(config_file=config, isolated=isolated, overrides=overrides)


def _use_color(to_file: bool) -> bool:
    return not to_file and sys.stdout.isatty() and not os.environ.get("NO_COLOR")


_CONFIG_OPTION = typer.Option(None, "--config", help="Use this configuration file only.", dir_okay=False)
_ISOLATED_OPTION = typer.Option(False, "--isolated", help="Ignore every configuration file.")


@app.command()
def check(
    paths: Optional[List[str]] = typer.Argument(None, help="Files or directories to lint (default: .); - for stdin."),
    select: Optional[List[str]] = typer.Option(None, "--select", help="Rules to run (codes, prefixes or names)."),
    extend_select: Optional[List[str]] = typer.Option(None, "--extend-select", help="Rules to run in addition."),
    ignore: Optional[List[str]] = typer.Option(None, "--ignore", help="Rules not to run."),
    output_format: OutputFormat = typer.Option(
        OutputFormat.full, "--output-format", envvar="SPANLINT_OUTPUT_FORMAT", help="How to report findings."
    ),
    output_file: Optional[Path] = typer.Option(None, "--output-file", "-o", help="Write the report to this file."),
    show_statistics: bool = typer.Option(False, "--statistics", help="Print the number of findings per rule."),
    exit_zero: bool = typer.Option(False, "--exit-zero", help="Exit 0 even when there are findings."),
    strict: bool = typer.Option(False, "--strict", help="Warnings fail the run too."),
    config: Optional[Path] = _CONFIG_OPTION,
    isolated: bool = _ISOLATED_OPTION,
    force_exclude: bool = typer.Option(False, "--force-exclude", help="Apply excludes to files named explicitly."),
    stdin_filename: Optional[str] = typer.Option(None, "--stdin-filename", help="The path stdin's source stands for."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, help="Processes to use (default: CPU count)."),
    prescan: bool = typer.Option(True, "--prescan/--no-prescan", hidden=True),
) -> None:
    """Lint Python files; exit 0 when clean, 1 with findings, 2 on a usage or configuration error."""
    chosen = _split(select), _split(extend_select), _split(ignore)
    options = RunOptions(jobs=jobs or os.cpu_count() or 1, prescan=prescan, force_exclude=force_exclude)
    targets = paths or ["."]
    with _usage_errors():
        resolver = _resolver(config, isolated, *chosen)
        if targets == [STDIN]:
            result = check_stdin(sys.stdin.buffer.read(), stdin_filename, resolver, options)
        elif STDIN in targets:
            raise typer.BadParameter("'-' (stdin) cannot be combined with other paths")
        else:
            missing = [p for p in targets if not os.path.exists(p)]
            if missing:
                _fail(f"{missing[0]}: no such file or directory")
            result = check_paths(targets, resolver, options)
    _report(result, output_format.value, output_file, show_statistics)
    failing = [d for d in result.diagnostics if d.severity == "error" or strict]
    raise typer.Exit(1 if failing and not exit_zero else 0)


def _report(result: RunResult, output_format: str, output_file: Optional[Path], show_statistics: bool) -> None:
    color = _use_color(output_file is not None)
    if show_statistics:
        text = render_statistics(result, as_json=output_format in ("json", "json-lines"))
    else:
        text = FORMATS[output_format](result, color)
    if output_file is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    with _usage_errors():
        output_file.parent.mkdir(parents=True, exist_ok=True)
        output_file.write_text(text, encoding="utf-8")


@app.command()
def rule(
    selector: Optional[str] = typer.Argument(None, help="A rule code (SPL101) or name."),
    show_all: bool = typer.Option(False, "--all", help="Every rule's documentation."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Print a rule's documentation."""
    if show_all:
        chosen: tuple[type[Rule], ...] = all_rules()
    elif selector is None:
        raise typer.BadParameter("give a rule code or name, or --all")
    else:
        found = find_rule(selector)
        if found is None:
            raise typer.BadParameter(f"no rule named {selector!r}")
        chosen = (found,)
    if as_json:
        documents = [_rule_json(r) for r in chosen]
        typer.echo(json.dumps(documents if show_all else documents[0], indent=2))
        return
    text = "\n\n".join(_rule_markdown(r) for r in chosen)
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(text))
    else:
        typer.echo(text)


def _rule_json(rule: type[Rule]) -> dict:
    return {**metadata_of(rule), "url": rule_url(rule.code)}


def _rule_markdown(rule: type[Rule]) -> str:
    fix = f"{rule.fix_applicability} fix available" if rule.fix_applicability else "no fix"
    enabled = "enabled by default" if rule.default_enabled else "off by default"
    return (
        f"# {rule.code} {rule.name}\n\n{rule.summary}.\n\n"
        f"Severity: {rule.severity}; {fix}; {enabled}.\n\n{rule.docs.strip()}\n"
    )


@app.command("rules")
def list_rules(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """List every rule: code, name, summary, default severity, fix availability."""
    rules = all_rules()
    if as_json:
        typer.echo(json.dumps([_rule_json(r) for r in rules], indent=2))
        return
    rows = [
        (r.code, r.name, r.severity + ("" if r.default_enabled else " (off)"), r.fix_applicability or "-", r.summary)
        for r in rules
    ]
    header = ("CODE", "NAME", "SEVERITY", "FIX", "SUMMARY")
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(4)]
    for row in (header, *rows):
        typer.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[4])


@app.command("config")
def show_config(
    path: Path = typer.Argument(Path("."), help="The file or directory whose settings to show."),
    show: bool = typer.Option(False, "--show", help="Print the effective settings."),
    config: Optional[Path] = _CONFIG_OPTION,
    isolated: bool = _ISOLATED_OPTION,
) -> None:
    """Print the effective settings for a path (`--show`)."""
    if not show:
        raise typer.BadParameter("use --show to print the effective settings")
    with _usage_errors():
        settings = _resolver(config, isolated, (), (), ()).settings_for(path)
        enabled = [r.code for r in settings.rules_for(str(path))]
    vocabulary = dataclasses.asdict(settings.vocabulary)
    document = {
        "path": str(path),
        "config-files": list(settings.config_files),
        "select": list(settings.select),
        "extend-select": list(settings.extend_select),
        "ignore": list(settings.ignore),
        "exclude": list(settings.exclude),
        "per-file-ignores": {k: list(v) for k, v in settings.per_file_ignores.items()},
        "severity": dict(settings.severity),
        "max-file-bytes": settings.max_file_bytes,
        "enabled-rules": enabled,
        "vocabulary": {k: list(v) if isinstance(v, tuple) else v for k, v in vocabulary.items()},
    }
    import yaml

    typer.echo(yaml.safe_dump(document, sort_keys=False, allow_unicode=True), nl=False)


def main() -> None:
    """Entry point of the `spanlint` script: never a traceback, exit 2 on an internal error."""
    try:
        app()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as error:  # noqa: BLE001 - the last line of defence
        print(f"spanlint: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(USAGE_ERROR)
