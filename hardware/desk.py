"""The Mayor's desk: the one worker thread through which the hardware touches the engine.

Everything reaches it as a message on one queue: stable readings from the scanner, button actions
from the pin threads, accepted entries from the table (for speech, LEDs and buzzer), and the web
console's requests. Handling one message at a time in one thread keeps the engine's view simple.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
from concurrent.futures import Future
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from companion.errors import RuleError, TucanaError
from companion.events import GameEnded, GameStarted, LastTurn, Revealed, RoundEnded, Undone
from companion.moves import Entry, Undo
from companion.table import Accepted, Table
from hardware.controls import ButtonAction, BuzzPattern, Controls, Light, LightMode
from hardware.meaning import CardSense, Pending
from hardware.speech import Speaker, phrase, reveal_phrase

log = logging.getLogger(__name__)

QUEUE_LIMIT = 256  # messages waiting; a flood (a stuck button) beyond this is dropped, never blocks


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


class Desk:
    """Handles one message at a time: meaning of cards, the Mayor's button, outputs of the game."""

    def __init__(self, table: Table, controls: Controls, speaker: Speaker, *, virtual: Any = None) -> None:
        self.table = table
        self.controls = controls
        self.speaker = speaker
        self.virtual = virtual  # hardware.virtual_table.VirtualTable, or None with a real camera
        self.sense = CardSense()
        self.pending: Pending | None = None
        self.cards: tuple[str, ...] = ()
        self.camera_ok = True  # until the scanner says otherwise (no camera: nothing to lose)
        self.note = ""
        self.dropped = 0
        self.lights: dict[Light, LightMode] = {}
        self._queue: queue.Queue[Message] = queue.Queue(maxsize=QUEUE_LIMIT)
        self._thread: threading.Thread | None = None
        self._unsubscribe = table.subscribe(lambda accepted: self.post(News(accepted)))
        self.controls.on_button(lambda action: self.post(Pressed(action)))
        self._show()

    def post(self, message: Message) -> None:
        """Queue a message from any thread; never blocks (a full queue drops it and counts it)."""
        try:
            self._queue.put_nowait(message)
        except queue.Full:
            self.dropped += 1
            if isinstance(message, Console):
                message.future.set_exception(TucanaError("the Mayor's desk is busy: try again"))

    def ask(self, request: Request, argument: Any = None) -> Future:
        """Post a console request; the returned future resolves once the worker handled it."""
        message = Console(request, argument)
        self.post(message)
        return message.future

    def run_pending(self) -> int:
        """Handle every queued message in this thread (tests, or a caller without the worker)."""
        handled = 0
        while True:
            try:
                message = self._queue.get_nowait()
            except queue.Empty:
                return handled
            self.handle(message)
            handled += 1

    def start(self) -> None:
        """Run the worker thread."""
        self._thread = threading.Thread(target=self._work, name="tucana-desk", daemon=True)
        self._thread.start()

    def _work(self) -> None:
        while not isinstance(message := self._queue.get(), Stop):
            try:
                self.handle(message)
            except Exception:  # the desk must outlive any one bad message
                log.exception("the desk failed on %r", message)

    def close(self, timeout_s: float = 5.0) -> None:
        """Stop listening and stop the worker."""
        self._unsubscribe()
        if self._thread is not None:
            self._queue.put(Stop())
            self._thread.join(timeout_s)
            self._thread = None

    def handle(self, message: Message) -> None:
        """Handle one message (in the worker thread)."""
        if isinstance(message, Seen):
            self._seen(message.cards)
        elif isinstance(message, Pressed):
            self._button(message.action)
        elif isinstance(message, News):
            self._news(message.accepted)
        elif isinstance(message, CameraState):
            self.camera_ok = message.ok
            self.note = "camera back" if message.ok else "camera lost: reconnecting; enter cards by hand"
        elif isinstance(message, Console):
            self._console(message)
        self._show()

    # --- cards -------------------------------------------------------------------------------
    def _seen(self, cards: tuple[str, ...]) -> None:
        self.cards = cards
        reading = self.sense.see(cards, self.table.state, hold_new=self.pending is not None)
        if reading.note:
            self.note = reading.note
        if reading.pending is not None:
            self._raise_to_mayor(reading.pending)
        for entry in reading.submit:
            if not self._submit(entry, cards):
                break

    def _submit(self, entry: Entry, cards: tuple[str, ...]) -> bool:
        """Submit an entry read off the cards; a refusal becomes a reading for the Mayor."""
        try:
            self.table.submit(entry)
        except RuleError as exc:
            self._raise_to_mayor(Pending(entry, str(exc), cards))
            return False
        return True

    def _raise_to_mayor(self, pending: Pending) -> None:
        self.pending = pending
        self.note = f"check the cards: {pending.reason}"
        self.controls.buzz(BuzzPattern.REFUSED)
        self.speaker.say(phrase("mayor", self.speaker.language))

    def _retry_held_cards(self) -> None:
        """Cards laid while a reading waited for the Mayor are read now."""
        if self.pending is None and self.cards:
            self._seen(self.cards)

    # --- the Mayor ---------------------------------------------------------------------------
    def _button(self, action: ButtonAction) -> None:
        if action is ButtonAction.HOLD:
            self._undo()
        elif self.pending is not None:
            with contextlib.suppress(RuleError):  # still refused: it stays pending, LED and note say why
                self._confirm()
        elif self.virtual is not None:
            self.virtual.lay_next(self.table.state)
            self.note = "virtual table: next cards laid"
        else:
            self.note = "nothing to confirm"

    def _confirm(self) -> Accepted:
        """Apply the pending reading as read; a refusal keeps it pending with the engine's reason."""
        pending = self.pending
        if pending is None:
            raise RuleError("no reading is waiting for the Mayor")
        try:
            accepted = self.table.submit(pending.entry)
        except RuleError as exc:
            self.pending = Pending(pending.entry, str(exc), pending.cards)
            self.note = f"still refused: {exc}"
            self.controls.buzz(BuzzPattern.REFUSED)
            raise
        self.pending = None
        self.note = "confirmed"
        self._retry_held_cards()
        return accepted

    def _dismiss(self) -> None:
        self.pending = None
        self.sense.reset()
        self.note = "reading dismissed: lay the cards again"
        self._retry_held_cards()

    def _correct(self, entry: Entry) -> Accepted:
        """Apply the Mayor's correction instead of the pending reading."""
        accepted = self.table.submit(entry)  # a refused correction raises and leaves pending as is
        self.pending = None
        self.note = "corrected"
        self._retry_held_cards()
        return accepted

    def _undo(self) -> None:
        """Hold: dismiss a pending reading, else drop a half-read reveal, else undo the last entry."""
        if self.pending is not None:
            self._dismiss()
            return
        if self.sense.half_read:
            self.sense.reset()
            self.note = "half-read cards dropped"
            return
        try:
            self.table.submit(Undo())
            self.note = "undone"
        except RuleError as exc:
            self.note = f"nothing to undo: {exc}"
            self.controls.buzz(BuzzPattern.REFUSED)

    def _console(self, message: Console) -> None:
        future = message.future
        if not future.set_running_or_notify_cancel():
            return
        try:
            future.set_result(self._console_request(message.request, message.argument))
        except Exception as exc:  # handed to the caller through the future
            future.set_exception(exc)

    def _console_request(self, request: Request, argument: Any) -> Any:
        if request in VIRTUAL_TABLE_REQUESTS and self.virtual is None:
            camera = "on" if self.camera_ok else "off"
            raise RuleError(f"{request.value}: there is no virtual table (the camera is {camera})")
        handlers = {
            Request.CONFIRM: self._confirm,
            Request.DISMISS: self._dismiss,
            Request.CORRECT: lambda: self._correct(argument),
            Request.PRESS: lambda: self._button(ButtonAction.PRESS),
            Request.HOLD: lambda: self._button(ButtonAction.HOLD),
            Request.LAY: lambda: self.virtual.lay(argument),
            Request.LAY_NEXT: lambda: self.virtual.lay_next(self.table.state),
            Request.CLEAR: lambda: self.virtual.lay(()),
        }
        return handlers[request]()

    # --- outputs -----------------------------------------------------------------------------
    def _news(self, accepted: Accepted) -> None:
        language = self.speaker.language
        for event in accepted.events:
            if isinstance(event, Revealed):
                self.speaker.say(reveal_phrase(event.cards, language))
                if self.pending is not None:  # the Mayor entered the turn on the console instead
                    self.pending = None
                    self.sense.reset()
                    self.note = "the waiting reading was settled on the console"
            elif isinstance(event, LastTurn):
                self.controls.buzz(BuzzPattern.LAST_TURN)
                self.speaker.say(phrase("last_turn", language, round=event.round))
            elif isinstance(event, RoundEnded):
                self.controls.buzz(BuzzPattern.ROUND_END)
                self.speaker.say(phrase("round_end", language, round=event.round))
            elif isinstance(event, GameEnded):
                self.speaker.say(phrase("game_end", language))
            elif isinstance(event, (Undone, GameStarted)):
                self.sense.reset()
                if isinstance(event, GameStarted):
                    self.pending = None

    def _show(self) -> None:
        """Set the LEDs from the desk's state."""
        self.lights = {
            # Dark while the camera is lost; blinking through a round's last turn, as a reminder.
            Light.READY: LightMode.OFF if not self.camera_ok
            else LightMode.BLINK if self.table.state.is_last_turn else LightMode.ON,
            Light.SEEN: LightMode.BLINK if self.sense.half_read else LightMode.ON if self.cards else LightMode.OFF,
            Light.MAYOR: LightMode.BLINK if self.pending is not None else LightMode.OFF,
        }
        for light, mode in self.lights.items():
            self.controls.light(light, mode)
