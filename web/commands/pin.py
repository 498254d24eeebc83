"""`tucana pin [--new]`: show the Mayor's PIN, or make a new one and log every console out.

Run on the Pi, as the user the service runs as (`sudo -u tucana tucana pin --new`): whoever can
read the data folder can read the PIN anyway. A running `tucana serve` picks the new PIN up at
its next PIN or session check, so nobody needs to restart it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from web.cli import EXIT_REFUSED

EXIT_FAILURE = 1  # the data folder cannot be read or written: not a refused input


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register `tucana pin` and its flags."""
    parser = subparsers.add_parser(
        "pin", help="show the Mayor's PIN, or make a new one (--new) and log every console out",
        description="Show the Mayor's PIN of a data folder; --new replaces it and ends every "
                    "Mayor session (a running server notices by itself).",
    )
    parser.add_argument("--new", action="store_true", help="make a new PIN and log every console out")
    parser.add_argument("--config", metavar="PATH", help="settings file (as for tucana serve)")
    parser.add_argument("--data", metavar="DIR", help="the data folder (default: as tucana serve)")
    parser.set_defaults(run=_run)


def _data_dir(args: argparse.Namespace) -> Path:
    from web.settings import load_settings

    settings = load_settings(Path(args.config) if args.config else None)
    return settings.with_overrides(data_dir=args.data).data_dir


def _run(args: argparse.Namespace) -> int:
    from companion.errors import ConfigError, StorageFull
    from web.security import SECRETS_FILE, new_pin, read_pin

    try:
        data_dir = _data_dir(args)
    except ConfigError as error:
        print(f"tucana pin: {error}", file=sys.stderr)
        return EXIT_REFUSED
    try:
        if args.new:
            pin = new_pin(data_dir)
            print(f"New Mayor PIN: {pin} (every console is logged out; log in again with it)")
            return 0
        pin = read_pin(data_dir / SECRETS_FILE)
    except (StorageFull, OSError) as error:
        print(f"tucana pin: cannot use the data folder {data_dir}: {error}; run it as the user "
              "tucana serve runs as (sudo -u tucana tucana pin)", file=sys.stderr)
        return EXIT_FAILURE
    if pin is None:
        print(f"tucana pin: no PIN in {data_dir} yet: `tucana serve` makes one, or use --new",
              file=sys.stderr)
        return EXIT_FAILURE
    print(f"Mayor PIN: {pin}")
    return 0
