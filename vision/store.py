"""Deck folders on disk: manifest.json plus canonical card images. The only file I/O of vision/.

    DIR/manifest.json   {"format": "tucana-deck", "version": 1,
                         "cards": {"desert": ["cards/desert-001.png", ...], ...}}
    DIR/cards/*.png     canonical card images (portrait, 126x176), one per enrolled photo

Images, not features, are stored, so a better descriptor in a later version still reads old decks.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import cv2
import numpy as np

from vision.cards import is_card_id
from vision.deck import Deck
from vision.features import canonical

MANIFEST = "manifest.json"
FORMAT = "tucana-deck"
VERSION = 1


class DeckFolderError(ValueError):
    """A deck folder that is missing, malformed, or names an unknown card."""


def read_image(path: str | os.PathLike) -> np.ndarray:
    """Read an image file as BGR; raise ValueError with the path when it cannot be read."""
    data = np.fromfile(str(path), np.uint8) if Path(path).is_file() else None
    if data is None:
        raise ValueError(f"{path}: no such file")
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise ValueError(f"{path}: not an image that can be read (PNG, JPEG, ...)")
    return image


def read_manifest(folder: str | os.PathLike) -> dict[str, list[str]]:
    """The card -> image files table of a deck folder (empty for a new, empty folder)."""
    path = Path(folder) / MANIFEST
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DeckFolderError(f"{path}: not a readable JSON manifest ({exc})") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("cards"), dict):
        raise DeckFolderError(f"{path}: not a {FORMAT} manifest")
    if data.get("version") != VERSION:
        raise DeckFolderError(f"{path}: manifest version {data.get('version')!r}, expected {VERSION}")
    cards = data["cards"]
    for card, files in cards.items():
        if not is_card_id(card):
            raise DeckFolderError(f"{path}: unknown card ID {card!r}")
        if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
            raise DeckFolderError(f"{path}: card {card!r} must list image file names")
    return cards


def load_deck(folder: str | os.PathLike) -> Deck:
    """Load a deck folder as a Deck; raise DeckFolderError when it is missing or broken."""
    root = Path(folder)
    if not (root / MANIFEST).is_file():
        raise DeckFolderError(f"{root}: no {MANIFEST}: not a deck folder (enroll cards into it first)")
    refs = []
    for card, files in read_manifest(root).items():
        for name in files:
            try:
                refs.append((card, read_image(root / name)))
            except ValueError as exc:
                raise DeckFolderError(f"deck {root}: {exc}") from exc
    if not refs:
        raise DeckFolderError(f"{root}: the deck has no cards yet")
    return Deck(refs, name=root.name)


def add_reference(folder: str | os.PathLike, card: str, card_image: np.ndarray) -> str:
    """Store one canonical card image under a card ID; returns its file name in the folder."""
    if not is_card_id(card):
        raise DeckFolderError(f"unknown card ID {card!r}")
    root = Path(folder)
    cards = read_manifest(root)
    (root / "cards").mkdir(parents=True, exist_ok=True)
    files = cards.setdefault(card, [])
    n = len(files) + 1
    while (name := f"cards/{card}-{n:03d}.png") in files or (root / name).exists():
        n += 1
    if not cv2.imwrite(str(root / name), canonical(card_image)):
        raise DeckFolderError(f"{root / name}: could not write the image")
    files.append(name)
    _write_manifest(root, cards)
    return name


def remove_references(folder: str | os.PathLike, card: str | None = None) -> int:
    """Remove every image of one card (None: of all cards) from a deck folder; returns how many."""
    if card is not None and not is_card_id(card):
        raise DeckFolderError(f"unknown card ID {card!r}")
    root = Path(folder)
    cards = read_manifest(root)
    gone = [name for c, files in cards.items() if card in (None, c) for name in files]
    if not (root / MANIFEST).is_file():
        return 0
    _write_manifest(root, {c: files for c, files in cards.items() if card not in (None, c)})
    inside = root.resolve()
    for name in gone:  # after the manifest: a crash leaves stray files, never missing ones
        path = (root / name).resolve()
        if path.is_relative_to(inside):  # a hand-edited manifest never deletes outside the folder
            path.unlink(missing_ok=True)
    return len(gone)


def _write_manifest(root: Path, cards: dict[str, list[str]]) -> None:
    """Write the manifest atomically, so a crash never leaves half a file."""
    text = json.dumps({"format": FORMAT, "version": VERSION, "cards": cards}, indent=1, sort_keys=True)
    fd, tmp = tempfile.mkstemp(dir=root, prefix=".manifest-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text + "\n")
    os.replace(tmp, root / MANIFEST)


def enroll(folder: str | os.PathLike, card: str, frame: np.ndarray) -> str:
    """Find the card in a photo and add it to the deck folder under card; returns the file name."""
    from vision.features import order_corners, warp_card
    from vision.lone import find_lone_card
    from vision.reader import check_frame
    from vision.refine import refined

    if not is_card_id(card):
        raise DeckFolderError(f"unknown card ID {card!r}")
    check_frame(frame)
    found = find_lone_card(frame)
    if found.corners is None:
        raise ValueError(f"no card outline found: {found.reason} (lay the card alone on the table, fully in view,"
                         " close up)")
    root = Path(folder)
    deck = load_deck(root) if read_manifest(root) else None
    for corners in (found.corners, *found.others):
        image = warp_card(frame, refined(frame, order_corners(corners)))
        if deck is not None and card in deck.cards:
            image = deck.upright(card, image)
        if deck is None or not deck.doubts(card, image):
            return add_reference(root, card, image)
    raise ValueError(f"the card found in this photo looks unlike {card}'s other photos and the other cards of its"
                     " kind: its outline was probably taken wrong (a panel inside the card, or the card cut short);"
                     " retake it with the card alone on a plain part of the table")
