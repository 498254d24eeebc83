"""The Mayor's controls as a small interface: one button, three LEDs, a buzzer; plus a fake for tests."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol


class ButtonAction(Enum):
    """What the Mayor did with the button."""

    PRESS = "press"  # short press: confirm a pending reading, or lay the next cards on the virtual table
    HOLD = "hold"  # long press: undo


class Light(Enum):
    """The three LEDs."""

    READY = "ready"  # the camera answers (dark when lost); blinks through a round's last turn
    SEEN = "seen"  # a card is under the camera
    MAYOR = "mayor"  # the Mayor must confirm or correct a reading


class LightMode(Enum):
    """How an LED shows."""

    OFF = "off"
    ON = "on"
    BLINK = "blink"


class BuzzPattern(Enum):
    """The buzzer's reminders."""

    LAST_TURN = "last_turn"  # the 13th reveal of a round is showing
    ROUND_END = "round_end"  # a round closed: write the sight sums
    REFUSED = "refused"  # the engine refused a command from the button or the scanner


@dataclass(frozen=True)
class Beep:
    """A buzzer pattern: `count` beeps of `on_s` seconds separated by `off_s` seconds."""

    on_s: float
    off_s: float
    count: int

    @property
    def duration_s(self) -> float:
        """How long the whole pattern sounds."""
        return self.count * self.on_s + (self.count - 1) * self.off_s


BEEPS: dict[BuzzPattern, Beep] = {
    BuzzPattern.LAST_TURN: Beep(on_s=0.2, off_s=0.15, count=2),  # short: a nudge, not an alarm
    BuzzPattern.ROUND_END: Beep(on_s=0.5, off_s=0.2, count=3),  # long: heads up from the sheets
    BuzzPattern.REFUSED: Beep(on_s=0.08, off_s=0.08, count=3),  # chirp: look at the console
}

ButtonHandler = Callable[[ButtonAction], None]


class Controls(Protocol):
    """The Mayor's button, the LEDs and the buzzer."""

    def on_button(self, handler: ButtonHandler) -> None:
        """Call handler(action) on each press or hold; it runs in a pin thread and must only queue work."""
        ...

    def light(self, light: Light, mode: LightMode) -> None:
        """Switch one LED on, off or blinking."""
        ...

    def buzz(self, pattern: BuzzPattern) -> None:
        """Sound a pattern in the background."""
        ...

    def close(self) -> None:
        """Release the pins."""
        ...


class FakeControls:
    """Controls without pins: records lights and buzzes, and lets a test press the button."""

    def __init__(self) -> None:
        self.lights: dict[Light, LightMode] = {light: LightMode.OFF for light in Light}
        self.buzzes: list[BuzzPattern] = []
        self.closed = False
        self._handler: ButtonHandler | None = None

    def on_button(self, handler: ButtonHandler) -> None:
        """Remember the handler."""
        self._handler = handler

    def light(self, light: Light, mode: LightMode) -> None:
        """Record the LED's mode."""
        self.lights[light] = mode

    def buzz(self, pattern: BuzzPattern) -> None:
        """Record the pattern."""
        self.buzzes.append(pattern)

    def press(self, action: ButtonAction = ButtonAction.PRESS) -> None:
        """Act as the Mayor's thumb."""
        if self._handler is not None:
            self._handler(action)

    def close(self) -> None:
        """Mark closed."""
        self.closed = True
