# rules: SPL101, SPL102, SPL103, SPL104
"""Held-out look-alikes: XML element text, AST nodes, tkinter widgets, email messages."""

from __future__ import annotations

import ast
import tkinter as tk
import xml.etree.ElementTree as ET
from email.message import EmailMessage


def strip_paragraphs(root: ET.Element) -> None:
    for node in root.iter("p"):
        if node.text:
            node.text = node.text.strip()


def replace_entry_text(entry: ET.Element, value: str) -> None:
    entry.text = value
    entry.set("value", value)


class ConstantFolder(ast.NodeTransformer):
    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, str):
            node.value = node.value.upper()
        return node

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        node.value = self.visit(node.value)
        return node


def set_email_body(message: EmailMessage, body: str) -> None:
    message.set_content(body)


def reply_body(msg: EmailMessage, quoted: str) -> None:
    msg.set_content("> " + quoted.replace("\n", "\n> "))


class MessageBubble(tk.Frame):
    def __init__(self, master: tk.Misc, text: str) -> None:
        super().__init__(master)
        self.text = text
        self.label = tk.Label(self, text=text)

    def update_text(self, text: str) -> None:
        self.text = text
        self.label.config(text=text)


class ChatWindow:
    def __init__(self, root: tk.Tk) -> None:
        self.message_entry = tk.Entry(root)
        self.message_label = tk.Label(root)

    def on_send(self) -> None:
        self.message_label["text"] = self.message_entry.get()
        self.message_entry.delete(0, tk.END)
