"""The gpiozero adapter on gpiozero's own MockFactory: button presses and holds, LEDs, buzzer."""

from __future__ import annotations

import threading

import pytest

from companion.moves import NewGame, Reveal, Terrain
from hardware.config import GpioMode, PinMap
from hardware.controls import Beep, ButtonAction, BuzzPattern, Light, LightMode
from hardware.desk import Desk
from hardware.errors import ConfigError
from hardware.gpio import DEBOUNCE_S, GpioControls
from hardware.speech import FakeSpeaker
from tests.hardware.conftest import WAIT_S, wait_for

PINS = PinMap(button=5, led_ready=6, led_seen=13, led_mayor=19, buzzer=26)
FAST_BEEPS = {p: Beep(on_s=0.01, off_s=0.01, count=2) for p in BuzzPattern}


@pytest.fixture
def controls(clock):
    """Mock GPIO controls with a short hold time and fast beeps, closed afterwards."""
    c = GpioControls(PINS, GpioMode.MOCK, hold_s=0.05, beeps=FAST_BEEPS, clock=clock)
    yield c
    c.close()


def test_short_press_is_a_press_at_release(clock):
    """A short press is reported once, at release."""
    controls = GpioControls(PINS, GpioMode.MOCK, hold_s=5.0, clock=clock)  # a hold cannot fire here
    try:
        actions: list[ButtonAction] = []
        controls.on_button(actions.append)
        pin = controls.factory.pin(PINS.button)
        pin.drive_low()
        assert actions == []
        pin.drive_high()
        assert actions == [ButtonAction.PRESS]
    finally:
        controls.close()


def test_hold_is_an_undo_and_its_release_is_not_a_press(controls):
    """Holding the button reports a hold, and its release adds no press."""
    actions: list[ButtonAction] = []
    held = threading.Event()
    controls.on_button(lambda a: (actions.append(a), held.set()))
    pin = controls.factory.pin(PINS.button)
    pin.drive_low()
    assert held.wait(WAIT_S)
    pin.drive_high()
    assert actions == [ButtonAction.HOLD]


def test_contact_bounce_is_one_press(clock):
    """Contact bounce within the debounce time counts as one press."""
    controls = GpioControls(PINS, GpioMode.MOCK, hold_s=5.0, clock=clock)
    try:
        actions: list[ButtonAction] = []
        controls.on_button(actions.append)
        pin = controls.factory.pin(PINS.button)
        for _ in range(3):  # three closures within a few milliseconds
            pin.drive_low()
            pin.drive_high()
            clock.now += 0.01
        clock.now += DEBOUNCE_S
        pin.drive_low()
        pin.drive_high()
        assert actions == [ButtonAction.PRESS, ButtonAction.PRESS]
    finally:
        controls.close()


def test_leds_follow_modes(controls):
    """Each LED is on, off or blinking as its light mode says."""
    ready = controls.factory.pin(PINS.led_ready)
    mayor = controls.factory.pin(PINS.led_mayor)
    controls.light(Light.READY, LightMode.ON)
    assert ready.state and not mayor.state
    controls.light(Light.READY, LightMode.OFF)
    assert not ready.state
    controls.light(Light.MAYOR, LightMode.BLINK)
    assert wait_for(lambda: len(mayor.states) >= 3)  # on, off, on...: it blinks
    controls.light(Light.MAYOR, LightMode.OFF)
    assert not mayor.state


def test_buzzer_pattern_drives_the_pin(controls):
    """A buzzer pattern drives the pin through its beeps."""
    buzzer = controls.factory.pin(PINS.buzzer)
    buzzer.clear_states()
    controls.buzz(BuzzPattern.ROUND_END)
    assert wait_for(lambda: len(buzzer.states) >= 5)  # off, on, off, on, off: two beeps
    buzzer.assert_states([False, True, False, True, False])


def test_pins_must_differ():
    """Two functions on the same pin raise ConfigError."""
    with pytest.raises(ConfigError):
        PinMap(button=5, led_ready=5)


def test_button_drives_the_desk_through_the_queue(table, clock, phrases):
    """A press on the mock pin reaches the engine only through the desk's worker."""
    table.submit(NewGame(players=("Mary",)))
    table.submit(Reveal((Terrain.DESERT, Terrain.WATER)))
    controls = GpioControls(PINS, GpioMode.MOCK, hold_s=0.05, beeps=FAST_BEEPS, clock=clock)
    desk = Desk(table, controls, FakeSpeaker(), phrases)
    try:
        pin = controls.factory.pin(PINS.button)
        pin.drive_low()
        assert wait_for(lambda: desk._queue.qsize() > 0)
        pin.drive_high()
        assert table.state.reveals == 1  # nothing touched the engine from the pin thread
        desk.run_pending()
        assert table.state.reveals == 0  # the hold undid the reveal, in this (the desk's) thread
        assert controls.factory.pin(PINS.led_ready).state
    finally:
        desk.close()
        controls.close()
