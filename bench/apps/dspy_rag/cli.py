"""Command-line interface."""

from __future__ import annotations

import asyncio
import json
import shutil

import click

from .service import RagService
from .settings import load_settings


def _row_labels(rows: list[dict], width: int) -> list[dict]:
    labels = []
    for row in rows:
        label = {"id": row["pid"], "text": row.get("title") or row["pid"]}
        if len(label["text"]) > width:
            label["text"] = label["text"][: width - 1] + "~"
        labels.append(label)
    return labels


def _preview(text: str, width: int) -> str:
    return text[:width] + ("..." if len(text) > width else "")


@click.group()
@click.pass_context
def main(ctx: click.Context) -> None:
    ctx.obj = RagService(load_settings())


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False))
@click.pass_obj
def ingest(service: RagService, paths: tuple[str, ...]) -> None:
    texts, titles = [], []
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            texts.append(fh.read())
        titles.append(path)
    for pid in service.add_texts(texts, titles):
        click.echo(pid)


@main.command("list")
@click.option("--width", default=None, type=int)
@click.pass_obj
def list_passages(service: RagService, width: int | None) -> None:
    width = width or shutil.get_terminal_size().columns - 20
    rows = [{"pid": p.pid, "title": p.title, "text": p.text} for p in service.store]
    for label, row in zip(_row_labels(rows, 24), rows, strict=True):
        click.echo(f"{label['id']:<14} {label['text']:<24} {_preview(row['text'], width)}")


@main.command()
@click.argument("question")
@click.option("--footnotes/--no-footnotes", default=True)
@click.pass_obj
def ask(service: RagService, question: str, footnotes: bool) -> None:
    result = service.ask(question)
    click.echo(result["answer"])
    if footnotes:
        for line in service.footnotes(result["answer_id"]):
            click.echo(click.style(line, dim=True))


@main.command()
@click.option("--relevance", type=click.File("r"), required=True, help="JSON map of pid to relevance")
@click.pass_obj
def compact(service: RagService, relevance) -> None:
    click.echo(json.dumps(service.compact(json.load(relevance)), indent=2))


@main.command()
@click.pass_obj
def redact(service: RagService) -> None:
    docs = service.redact_shelf()
    notes = asyncio.run(service.redact_notes())
    click.echo(f"redacted {len(docs)} documents and {notes} notes")


@main.command()
@click.option("--by-age-only", is_flag=True, default=False)
@click.pass_obj
def gc(service: RagService, by_age_only: bool) -> None:
    for pid in service.housekeeping(holders_aware=not by_age_only):
        click.echo(f"collected {pid}")


@main.command()
@click.pass_obj
def brief(service: RagService) -> None:
    click.echo(service.planner_brief())


if __name__ == "__main__":
    main()
