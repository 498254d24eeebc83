"""What reaches the Mayor's desk: the messages on its one queue, from the scanner, the pins, the
table and the web console (hardware/desk.py handles them, one at a time)."""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from companion.table import Accepted
from hardware.controls import ButtonAction


@dataclass(frozen=True)
class Seen:
    """The scanner's stable cards under the camera, left to right."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class CameraState:
    """The camera came back (ok) or was lost."""

    ok: bool


@dataclass(frozen=True)
class Pressed:
    """The Mayor's button."""

    action: ButtonAction


@dataclass(frozen=True)
class News:
    """An entry the table accepted (from anywhere), for the outputs."""

    accepted: Accepted


class Request(Enum):
    """What the web console asks of the desk."""

    CONFIRM = "confirm"  # apply the pending reading as read
    DISMISS = "dismiss"  # drop the pending reading
    CORRECT = "correct"  # apply the Mayor's entry (the argument) instead
    PRESS = "press"  # the on-screen button, short press
    HOLD = "hold"  # the on-screen button, long press
    LAY = "lay"  # lay these cards (the argument) on the virtual table
    LAY_NEXT = "lay_next"  # lay what the game needs next on the virtual table
    CLEAR = "clear"  # pick every card up from the virtual table


VIRTUAL_TABLE_REQUESTS = frozenset({Request.LAY, Request.LAY_NEXT, Request.CLEAR})


@dataclass(frozen=True)
class Console:
    """A request from the web console; its future gets the result or the error."""

    request: Request
    argument: Any = None
    future: Future = field(default_factory=Future, compare=False)


@dataclass(frozen=True)
class Stop:
    """Ends the worker."""


Message = Seen | CameraState | Pressed | News | Console | Stop
