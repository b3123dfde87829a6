from dataclasses import dataclass
from typing import Dict


@dataclass
class UserRow:
    id: int
    name: str
    email: str


class UserTable:
    def __init__(self) -> None:
        self.rows: Dict[int, UserRow] = {}

    def rename(self, uid: int, name: str) -> None:
        row = self.rows[uid]
        row.name = name
        self.rows[uid] = row
