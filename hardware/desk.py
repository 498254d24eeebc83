"""The Mayor's desk: the one worker thread through which the hardware touches the engine.

Everything reaches it as a message on one queue (hardware/inbox.py): stable readings from the
scanner, button actions from the pin threads, accepted entries from the table (for speech, LEDs
and buzzer), and the web console's requests. Handling one message at a time in one thread keeps the engine's view simple.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from companion.errors import RuleError, TucanaError
from companion.events import (
    GameEnded,
    GameStarted,
    LastTurn,
    RedBonusDrawn,
    Revealed,
    RoundEnded,
    SetupDone,
    SoloKept,
    Undone,
)
from companion.moves import Entry, Undo
from companion.table import Accepted, Table
from hardware.controls import ButtonAction, BuzzPattern, Controls, Light, LightMode
from hardware.errors import HardwareError, NotNowError
from hardware.inbox import (
    VIRTUAL_TABLE_REQUESTS,
    CameraState,
    Console,
    Message,
    News,
    Pressed,
    Request,
    Seen,
    Stop,
)
from hardware.meaning import CardSense, Note, Pending, note
from hardware.speech import Phrasebook, Speaker

log = logging.getLogger(__name__)

QUEUE_LIMIT = 256  # messages waiting; a flood (a stuck button) beyond this is dropped, never blocks


@dataclass(frozen=True)
class DeskView:
    """What the desk shows, as one immutable snapshot: other threads read it without a lock."""

    cards: tuple[str, ...] = ()  # the stable cards in view, left to right
    camera_ok: bool = True
    half_read: str | None = None  # the first card of a reveal waiting for its second
    pending: Pending | None = None
    pending_acceptable: bool = False  # the engine would accept the pending reading now
    note: Note | None = None
    lights: Mapping[Light, LightMode] = field(default_factory=lambda: MappingProxyType({}))
    virtual_cards: tuple[str, ...] = ()  # what lies on the virtual table (none with a real camera)


class Desk:
    """Handles one message at a time: meaning of cards, the Mayor's button, outputs of the game."""

    def __init__(self, table: Table, controls: Controls, speaker: Speaker, phrases: Phrasebook, *,
                 virtual: Any = None) -> None:
        self.table = table
        self.controls = controls
        self.speaker = speaker
        self.phrases = phrases  # the words spoken, from the pages' catalogue (web passes it in)
        self.virtual = virtual  # hardware.virtual_table.VirtualTable, or None with a real camera
        self.sense = CardSense()
        self.pending: Pending | None = None
        self.cards: tuple[str, ...] = ()
        self.camera_ok = True  # until the scanner says otherwise (no camera: nothing to lose)
        self._said: tuple[Note, int] | None = None  # the last thing done, and the log's seq then
        self.view = DeskView()
        self._listeners: list[Callable[[DeskView], None]] = []
        self._queue: queue.Queue[Message] = queue.Queue(maxsize=QUEUE_LIMIT)
        self._thread: threading.Thread | None = None
        self._unsubscribe = table.subscribe(lambda accepted: self.post(News(accepted)))
        self.controls.on_button(lambda action: self.post(Pressed(action)))
        self._show()

    @property
    def note(self) -> Note | None:
        """What the console says now (the current view's note)."""
        return self.view.note

    @property
    def lights(self) -> Mapping[Light, LightMode]:
        """The LEDs as the desk set them last."""
        return self.view.lights

    def subscribe(self, listener: Callable[[DeskView], None]) -> None:
        """Call listener (in the desk thread) with each new view; it must only queue work."""
        self._listeners.append(listener)

    def post(self, message: Message) -> None:
        """Queue a message from any thread; never blocks (a full queue drops it, loudly)."""
        try:
            self._queue.put_nowait(message)
        except queue.Full:
            log.warning("the desk's queue is full: %r dropped", message)
            if isinstance(message, Console):
                message.future.set_exception(HardwareError.of("desk_busy"))

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
            if message.ok:
                self._say("camera_back")
        elif isinstance(message, Console):
            self._console(message)
        self._show()

    def _say(self, key: str, **params: Any) -> None:
        """Remember what was just done, for the console, until the log moves on."""
        self._said = (note(key, **params), self.table.seq)

    # --- cards -------------------------------------------------------------------------------
    def _seen(self, cards: tuple[str, ...]) -> None:
        self.cards = cards
        reading = self.sense.see(cards, self.table.state, hold_new=self.pending is not None)
        if reading.note is not None:
            self._said = (reading.note, self.table.seq)
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
            self._raise_to_mayor(Pending(entry, exc, cards))
            return False
        return True

    def _raise_to_mayor(self, pending: Pending) -> None:
        self.pending = pending
        self.controls.buzz(BuzzPattern.REFUSED)
        self.speaker.say(self.phrases("speech.mayor"))

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
            self._say("laid")
        else:
            self._say("nothing_to_confirm")

    def _confirm(self) -> Accepted:
        """Apply the pending reading as read; a refusal keeps it pending with the engine's reason."""
        pending = self.pending
        if pending is None:
            raise NotNowError.of("nothing_waiting")
        try:
            accepted = self.table.submit(pending.entry)
        except RuleError as exc:
            self.pending = Pending(pending.entry, exc, pending.cards)
            self.controls.buzz(BuzzPattern.REFUSED)
            raise
        self.pending = None
        self._say("confirmed")
        self._retry_held_cards()
        return accepted

    def _dismiss(self) -> None:
        self.pending = None
        self.sense.reset()
        self._say("dismissed")
        self._retry_held_cards()

    def _correct(self, entry: Entry) -> Accepted:
        """Apply the Mayor's correction instead of the pending reading."""
        accepted = self.table.submit(entry)  # a refused correction raises and leaves pending as is
        self.pending = None
        self._say("corrected")
        self._retry_held_cards()
        return accepted

    def _undo(self) -> None:
        """Hold: dismiss a pending reading, else drop a half-read reveal, else undo the last entry."""
        if self.pending is not None:
            self._dismiss()
            return
        if self.sense.half_read:
            self.sense.reset()
            self._say("half_read_dropped")
            return
        try:
            self.table.submit(Undo())
            self._say("undone")
        except RuleError as exc:
            self._say("nothing_to_undo", code=exc.code, params=dict(exc.params))
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
            raise NotNowError.of("no_virtual_table")
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
        if self._said is not None and accepted.seq > self._said[1]:
            self._said = None  # the log moved on: what was done before is old news
        if self.pending is not None and type(accepted.entry) is type(self.pending.entry):
            self.pending = None  # the Mayor entered that reveal (set-up card, draw) by hand instead
            self.sense.reset()
            self._say("settled_elsewhere")
        for event in accepted.events:
            self._announce(event)

    def _announce(self, event: object) -> None:
        """Speak and buzz what an accepted entry caused; forget half-read cards it settled."""
        say = self.speaker.say
        if isinstance(event, Revealed):
            say(self.phrases("announce.pair", a=event.cards[0], b=event.cards[1]))
            self.sense.first = None
        elif isinstance(event, LastTurn):
            self.controls.buzz(BuzzPattern.LAST_TURN)
            say(self.phrases("speech.last_turn", n=event.round))
        elif isinstance(event, RoundEnded):
            self.controls.buzz(BuzzPattern.ROUND_END)
            say(self.phrases("speech.round_end", n=event.round))
        elif isinstance(event, GameEnded):
            say(self.phrases("speech.game_end"))
        elif isinstance(event, RedBonusDrawn):
            self.sense.reds.clear()
        elif isinstance(event, SoloKept):
            self.sense.blues.clear()
        elif isinstance(event, SetupDone | Undone | GameStarted):
            self.sense.reset()
            if isinstance(event, GameStarted):
                self.pending = None

    def _pending_acceptable(self) -> bool:
        """Whether the engine would take the waiting reading now (a dry run: nothing is stored)."""
        if self.pending is None:
            return False
        try:
            self.table.game.apply(self.pending.entry)
        except TucanaError:
            return False
        return True

    def _note(self) -> Note | None:
        """What the console says: the state of things first, then the last thing done."""
        state = self.table.state
        if not self.camera_ok:
            return note("camera_lost")
        if self.pending is not None:
            return note("check_cards")
        if self.sense.first is not None:
            return note("first_card", card=self.sense.first.value)
        if self.sense.reds and (n := self.sense.reds_wanted(state)) > 0:
            return note("more_red", n=n)
        if self.sense.blues and (n := self.sense.blues_wanted(state)) > 0:
            return note("more_blue", n=n)
        return self._said[0] if self._said is not None else None

    def _show(self) -> None:
        """Set the LEDs from the desk's state and publish the new view when anything changed."""
        lights = MappingProxyType({
            # Dark while the camera is lost; blinking through a round's last turn, as a reminder.
            Light.READY: LightMode.OFF if not self.camera_ok
            else LightMode.BLINK if self.table.state.is_last_turn else LightMode.ON,
            Light.SEEN: LightMode.BLINK if self.sense.half_read else LightMode.ON if self.cards else LightMode.OFF,
            Light.MAYOR: LightMode.BLINK if self.pending is not None else LightMode.OFF,
        })
        for light, mode in lights.items():
            self.controls.light(light, mode)
        view = DeskView(
            cards=self.cards, camera_ok=self.camera_ok,
            half_read=None if self.sense.first is None else self.sense.first.value,
            pending=self.pending, pending_acceptable=self._pending_acceptable(), note=self._note(),
            lights=lights, virtual_cards=tuple(self.virtual.cards) if self.virtual is not None else (),
        )
        if view == self.view:
            return
        self.view = view  # one reference swap: a reader sees the old view or the new one, whole
        for listener in list(self._listeners):
            try:
                listener(view)
            except Exception:  # a broken screen must not stop the desk
                log.exception("a desk listener failed")
