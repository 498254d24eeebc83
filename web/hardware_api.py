"""The camera and scanner side of the API: status, preview, the virtual table, deck enrollment.

Every route works without hardware: with no camera the status says so and the preview and
enrollment routes answer 503 with a clear message, so the Mayor falls back to tapping cards.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, jsonify
from werkzeug.exceptions import BadRequest

from companion.errors import ConflictError, HardwareError
from web.api import _body, require_mayor, services

bp = Blueprint("hardware_api", __name__, url_prefix="/api")

MJPEG_FPS = 5.0  # preview frames a second: enough to aim the camera, cheap on a Pi's CPU
MJPEG_MAX_S = 600.0  # a preview stream ends after this long; the page reopens it if still shown
MJPEG_BOUNDARY = "tucanaframe"


def _rig() -> Any:
    rig = services().rig
    if rig is None:
        raise HardwareError("no camera: tap the cards on the Mayor's console instead")
    return rig


@bp.get("/camera")
def camera_status() -> Response:
    """The camera and scanner status, with the last reading (null when there is no camera)."""
    rig = services().rig
    if rig is None:
        return jsonify({"camera": None, "scanner": None, "virtual": False, "last_reading": None})
    return jsonify(rig.status())


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
        raise HardwareError("no reading yet")
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/camera/stream.mjpg")
def preview_stream() -> Response:
    """The camera as an MJPEG stream (multipart/x-mixed-replace) at a few frames a second."""
    rig = _rig()

    def frames() -> Iterator[bytes]:
        end = time.monotonic() + MJPEG_MAX_S
        while time.monotonic() < end:
            jpeg = rig.snapshot_jpeg()
            yield (f"--{MJPEG_BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                   f"Content-Length: {len(jpeg)}\r\n\r\n").encode() + jpeg + b"\r\n"
            time.sleep(1.0 / MJPEG_FPS)

    return Response(frames(), mimetype=f"multipart/x-mixed-replace; boundary={MJPEG_BOUNDARY}",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
                    direct_passthrough=True)


@bp.post("/table/lay")
def lay_cards() -> Response:
    """Mayor: lay cards on the virtual table, e.g. {"cards": ["desert", "water"]} ([] clears it)."""
    require_mayor("laying cards on the virtual table")
    doc = _body()
    cards = doc.get("cards")
    if set(doc) - {"cards"} or not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise BadRequest('the body is {"cards": [card IDs]}, e.g. ["desert", "water"]')
    rig = _rig()
    if not getattr(rig, "has_virtual_table", False):
        raise ConflictError("the camera is not the virtual table: lay real cards under it")
    rig.lay(cards)
    return jsonify(rig.status())


@bp.get("/deck/enroll")
def enroll_status() -> Response:
    """The guided enrollment of the owner's deck: which card comes next and how many are done."""
    return jsonify(_rig().enrollment())


@bp.post("/deck/enroll")
def enroll_card() -> Response:
    """Mayor: take the current frame as a picture of {"card": ID} for the owner's deck."""
    require_mayor("enrolling cards")
    doc = _body()
    card = doc.get("card")
    if set(doc) - {"card"} or not isinstance(card, str) or not card:
        raise BadRequest('the body is {"card": card ID}, e.g. {"card": "desert"}')
    return jsonify(_rig().enroll(card))
