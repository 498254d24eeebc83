"""Idempotent requests: every state-changing route answers a retried Idempotency-Key the same
and changes nothing, also after a restart; the pages' JSON routes are listed so none is missed."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from hardware.config import PinMap
from hardware.rig import Rig, build_rig
from hardware.speech import FakeSpeaker
from hardware.virtual_table import VirtualTable
from tests.hardware.conftest import SMALL_FRAME
from tests.web.conftest import PIN, ApiClient, log_of, start_game
from web.app import create_app
from web.idempotency import IDEMPOTENCY_HEADER, REPLAYED_HEADER
from web.security import CSRF_COOKIE, CSRF_HEADER, PIN_HEADER
from web.services import ANSWERS_FILE, Services, build_services

SETTLE_FRAMES = 6  # scanner steps after laying: enough for its vote to settle
REVEAL = {"type": "reveal", "cards": ["desert", "water"]}
LOG_TEXT = ('{"type": "new_game", "players": ["Ann", "Bob"]}\n'
            '{"type": "setup_card", "letters": "CEBAEDCDAB"}\n'
            '{"type": "reveal", "cards": ["forest", "any"]}\n')
Prepare = Callable[[ApiClient, ApiClient, Rig], None]


def _playing(api: ApiClient, phone: ApiClient, rig: Rig) -> None:
    start_game(api)
    assert api.entry(REVEAL, mayor=True).status_code == 201


def _seated(api: ApiClient, phone: ApiClient, rig: Rig) -> None:
    _playing(api, phone, rig)
    assert phone.post("/api/seats/join", {"player": "David"}).status_code == 200


def _same_players_again(api: ApiClient, phone: ApiClient, rig: Rig) -> None:
    _seated(api, phone, rig)
    start_game(api)  # game 2, the same players: its seats can be kept from game 1


def _logged_in(api: ApiClient, phone: ApiClient, rig: Rig) -> None:
    start_game(api)
    assert phone.post("/api/mayor/login", {"pin": PIN}).status_code == 200


def _lay(api: ApiClient, rig: Rig, cards: list[str]) -> None:
    assert api.post("/api/table/lay", {"cards": cards}, mayor=True).status_code == 200
    for _ in range(SETTLE_FRAMES):
        rig.scanner.step()
        rig.desk.run_pending()


def _misread(api: ApiClient, phone: ApiClient, rig: Rig) -> None:
    start_game(api)
    for _ in range(2):
        assert api.entry({"type": "reveal", "cards": ["water", "water"]}, mayor=True).status_code == 201
    _lay(api, rig, ["water", "forest"])  # a 5th water: held for the Mayor as a pending reading
    assert rig.status().to_json()["pending"] is not None


def _card_in_view(api: ApiClient, phone: ApiClient, rig: Rig) -> None:
    _lay(api, rig, ["desert"])  # no game: enrolling is allowed


def _enrolled(api: ApiClient, phone: ApiClient, rig: Rig) -> None:
    _card_in_view(api, phone, rig)
    assert api.post("/api/deck/enroll", {"card": "desert"}, mayor=True).status_code == 200


# (method, path, body, sent by: "mayor" (PIN header), "phone" (its cookies), prepare)
ROUTES: dict[str, tuple[str, str, Any, str, Prepare]] = {
    "claim": ("POST", "/api/events", {"type": "claim", "player": "David", "village": "A"}, "phone", _seated),
    "trail": ("POST", "/api/events", {"type": "trail", "player": "David", "from": [3, 1], "to": [4, 2]},
              "phone", _seated),
    "seat mode": ("POST", "/api/seats/mode", {"mode": "sheet"}, "phone", _seated),
    "reveal": ("POST", "/api/events", {"type": "reveal", "cards": ["forest", "forest"]}, "mayor", _playing),
    "new game": ("POST", "/api/events", {"type": "new_game", "players": ["Ann"]}, "mayor", _playing),
    "refused entry": ("POST", "/api/events", {"type": "setup_card", "letters": "CEBAEDCDAB"}, "mayor",
                      _playing),
    "import": ("POST", "/api/import", LOG_TEXT, "mayor", _playing),
    "join": ("POST", "/api/seats/join", {"player": "David"}, "phone", _playing),
    "leave": ("POST", "/api/seats/leave", None, "phone", _seated),
    "free": ("POST", "/api/seats/free", {"player": "David"}, "mayor", _seated),
    "keep seats": ("POST", "/api/seats/keep", {"from": 1}, "mayor", _same_players_again),
    "login": ("POST", "/api/mayor/login", {"pin": PIN}, "phone", _playing),
    "wrong PIN": ("POST", "/api/mayor/login", {"pin": "000000"}, "phone", _playing),
    "logout": ("POST", "/api/mayor/logout", None, "phone", _logged_in),
    "lay": ("POST", "/api/table/lay", {"cards": ["forest", "water"]}, "mayor", _playing),
    "lay next": ("POST", "/api/table/lay_next", None, "mayor", _playing),
    "confirm": ("POST", "/api/scanner/confirm", None, "mayor", _misread),
    "dismiss": ("POST", "/api/scanner/dismiss", None, "mayor", _misread),
    "correct": ("POST", "/api/scanner/correct", {"type": "reveal", "cards": ["mountain", "water"]},
                "mayor", _playing),
    "button": ("POST", "/api/button", {"action": "hold"}, "mayor", _playing),
    "enroll": ("POST", "/api/deck/enroll", {"card": "desert"}, "mayor", _card_in_view),
    "forget deck": ("DELETE", "/api/deck/enroll", None, "mayor", _enrolled),
    "forget card": ("DELETE", "/api/deck/enroll/desert", None, "mayor", _enrolled),
}


@pytest.fixture(scope="module")
def reader():
    """A card reader built once for this module."""
    from vision.reader import CardReader

    return CardReader()


@pytest.fixture
def rig(web_services: Services, tmp_path: Path, reader) -> Iterator[Rig]:
    """A rig over the virtual table with vision eyes and an owner's deck folder, not started."""
    from hardware.eyes import VisionEyes

    rig = build_rig("virtual", "mock", PinMap(), "en", web_services.table, rng=random.Random(4),
                    speaker=FakeSpeaker(), eyes=VisionEyes(reader), deck_dir=tmp_path / "deck",
                    virtual=VirtualTable(random.Random(4), size=SMALL_FRAME))
    web_services.use_rig(rig)
    yield rig


def send(client: ApiClient, method: str, path: str, body: Any, by: str, key: str) -> Any:
    """One request with an Idempotency-Key, as the Mayor (PIN) or as the phone (its cookies)."""
    headers = {IDEMPOTENCY_HEADER: key, CSRF_HEADER: client.csrf}
    if by == "mayor":
        headers[PIN_HEADER] = PIN
    data = body if isinstance(body, str) else (json.dumps(body) if body is not None else "")
    return client.client.open(path, method=method, data=data, headers=headers,
                              content_type="application/json")


def everything(services: Services, tmp_path: Path) -> tuple:
    """All the state a request may change: log, games, seats, sessions, rig, deck files."""
    game_id = services.table.game_id
    rig = services.rig.status() if services.rig is not None else None
    deck = sorted((str(p), p.read_bytes()) for p in (tmp_path / "deck").rglob("*") if p.is_file())
    return (log_of(services), len(services.store.games()), services.security.seats.holders(game_id),
            services.security.sessions.count, rig, deck, services.seat_modes.picks(game_id))


def cookies(reply: Any) -> list[str]:
    """The cookies an answer sets, the CSRF one (set by any first answer) left out."""
    return sorted(c for c in reply.headers.getlist("Set-Cookie") if not c.startswith(CSRF_COOKIE + "="))


def test_every_state_changing_route_has_a_retry_case(web_app: Flask) -> None:
    """A new POST or DELETE route must be added to ROUTES (and so be tested for retries)."""
    unsafe = {(method, rule.rule) for rule in web_app.url_map.iter_rules()
              for method in rule.methods - {"GET", "HEAD", "OPTIONS"}}
    covered = {(method, path.replace("/desert", "/<card>")) for method, path, *_ in ROUTES.values()}
    assert unsafe == covered


@pytest.mark.parametrize("name", ROUTES)
def test_a_retry_gets_the_first_answer_and_changes_nothing(
    name: str, api: ApiClient, phone: ApiClient, web_services: Services, rig: Rig, tmp_path: Path,
) -> None:
    """The same Idempotency-Key twice: one effect, the same status, body and cookies."""
    method, path, body, by, prepare = ROUTES[name]
    prepare(api, phone, rig)
    client = api if by == "mayor" else phone
    first = send(client, method, path, body, by, "first-try-" + name.replace(" ", "-"))
    after = everything(web_services, tmp_path)
    again = send(client, method, path, body, by, "first-try-" + name.replace(" ", "-"))
    assert (again.status_code, again.get_data()) == (first.status_code, first.get_data())
    assert cookies(again) == cookies(first)
    assert again.headers[REPLAYED_HEADER] == "true" and REPLAYED_HEADER not in first.headers
    assert everything(web_services, tmp_path) == after


def test_a_seat_whose_answer_was_lost_is_still_this_phones(api: ApiClient, web_app: Flask) -> None:
    """The phone never got the seat cookie; its retry gets the same cookie, not a 409."""
    start_game(api)
    phone = ApiClient(web_app.test_client())
    first = send(phone, "POST", "/api/seats/join", {"player": "David"}, "phone", "join-once-123")
    phone.client.delete_cookie("tucana_seat")  # the answer, and its cookie, never arrived
    again = send(phone, "POST", "/api/seats/join", {"player": "David"}, "phone", "join-once-123")
    assert again.status_code == 200 and cookies(again) == cookies(first)
    assert phone.get("/api/session").json["seat"] == "David"


def test_the_same_key_for_another_request_is_refused(api: ApiClient, web_services: Services) -> None:
    """A key reused with another body is a client bug: 422, nothing done."""
    start_game(api)
    assert send(api, "POST", "/api/events", REVEAL, "mayor", "reused-key-1").status_code == 201
    before = log_of(web_services)
    other = send(api, "POST", "/api/events", {"type": "undo"}, "mayor", "reused-key-1")
    assert other.status_code == 422 and "another request" in other.json["error"]
    assert log_of(web_services) == before


def test_a_retry_sent_while_the_first_try_runs_waits_for_its_answer(api: ApiClient, web_services: Services) -> None:
    """Eight copies of one claim sent at once: one entry, eight equal answers."""
    _playing(api, api, None)  # type: ignore[arg-type]
    before = web_services.table.seq
    answers: list[Any] = []
    start = threading.Barrier(8)

    def fire() -> None:
        start.wait()
        reply = send(api, "POST", "/api/events", {"type": "claim", "player": "Mary", "sight": "yeti"},
                     "mayor", "same-claim-8x")
        answers.append((reply.status_code, reply.get_data()))

    threads = [threading.Thread(target=fire) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert web_services.table.seq == before + 1
    assert len(set(answers)) == 1 and answers[0][0] == 201


def _serve(data: Path) -> tuple[Services, ApiClient]:
    services = build_services(data)
    return services, ApiClient(create_app({"TESTING": True}, services=services).test_client())


@pytest.mark.parametrize("answers_lost", [False, True], ids=["answer kept", "crash before the answer was kept"])
def test_a_retry_after_a_restart_changes_nothing(tmp_path: Path, answers_lost: bool) -> None:
    """Entries and imports sent before a restart are not stored again by their retry."""
    data = tmp_path / "data"
    services, console = _serve(data)
    services.security.pin = PIN
    start_game(console)
    reveal = send(console, "POST", "/api/events", REVEAL, "mayor", "before-restart-1")
    imported = send(console, "POST", "/api/import", LOG_TEXT, "mayor", "before-restart-2")
    before = log_of(services), len(services.store.games())
    services.close()
    if answers_lost:
        for path in data.glob(ANSWERS_FILE + "*"):
            path.unlink()
    services, console = _serve(data)
    services.security.pin = PIN
    try:
        again = send(console, "POST", "/api/events", REVEAL, "mayor", "before-restart-1")
        assert (again.status_code, again.json) == (reveal.status_code, reveal.json)
        again = send(console, "POST", "/api/import", LOG_TEXT, "mayor", "before-restart-2")
        assert (again.status_code, again.json) == (imported.status_code, imported.json)
        assert (log_of(services), len(services.store.games())) == before
    finally:
        services.close()
