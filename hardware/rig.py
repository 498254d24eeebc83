"""The whole hardware side wired together: build_rig(...) -> Rig, with start() and close().

    rig = build_rig("virtual", "mock", PinMap(), "en", table, time.monotonic, random.Random())
    rig.start()          # desk worker + scanner thread
    rig.status()         # an immutable RigStatus (to_json() for the web console)
    rig.subscribe(fn)    # fn(RigStatus) whenever what the console shows changes (from the desk thread)
    rig.lay(["desert", "water"]); rig.press(); rig.hold(); rig.confirm(); rig.dismiss()
    rig.close()

Threads: the scanner thread reads frames; gpiozero's pin threads only queue button actions; the
desk thread is the only one here that submits to the table.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from companion.moves import Entry, entry_to_dict
from companion.state import Phase
from companion.table import Accepted, Table
from hardware.camera import open_camera
from hardware.config import (
    CameraKind,
    CameraSpec,
    GpioMode,
    Language,
    PinMap,
    parse_camera_spec,
    parse_gpio_mode,
    parse_language,
)
from hardware.controls import Controls
from hardware.desk import Desk, DeskView
from hardware.enroll import OwnerDeck, check_card_id
from hardware.errors import HardwareError, NotNowError
from hardware.eyes import Eyes, VisionEyes
from hardware.inbox import Request
from hardware.scanner import Scanner, ScannerStatus
from hardware.speech import Phrasebook, Speaker, make_speaker, phrase_keys

if TYPE_CHECKING:  # OpenCV and the simulator load only with a camera (--camera none stays ~30 MB smaller)
    from hardware.virtual_table import VirtualTable

log = logging.getLogger(__name__)

CONSOLE_WAIT_S = 5.0  # longest a web request waits for the desk to handle it
JPEG_QUALITY = 80  # preview and crops: small enough for phones over the Pi's Wi-Fi


@dataclass(frozen=True)
class RigStatus:
    """What the Mayor console shows of the hardware, as one immutable snapshot."""

    camera: str
    has_scanner: bool
    virtual: bool
    language: str
    view: DeskView
    scanner: ScannerStatus | None

    def to_json(self) -> dict[str, Any]:
        """The document of GET /api/camera, of every camera route and of the stream's `rig` event."""
        view, scanner = self.view, self.scanner
        settled = None if scanner is None or scanner.settled is None else scanner.settled
        pending = view.pending
        return {
            "camera": self.camera,
            "camera_ok": view.camera_ok and self.has_scanner,
            "scanner": None if scanner is None else scanner.to_json(),
            "virtual": self.virtual,
            "virtual_cards": list(view.virtual_cards),
            "stable": list(view.cards),
            "half_read": view.half_read,
            "reading": None if settled is None else {
                "number": scanner.settled_count,
                "cards": [{"card": r.card, "confidence": round(float(r.confidence), 3)} for r in settled.readings],
            },
            "pending": None if pending is None else {
                "entry": entry_to_dict(pending.entry), "cards": list(pending.cards),
                "reason": pending.reason, "code": pending.refusal.code,
                "params": dict(pending.refusal.params), "acceptable": view.pending_acceptable,
            },
            "note": None if view.note is None else view.note.to_json(),
            "lights": {light.value: mode.value for light, mode in view.lights.items()},
            "language": self.language,
        }


def no_rig_status(language: str) -> RigStatus:
    """The status of a companion run without any hardware rig (tests, tools): no camera, no LEDs."""
    return RigStatus(camera="none", has_scanner=False, virtual=False, language=language,
                     view=DeskView(camera_ok=False), scanner=None)


class Rig:
    """Camera, scanner, controls, speech and the desk, started and closed together."""

    def __init__(self, *, spec: CameraSpec, table: Table, desk: Desk, controls: Controls,
                 speaker: Speaker, scanner: Scanner | None, virtual: VirtualTable | None,
                 owner_deck: OwnerDeck | None = None) -> None:
        self.spec = spec
        self.table = table
        self.desk = desk
        self.controls = controls
        self.speaker = speaker
        self.scanner = scanner
        self.virtual = virtual
        self.owner_deck = owner_deck  # the owner's enrolled deck folder; None: enrollment is off
        self._started = False
        self._listeners: list[Callable[[RigStatus], None]] = []
        desk.subscribe(lambda _view: self._publish())

    def subscribe(self, listener: Callable[[RigStatus], None]) -> None:
        """Call listener with the new status whenever the desk's view changes (in the desk thread)."""
        self._listeners.append(listener)

    def _publish(self) -> None:
        status = self.status()
        for listener in list(self._listeners):
            try:
                listener(status)
            except Exception:  # a broken screen must not stop the desk
                log.exception("a rig listener failed")

    @property
    def has_virtual_table(self) -> bool:
        """True when the camera looks at the built-in virtual table."""
        return self.virtual is not None

    def start(self) -> None:
        """Start the desk worker and the scanner thread."""
        if self._started:
            return
        self._started = True
        self.desk.start()
        if self.scanner is not None:
            self.scanner.start()

    def close(self) -> None:
        """Stop the threads and release camera, pins and speech; safe to call twice."""
        if self.scanner is not None:
            self.scanner.stop()
        self.desk.close()
        self.controls.close()
        self.speaker.close()
        if self.virtual is not None:
            self.virtual.close()
        self._started = False

    def __enter__(self) -> Rig:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the console's requests (each handled by the desk thread) ------------------------------
    def _ask(self, request: Request, argument: Any = None) -> Any:
        if not self._started:
            future = self.desk.ask(request, argument)
            self.desk.run_pending()  # not started (tests, tools): handle it in this thread
            return future.result(0)
        return self.desk.ask(request, argument).result(CONSOLE_WAIT_S)

    def press(self) -> None:
        """The button's short press: confirm a pending reading, or lay the next virtual cards."""
        self._ask(Request.PRESS)

    def hold(self) -> None:
        """The button's long press: dismiss a pending reading, drop half-read cards, or undo."""
        self._ask(Request.HOLD)

    def confirm(self) -> Accepted:
        """Apply the pending reading as read; RuleError when the engine still refuses it."""
        return self._ask(Request.CONFIRM)

    def dismiss(self) -> None:
        """Drop the pending reading; the Mayor lays the cards again."""
        self._ask(Request.DISMISS)

    def correct(self, entry: Entry) -> Accepted:
        """Apply the Mayor's correction in place of the pending reading."""
        return self._ask(Request.CORRECT, entry)

    def lay(self, cards: Sequence[str]) -> tuple[str, ...]:
        """Lay exactly these cards on the virtual table ([] clears it); RuleError without one."""
        return self._ask(Request.LAY, list(cards))

    def lay_next(self) -> tuple[str, ...]:
        """Lay what the game needs next on the virtual table."""
        return self._ask(Request.LAY_NEXT)

    # --- what the console shows -----------------------------------------------------------------
    def status(self) -> RigStatus:
        """Camera, scanner, last reading, pending reading, note, LEDs: read from immutable snapshots."""
        return RigStatus(
            camera=str(self.spec), has_scanner=self.scanner is not None, virtual=self.has_virtual_table,
            language=self.speaker.language.value, view=self.desk.view,
            scanner=None if self.scanner is None else self.scanner.status(),
        )

    def snapshot_jpeg(self) -> bytes:
        """The newest frame the scanner processed, as a JPEG; HardwareError before the first."""
        frame = None if self.scanner is None else self.scanner.last_frame
        if frame is None:
            raise HardwareError.of("no_frame")
        return _jpeg(frame)

    def crop_jpeg(self) -> bytes | None:
        """The cards that settled last side by side, flattened, as a JPEG (None before any)."""
        look = None if self.scanner is None else self.scanner.status().settled
        crops = [] if look is None else [r.crop for r in look.readings if r.crop is not None]
        if not crops:
            return None
        height = max(c.shape[0] for c in crops)
        import cv2

        padded = [cv2.copyMakeBorder(c, 0, height - c.shape[0], 0, 4, cv2.BORDER_CONSTANT) for c in crops]
        return _jpeg(np.hstack(padded))

    # --- the owner's deck (hardware/enroll.py) --------------------------------------------------
    def _owner(self) -> OwnerDeck:
        if self.owner_deck is None:
            raise HardwareError.of("no_deck_folder")
        return self.owner_deck

    def enrollment(self) -> dict:
        """The owner's deck: cards enrolled, photos of each, the next card to lay."""
        return self._owner().progress()

    def enroll(self, card: str) -> dict:
        """Enroll the one card under the camera now as card; the scanner reads with it from the next frame.

        DeckError for an unknown ID; NotNowError during a game (the scanner would read the card
        into it) or unless exactly one card lies in view; HardwareError without a fresh frame.
        """
        owner = self._owner()
        check_card_id(card)
        if self.table.state.phase in (Phase.SETUP, Phase.PLAYING):
            raise NotNowError.of("enroll_in_game")
        if self.scanner is None:
            raise HardwareError.of("no_camera")
        frame = self.scanner.last_frame
        if not self.scanner.status().camera_ok:
            raise HardwareError.of("camera_lost")
        if frame is None:
            raise HardwareError.of("no_frame")
        return owner.add(card, frame)

    def forget(self, card: str | None = None) -> dict:
        """Remove one card's photos (None: every card's) from the owner's deck; built-in art reads it again."""
        return self._owner().forget(card)


def _jpeg(image: np.ndarray) -> bytes:
    import cv2

    ok, buffer = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise HardwareError.of("jpeg")
    return buffer.tobytes()


def build_rig(
    camera_spec: str | CameraSpec,
    gpio: str | GpioMode,
    pins: PinMap,
    language: str | Language,
    table: Table,
    clock: Callable[[], float] = time.monotonic,
    rng: random.Random | None = None,
    *,
    controls: Controls | None = None,
    speaker: Speaker | None = None,
    eyes: Eyes | None = None,
    virtual: VirtualTable | None = None,
    speech: bool = True,
    phrases: Phrasebook | None = None,
    deck_dir: str | Path | None = None,
) -> Rig:
    """Wire camera, scanner, controls, speech and desk over a table; ConfigError/HardwareError on bad setup.

    camera_spec: virtual|none|picamera|usb:N|folder:PATH; gpio: mock|real; language: en|fr|es.
    controls, speaker, eyes and the virtual table may be passed in (tests); otherwise gpiozero pins, espeak-ng (when
    installed and speech is True) and vision's reader are used. Nothing runs until start().
    phrases: the words spoken (web passes the pages' catalogue in the rig's language); without
    them the rig keeps quiet and a speaker passed in hears the phrase keys (hardware.speech.phrase_keys).
    deck_dir: the owner's deck folder (`tucana serve`: <data_dir>/deck); the scanner reads its
    enrolled cards by their photos, every other card by the built-in art; None: no enrollment.
    """
    spec = camera_spec if isinstance(camera_spec, CameraSpec) else parse_camera_spec(camera_spec)
    mode = parse_gpio_mode(str(gpio))  # a GpioMode's str() is its word; AUTO becomes MOCK or REAL here
    lang = parse_language(language)
    rng = rng if rng is not None else random.Random()
    if spec.kind is not CameraKind.VIRTUAL:
        virtual = None
    elif virtual is None:
        from hardware.virtual_table import VirtualTable

        virtual = VirtualTable(rng)
    if controls is None:
        from hardware.gpio import GpioControls  # gpiozero is imported only by its adapter

        controls = GpioControls(pins, mode, clock=clock)
    speaker = speaker if speaker is not None else make_speaker(lang, enabled=speech and phrases is not None)
    desk = Desk(table, controls, speaker, phrases or phrase_keys, virtual=virtual)
    scanner = None
    if spec.kind is not CameraKind.NONE:
        scanner = Scanner(lambda: open_camera(spec, virtual_table=virtual), eyes or VisionEyes(warm_up=True),
                          desk.post, name=str(spec), clock=clock)
    owner_deck = None if deck_dir is None else OwnerDeck(deck_dir)
    if owner_deck is not None and scanner is not None:
        owner_deck.feed(scanner.eyes)  # enrolled cards by the owner's photos, the rest by built-in art
    return Rig(spec=spec, table=table, desk=desk, controls=controls, speaker=speaker,
               scanner=scanner, virtual=virtual, owner_deck=owner_deck)

