"""The scanner's eyes warm a deck up in the background: the first card of each size laid waits for nothing."""

from __future__ import annotations

import numpy as np

from hardware.eyes import VisionEyes
from vision.deck import render_deck
from vision.discriminant import warm_resolutions
from vision.reader import CardReader

TWINS = ("blue-A1", "blue-A2")  # the smallest deck with a family of twins: quick to warm up
WARM_UP_S = 120.0  # longest wait for a two-card family's warm-up on a loaded CI machine (~1 s here)


def _empty_frame(height: int = 360, width: int = 640) -> np.ndarray:
    return np.full((height, width, 3), 90, np.uint8)


def _learnt(reader: CardReader, frame_height: int) -> list[bool]:
    family = reader.deck.family(0)
    assert family is not None
    return [family.discriminant_at(r).learnt for r in warm_resolutions(frame_height)]


def test_eyes_warm_each_deck_once_in_the_background_from_its_first_frame() -> None:
    """With warm_up, the first frame starts one warm-up for the frame's height; later frames start none;
    a new deck (an owner's enrollment) is warmed up in its turn."""
    reader = CardReader(render_deck("standard", TWINS))
    eyes = VisionEyes(reader, warm_up=True)
    assert eyes.warming is None and not any(_learnt(reader, 360))
    eyes.look(_empty_frame(), 0.0)
    first = eyes.warming
    assert first is not None
    first.join(WARM_UP_S)
    assert not first.is_alive() and all(_learnt(reader, 360))
    eyes.look(_empty_frame(), 0.1)
    assert eyes.warming is first

    eyes.use_deck(render_deck("standard", TWINS))
    eyes.look(_empty_frame(), 0.2)
    assert eyes.warming is not first
    eyes.warming.join(WARM_UP_S)
    assert all(_learnt(eyes.reader, 360))


def test_a_deck_replaced_while_warming_up_hands_the_one_thread_over_to_the_newest() -> None:
    """An owner enrolling photo after photo loads deck after deck: one warm-up thread runs at a time,
    leaves the replaced decks and ends with the newest warmed up whole."""
    import threading

    def warm_ups() -> set[threading.Thread]:
        return {t for t in threading.enumerate() if t.name == "tucana-warm-up" and t.is_alive()}

    others = warm_ups()  # an earlier test's rig may still be warming its own deck up in this process
    eyes = VisionEyes(CardReader(render_deck("standard", TWINS)), warm_up=True)
    for k in range(4):
        eyes.look(_empty_frame(), 0.1 * k)
        assert len(warm_ups() - others) <= 1
        eyes.use_deck(render_deck("standard", TWINS))
    eyes.look(_empty_frame(), 1.0)
    assert eyes.warming is not None
    eyes.warming.join(WARM_UP_S)
    assert not eyes.warming.is_alive() and all(_learnt(eyes.reader, 360))


def test_eyes_without_warm_up_learn_only_what_their_reads_need() -> None:
    """The default (eyes built by hand, as in tests): no thread, nothing learnt for an empty mat."""
    reader = CardReader(render_deck("standard", TWINS))
    eyes = VisionEyes(reader)
    eyes.look(_empty_frame(), 0.0)
    assert eyes.warming is None and not any(_learnt(reader, 360))
