"""The `tucana` command line (contract 2): serve, replay, cards and pin, each in web/commands/."""

from __future__ import annotations

import argparse
import importlib
import sys

import vision  # noqa: F401  (first, so numpy loads with the reader's one BLAS thread; imports nothing heavy)

# Subcommands load lazily so `tucana replay` never pays for Flask or OpenCV imports.
COMMANDS = {
    "serve": "web.commands.serve",
    "replay": "web.commands.replay",
    "cards": "web.commands.cards",
    "pin": "web.commands.pin",
}

EXIT_REFUSED = 2  # contract 2: a refused log or bad input exits 2 with the message


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(prog="tucana", description="Trails of Tucana table companion")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module_name in COMMANDS.values():
        importlib.import_module(module_name).add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    args = build_parser().parse_args(argv)
    return int(args.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
