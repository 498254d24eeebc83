"""`tucana cards enroll|classify|render`: teach a real deck, read card photos, print the built-in deck.

Contract 2:
  tucana cards enroll --deck DIR --card ID IMAGE...   adds the card seen in each image to DIR
  tucana cards classify [--deck DIR] IMAGE...          one JSON line per readable image:
      {"image": path, "cards": [{"card": ID or null, "confidence": 0..1, "corners": [[x, y] x4]}]}
  tucana cards render DIR [--style standard|woodcut]   printable PNGs of the deck (300 dpi)
Bad input (an unreadable image, a broken deck folder, an unknown card ID) gets a message on
stderr and exit code 2; every other image is still handled, and nothing enrolled is lost.
"""

from __future__ import annotations

import argparse
import json
import sys

from web.cli import EXIT_REFUSED


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register the cards subcommand and its enroll, classify and render actions."""
    parser = subparsers.add_parser("cards", help="read, learn and print the cards")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    enroll = actions.add_parser("enroll", help="add photos of one card to a deck folder")
    enroll.add_argument("--deck", required=True, metavar="DIR", help="deck folder (created if new)")
    enroll.add_argument("--card", required=True, metavar="ID", help="card ID, e.g. desert, blue-C2, setup-07")
    enroll.add_argument("images", nargs="+", metavar="IMAGE", help="photos showing that one card")
    enroll.set_defaults(run=_enroll)
    classify = actions.add_parser("classify", help="name the cards in images, one JSON line each")
    classify.add_argument("--deck", metavar="DIR", help="deck folder (default: the built-in deck)")
    classify.add_argument("images", nargs="+", metavar="IMAGE")
    classify.set_defaults(run=_classify)
    render = actions.add_parser("render", help="write the built-in deck as printable images")
    render.add_argument("folder", metavar="DIR")
    render.add_argument("--style", default="standard", choices=("standard", "woodcut"))
    render.set_defaults(run=_render)


def _fail(message: str, path: str = "") -> None:
    if path and not message.startswith(path):
        message = f"{path}: {message}"
    print(f"tucana cards: {message}", file=sys.stderr)


def _enroll(args: argparse.Namespace) -> int:
    from vision.cards import is_card_id
    from vision.store import enroll, read_image

    if not is_card_id(args.card):
        _fail(f"unknown card ID {args.card!r} (see `tucana cards render` for the deck)")
        return EXIT_REFUSED
    status = 0
    for path in args.images:
        try:
            name = enroll(args.deck, args.card, read_image(path))
        except ValueError as exc:  # unreadable photo, no card in it, broken deck folder
            _fail(str(exc), path)
            status = EXIT_REFUSED
            continue
        print(f"{path}: added {args.card} as {name}")
    return status


def _classify(args: argparse.Namespace) -> int:
    import cv2

    from vision.reader import CardReader
    from vision.store import load_deck, read_image

    cv2.setNumThreads(1)  # one image at a time: threads cost more than they save here
    try:
        reader = CardReader(load_deck(args.deck) if args.deck else None)
    except ValueError as exc:
        _fail(str(exc))
        return EXIT_REFUSED
    status = 0
    for path in args.images:
        try:
            reading = reader.read(read_image(path))
        except ValueError as exc:
            _fail(str(exc), path)
            status = EXIT_REFUSED
            continue
        print(json.dumps({"image": path, "cards": [c.to_json() for c in reading.cards]}), flush=True)
    return status


def _render(args: argparse.Namespace) -> int:
    from pathlib import Path

    import cv2

    from vision.cards import CARD_IDS
    from vision.render import PRINT_PX_PER_MM, STYLES, render_back, render_card

    folder = Path(args.folder)
    style = STYLES[args.style]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for card in CARD_IDS:
            _write(cv2, folder / f"{card}.png", render_card(card, style, PRINT_PX_PER_MM))
        _write(cv2, folder / "back.png", render_back(style, PRINT_PX_PER_MM))
    except OSError as exc:
        _fail(f"cannot write to {folder}: {exc}")
        return EXIT_REFUSED
    print(f"wrote {len(CARD_IDS) + 1} card images (63x88 mm at 300 dpi) to {folder}")
    return 0


def _write(cv2, path, image) -> None:
    if not cv2.imwrite(str(path), image):
        raise OSError(f"could not write {path}")
