"""Enrolling the owner's deck through the API, with the virtual table laying WOODCUT-style cards.

The rig is not started: the test steps the scanner itself, so every loop is bounded.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.config import PinMap
from hardware.rig import Rig, build_rig
from hardware.speech import FakeSpeaker
from tests.hardware.conftest import SMALL_FRAME, WoodcutTable
from tests.web.conftest import PIN, ApiClient, start_game
from web.security import CSRF_HEADER, PIN_HEADER

SETTLE_FRAMES = 6  # scanner steps after laying: enough for its vote to settle
PHOTOS = 3  # photos of the card enrolled, each from a fresh laying


@pytest.fixture
def deck_dir(tmp_path: Path) -> Path:
    """The deck folder under a temporary data folder."""
    return tmp_path / "data" / "deck"


@pytest.fixture
def woodcut_rig(web_services, deck_dir: Path) -> Iterator[Rig]:
    """A rig over a woodcut virtual table whose enrolled deck lives in deck_dir."""
    table = WoodcutTable(random.Random(6), size=SMALL_FRAME, hand_reads=0, clear_reads=0)
    rig = build_rig("virtual", "mock", PinMap(), "en", web_services.table, rng=random.Random(4),
                    speaker=FakeSpeaker(), virtual=table, deck_dir=deck_dir)
    web_services.rig = rig
    yield rig  # web_services.close() closes the rig


def lay(api: ApiClient, rig: Rig, *cards: str) -> None:
    """Lay cards on the virtual table through the API, then let the scanner look a few times."""
    assert api.post("/api/table/lay", {"cards": list(cards)}, mayor=True).status_code == 200
    for _ in range(SETTLE_FRAMES):
        rig.scanner.step()


def delete(api: ApiClient, path: str, *, mayor: bool = True):
    """Send a DELETE with the CSRF token, and the Mayor PIN unless told otherwise."""
    headers = {CSRF_HEADER: api.csrf, **({PIN_HEADER: PIN} if mayor else {})}
    return api.client.delete(path, headers=headers)


def deck_files(folder: Path) -> dict[str, bytes]:
    """Every file under the folder with its bytes, keyed by relative path."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_card_enrolled_through_the_api_is_named_by_the_scanner(api: ApiClient, woodcut_rig: Rig) -> None:
    """Cards enrolled through the API are named by the scanner once their kind is whole, and counted."""
    lay(api, woodcut_rig, "desert")
    assert [r["card"] for r in api.get("/api/camera").json["last_reading"]] == [None]  # unknown art
    for n in range(1, PHOTOS + 1):
        lay(api, woodcut_rig, "desert")
        reply = api.post("/api/deck/enroll", {"card": "desert"}, mayor=True)
        assert reply.status_code == 200, reply.json
        assert reply.json["card"] == "desert" and reply.json["card_photos"] == n
    assert reply.json["unread"] == ["forest", "mountain", "water", "any"]
    for card in ("forest", "mountain", "water", "any"):
        lay(api, woodcut_rig, card)
        assert api.post("/api/deck/enroll", {"card": card}, mayor=True).status_code == 200
    lay(api, woodcut_rig, "desert")
    lay(api, woodcut_rig, "desert")  # another card lay there before: the vote starts over
    camera = api.get("/api/camera").json
    assert camera["stable"] == ["desert"] and camera["last_reading"][0]["card"] == "desert", camera["last_reading"]
    progress = api.get("/api/deck/enroll")
    assert progress.status_code == 200
    assert progress.json["enrolled"]["desert"] == PHOTOS and progress.json["next"] == "blue-A1"
    assert progress.json["done"] == 5 and progress.json["total"] == 33 and progress.json["problem"] is None
    assert progress.json["unread"] == []


@pytest.mark.parametrize("cards, needle", [(["desert", "water"], "several cards"), ([], "no card")])
def test_two_cards_or_none_are_refused_and_nothing_is_written(api: ApiClient, woodcut_rig: Rig, deck_dir: Path,
                                                              cards: list[str], needle: str) -> None:
    """Enrolling with two cards or none in view is refused and writes nothing."""
    lay(api, woodcut_rig, "desert")
    assert api.post("/api/deck/enroll", {"card": "desert"}, mayor=True).status_code == 200
    before = deck_files(deck_dir)
    lay(api, woodcut_rig, *cards)
    reply = api.post("/api/deck/enroll", {"card": "water"}, mayor=True)
    assert reply.status_code == 409 and needle in reply.json["error"]
    assert deck_files(deck_dir) == before
    assert api.get("/api/deck/enroll").json["enrolled"] == {"desert": 1}


@pytest.mark.parametrize("body, mayor, status, needle", [
    ({"card": "joker"}, True, 400, "not a card ID"),
    ({"card": "desert", "photo": 1}, True, 400, "the body is"),
    ({"card": "desert"}, False, 403, "Mayor"),
])
def test_bad_enroll_requests_are_refused(api: ApiClient, woodcut_rig: Rig, deck_dir: Path,
                                         body: dict, mayor: bool, status: int, needle: str) -> None:
    """Bad card names, missing fields and non-Mayor requests are refused and write nothing."""
    lay(api, woodcut_rig, "desert")
    reply = api.post("/api/deck/enroll", body, mayor=mayor)
    assert reply.status_code == status and needle in reply.json["error"]
    assert not deck_dir.exists()


def test_no_enrolling_while_a_game_is_under_way(api: ApiClient, woodcut_rig: Rig, deck_dir: Path) -> None:
    """Enrolling is refused while a game is under way."""
    start_game(api)
    lay(api, woodcut_rig, "desert")
    reply = api.post("/api/deck/enroll", {"card": "desert"}, mayor=True)
    assert reply.status_code == 409 and "game is under way" in reply.json["error"]
    assert not deck_dir.exists()


def test_forgetting_a_card_and_the_whole_deck(api: ApiClient, woodcut_rig: Rig, deck_dir: Path) -> None:
    """One card's photos or the whole deck can be forgotten, by the Mayor only."""
    for card in ("desert", "water"):
        lay(api, woodcut_rig, card)
        assert api.post("/api/deck/enroll", {"card": card}, mayor=True).status_code == 200
    assert delete(api, "/api/deck/enroll/desert", mayor=False).status_code == 403
    assert delete(api, "/api/deck/enroll/lava").status_code == 400
    reply = delete(api, "/api/deck/enroll/desert")
    assert reply.status_code == 200 and reply.json["removed"] == 1
    assert reply.json["enrolled"] == {"water": 1} and reply.json["next"] == "desert"
    manifest = json.loads((deck_dir / "manifest.json").read_text())
    assert manifest["cards"] == {"water": ["cards/water-001.png"]}
    reply = delete(api, "/api/deck/enroll")
    assert reply.status_code == 200 and reply.json["enrolled"] == {} and reply.json["removed"] == 1
    assert deck_files(deck_dir / "cards") == {}


def test_without_a_camera_progress_shows_and_enrolling_is_503(api: ApiClient, web_services, deck_dir: Path) -> None:
    """Without a camera enroll progress is readable but enrolling answers 503."""
    web_services.rig = build_rig("none", "mock", PinMap(), "en", web_services.table, speaker=FakeSpeaker(),
                                 deck_dir=deck_dir)
    assert api.get("/api/deck/enroll").json["next"] == "desert"
    reply = api.post("/api/deck/enroll", {"card": "desert"}, mayor=True)
    assert reply.status_code == 503 and "no camera" in reply.json["error"]


def test_serve_reads_against_the_deck_in_the_data_folder(tmp_path: Path, web_services) -> None:
    """web.rig.open_rig, as `tucana serve` calls it: <data_dir>/deck is the reference deck."""
    from vision.store import enroll
    from web.rig import open_rig
    from web.settings import Settings

    woodcut = WoodcutTable(random.Random(2), size=SMALL_FRAME, hand_reads=0, clear_reads=0)
    data = tmp_path / "data"
    for terrain in ("forest", "desert", "mountain", "water", "any"):  # a kind is read once whole
        woodcut.lay([terrain])
        enroll(data / "deck", terrain, woodcut.read())
    woodcut.lay(["forest"])
    frame = woodcut.read()
    settings = Settings(data_dir=data, camera="virtual", speech=False).with_overrides(gpio="mock")
    rig = open_rig(settings, web_services)  # started: the scanner thread runs
    web_services.rig = rig  # closed with the services
    assert rig.owner_deck.folder == data / "deck"
    assert rig.enrollment()["enrolled"]["forest"] == 1 and rig.enrollment()["done"] == 5
    assert rig.scanner.eyes.reader.read(frame).named == ("forest",)  # the woodcut forest, by its photo
