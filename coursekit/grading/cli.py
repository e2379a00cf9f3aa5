"""``python -m coursekit.exercises build``: regenerate exercises/ and the self-check data."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from . import build as build_module


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m coursekit.exercises")
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="generate exercises/ and checks.json from solutions/")
    build.add_argument("--root", default=".", help="the course's folder (default: here)")
    build.add_argument("--no-execute", action="store_true", help="do not execute the notebooks")
    build.add_argument("chapters", nargs="*", help="chapters to build (default: all)")
    args = parser.parse_args(argv)
    return build_module.build(
        Path(args.root), execute=not args.no_execute, chapters=args.chapters or None
    )


if __name__ == "__main__":
    raise SystemExit(main())
