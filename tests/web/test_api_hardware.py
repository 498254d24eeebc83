"""The camera side of the API over the real rig: virtual table, scanner, desk and mock pins.

The rig is not started: each test steps the scanner and runs the desk's queue in its own thread,
so the order of things is fixed and every loop is bounded.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from hardware.config import PinMap
from hardware.rig import Rig, build_rig
from hardware.speech import FakeSpeaker
from hardware.virtual_table import VirtualTable
from tests.hardware.conftest import SMALL_FRAME
from tests.web.conftest import ApiClient, log_of, start_game
from web.hardware_api import MJPEG_BOUNDARY

MAX_FRAMES = 40  # frames the scanner may take to settle on laid cards (it votes over a few)
JPEG_MAGIC = b"\xff\xd8"


@pytest.fixture(scope="module")
def reader():
    """A card reader built once for the tests that need one."""
    from vision.reader import CardReader

    return CardReader()


@pytest.fixture
def virtual_rig(web_services, reader) -> Iterator[Rig]:
    """A rig over a virtual table with a mock GPIO and vision eyes, attached to the services."""
    from hardware.eyes import VisionEyes

    rig = build_rig("virtual", "mock", PinMap(), "en", web_services.table, rng=random.Random(4),
                    speaker=FakeSpeaker(), eyes=VisionEyes(reader),
                    virtual=VirtualTable(random.Random(4), size=SMALL_FRAME))
    web_services.use_rig(rig)
    yield rig  # web_services.close() closes the rig


@pytest.fixture
def bare_rig(web_services) -> Iterator[Rig]:
    """A rig without a camera, attached to the services."""
    rig = build_rig("none", "mock", PinMap(), "en", web_services.table, speaker=FakeSpeaker())
    web_services.use_rig(rig)
    yield rig


def settle(rig: Rig, done) -> bool:
    """Step the scanner and the desk until done() or MAX_FRAMES frames."""
    for _ in range(MAX_FRAMES):
        rig.scanner.step()
        rig.desk.run_pending()
        if done():
            return True
    return False


def test_laid_cards_are_read_into_the_log(api: ApiClient, virtual_rig: Rig, web_services) -> None:
    """Cards laid on the virtual table are read into a reveal; camera status and images follow."""
    start_game(api)
    table = web_services.table
    reply = api.post("/api/table/lay", {"cards": ["desert", "water"]}, mayor=True)
    assert reply.status_code == 200 and reply.json["virtual_cards"] == ["desert", "water"]
    assert settle(virtual_rig, lambda: table.state.reveals == 1)
    assert {c.value for c in table.state.last_reveal.cards} == {"desert", "water"}
    status = api.get("/api/camera").json
    assert status["camera"] == "virtual" and status["virtual"] is True
    assert sorted(status["stable"]) == ["desert", "water"]
    assert api.get("/api/camera/snapshot.jpg").data[:2] == JPEG_MAGIC
    crop = api.get("/api/camera/crop.jpg")
    assert crop.status_code == 200 and crop.mimetype == "image/jpeg" and crop.data[:2] == JPEG_MAGIC


def test_the_on_screen_button_hold_undoes(api: ApiClient, virtual_rig: Rig, web_services) -> None:
    """Holding the on-screen button undoes the last entry; an unknown action is refused."""
    start_game(api)
    api.entry({"type": "reveal", "cards": ["forest", "any"]}, mayor=True)
    reply = api.post("/api/button", {"action": "hold"}, mayor=True)
    assert reply.status_code == 200 and reply.json["note"] == {"key": "undone", "params": {}}
    assert reply.json["accepted"] is None  # the desk undid it: the undo reaches pages over the stream
    assert web_services.table.state.reveals == 0
    assert api.post("/api/button", {"action": "jump"}, mayor=True).status_code == 400


def test_confirm_with_nothing_pending_is_refused(api: ApiClient, virtual_rig: Rig, web_services) -> None:
    """Confirming with no pending reading is refused, dismissing needs the Mayor; log unchanged."""
    start_game(api)
    before = log_of(web_services)
    reply = api.post("/api/scanner/confirm", mayor=True)
    assert reply.status_code == 409 and "no reading" in reply.json["error"]
    assert reply.json["code"] == "nothing_waiting"
    assert api.post("/api/scanner/dismiss").status_code == 403
    assert log_of(web_services) == before


def test_a_correction_is_a_contract_1_entry(api: ApiClient, virtual_rig: Rig, web_services) -> None:
    """A scanner correction is logged as a contract 1 entry; an invalid one is refused."""
    start_game(api)
    reply = api.post("/api/scanner/correct", {"type": "reveal", "cards": ["mountain", "water"]}, mayor=True)
    assert reply.status_code == 201 and reply.json["accepted"]["events"][0]["type"] == "revealed"
    assert reply.json["camera"] == "virtual" and reply.json["pending"] is None  # one shape: the rig's status
    refused = api.post("/api/scanner/correct", {"type": "reveal", "cards": ["lava"]}, mayor=True)
    assert refused.status_code == 400


def test_lay_next_puts_the_set_up_card_down_first(api: ApiClient, virtual_rig: Rig) -> None:
    """Laying the next cards before set-up puts a set-up card on the virtual table first."""
    api.entry({"type": "new_game", "players": ["Mary"]}, mayor=True)
    reply = api.post("/api/table/lay_next", mayor=True)
    assert reply.status_code == 200 and reply.json["virtual_cards"][0].startswith("setup-")


def test_the_mjpeg_preview_streams_jpeg_parts(api: ApiClient, virtual_rig: Rig) -> None:
    """The camera preview is a multipart MJPEG stream of JPEG parts."""
    virtual_rig.scanner.step()
    response = api.get("/api/camera/stream.mjpg", buffered=False)
    assert response.mimetype == "multipart/x-mixed-replace"
    part = next(iter(response.response))
    response.close()
    assert part.startswith(f"--{MJPEG_BOUNDARY}\r\nContent-Type: image/jpeg\r\n".encode())
    assert JPEG_MAGIC in part


def test_without_a_camera_the_console_falls_back_to_tapping(api: ApiClient, bare_rig: Rig, web_services) -> None:
    """Without a camera the status says none, laying and images are refused, taps still work."""
    start_game(api)
    status = api.get("/api/camera").json
    assert status["camera"] == "none" and status["scanner"] is None
    lay = api.post("/api/table/lay", {"cards": ["desert", "water"]}, mayor=True)
    assert lay.status_code == 409 and "virtual table" in lay.json["error"]
    assert api.get("/api/camera/snapshot.jpg").status_code == 503
    assert api.get("/api/camera/crop.jpg").status_code == 503
    assert api.entry({"type": "reveal", "cards": ["desert", "water"]}, mayor=True).status_code == 201
