"""Subcommands of `tucana`; each module has add_parser(subparsers) and sets args.run."""
