#!/usr/bin/env python3
"""Smoke check on a real Pi: read the cards laid under the camera for a minute, printing what it sees.

    sudo systemctl stop tucana
    /opt/tucana/venv/bin/python /opt/tucana/deploy/smoke/scan.py [--deck /var/lib/tucana/deck]

Lay two terrain cards, swap them, turn them, pass a hand over them: each change of what is read
is printed, then a summary of how often each card was named. A good setup names the cards in
nearly every frame and refuses (rather than misnames) a hand, a card back or a blurred frame.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

import _common

DEFAULT_SECONDS = 60.0
TARGET_FPS = 15.0  # the scanner's processing rate in the companion
EMPTY_SLEEP_S = 0.01  # pause after an empty read


def describe(reading: object) -> str:
    """One line for a frame's reading: each card with its confidence, refusals as '?'."""
    parts = [
        f"{card.card}({card.confidence:.2f})" if card.card else f"?({card.confidence:.2f})"
        for card in reading.cards
    ]
    if getattr(reading, "clutter", False):
        parts.append("+something else in view")
    return ", ".join(parts) if parts else "no card"


def load_reader(deck_dir: Path | None) -> tuple[object, str]:
    """The vision reader and a line naming its deck: built-in, or deck_dir as `tucana serve` uses it.

    The folder must be an enrolled deck vision loads (vision.store.load_deck); its cards are read
    by their photos and every card not enrolled by the built-in art, as the companion does.
    """
    from vision.reader import CardReader

    if deck_dir is None:
        return CardReader(), "built-in"
    from hardware.enroll import reference_deck
    from vision.store import DeckFolderError, load_deck

    try:
        load_deck(deck_dir)
    except DeckFolderError as error:
        raise _common.ConfigError(str(error)) from None
    chosen = reference_deck(deck_dir)
    if chosen.problem:
        print(f"warning: {chosen.problem}", file=sys.stderr)
    enrolled = len(chosen.photos)
    return CardReader(chosen.deck), (f"{deck_dir} (enrolled: {enrolled} cards, {sum(chosen.photos.values())} "
                                     "photos; every other card by the built-in art)")


def scan(camera: object, reader: object, seconds: float, fps: float) -> tuple[int, int, Counter]:
    """Read for `seconds`; print every change. Returns frames read, frames refused, names seen."""
    named: Counter = Counter()
    frames = refused = 0
    last = None
    start = time.monotonic()
    period = 1.0 / fps
    while (now := time.monotonic()) - start < seconds:
        frame = camera.read()
        if frame is None:
            time.sleep(EMPTY_SLEEP_S)
            continue
        reading = reader.read(frame)
        frames += 1
        refused += any(card.card is None for card in reading.cards)
        named.update(card.card for card in reading.cards if card.card)
        line = describe(reading)
        if line != last:
            print(f"{now - start:6.1f} s  {line}", flush=True)
            last = line
        time.sleep(max(0.0, period - (time.monotonic() - now)))
    return frames, refused, named


def main(argv: list[str] | None = None) -> int:
    """Run the scan; exit 0 when frames were read."""
    parser = _common.base_parser(__doc__.splitlines()[0])
    parser.add_argument("--camera", help="picamera, usb:N, folder:PATH or virtual (default: config)")
    parser.add_argument("--deck", type=Path, help="an enrolled deck folder (default: built-in deck)")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS, help="how long to scan")
    parser.add_argument("--fps", type=float, default=TARGET_FPS, help="frames read per second")
    args = parser.parse_args(argv)
    try:
        spec = _common.settings(args, camera=args.camera).camera
        reader, deck = load_reader(args.deck)
        print(f"camera {spec}, deck {deck}: scanning for {args.seconds:.0f} s")
        with _common.open_camera(spec) as camera:
            frames, refused, named = scan(camera, reader, args.seconds, args.fps)
    except (_common.ConfigError, _common.HardwareError) as error:
        return _common.fail(error)
    except ValueError as error:  # a deck folder vision cannot use
        return _common.fail(_common.ConfigError(str(error)))
    if frames == 0:
        print("error: the camera gave no frame", file=sys.stderr)
        _common.hint_if_busy()
        return _common.EXIT_FAILED
    print(f"summary: {frames} frames in {args.seconds:.0f} s, {refused} with a refused outline")
    for card, count in named.most_common():
        print(f"  {card:<16} named in {count} frames ({100 * count / frames:.0f}%)")
    return _common.EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
