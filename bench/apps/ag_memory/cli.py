import argparse
import asyncio

from .agent import build_team
from .settings import Settings


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("task")
    args = p.parse_args()
    team = build_team(Settings())
    asyncio.run(team.run(task=args.task))


if __name__ == "__main__":
    main()
