"""A project that imports the frameworks: copies of the e2e framework application (run by hand).

    python bench/framework_project.py DIR [--copies N]
    python bench/one_file_sample.py --corpus DIR --every 5

Each copy is a package (`app0`, `app1`...) of the modules in `tests/e2e/framework_app.py`, importing
LlamaIndex nodes and LangChain messages, so every linted file asks for framework classes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.framework_app import FILES  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--copies", type=int, default=30)
    args = parser.parse_args()
    for copy in range(args.copies):
        for relative, text in FILES.items():
            target = args.directory / relative.replace("app/", f"app{copy}/", 1)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text.replace("from app.", f"from app{copy}."))
    print(f"{args.directory}: {args.copies * len(FILES)} files")


if __name__ == "__main__":
    main()
