"""The `spanlint` command: a thin layer over discovery, configuration, the runner and the reporters."""

from __future__ import annotations

import dataclasses
import enum
import gc
import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, List, Optional, TextIO

import typer

from spanlint.baseline import BaselineError, new_findings, write_baseline
from spanlint.config import YAML_NAME, ConfigError, ConfigResolver
from spanlint.diagnostics import Diagnostic
from spanlint.reporters import FORMATS, TextOptions, hidden_fixes, render_concise, render_full, render_statistics, rule_url
from spanlint.runtime_report import RuntimeReportError, merge_runtime_findings
from spanlint.runner import STDIN, Progress, RunOptions, RunResult, check_paths, check_stdin, display_path
from spanlint.settings import SelectorError, Settings, resolve_selector
from spanlint.rules import all_rules, find_rule
from spanlint.rules.base import Rule, metadata_of

if TYPE_CHECKING:
    from spanlint.fix import FixRun

USAGE_ERROR = 2
INTERNAL_ERROR = 2  # a rule raised (a bug in spanlint); the other rules' findings are still reported
ISSUES_URL = "https://github.com/spanlint/spanlint/issues"

app = typer.Typer(
    name="spanlint",
    help="Lint code that edits an AI agent's context spans.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
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
    gitlab = "gitlab"
    pylint = "pylint"


class Color(str, enum.Enum):
    auto = "auto"
    always = "always"
    never = "never"


# Text formats take `TextOptions`; the others are for tools and take none.
TEXT_FORMATS = {"full": render_full, "concise": render_concise}


@contextmanager
def _usage_errors() -> Iterator[None]:
    """Turn configuration and selector errors into a one-line message and exit code 2."""
    try:
        yield
    except (ConfigError, SelectorError, BaselineError, RuntimeReportError) as error:
        _fail(str(error))
    except OSError as error:
        _fail(f"{error.filename or ''}: {error.strerror or error}".lstrip(": "))


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import version  # only here: it costs ~10 ms of every start-up

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
    config: Optional[Path], isolated: bool, select: tuple[str, ...], extend_select: tuple[str, ...], ignore: tuple[str, ...],
    python: Optional[str] = None,
) -> ConfigResolver:
    def overrides(settings: Settings) -> Settings:
        return dataclasses.replace(
            settings,
            select=select or settings.select,
            extend_select=(() if select else settings.extend_select) + extend_select,
            ignore=settings.ignore + ignore,
            python=python or settings.python,
        )

    return ConfigResolver(config_file=config, isolated=isolated, overrides=overrides)


def _use_color(color: Color, to_file: bool) -> bool:
    if color is not Color.auto:
        return color is Color.always
    return not to_file and sys.stdout.isatty() and not os.environ.get("NO_COLOR")


@dataclasses.dataclass(frozen=True)
class _Output:
    """Where a run's report and notes go: `--quiet` keeps the findings only, `--silent` prints nothing."""

    quiet: bool = False
    silent: bool = False

    def note(self, message: str) -> None:
        """A line for people on stderr (summaries, warnings); left out by --quiet and --silent."""
        if not (self.quiet or self.silent):
            typer.echo(message, err=True)


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
    no_cache: bool = typer.Option(False, "--no-cache", help="Neither read nor write the result cache."),
    cache_dir: Optional[Path] = typer.Option(
        None, "--cache-dir", envvar="SPANLINT_CACHE_DIR", file_okay=False,
        help="Where to keep the result cache (default: .spanlint_cache at the project root).",
    ),
    fix: bool = typer.Option(False, "--fix", help="Apply safe fixes to the files."),
    unsafe_fixes: bool = typer.Option(False, "--unsafe-fixes", help="With --fix or --diff: unsafe fixes too."),
    diff: bool = typer.Option(False, "--diff", help="Print the fixes as a unified diff; write nothing."),
    baseline: Optional[Path] = typer.Option(
        None, "--baseline", dir_okay=False, help="Report only findings this baseline file does not record."
    ),
    write_baseline_to: Optional[Path] = typer.Option(
        None, "--write-baseline", dir_okay=False, help="Record every current finding in this baseline file."
    ),
    show_fixes: bool = typer.Option(False, "--show-fixes", help="Show each fix under its finding (full format)."),
    add_noqa: Optional[str] = typer.Option(
        None, "--add-noqa", metavar="[=REASON]",
        help="Add a `# noqa: SPLxxx` comment to each line with a finding (optionally with a reason), then exit.",
    ),
    show_files: bool = typer.Option(False, "--show-files", help="Print the files that would be linted, then exit."),
    color: Color = typer.Option(Color.auto, "--color", help="Colour the text formats: auto (a terminal), always, never."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print the findings and nothing else."),
    silent: bool = typer.Option(False, "--silent", "-s", help="Print nothing; the exit code still tells."),
    runtime_report: Optional[Path] = typer.Option(
        None, "--runtime-report", dir_okay=False,
        help="Merge the runtime guard's violations from this file (`pytest --span-guard-report`) into the report.",
    ),
    python: Optional[str] = typer.Option(
        None, "--python", help="The Python interpreter whose installed packages define the imported classes "
        "(default: $VIRTUAL_ENV's, else spanlint's own).",
    ),
) -> None:
    """Lint Python files; exit 0 when clean, 1 with findings, 2 on a usage or configuration error."""
    chosen = _split(select), _split(extend_select), _split(ignore)
    targets = paths or ["."]
    output = _Output(quiet=quiet, silent=silent)
    if unsafe_fixes and not (fix or diff):
        _fail("--unsafe-fixes applies with --fix or --diff")
    if (add_noqa is not None or show_files) and STDIN in targets:
        _fail("--add-noqa and --show-files need files, not stdin")
    if add_noqa is not None and (fix or diff):
        _fail("--add-noqa cannot be combined with --fix or --diff")
    allowed = frozenset({"safe", "unsafe"} if unsafe_fixes else {"safe"})
    text_options = TextOptions(unsafe_fixes=unsafe_fixes, show_fixes=show_fixes, quiet=quiet)
    options = RunOptions(
        jobs=jobs or os.cpu_count() or 1, prescan=prescan, force_exclude=force_exclude,
        cache=not no_cache, cache_dir=cache_dir,
    )
    fixed: Optional[FixRun] = None
    with _usage_errors(), _progress_display(targets) as progress:
        options = dataclasses.replace(options, progress=progress)
        resolver = _resolver(config, isolated, *chosen, python=python)
        if targets == [STDIN]:
            data = sys.stdin.buffer.read()
            if fix or diff:
                from spanlint.fix import fix_stdin  # here, as for files: a check never needs it

                fixed = fix_stdin(data, stdin_filename, resolver, options, allowed)
                result = fixed.result
            else:
                result = check_stdin(data, stdin_filename, resolver, options)
        elif STDIN in targets:
            raise typer.BadParameter("'-' (stdin) cannot be combined with other paths")
        else:
            missing = [p for p in targets if not os.path.exists(p)]
            if missing:
                _fail(f"{missing[0]}: no such file or directory")
            if show_files:
                _show_files(targets, resolver, force_exclude, output)
            if fix or diff:
                from spanlint.fix import fix_paths  # here: the pre-commit case only checks (~5 ms)

                fixed = fix_paths(targets, resolver, options, allowed, write=not diff)
                result = fixed.result
            else:
                result = check_paths(targets, resolver, options)
            if not result.files:
                output.note("spanlint: warning: No Python files found under the given path(s)")
            if add_noqa is not None:
                _add_noqa(result, resolver, add_noqa, targets, output)
        if runtime_report is not None:
            result = merge_runtime_findings(result, runtime_report, resolver)
    for line in result.warnings:
        output.note(f"spanlint: warning: {line}")
    if write_baseline_to is not None:
        with _usage_errors():
            count = write_baseline(write_baseline_to, result.diagnostics)
        output.note(f"Recorded {_plural(count, 'finding')} in {write_baseline_to}.")
        raise typer.Exit(0)
    if baseline is not None:
        with _usage_errors():
            kept, suppressed = new_findings(baseline, result.diagnostics)
        result = dataclasses.replace(result, diagnostics=kept)
        if suppressed:
            output.note(f"{_plural(suppressed, 'finding')} in the baseline not shown.")
    hidden = text_options.hidden(result.diagnostics)
    if diff and fixed is not None:
        _report_diff(fixed, hidden, output)
        raise typer.Exit(1 if fixed.changed else 0)
    if fixed is not None and targets == [STDIN]:
        if not silent:  # the source, fixed, on stdout as ruff writes it; the report goes to stderr
            if fixed.fixes:
                sys.stdout.write(fixed.fixes[0].fixed)
            else:  # excluded or undecodable: as it came
                sys.stdout.flush()
                sys.stdout.buffer.write(data)
            sys.stdout.flush()
        stream = sys.stderr
    else:
        stream = None
    if not silent:
        _report(result, output_format.value, output_file, show_statistics, color, text_options, stream)
    if fixed is not None:
        _report_fixes(fixed, len(result.diagnostics), hidden, output)
    for note in result.notes:
        output.note(f"spanlint: {note}")
    if result.internal_errors:
        _report_internal_errors(result.internal_errors)
        raise typer.Exit(INTERNAL_ERROR)
    failing = [d for d in result.diagnostics if d.severity == "error" or strict]
    raise typer.Exit(1 if failing and not exit_zero else 0)


def _show_files(targets: List[str], resolver: ConfigResolver, force_exclude: bool, output: _Output) -> None:
    """Print each file a run over `targets` would lint, one a line, then exit 0."""
    from spanlint.discovery import discover

    files = discover([Path(t) for t in targets], resolver.settings_for, force_exclude=force_exclude)
    if not output.silent:
        for path in files:
            typer.echo(display_path(path))
    if not files:
        output.note("spanlint: warning: No Python files found under the given path(s)")
    raise typer.Exit(0)


def _add_noqa(result: RunResult, resolver: ConfigResolver, reason: str, targets: List[str], output: _Output) -> None:
    """Suppress every finding of `result` with a comment on its line, then exit 0."""
    from spanlint.noqa import add_noqa

    added = add_noqa(result, resolver, reason, targets)
    for line in added.skipped:
        output.note(f"spanlint: warning: {line}")
    output.note(f"Added {_plural(added.added, 'noqa directive')}.")
    raise typer.Exit(0)


def _report_internal_errors(errors: list[Diagnostic]) -> None:
    """One line for each rule that raised on a file (its other rules' findings are reported), and
    one line asking for a report."""
    for error in errors:
        typer.echo(
            f"spanlint: internal error: rule {error.code} ({error.name}) failed on {error.path}:{error.location.line}: "
            f"{error.message}",
            err=True,
        )
    typer.echo(f"spanlint: this is a bug in spanlint; please report it at {ISSUES_URL}", err=True)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _with_hidden(text: str, hidden: int) -> str:
    return f"{text} ({hidden_fixes(hidden)})." if hidden else f"{text}."


def _report_diff(fixed: FixRun, hidden: int, output: _Output) -> None:
    if not output.silent:
        for fix in fixed.changed:
            sys.stdout.write(fix.diff())
        sys.stdout.flush()
    for fix in fixed.fixes:
        for line in fix.skipped:
            output.note(f"spanlint: warning: {line}")
    count = sum(f.applied for f in fixed.changed)
    output.note(_with_hidden(f"Would fix {_plural(count, 'error')}" if count else "No fixes available", hidden))


def _report_fixes(fixed: FixRun, remaining: int, hidden: int, output: _Output) -> None:
    for fix in fixed.fixes:
        for line in fix.skipped:
            output.note(f"spanlint: warning: {line}")
    output.note(f"Fixed {_plural(fixed.applied, 'error')}, {remaining} remaining.")
    if hidden:
        output.note(f"{hidden_fixes(hidden)}.")


# Runs over fewer files than this finish before a progress bar would help.
PROGRESS_THRESHOLD = 200


@contextmanager
def _progress_display(targets: List[str]) -> Iterator[Optional[Progress]]:
    """A rich progress bar on stderr when it is a terminal, outside CI; else nothing."""
    if not sys.stderr.isatty() or os.environ.get("CI") or targets == [STDIN]:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    from rich.progress import Progress as RichProgress

    bar = RichProgress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        transient=True, console=Console(stderr=True),
    )

    class _Bar:
        task = None

        def start(self, description: str, total: int) -> None:
            if total < PROGRESS_THRESHOLD:
                self.task = None
                return
            if not bar.live.is_started:
                bar.start()
            self.task = bar.add_task(description, total=total)

        def advance(self, count: int) -> None:
            if self.task is not None:
                bar.advance(self.task, count)

    try:
        yield _Bar()
    finally:
        bar.stop()


def _report(
    result: RunResult, output_format: str, output_file: Optional[Path], show_statistics: bool, color: Color,
    text_options: TextOptions, stream: Optional[TextIO] = None,
) -> None:
    stream = stream or sys.stdout
    colored = _use_color(color, output_file is not None)
    if show_statistics:
        text = render_statistics(result, as_json=output_format in ("json", "json-lines"))
    elif output_format in TEXT_FORMATS:
        text = TEXT_FORMATS[output_format](result, colored, text_options)
    else:
        text = FORMATS[output_format](result, colored)
    if output_file is None:
        stream.write(text)
        stream.flush()
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
    from spanlint.docs import rule_markdown

    text = "\n\n".join(rule_markdown(r) for r in chosen)
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(text))
    else:
        typer.echo(text)


def _rule_json(rule: type[Rule]) -> dict:
    return {**metadata_of(rule), "url": rule_url(rule.code)}


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


STARTER_CONFIG = """\
# spanlint configuration (see the README's Configuration section).
# Settings cascade: a .spanlint.yaml in a subdirectory overrides this one key by key.
# `root: true` stops the search for configuration files in parent directories.
root: true

# Rules to run, by code, code prefix or name (default: every rule enabled by default).
# select: [SPL1]
# Rules to run in addition to the default ones (SPL900 reports unused suppressions).
# extend-select: [SPL900]
# Rules not to run.
# ignore: []

# Files and directories not to lint (gitignore-style, relative to this file).
exclude:
  - build/
  - "*_pb2.py"

# Rules not to run on some files (glob patterns relative to this file).
# per-file-ignores:
#   "tests/**": [SPL101]

# Change a rule's severity: error, warn or off.
# severity:
#   SPL101: warn

# Names that make code span-like; each field listed replaces the default list.
# vocabulary:
#   span_nouns: [span, chunk, message]
#   version_fields: [version, revision]
"""


@app.command()
def init(
    directory: Path = typer.Argument(Path("."), help="Where to write .spanlint.yaml.", file_okay=False),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing .spanlint.yaml."),
) -> None:
    """Write a commented starter .spanlint.yaml."""
    target = directory / YAML_NAME
    if target.exists() and not force:
        _fail(f"{target} already exists (use --force to overwrite it)")
    with _usage_errors():
        directory.mkdir(parents=True, exist_ok=True)
        target.write_text(STARTER_CONFIG, encoding="utf-8")
    typer.echo(f"Wrote {target}")


@app.command()
def docs(
    write: Optional[Path] = typer.Option(None, "--write", file_okay=False, help="Write the pages into this directory."),
    check_only: bool = typer.Option(False, "--check", help="Exit 1 when the pages in --write's directory are out of date."),
) -> None:
    """Generate the rule documentation pages (docs/rules/SPLxxx.md) from the rules' metadata."""
    from spanlint.docs import stale_pages, write_pages

    if write is None:
        raise typer.BadParameter("give the directory with --write")
    if check_only:
        stale = stale_pages(write)
        for name in stale:
            typer.echo(f"{write / name}: out of date", err=True)
        raise typer.Exit(1 if stale else 0)
    with _usage_errors():
        for name in write_pages(write):
            typer.echo(f"Wrote {write / name}")


@app.command()
def server() -> None:
    """Run the language server over stdio (needs the `server` extra: pip install 'spanlint[server]')."""
    from spanlint.server import serve

    raise typer.Exit(serve())


# A lint run allocates millions of short-lived syntax-tree nodes and few reference cycles, and keeps
# the project index alive throughout: collecting every 700 allocations (CPython's default) costs
# ~10 % of a run and grows with the project. Collections every 100,000 allocations cost ~0 %.
GC_THRESHOLDS = (100_000, 50, 1000)


def require_equals(args: List[str]) -> List[str]:
    """`--add-noqa` takes its reason only as `--add-noqa=REASON` (as ruff's does): a bare `--add-noqa`
    becomes `--add-noqa=` so that the argument after it stays a path."""
    return ["--add-noqa=" if arg == "--add-noqa" else arg for arg in args]


def main() -> None:
    """The command on `sys.argv`: never a traceback, exit 2 on an internal error (`SystemExit`)."""
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        app(args=require_equals(sys.argv[1:]))
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as error:  # noqa: BLE001 - the last line of defence
        print(f"spanlint: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(USAGE_ERROR)


def script() -> None:
    """Entry point of the `spanlint` script and `python -m spanlint`: `main()`, then the process ends
    without tearing the interpreter down (as mypy's `hard_exit` does). Freeing every module's objects
    one by one costs ~50 ms, a sixth of a pre-commit run of one file; every file spanlint writes is
    closed by then, so only the standard streams are flushed."""
    try:
        main()
        code: object = 0
    except SystemExit as done:
        code = done.code
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)  # as `sys.exit(message)` does
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        pass  # the reader went away (`spanlint check | head`): nothing more to say
    except OSError as error:
        os.write(2, f"spanlint: error: cannot write the report: {error.strerror or error}\n".encode())
        code = USAGE_ERROR
    os._exit(code or 0)
