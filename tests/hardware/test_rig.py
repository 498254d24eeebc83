"""The whole rig with its threads, as `tucana serve` runs it off a Pi: virtual table and mock pins."""

from __future__ import annotations

import random
import threading
import time

import pytest

from companion.moves import NewGame, Reveal, SetupCard, Terrain
from hardware.config import PinMap
from hardware.errors import ConfigError, NotNowError
from hardware.inbox import Seen
from hardware.rig import build_rig
from hardware.speech import FakeSpeaker
from tests.hardware.conftest import WAIT_S, wait_for
from web.i18n import phrasebook


def test_button_lays_next_cards_and_the_scanner_puts_them_in_the_log(table, small_table, reader):
    """Real threads: a press on the mock pin -> desk -> virtual table -> scanner -> vision -> log."""
    from hardware.eyes import VisionEyes

    table.submit(NewGame(players=("Mary", "David")))
    pins = PinMap()
    rig = build_rig("virtual", "mock", pins, "fr", table, rng=random.Random(5), speaker=FakeSpeaker(),
                    eyes=VisionEyes(reader), virtual=small_table, phrases=phrasebook("fr"))
    rig.start()
    try:
        button = rig.controls.factory.pin(pins.button)
        button.drive_low()
        button.drive_high()  # press: lay the next card, here the set-up card
        assert wait_for(lambda: table.state.setup_letters is not None)
        assert rig.status().to_json()["virtual_cards"][0].startswith("setup-")
        button.drive_low()
        button.drive_high()  # the controls' debounce is real time: 0.15 s apart at least
        assert wait_for(lambda: table.state.reveals == 1)
        cards = tuple(c.value for c in table.state.last_reveal.cards)
        assert cards == tuple(rig.status().to_json()["virtual_cards"])
        status = rig.status().to_json()
        assert status["camera"] == "virtual" and status["camera_ok"]
        assert status["lights"] == {"ready": "on", "seen": "on", "mayor": "off"}
        assert status["scanner"]["running"] and status["scanner"]["fps"] > 0
        assert rig.snapshot_jpeg()[:2] == b"\xff\xd8"
        assert rig.crop_jpeg()[:2] == b"\xff\xd8"
        a, b = table.state.last_reveal.cards
        assert wait_for(lambda: rig.speaker.said)  # the desk speaks once it hears of the reveal
        assert rig.speaker.said[-1] == phrasebook("fr")("announce.pair", a=a, b=b)  # the pages' words
        assert " et " in rig.speaker.said[-1] and rig.speaker.said[-1].endswith("\u00a0!")
    finally:
        rig.close()
    assert not rig.scanner.status().running


def test_lay_exact_cards_from_the_console(table, small_table, reader):
    """Cards laid from the console are read into the log; bad ids refused, hold undoes."""
    from hardware.eyes import VisionEyes

    table.submit(NewGame(players=("Mary",)))
    rig = build_rig("virtual", "mock", PinMap(), "en", table, rng=random.Random(2), speaker=FakeSpeaker(),
                    eyes=VisionEyes(reader), virtual=small_table)
    rig.start()
    try:
        rig.lay(["setup-02"])
        assert wait_for(lambda: table.state.setup_letters == "ECAEBDABDC")
        rig.lay(["water", "any"])
        assert wait_for(lambda: table.state.reveals == 1)
        with pytest.raises(ConfigError, match="not card IDs"):
            rig.lay(["lava"])
        rig.hold()  # undo the reveal from the console's button
        assert table.state.reveals == 0
        with pytest.raises(NotNowError, match="no reading is waiting"):
            rig.confirm()  # nothing pending
    finally:
        rig.close()


def test_no_camera_rig_has_no_scanner(table):
    """A rig with no camera has no scanner, is ready for taps and refuses to lay cards."""
    rig = build_rig("none", "mock", PinMap(), "es", table, speaker=FakeSpeaker())
    rig.start()
    try:
        status = rig.status().to_json()
        assert status["scanner"] is None and not status["virtual"]
        assert status["lights"]["ready"] == "on"  # the companion is ready: cards by hand
        with pytest.raises(NotNowError, match="no virtual table"):
            rig.lay(["desert"])
    finally:
        rig.close()


def test_bad_configuration_is_a_clear_error(table):
    """Unknown camera, GPIO or language settings raise ConfigError naming the flag."""
    with pytest.raises(ConfigError, match="--camera"):
        build_rig("webcam", "mock", PinMap(), "en", table)
    with pytest.raises(ConfigError, match="--gpio"):
        build_rig("none", "maybe", PinMap(), "en", table)
    with pytest.raises(ConfigError, match="--language"):
        build_rig("none", "mock", PinMap(), "de", table)


SNAPSHOTS_EACH = 50  # snapshots taken with a reading held, and as many without


def test_status_is_one_consistent_snapshot_while_the_desk_works(table, phrases):
    """status() from another thread never mixes two moments: a held reading always blinks the Mayor LED."""
    table.submit(NewGame(players=("Mary", "David")))
    table.submit(SetupCard("CEBAEDCDAB"))
    for _ in range(2):
        table.submit(Reveal((Terrain.WATER, Terrain.WATER)))  # a fifth water is then a misread
    rig = build_rig("none", "mock", PinMap(), "en", table, speaker=FakeSpeaker(), phrases=phrases)
    rig.start()
    stop = threading.Event()

    def misread_and_dismiss() -> None:
        """Raise a misread to the Mayor and dismiss it, again and again, in the desk's own thread."""
        while not stop.is_set():
            rig.desk.post(Seen(("water", "forest")))
            rig.desk.post(Seen(()))
            rig.dismiss()

    worker = threading.Thread(target=misread_and_dismiss, daemon=True)
    worker.start()
    try:
        seen = {True: 0, False: 0}  # snapshots with a held reading, and without
        deadline = time.monotonic() + WAIT_S
        while min(seen.values()) < SNAPSHOTS_EACH and time.monotonic() < deadline:
            doc = rig.status().to_json()
            assert (doc["pending"] is None) == (doc["lights"]["mayor"] == "off"), doc
            seen[doc["pending"] is not None] += 1
        assert min(seen.values()) >= SNAPSHOTS_EACH, seen
    finally:
        stop.set()
        worker.join(10)
        rig.close()
