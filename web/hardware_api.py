"""The camera and scanner side of the API: status, preview, the virtual table, deck enrollment.

Every route works without hardware: with no camera the status says so and the preview and
enrollment routes answer 503 with a clear message, so the Mayor falls back to tapping cards.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from flask import Blueprint, Response, jsonify
from werkzeug.exceptions import BadRequest
from werkzeug.wsgi import ClosingIterator

from companion.moves import parse_entry
from companion.table import Accepted
from hardware.controls import ButtonAction
from hardware.errors import HardwareError
from web.api import _body, require_mayor, services
from web.errors import WebConflict
from web.serialize import accepted_json

bp = Blueprint("hardware_api", __name__, url_prefix="/api")

MJPEG_FPS = 5.0  # preview frames a second: enough to aim the camera, cheap on a Pi's CPU
MJPEG_MAX_S = 600.0  # a preview stream ends after this long; the page reopens it if still shown
MJPEG_BOUNDARY = "tucanaframe"
MJPEG_MAX_STREAMS = 2  # previews open at once: each holds a server thread (web/commands/serve.py)
_previews = threading.BoundedSemaphore(MJPEG_MAX_STREAMS)


def _rig() -> Any:
    rig = services().rig
    if rig is None:
        raise HardwareError.of("no_camera")
    return rig


def _desk(call: Callable[[], Any]) -> Any:
    """Run a console request on the rig's desk; a desk that does not answer in time is a 503."""
    try:
        return call()
    except FutureTimeout:
        raise HardwareError.of("desk_slow") from None


def rig_json() -> dict[str, Any]:
    """The rig's status document (web/API.md), the same for every camera route and the stream."""
    rig = services().rig
    if rig is None:
        from hardware.rig import no_rig_status

        return no_rig_status(services().language).to_json()
    return rig.status().to_json()


def _answer(result: Any = None) -> tuple[Response, int]:
    """Every camera route's answer: the rig's status after the request, with the entry it made.

    "accepted" is the entry the request added to the log (201), or null (200).
    """
    doc = rig_json()
    doc["accepted"] = accepted_json(result) if isinstance(result, Accepted) else None
    return jsonify(doc), 201 if isinstance(result, Accepted) else 200


@bp.get("/camera")
def camera_status() -> tuple[Response, int]:
    """The camera and scanner status: last reading, reading held for the Mayor, note, LEDs."""
    return _answer()


@bp.get("/camera/snapshot.jpg")
def snapshot() -> Response:
    """The newest camera frame as a JPEG."""
    return Response(_rig().snapshot_jpeg(), mimetype="image/jpeg",
                    headers={"Cache-Control": "no-store"})


@bp.get("/camera/crop.jpg")
def crop() -> Response:
    """The crop of the last reading (the cards as the scanner saw them) as a JPEG."""
    data = _rig().crop_jpeg()
    if data is None:
        raise HardwareError.of("no_reading")
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/camera/stream.mjpg")
def preview_stream() -> Response:
    """The camera as an MJPEG stream (multipart/x-mixed-replace) at a few frames a second."""
    rig = _rig()
    stopping, clock = services().stopping, services().clock
    if not _previews.acquire(blocking=False):
        raise HardwareError.of("previews_full", count=MJPEG_MAX_STREAMS)

    def frames() -> Iterator[bytes]:
        end = clock() + MJPEG_MAX_S
        while clock() < end and not stopping.is_set():
            try:
                jpeg = rig.snapshot_jpeg()
            except HardwareError:  # no frame yet, or the camera is reconnecting: wait for one
                stopping.wait(1.0 / MJPEG_FPS)
                continue
            yield (f"--{MJPEG_BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                   f"Content-Length: {len(jpeg)}\r\n\r\n").encode() + jpeg + b"\r\n"
            stopping.wait(1.0 / MJPEG_FPS)

    # ClosingIterator frees the slot when the server closes the body, even one never read.
    body = ClosingIterator(frames(), [_previews.release])
    return Response(body, mimetype=f"multipart/x-mixed-replace; boundary={MJPEG_BOUNDARY}",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
                    direct_passthrough=True)


@bp.post("/table/lay")
def lay_cards() -> tuple[Response, int]:
    """Mayor: lay cards on the virtual table, e.g. {"cards": ["desert", "water"]} ([] clears it)."""
    require_mayor()
    doc = _body()
    cards = doc.get("cards")
    if set(doc) - {"cards"} or not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise BadRequest('the body is {"cards": [card IDs]}, e.g. ["desert", "water"]')
    rig = _rig()
    if not rig.has_virtual_table:
        raise WebConflict.of("not_virtual")
    _desk(lambda: rig.lay(cards))
    return _answer()


@bp.post("/table/lay_next")
def lay_next() -> tuple[Response, int]:
    """Mayor: lay on the virtual table the cards the game needs next (a fair draw)."""
    require_mayor()
    rig = _rig()
    if not rig.has_virtual_table:
        raise WebConflict.of("not_virtual")
    _desk(rig.lay_next)
    return _answer()


@bp.post("/scanner/confirm")
def confirm_reading() -> tuple[Response, int]:
    """Mayor: apply the reading waiting for confirmation, as read."""
    require_mayor()
    return _answer(_desk(_rig().confirm))


@bp.post("/scanner/dismiss")
def dismiss_reading() -> tuple[Response, int]:
    """Mayor: drop the reading waiting for confirmation; lay the cards again."""
    require_mayor()
    return _answer(_desk(_rig().dismiss))


@bp.post("/scanner/correct")
def correct_reading() -> tuple[Response, int]:
    """Mayor: apply this contract-1 entry instead of the reading waiting for confirmation."""
    require_mayor()
    entry = parse_entry(_body())
    return _answer(_desk(lambda: _rig().correct(entry)))


@bp.post("/button")
def button() -> tuple[Response, int]:
    """Mayor: the button on screen, {"action": "press"} (confirm / next) or "hold" (undo)."""
    require_mayor()
    doc = _body()
    try:
        action = ButtonAction(doc.get("action"))
    except ValueError:
        action = None
    if set(doc) - {"action"} or action is None:
        raise BadRequest('the body is {"action": "press"} or {"action": "hold"}')
    rig = _rig()
    return _answer(_desk(rig.press if action is ButtonAction.PRESS else rig.hold))


@bp.get("/deck/enroll")
def enroll_status() -> Response:
    """The owner's deck: cards enrolled with their photos, how many are done, the next card to lay."""
    return jsonify(_rig().enrollment())


@bp.post("/deck/enroll")
def enroll_card() -> Response:
    """Mayor: take the current frame as a photo of {"card": ID} for the owner's deck."""
    require_mayor()
    doc = _body()
    card = doc.get("card")
    if set(doc) - {"card"} or not isinstance(card, str) or not card:
        raise BadRequest('the body is {"card": card ID}, e.g. {"card": "desert"}')
    return jsonify(_rig().enroll(card))


@bp.delete("/deck/enroll")
def forget_deck() -> Response:
    """Mayor: forget every photo of the owner's deck; the built-in art reads every card again."""
    require_mayor()
    return jsonify(_rig().forget(None))


@bp.delete("/deck/enroll/<card>")
def forget_card(card: str) -> Response:
    """Mayor: forget the photos of one card; the built-in art reads it again."""
    require_mayor()
    return jsonify(_rig().forget(card))
