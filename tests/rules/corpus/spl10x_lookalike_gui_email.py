# rules: SPL101, SPL102, SPL103, SPL104
"""Look-alikes: tkinter widgets, email messages and logging records."""
import logging
import tkinter as tk
from email.message import EmailMessage


def set_label(label: tk.Label, message: str) -> None:
    label["text"] = message


def build_mail(msg: EmailMessage, body: str) -> EmailMessage:
    msg.set_content(body)
    return msg


def rewrite_mail(message, body):
    message.set_content(body)


class Redactor(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = str(record.msg).replace("secret", "***")
        return True
