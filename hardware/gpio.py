"""The Mayor's button, LEDs and buzzer through gpiozero: the only module that imports gpiozero."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from gpiozero import LED, Button, Buzzer
from gpiozero.exc import GPIOZeroError
from gpiozero.pins.mock import MockFactory

from hardware.config import GpioMode, PinMap
from hardware.controls import (
    BEEPS,
    Beep,
    ButtonAction,
    ButtonHandler,
    BuzzPattern,
    Light,
    LightMode,
)
from hardware.errors import HardwareError

log = logging.getLogger(__name__)

HOLD_S = 1.5  # seconds held down before a press becomes an undo: long enough never to be an accident
DEBOUNCE_S = 0.15  # seconds after a release in which another press is contact bounce, not the Mayor
BLINK_ON_S = 0.4  # LED blink half-period in seconds: readable from across the table
BLINK_OFF_S = 0.4


def _pin_factory(mode: GpioMode) -> Any:
    """gpiozero's MockFactory off a Pi; on a Pi, gpiozero picks the real factory itself (None)."""
    return MockFactory() if mode is GpioMode.MOCK else None


class GpioControls:
    """Controls on GPIO pins: callbacks from gpiozero's pin threads only hand actions to a handler."""

    def __init__(
        self,
        pins: PinMap,
        mode: GpioMode = GpioMode.MOCK,
        *,
        hold_s: float = HOLD_S,
        beeps: dict[BuzzPattern, Beep] | None = None,
        clock: Callable[[], float] = time.monotonic,
        pin_factory: Any = None,
    ) -> None:
        self.pins = pins
        self.mode = mode
        self.factory = pin_factory if pin_factory is not None else _pin_factory(mode)
        self._beeps = dict(BEEPS if beeps is None else beeps)
        self._clock = clock
        self._handler: ButtonHandler | None = None
        self._held = False
        self._last_release = float("-inf")
        self._lock = threading.Lock()
        try:
            self.button = Button(pins.button, pull_up=True, hold_time=hold_s, pin_factory=self.factory)
            self.leds = {
                Light.READY: LED(pins.led_ready, pin_factory=self.factory),
                Light.SEEN: LED(pins.led_seen, pin_factory=self.factory),
                Light.MAYOR: LED(pins.led_mayor, pin_factory=self.factory),
            }
            self.buzzer = Buzzer(pins.buzzer, pin_factory=self.factory)
        except (GPIOZeroError, OSError, RuntimeError) as exc:
            self.close()
            raise HardwareError(f"the GPIO pins {pins} could not be opened ({mode.value}): {exc}") from exc
        self.modes = {light: LightMode.OFF for light in Light}
        self.button.when_pressed = self._pressed
        self.button.when_held = self._held_down
        self.button.when_released = self._released

    def on_button(self, handler: ButtonHandler) -> None:
        """Call handler(PRESS) on a short press (at release) and handler(HOLD) once held HOLD_S."""
        self._handler = handler

    def _pressed(self) -> None:
        with self._lock:
            self._held = False

    def _held_down(self) -> None:
        with self._lock:
            self._held = True
        self._emit(ButtonAction.HOLD)

    def _released(self) -> None:
        now = self._clock()
        with self._lock:
            was_held, self._held = self._held, False
            bounced = now - self._last_release < DEBOUNCE_S
            self._last_release = now
        if not was_held and not bounced:
            self._emit(ButtonAction.PRESS)

    def _emit(self, action: ButtonAction) -> None:
        handler = self._handler
        if handler is None:
            return
        try:
            handler(action)
        except Exception:  # a pin thread must survive whatever the handler does
            log.exception("button handler failed on %s", action)

    def light(self, light: Light, mode: LightMode) -> None:
        """Switch one LED; a repeated mode leaves a blink running undisturbed."""
        if self.modes.get(light) is mode:
            return
        self.modes[light] = mode
        led = self.leds[light]
        if mode is LightMode.ON:
            led.on()
        elif mode is LightMode.BLINK:
            led.blink(on_time=BLINK_ON_S, off_time=BLINK_OFF_S, background=True)
        else:
            led.off()

    def buzz(self, pattern: BuzzPattern) -> None:
        """Sound a pattern in gpiozero's background thread (a new pattern cuts the previous one)."""
        beep = self._beeps[pattern]
        self.buzzer.beep(on_time=beep.on_s, off_time=beep.off_s, n=beep.count, background=True)

    def close(self) -> None:
        """Switch everything off and release the pins."""
        for name in ("button", "buzzer"):
            device = getattr(self, name, None)
            if device is not None:
                device.close()
        for led in getattr(self, "leds", {}).values():
            led.close()
        if self.factory is not None and self.mode is GpioMode.MOCK:
            self.factory.close()
