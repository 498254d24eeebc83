"""The scanner end to end: rendered and replayed frames through vision into the real table."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from companion.moves import NewGame, Reveal, Terrain, dump_line
from companion.rules import DECK
from hardware.camera_cv import FolderReplay
from hardware.config import GpioMode, PinMap
from hardware.controls import Light, LightMode
from hardware.desk import Desk
from hardware.errors import HardwareError
from hardware.eyes import VisionEyes
from hardware.gpio import GpioControls
from hardware.inbox import CameraState
from hardware.rig import build_rig
from hardware.scanner import Scanner
from hardware.speech import FakeSpeaker

READS_PER_LAY = 10  # frames recorded after each lay: clear mat, hand, then enough to vote


def _log(table) -> list[str]:
    return [dump_line(entry) for _, entry in table.log_since(0)]


def _script(seed: int) -> tuple[list[tuple[str, ...]], list[str]]:
    """What the Mayor lays for set-up and one whole round, and the log lines it must give."""
    deck = [t.value for t, n in DECK.items() for _ in range(n)]
    random.Random(seed).shuffle(deck)
    lays: list[tuple[str, ...]] = [("setup-05",), ("red-yeti",)]
    expected = ['{"type": "setup_card", "letters": "BEDCBADECA"}', '{"type": "red_bonus", "sights": ["yeti"]}']
    for turn in range(13):
        a, b = deck[2 * turn], deck[2 * turn + 1]
        if turn % 2:
            lays += [(a,), (a, b)]  # one card, then the second beside it
        else:
            lays.append((a, b))  # both at once
        expected.append(f'{{"type": "reveal", "cards": ["{a}", "{b}"]}}')
    return lays, expected


def _record(table_camera, lays, folder) -> None:
    """Render what the camera sees while the Mayor lays the script, as numbered PNG frames."""
    n = 0
    for cards in [()] + lays:
        table_camera.lay(cards)
        for _ in range(READS_PER_LAY):
            cv2.imwrite(str(folder / f"frame_{n}.png"), table_camera.read())
            n += 1


def test_whole_scripted_round_of_replayed_frames_gives_exactly_the_expected_log(
    table, small_table, reader, clock, tmp_path, phrases
):
    """A recorded scripted round replayed through the scanner logs exactly the expected entries."""
    lays, expected = _script(seed=11)
    _record(small_table, lays, tmp_path)
    table.submit(NewGame(players=("Mary", "David"), special_bonus=True))
    pins = PinMap()
    controls = GpioControls(pins, GpioMode.MOCK)
    speaker = FakeSpeaker()
    desk = Desk(table, controls, speaker, phrases)
    replay = FolderReplay(tmp_path, reads_per_frame=1)
    scanner = Scanner(lambda: replay, VisionEyes(reader), desk.post, clock=clock, sleep=clock.sleep)
    try:
        while not replay.finished:
            scanner.step()
            desk.run_pending()
            clock.now += 1 / 15
        lines = _log(table)
        assert lines[0].startswith('{"type": "new_game"')
        assert lines[1:] == expected
        assert desk.pending is None
        assert table.state.is_last_turn
        assert speaker.said[-1] == "Last turn of round 1!"
        assert controls.factory.pin(pins.led_ready).state  # ready LED lit
        assert scanner.eyes.reads < scanner.status().frames  # the gate skipped settled frames
    finally:
        desk.close()
        controls.close()


def test_misread_is_raised_to_the_mayor_instead_of_applied(table, small_table, reader, clock):
    """A misread is held for the Mayor with the LED blinking and the correction is logged."""
    table.submit(NewGame(players=("Mary",)))
    for _ in range(2):
        table.submit(Reveal((Terrain.WATER, Terrain.WATER)))  # all four waters are out
    rig = build_rig("virtual", "mock", PinMap(), "en", table, clock, random.Random(1),
                    speaker=FakeSpeaker(), eyes=VisionEyes(reader), virtual=small_table)
    try:
        before = _log(table)
        rig.lay(["water", "forest"])  # a forest read as water, say
        for _ in range(READS_PER_LAY):
            rig.scanner.step()
            rig.desk.run_pending()
            clock.now += 1 / 15
        assert _log(table) == before
        status = rig.status().to_json()
        assert status["pending"]["entry"] == {"type": "reveal", "cards": ["water", "forest"]}
        assert status["lights"]["mayor"] == "blink"
        mayor_led = rig.controls.factory.pin(PinMap().led_mayor)
        assert len(mayor_led.states) >= 2  # the mock pin was driven
        accepted = rig.correct(Reveal((Terrain.FOREST, Terrain.FOREST)))
        assert accepted.entry == Reveal((Terrain.FOREST, Terrain.FOREST))
        assert rig.status().to_json()["pending"] is None
        assert _log(table)[-1] == '{"type": "reveal", "cards": ["forest", "forest"]}'
    finally:
        rig.close()


class FlakyCamera:
    """A camera device that stops answering for a while, as when its cable is pulled."""

    def __init__(self, frames, fail_reads: range) -> None:
        self.frames = frames
        self.fail_reads = fail_reads
        self.reads = 0
        self.closed = False

    def read(self) -> np.ndarray:
        """The next frame, or HardwareError on the reads chosen to fail."""
        self.reads += 1
        if self.reads in self.fail_reads:
            raise HardwareError("camera unplugged")
        return self.frames.read()

    def close(self) -> None:
        """Note that the camera was closed."""
        self.closed = True


def test_camera_drops_out_comes_back_and_the_game_goes_on_by_hand(table, small_table, reader, clock, phrases):
    """A camera that drops out is reopened with backoff; cards on the mat are read once after."""
    table.submit(NewGame(players=("Mary",)))
    desk = Desk(table, GpioControls(PinMap(), GpioMode.MOCK), FakeSpeaker(), phrases)
    opened: list[FlakyCamera] = []
    refuse_opening = {"until": 0.0}

    def open_camera() -> FlakyCamera:
        """Refuse while the camera is away, otherwise open a new flaky camera."""
        if clock.now < refuse_opening["until"]:
            raise HardwareError("no camera at usb:0")
        opened.append(FlakyCamera(small_table, fail_reads=range(3, 4) if not opened else range(0)))
        return opened[-1]

    scanner = Scanner(open_camera, VisionEyes(reader), desk.post, clock=clock, sleep=clock.sleep)

    def run(frames: int) -> None:
        """Step the scanner and desk for the given frames at 15 frames a second."""
        for _ in range(frames):
            scanner.step()
            desk.run_pending()
            clock.now += 1 / 15

    try:
        small_table.lay(["desert", "water"])
        run(2)  # the hand withdrawing; the 3rd read fails
        assert table.state.reveals == 0
        refuse_opening["until"] = clock.now + 3.0  # the camera stays away for 3 seconds
        run(1)
        assert opened[0].closed
        assert desk.camera_ok is False and desk.lights[Light.READY] is LightMode.OFF
        table.submit(Reveal((Terrain.MOUNTAIN, Terrain.ANY)))  # the Mayor taps it on the console
        attempts_before = scanner.status().next_attempt_s
        assert attempts_before is not None and attempts_before > 0
        run(60)  # 4 s: backoff 0.5, 1, 2 ... then the camera is back
        status = scanner.status()
        assert status.camera_ok and status.reconnects == 1
        assert len(opened) == 2
        assert desk.lights[Light.READY] is LightMode.ON
        # The cards that were on the mat all along are read once, after the camera came back.
        assert [dump_line(e) for e in table.game.entries[1:]] == [
            '{"type": "reveal", "cards": ["mountain", "any"]}',
            '{"type": "reveal", "cards": ["desert", "water"]}',
        ]
        run(10)
        assert table.state.reveals == 2  # and not again
    finally:
        desk.close()
        desk.controls.close()


def test_lost_camera_is_reported_once_and_retried_with_growing_waits(clock):
    """A camera that never opens is reported once and retried with doubling waits up to a cap."""
    posted = []

    def never() -> None:
        """Fail to open, as an unplugged camera does."""
        raise HardwareError("no camera")

    scanner = Scanner(never, eyes=None, post=posted.append, clock=clock, sleep=clock.sleep,
                      backoff_first_s=0.5, backoff_max_s=4.0)
    attempts, waits = [], []
    for _ in range(400):
        before = scanner._backoff.next_at
        scanner.step()
        if scanner._backoff.next_at != before:  # an attempt was made, and failed
            attempts.append(clock.now)
            waits.append(scanner.status().next_attempt_s)
            assert before <= clock.now  # never tried before the wait was over
        clock.now += 0.05
    assert posted == [CameraState(ok=False)]
    assert waits[:4] == [0.5, 1.0, 2.0, 4.0]
    assert set(waits[4:]) == {4.0}


def test_run_loop_paces_itself_at_the_target_rate(table, small_table, reader, clock, phrases):
    """run() sleeps through the injected sleep between frames; stop() ends it."""
    desk = Desk(table, GpioControls(PinMap(), GpioMode.MOCK), FakeSpeaker(), phrases)
    scanner = Scanner(lambda: small_table, VisionEyes(reader), desk.post, clock=clock, fps=15)
    frames = []

    def sleep(seconds: float) -> None:
        """Advance the fake clock and stop the scanner after 20 frames."""
        clock.now += seconds
        frames.append(seconds)
        if len(frames) == 20:
            scanner._stop.set()

    scanner._sleep = sleep
    scanner.run()
    assert all(s == pytest.approx(1 / 15) for s in frames)  # the fake clock: no time spent reading
    assert scanner.status().fps == pytest.approx(15, rel=0.01)
    desk.close()
    desk.controls.close()
