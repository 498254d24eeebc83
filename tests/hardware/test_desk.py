"""The Mayor's desk: readings become entries in the real table; misreads wait for the Mayor."""

from __future__ import annotations

import pytest

from companion.errors import RuleError
from companion.moves import NewGame, Reveal, SetupCard, Terrain, dump_line
from hardware.controls import ButtonAction, BuzzPattern, FakeControls, Light, LightMode
from hardware.desk import Desk
from hardware.errors import NotNowError
from hardware.inbox import CameraState, Pressed, Request, Seen
from hardware.speech import FakeSpeaker

D, F, W = Terrain.DESERT, Terrain.FOREST, Terrain.WATER


@pytest.fixture
def desk(table, phrases):
    """A desk over a real table with one game in set-up (Mary and David)."""
    table.submit(NewGame(players=("Mary", "David")))
    d = Desk(table, FakeControls(), FakeSpeaker(), phrases)
    d.run_pending()
    return d


def _log(table) -> list[str]:
    return [dump_line(entry) for _, entry in table.log_since(0)]


def _see(desk, *cards):
    desk.post(Seen(tuple(cards)))
    desk.run_pending()


def test_setup_card_then_reveals_reach_the_log(desk, table):
    """A set-up card and then two terrain cards reach the log, and the reveal is spoken."""
    _see(desk, "setup-01")
    _see(desk)
    _see(desk, "desert")
    _see(desk, "desert", "water")
    assert table.game.entries[1:] == (SetupCard("CEBAEDCDAB"), Reveal((D, W)))
    assert desk.speaker.said[-1] == "Desert and water!"


def test_misread_is_raised_to_the_mayor_not_applied(desk, table):
    """A reveal the engine refuses is held for the Mayor with a blinking LED, never logged."""
    for _ in range(2):
        table.submit(Reveal((W, W)))
    desk.run_pending()
    before = _log(table)
    _see(desk, "water", "forest")
    assert _log(table) == before
    assert desk.pending is not None and desk.pending.entry == Reveal((W, F))
    assert desk.controls.lights[Light.MAYOR] is LightMode.BLINK
    assert BuzzPattern.REFUSED in desk.controls.buzzes
    # The button confirms; the engine still refuses a 5th water, so it stays pending.
    desk.post(Pressed(ButtonAction.PRESS))
    desk.run_pending()
    assert desk.pending is not None and "5th water" in desk.pending.reason
    assert _log(table) == before


def _misread(desk, table) -> None:
    """A fifth water after two water pairs: the reading waits for the Mayor."""
    for _ in range(2):
        table.submit(Reveal((W, W)))
    _see(desk, "water", "forest")


def test_the_mayor_corrects_a_misread(desk, table):
    """The Mayor's correction of a misread is logged and clears the pending reading."""
    _misread(desk, table)
    future = desk.ask(Request.CORRECT, Reveal((D, F)))
    desk.run_pending()
    assert future.result(0).entry == Reveal((D, F))
    assert desk.pending is None
    assert desk.controls.lights[Light.MAYOR] is LightMode.OFF


def test_a_refused_correction_keeps_the_reading_pending(desk, table):
    """A correction the engine refuses raises RuleError and keeps the reading pending."""
    _misread(desk, table)
    future = desk.ask(Request.CORRECT, Reveal((W, D)))
    desk.run_pending()
    with pytest.raises(RuleError):
        future.result(0)
    assert desk.pending is not None


def test_cards_laid_while_pending_are_read_once_the_mayor_decides(desk, table):
    """Cards laid while a reading waits are read once the Mayor dismisses it."""
    for _ in range(2):
        table.submit(Reveal((W, W)))
    _see(desk, "water", "forest")
    _see(desk, "water", "forest", "desert")  # the Mayor goes on laying
    assert len(table.game.entries) == 3
    desk.post(Pressed(ButtonAction.HOLD))  # dismiss the misread
    desk.run_pending()
    assert desk.pending is None
    assert desk.sense.first is D  # the card laid meanwhile was read after the dismissal


def test_hold_undoes_the_last_entry(desk, table):
    """Holding the button undoes the last logged entry."""
    _see(desk, "desert", "forest")
    assert table.state.reveals == 1
    desk.post(Pressed(ButtonAction.HOLD))
    desk.run_pending()
    assert table.state.reveals == 0
    assert desk.note.key == "undone"


def test_hold_drops_a_half_read_reveal_first(desk, table):
    """Holding the button with one card read drops that card and undoes nothing."""
    _see(desk, "desert")
    desk.post(Pressed(ButtonAction.HOLD))
    desk.run_pending()
    assert desk.sense.first is None
    assert len(table.game.entries) == 1  # nothing undone in the log


def test_press_on_a_real_camera_with_nothing_pending_changes_nothing(desk, table):
    """A press with nothing pending changes nothing and says there is nothing to confirm."""
    desk.post(Pressed(ButtonAction.PRESS))
    desk.run_pending()
    assert len(table.game.entries) == 1 and desk.note.key == "nothing_to_confirm"


def test_last_turn_and_round_end_buzz_and_speak(desk, table):
    """The last turn and the round end each buzz and are spoken; the ready LED blinks meanwhile."""
    cards = ["desert"] * 8 + ["forest"] * 7 + ["mountain"] * 6 + ["water"] * 4 + ["any"]
    for turn in range(13):
        table.submit(Reveal((Terrain(cards[2 * turn]), Terrain(cards[2 * turn + 1]))))
    desk.run_pending()
    assert desk.controls.buzzes == [BuzzPattern.LAST_TURN]
    assert desk.speaker.said[-1] == "Last turn of round 1!"
    assert desk.controls.lights[Light.READY] is LightMode.BLINK  # the reminder lasts the whole turn
    table.submit(Reveal((D, D)))
    desk.run_pending()
    assert desk.controls.buzzes == [BuzzPattern.LAST_TURN, BuzzPattern.ROUND_END]
    assert "Round 1 is over" in desk.speaker.said[-2]
    assert desk.speaker.said[-1] == "Desert and desert!"
    assert desk.controls.lights[Light.READY] is LightMode.ON


def test_camera_lost_darkens_ready_and_the_game_goes_on_by_hand(desk, table):
    """A lost camera turns the ready LED off; taps go on, and it lights again on return."""
    desk.post(CameraState(ok=False))
    desk.run_pending()
    assert desk.controls.lights[Light.READY] is LightMode.OFF
    table.submit(Reveal((D, F)))  # the Mayor taps the cards on the console
    desk.post(CameraState(ok=True))
    desk.run_pending()
    assert desk.controls.lights[Light.READY] is LightMode.ON
    assert table.state.reveals == 1


def test_seen_led_follows_the_cards(desk):
    """The seen LED blinks for one card, is on for two and off for none."""
    _see(desk, "desert")
    assert desk.controls.lights[Light.SEEN] is LightMode.BLINK  # half a reveal
    _see(desk, "desert", "forest")
    assert desk.controls.lights[Light.SEEN] is LightMode.ON
    _see(desk)
    assert desk.controls.lights[Light.SEEN] is LightMode.OFF


def test_console_without_virtual_table_refuses_to_lay(desk):
    """Laying cards without a virtual table is refused."""
    future = desk.ask(Request.LAY, ["desert"])
    desk.run_pending()
    with pytest.raises(NotNowError, match="no virtual table"):
        future.result(0)


def test_worker_thread_handles_button_from_another_thread(desk, table):
    """The desk's worker thread handles cards posted from another thread."""
    desk.start()
    try:
        desk.post(Seen(("forest", "water")))
        future = desk.ask(Request.DISMISS)  # a round trip through the queue: everything before is done
        future.result(5)
        assert table.state.reveals == 1
    finally:
        desk.close()


def test_a_reveal_entered_on_the_console_settles_the_waiting_reading(desk, table):
    """A reveal tapped on the console clears a waiting misread and the Mayor LED."""
    for _ in range(2):
        table.submit(Reveal((W, W)))
    _see(desk, "water", "forest")
    assert desk.pending is not None
    table.submit(Reveal((F, F)))  # the Mayor taps the right cards on the console
    desk.run_pending()
    assert desk.pending is None
    assert desk.controls.lights[Light.MAYOR] is LightMode.OFF


def test_a_new_game_forgets_half_read_cards(desk, table):
    """A new game drops a half-read reveal."""
    _see(desk, "desert")
    table.submit(NewGame(players=("Ann", "Bob")))
    desk.run_pending()
    assert desk.sense.first is None
