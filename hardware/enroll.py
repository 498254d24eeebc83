"""The owner's own deck: photos taken by the camera into <data_dir>/deck, read against by the scanner.

The reference deck is chosen kind by kind (terrain, blue, red, set-up cards): a kind with any
enrolled photo is known by the owner's photos only (their real printing replaces our art), a kind
with none keeps the built-in art. Within a kind the built-in art never stands in for a card
without a photo: that card's real twin would be closer to another card's photo, and be named
wrong. So a kind enrolled halfway is not read at all (vision refuses a kind it does not hold
whole) and the console lists the cards still missing. The folder is vision's deck
folder (vision.store: manifest.json plus flattened card images), shared with
`tucana cards enroll`.

An enrolled photo must show exactly one card and nothing else, so a reference never holds a
neighbour or a hand; after each change the scanner's eyes get the new deck in one assignment.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from hardware.errors import CardReadError, DeckError, NotNowError
from hardware.eyes import changed, thumbnail

if TYPE_CHECKING:
    from vision.deck import Deck
    from vision.reader import CardReader

log = logging.getLogger(__name__)

DECK_FOLDER = "deck"  # the owner's deck inside the data folder (README, deploy/smoke/scan.py)


@dataclass(frozen=True, eq=False)
class ReferenceDeck:
    """The deck the scanner reads against, and which of its cards come from the owner's photos."""

    deck: Deck
    photos: dict[str, int] = field(default_factory=dict)  # card ID -> photos in use; others: built-in art
    problem: str = ""  # why some (or all) of the owner's photos are not in use


def reference_deck(folder: str | Path) -> ReferenceDeck:
    """The owner's photos per enrolled card plus the built-in art for every other card.

    Never raises for a bad folder: a broken manifest or an unreadable photo is left out, said in
    `problem` and logged, and the built-in art stands in, so the companion still starts and reads.
    """
    from vision.cards import kind_of
    from vision.deck import Deck, builtin_deck
    from vision.store import DeckFolderError, read_image, read_manifest

    builtin = builtin_deck()
    root = Path(folder)
    try:
        manifest = read_manifest(root)
    except DeckFolderError as exc:
        log.warning("owner's deck not used: %s", exc)
        return ReferenceDeck(builtin, {}, str(exc))
    refs: list[tuple[str, np.ndarray]] = []
    photos: dict[str, int] = {}
    problems: list[str] = []
    for card, files in manifest.items():
        for name in files:
            try:
                refs.append((card, read_image(root / name)))
            except ValueError as exc:
                problems.append(str(exc))
                log.warning("owner's deck: %s left out", exc)
            else:
                photos[card] = photos.get(card, 0) + 1
    if not refs:
        return ReferenceDeck(builtin, {}, "; ".join(problems))
    enrolled_kinds = {kind_of(card) for card in photos}
    refs += [(card, image) for card, image in zip(builtin.labels, builtin.images, strict=True)
             if kind_of(card) not in enrolled_kinds]
    return ReferenceDeck(Deck(refs, name=f"{root.name}+built-in"), photos, "; ".join(problems))


def check_card_id(card: object) -> str:
    """The card ID itself; DeckError when it is not one of contract 2."""
    from vision.cards import is_card_id

    if not isinstance(card, str) or not is_card_id(card):
        raise DeckError.of("not_a_card_id", card=repr(card))
    return card


def one_card(frame: np.ndarray, reader: CardReader) -> None:
    """Pass when the frame shows exactly one card and nothing else; else say what is wrong.

    CardReadError for a frame that cannot be read; NotNowError for an empty mat, several cards
    or something else in view (a hand), so the Mayor fixes the table and taps again.
    """
    from vision.detect import detect
    from vision.reader import check_frame, find_card

    try:
        check_frame(frame)
        detection = detect(frame)
    except ValueError as exc:  # vision's own errors become the one hierarchy's here, at its edge
        raise CardReadError.of("frame_unreadable", detail=str(exc)) from exc
    candidates = detection.candidates
    if not candidates:
        # the live read gives up on a checked cloth or light wood sooner than enrollment's own search
        # (whose outline must be card-shaped and edged all round: a hand across it breaks that)
        if find_card(frame) is not None:
            return
        raise NotNowError.of("hand_in_view" if detection.clutter else "no_card_in_view")
    if detection.clutter:
        raise NotNowError.of("hand_in_view")
    if len(candidates) > 1 or _two_cards(frame, candidates[0].hypotheses, reader):
        raise NotNowError.of("several_cards")


def _two_cards(frame: np.ndarray, hypotheses: tuple, reader: CardReader) -> bool:
    """Whether one outline holds two cards side by side, which can have the shape of one card.

    Shape cannot tell, so the deck does: the outline is one card unless only a reading as two
    cards names one of them. Two cards the deck knows neither of pass as one (a limit).
    """
    wholes = [h[0] for h in hypotheses if len(h) == 1]
    if not wholes:
        return True  # end to end: no reading as one card at all
    if reader.recognises(frame, wholes[0]):
        return False
    return any(reader.recognises(frame, quad) for h in hypotheses if len(h) > 1 for quad in h)


class OwnerDeck:
    """The owner's deck folder: progress, a camera frame enrolled, photos forgotten (thread-safe).

    on_change gets every new reference Deck (the scanner's eyes swap their reader with it).
    """

    def __init__(self, folder: str | Path, on_change: Callable[[Deck], Any] | None = None) -> None:
        self.folder = Path(folder)
        self.on_change = on_change
        self._lock = threading.RLock()  # add() asks reference() while holding it
        self._current: ReferenceDeck | None = None
        self._last: tuple[str, np.ndarray] | None = None  # card and thumbnail of the last photo taken

    def feed(self, eyes: object) -> None:
        """Have eyes (VisionEyes: anything with use_deck) read against this deck, now and after each change."""
        use_deck = getattr(eyes, "use_deck", None)
        if use_deck is not None:
            use_deck(self.reference().deck)
            self.on_change = use_deck

    def reference(self) -> ReferenceDeck:
        """The reference deck in use, loaded from the folder on first use."""
        current = self._current
        if current is None:
            with self._lock:
                if self._current is None:
                    self._current = reference_deck(self.folder)
                current = self._current
        return current

    def reader(self) -> CardReader:
        """A card reader over the reference deck in use."""
        from vision.reader import CardReader

        return CardReader(self.reference().deck)

    def progress(self) -> dict:
        """JSON-ready: cards enrolled with their photos in use, how many done, the next card to lay."""
        from vision.cards import CARD_IDS

        current = self.reference()
        photos = {card: current.photos[card] for card in CARD_IDS if card in current.photos}
        missing = [card for card in CARD_IDS if card not in photos]
        return {
            "folder": str(self.folder),
            "enrolled": photos,
            "done": len(photos),
            "total": len(CARD_IDS),
            "photos": sum(photos.values()),
            "next": missing[0] if missing else None,
            "unread": list(current.deck.missing),  # cards without a photo in a kind partly enrolled
            "problem": current.problem or None,
        }

    def add(self, card: str, frame: np.ndarray) -> dict:
        """Enroll the one card in frame as card; the progress plus "card", "file" and "card_photos".

        Refuses (nothing written) an unknown card ID, an unreadable frame, anything but exactly one
        card in view, and the very scene of the last photo for another card (a second tap before
        the next card was laid).
        """
        from vision.store import DeckFolderError, enroll

        check_card_id(card)
        with self._lock:
            one_card(frame, self.reader())
            thumb = thumbnail(frame)
            last = self._last
            if last is not None and last[0] != card and not changed(thumb, last[1]):
                raise NotNowError.of("still_enrolled_card", card=last[0], wanted=card)
            try:
                name = enroll(self.folder, card, frame)
            except DeckFolderError as exc:
                raise DeckError(str(exc)) from exc
            except ValueError as exc:
                raise CardReadError(str(exc)) from exc
            self._last = (card, thumb)
            self._reload()
        log.info("owner's deck: %s enrolled as %s", name, card)
        progress = self.progress()
        return {**progress, "card": card, "file": name, "card_photos": progress["enrolled"].get(card, 0)}

    def forget(self, card: str | None = None) -> dict:
        """Remove the photos of one card (None: the whole deck); a kind left with none reads our art again."""
        from vision.store import DeckFolderError, remove_references

        if card is not None:
            check_card_id(card)
        with self._lock:
            try:
                removed = remove_references(self.folder, card)
            except DeckFolderError as exc:
                raise DeckError(str(exc)) from exc
            self._last = None
            self._reload()
        log.info("owner's deck: %d photos of %s forgotten", removed, card or "every card")
        return {**self.progress(), "removed": removed}

    def _reload(self) -> None:
        """Build the new reference deck, then hand it over whole (called with the lock held)."""
        self._current = reference_deck(self.folder)
        if self.on_change is not None:
            self.on_change(self._current.deck)
