"""`tucana replay LOG.jsonl [--json]`: replay a game log and print the standings (contract 2)."""

from __future__ import annotations

import argparse
import json
import sys

from web.cli import EXIT_REFUSED


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register the replay subcommand."""
    parser = subparsers.add_parser("replay", help="replay a game log and print the standings")
    parser.add_argument("log", metavar="LOG.jsonl", help="a game log, one JSON entry a line")
    parser.add_argument("--json", action="store_true", help="print the standings as JSON")
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    from companion.errors import TucanaError
    from companion.game import replay_lines
    from companion.text import standings_table

    try:
        with open(args.log, encoding="utf-8") as handle:
            game = replay_lines(handle)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"tucana replay: cannot read {args.log}: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    except TucanaError as exc:
        print(f"tucana replay: {args.log} {exc}", file=sys.stderr)
        return EXIT_REFUSED
    state = game.state
    if state.setup is None:
        print(f"tucana replay: {args.log} holds no game (it starts with new_game)", file=sys.stderr)
        return EXIT_REFUSED
    if args.json:
        print(json.dumps(state.standings.to_json()))
    else:
        print(standings_table(state))
    return 0
