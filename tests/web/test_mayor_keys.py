"""The Mayor's keys: sessions that can be revoked, the overall PIN lockout, `tucana pin --new`,
and the seat tools that show who holds a seat and kick a copied cookie out."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from tests.web.conftest import PIN, ApiClient, FakeClock, log_of, start_game
from web.app import create_app
from web.cli import main
from web.pin_guard import PIN_DELAY_FIRST_S, PIN_DELAY_MAX_S, PIN_FREE_FAILURES, PinGuard
from web.security import MAYOR_COOKIE, Security, new_pin
from web.services import Services
from web.sessions import MAYOR_SESSION_S, MayorSessions

REVEAL = {"type": "reveal", "cards": ["desert", "water"]}


def _login(client: ApiClient, pin: str = PIN) -> str:
    reply = client.post("/api/mayor/login", {"pin": pin})
    assert reply.status_code == 200, reply.json
    return client.client.get_cookie(MAYOR_COOKIE).value


def test_each_login_opens_its_own_random_session(web_app: Flask) -> None:
    """Two logins get two different session ids; neither is derived from the PIN."""
    first, second = ApiClient(web_app.test_client()), ApiClient(web_app.test_client())
    one, two = _login(first), _login(second)
    assert one != two and PIN not in one and len(one) == 64
    assert first.get("/api/mayor").json["mayor"] and second.get("/api/mayor").json["mayor"]


def test_logout_revokes_the_session_on_the_server(web_app: Flask, web_services: Services) -> None:
    """A cookie copied before logout opens nothing afterwards."""
    console = ApiClient(web_app.test_client())
    stolen = _login(console)
    start_game(console)
    console.post("/api/mayor/logout")
    thief = ApiClient(web_app.test_client())
    thief.client.set_cookie(MAYOR_COOKIE, stolen)
    assert thief.get("/api/mayor").json == {"mayor": False}
    before = log_of(web_services)
    assert thief.entry(REVEAL).status_code == 403
    assert log_of(web_services) == before


def test_a_session_expires(web_app: Flask, clock: FakeClock) -> None:
    """After MAYOR_SESSION_S the session is over and the console asks for the PIN again."""
    console = ApiClient(web_app.test_client())
    _login(console)
    clock.now += MAYOR_SESSION_S - 1
    assert console.get("/api/mayor").json["mayor"] is True
    clock.now += 2
    assert console.get("/api/mayor").json == {"mayor": False}


def test_a_new_pin_ends_every_session_of_a_running_server(tmp_path: Path, clock: FakeClock) -> None:
    """A new PIN written while serving (as `tucana pin --new` does): old PIN and sessions stop working."""
    from web.services import build_services

    services = build_services(tmp_path)
    services.security = Security.in_folder(tmp_path, clock=clock, token_bytes=lambda n: b"\x01" * n)
    console = ApiClient(create_app({"TESTING": True}, services=services).test_client())
    old = services.security.pin
    _login(console, old)
    new = new_pin(tmp_path, token_bytes=lambda n: b"\x02" * n)
    assert new != old
    assert console.get("/api/mayor").json == {"mayor": False}
    assert console.post("/api/mayor/login", {"pin": old}).status_code == 403
    assert console.post("/api/mayor/login", {"pin": new}).json["pin"] == new
    services.close()


def test_tucana_pin_shows_and_replaces_the_pin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`tucana pin` prints the PIN; --new prints a new one and empties the sessions."""
    assert main(["pin", "--data", str(tmp_path)]) == 1  # nothing served here yet
    first = new_pin(tmp_path, token_bytes=lambda n: b"\x01" * n)
    assert main(["pin", "--data", str(tmp_path)]) == 0
    assert first in capsys.readouterr().out
    sessions = MayorSessions(tmp_path / "mayor-sessions.json")
    token = sessions.open()
    assert main(["pin", "--new", "--data", str(tmp_path)]) == 0
    assert "New Mayor PIN" in capsys.readouterr().out
    assert not MayorSessions(tmp_path / "mayor-sessions.json").valid(token)


def test_wrong_pins_from_many_addresses_lock_every_try_with_growing_waits(clock: FakeClock) -> None:
    """The overall count does not care where guesses come from; each wait doubles, up to an hour."""
    said: list[str] = []
    guard = PinGuard(clock=clock, notify=said.append)
    for n in range(PIN_FREE_FAILURES):
        guard.check(f"10.0.{n}.1")
        guard.failed(f"10.0.{n}.1")
    assert guard.wait_s() == PIN_DELAY_FIRST_S
    assert "10 wrong Mayor PINs" in said[-1] and "tucana pin --new" in said[-1]
    with pytest.raises(PermissionError, match="wait"):
        guard.check("10.9.9.9")  # a fresh address waits too
    waits = []
    for n in range(15):
        clock.now += guard.wait_s()
        guard.check(f"10.1.{n}.1")
        guard.failed(f"10.1.{n}.1")
        waits.append(guard.wait_s())
    assert waits[:3] == [2 * PIN_DELAY_FIRST_S, 4 * PIN_DELAY_FIRST_S, 8 * PIN_DELAY_FIRST_S]
    assert waits[-1] == PIN_DELAY_MAX_S


def test_the_wrong_pin_count_survives_a_restart(tmp_path: Path, clock: FakeClock) -> None:
    """A restart does not clear the count, and the right PIN afterwards does."""
    guard = PinGuard(tmp_path / "guard.json", clock=clock)
    for n in range(PIN_FREE_FAILURES + 3):
        clock.now += 3600
        guard.failed(f"10.0.0.{n}")
    again = PinGuard(tmp_path / "guard.json", clock=clock)
    assert again.wait_s() == PIN_DELAY_FIRST_S * 8
    clock.now += 3600
    again.check("10.0.0.1")
    again.succeeded("10.0.0.1")
    assert PinGuard(tmp_path / "guard.json", clock=clock).wait_s() == 0


def test_a_lockout_leaves_logged_in_consoles_working(web_app: Flask, web_services: Services, clock: FakeClock) -> None:
    """Guessers lock out new logins, not the Mayor whose console is already logged in."""
    console = ApiClient(web_app.test_client())
    _login(console)
    start_game(console)
    for n in range(PIN_FREE_FAILURES):
        guesser = web_app.test_client(use_cookies=False)
        guesser.post("/api/mayor/login", json={"pin": f"{n:06d}"}, environ_base={"REMOTE_ADDR": f"10.0.0.{n}"})
    refused = ApiClient(web_app.test_client()).post("/api/mayor/login", {"pin": PIN})
    assert refused.status_code == 429 and "wait" in refused.json["error"]
    assert console.entry(REVEAL).status_code == 201


def test_the_next_login_tells_the_mayor_about_wrong_pins(web_app: Flask, clock: FakeClock) -> None:
    """Wrong PINs since the last login come with the next login's answer, once."""
    guesser = web_app.test_client(use_cookies=False)  # a script: no cookie, so no CSRF token needed
    for _ in range(3):
        guesser.post("/api/mayor/login", json={"pin": "000000"}, environ_base={"REMOTE_ADDR": "10.0.0.66"})
    console = ApiClient(web_app.test_client())
    reply = console.post("/api/mayor/login", {"pin": PIN})
    assert reply.json["wrong_pins"] == {"count": 3, "last_address": "10.0.0.66", "last_at": clock.now}
    assert "wrong_pins" not in console.post("/api/mayor/login", {"pin": PIN}).json


def test_the_mayor_sees_held_seats_and_kicks_a_copied_cookie(web_app: Flask, api: ApiClient, web_services: Services) -> None:
    """A seat used from two addresses shows as two devices; freeing it locks both phones out."""
    start_game(api)
    api.entry(REVEAL, mayor=True)
    phone = ApiClient(web_app.test_client())
    phone.post("/api/seats/join", {"player": "David"})
    token = phone.client.get_cookie("tucana_seat").value
    copy = web_app.test_client()
    copy.set_cookie("tucana_seat", token)
    assert copy.get("/api/session", environ_base={"REMOTE_ADDR": "10.0.0.99"}).json["seat"] == "David"
    mayor = ApiClient(web_app.test_client())
    _login(mayor)
    seats = {s["player"]: s for s in mayor.get("/api/seats").json["seats"]}
    assert seats["David"]["taken"] and seats["David"]["devices"] == 2 and seats["David"]["since"]
    assert "devices" not in phone.get("/api/seats").json["seats"][1]  # only the Mayor sees them
    assert mayor.post("/api/seats/free", {"player": "David"}).json["freed"] is True
    assert copy.get("/api/session").json["seat"] is None
    claim = phone.entry({"type": "claim", "player": "David", "village": "A"})
    assert claim.status_code == 403
