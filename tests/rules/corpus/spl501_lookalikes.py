# rules: SPL501
"""Slicing that does not use a stored artifact: regex matches, tokenizers, XML, lengths."""
import re
import xml.etree.ElementTree as ET

WORD = re.compile(r"\w+")


def words(message) -> list[str]:
    return [message.content[m.start() : m.end()] for m in WORD.finditer(message.content)]


def first_sentence(span) -> str:
    end = span.content.find(".")
    return span.content[: end + 1]


class Lexer:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.end = 0

    def token(self) -> str:
        value = self.text[self.pos : self.end]
        self.pos = self.end
        return value


def element_slice(element: ET.Element, loc) -> str:
    return (element.text or "")[loc.start : loc.end]


def tail(chunk, n: int) -> str:
    return chunk.text[len(chunk.text) - n :]


def split_at(block, index: int) -> tuple[str, str]:
    return block.content[:index], block.content[index:]


def middle(message) -> str:
    half = len(message.content) // 2
    return message.content[half - 10 : half + 10]


def match_text(entry, match: re.Match) -> str:
    return entry.text[match.start(1) : match.end(1)]
