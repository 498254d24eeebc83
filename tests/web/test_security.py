"""Security on a shared Wi-Fi: the Mayor's PIN and its lockout, seat tokens, CSRF, cookie flags."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tests.web.conftest import PIN, ApiClient, FakeClock, log_of, start_game
from web.pin_guard import PIN_FAILURES_MAX, PIN_LOCKOUT_S
from web.security import (
    CSRF_HEADER,
    SECRETS_FILE,
    SeatBook,
    Security,
    csrf_refusal,
)

REVEAL = {"type": "reveal", "cards": ["desert", "water"]}


def _playing(api: ApiClient) -> None:
    start_game(api)
    assert api.entry(REVEAL, mayor=True).status_code == 201


def test_wrong_pins_lock_an_address_out_for_a_while(api: ApiClient, web_services, clock: FakeClock) -> None:
    """After too many wrong PINs even the right PIN waits out the lockout; nothing is logged."""
    start_game(api)
    before = log_of(web_services)
    wrong = {"X-Mayor-Pin": "111111"}
    for _ in range(PIN_FAILURES_MAX):
        assert api.entry(REVEAL, headers=wrong).status_code == 403
    locked = api.entry(REVEAL, mayor=True)  # even the right PIN waits now
    assert locked.status_code == 429 and "try again" in locked.json["error"]
    assert log_of(web_services) == before
    clock.now += PIN_LOCKOUT_S + 1
    assert api.entry(REVEAL, mayor=True).status_code == 201


def test_the_right_pin_clears_earlier_mistakes(api: ApiClient) -> None:
    """A right PIN resets the count of earlier wrong ones, and a wrong PIN is still refused."""
    start_game(api)
    for _ in range(PIN_FAILURES_MAX - 1):
        api.entry(REVEAL, headers={"X-Mayor-Pin": "111111"})
    assert api.entry(REVEAL, mayor=True).status_code == 201
    assert api.entry({"type": "undo"}, headers={"X-Mayor-Pin": "111111"}).status_code == 403
    assert api.entry({"type": "undo"}, mayor=True).status_code == 201


def test_mayor_login_sets_an_httponly_cookie_that_acts_as_the_pin(web_app, web_services) -> None:
    """Mayor login sets an HttpOnly strict cookie that stands in for the PIN until logout."""
    console = ApiClient(web_app.test_client())
    assert console.get("/api/mayor").json == {"mayor": False}
    assert "pin" not in console.get("/api/session").json
    reply = console.post("/api/mayor/login", {"pin": PIN})
    assert reply.json == {"mayor": True, "pin": PIN}
    cookie = next(c for c in reply.headers.getlist("Set-Cookie") if c.startswith("tucana_mayor="))
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert console.get("/api/mayor").json == {"mayor": True, "pin": PIN}
    assert console.get("/api/session").json["pin"] == PIN
    start_game(console)  # no PIN header from here on: the cookie speaks for the Mayor
    assert console.entry(REVEAL).status_code == 201
    console.post("/api/mayor/logout")
    assert console.entry({"type": "undo"}).status_code == 403
    assert web_services.table.seq == 3


def test_a_forged_mayor_cookie_is_not_the_mayor(web_app) -> None:
    """A made-up Mayor cookie gives no Mayor rights."""
    console = ApiClient(web_app.test_client())
    console.client.set_cookie("tucana_mayor", "0" * 64)
    assert console.get("/api/mayor").json == {"mayor": False}
    assert console.entry({"type": "new_game", "players": ["A"]}).status_code == 403


def test_a_player_claims_for_their_own_seat_only(api: ApiClient, phone: ApiClient, web_services) -> None:
    """A seated phone may claim only for its own player, never reveal or undo."""
    _playing(api)
    phone.post("/api/seats/join", {"player": "David"})
    before = log_of(web_services)
    reply = phone.entry({"type": "claim", "player": "Mary", "village": "A"})
    assert reply.status_code == 403 and "David's seat" in reply.json["error"]
    assert phone.entry({"type": "reveal", "cards": ["forest", "forest"]}).status_code == 403
    assert phone.entry({"type": "undo"}).status_code == 403
    assert log_of(web_services) == before
    assert phone.entry({"type": "claim", "player": "David", "village": "A"}).status_code == 201


def test_the_mayor_may_claim_for_anyone(api: ApiClient) -> None:
    """The Mayor may enter a claim for any player."""
    _playing(api)
    assert api.entry({"type": "claim", "player": "David", "sight": "toucan"}, mayor=True).status_code == 201


def test_a_taken_seat_needs_the_mayor_to_free_it(api: ApiClient, phone: ApiClient, other_phone: ApiClient) -> None:
    """Another phone cannot take a held seat until the Mayor frees it."""
    start_game(api)
    assert phone.post("/api/seats/join", {"player": "David"}).status_code == 200
    assert phone.post("/api/seats/join", {"player": "David"}).status_code == 200  # same phone again
    refused = other_phone.post("/api/seats/join", {"player": "David"})
    assert refused.status_code == 409 and "Mayor can free it" in refused.json["error"]
    assert api.post("/api/seats/free", {"player": "David"}, mayor=True).json == {"player": "David", "freed": True}
    assert other_phone.post("/api/seats/join", {"player": "David"}).status_code == 200
    assert phone.get("/api/session").json["seat"] is None


def test_moving_to_another_seat_frees_the_old_one(api: ApiClient, phone: ApiClient, other_phone: ApiClient) -> None:
    """Joining a second seat releases the first one for other phones."""
    start_game(api)
    phone.post("/api/seats/join", {"player": "David"})
    phone.post("/api/seats/join", {"player": "Mary"})
    assert phone.get("/api/session").json["seat"] == "Mary"
    assert other_phone.post("/api/seats/join", {"player": "David"}).status_code == 200


def test_the_seat_cookie_is_httponly_and_strict(api: ApiClient, phone: ApiClient) -> None:
    """The seat cookie is HttpOnly, SameSite=Strict and carries a 64-character token."""
    start_game(api)
    reply = phone.post("/api/seats/join", {"player": "David"})
    cookie = next(c for c in reply.headers.getlist("Set-Cookie") if c.startswith("tucana_seat="))
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert len(cookie.split(";")[0].split("=")[1]) == 64


def test_seats_belong_to_one_game(api: ApiClient, phone: ApiClient) -> None:
    """A seat held in one game gives no rights in the next game, even with the same names."""
    _playing(api)
    phone.post("/api/seats/join", {"player": "David"})
    start_game(api)  # a new game with the same names
    api.entry(REVEAL, mayor=True)
    assert phone.get("/api/session").json["seat"] is None
    assert phone.entry({"type": "claim", "player": "David", "village": "A"}).status_code == 403


def test_seats_survive_a_restart(tmp_path: Path) -> None:
    """Seat tokens are kept on disk as hashes only, per game, across a restart."""
    book = SeatBook(tmp_path / "seats.json")
    token = book.join(1, "David", None)
    again = SeatBook(tmp_path / "seats.json")
    assert again.player_for(1, token) == "David"
    assert again.player_for(2, token) is None
    assert token not in (tmp_path / "seats.json").read_text()  # only hashes are kept


@pytest.mark.parametrize(
    ("cookies", "headers", "refused"),
    [
        ({}, {}, None),  # no cookie: nothing ambient to abuse
        ({"tucana_csrf": "abc"}, {CSRF_HEADER: "abc"}, None),
        ({"tucana_csrf": "abc"}, {}, "X-CSRF-Token"),
        ({"tucana_csrf": "abc"}, {CSRF_HEADER: "abd"}, "X-CSRF-Token"),
        ({"tucana_seat": "t"}, {CSRF_HEADER: ""}, "X-CSRF-Token"),
        ({}, {"Origin": "http://evil.example"}, "another origin"),
        ({"tucana_csrf": "abc"}, {CSRF_HEADER: "abc", "Origin": "http://10.0.0.9:8000"}, "another origin"),
        ({"tucana_csrf": "abc"}, {CSRF_HEADER: "abc", "Origin": "http://pi.local:8000"}, None),
        ({}, {"Sec-Fetch-Site": "cross-site"}, "cross-site"),
    ],
)
def test_csrf_rules(cookies: dict, headers: dict, refused: str | None) -> None:
    """A POST needs a matching CSRF token and same origin when cookies are sent; GET never does."""
    reason = csrf_refusal("POST", cookies, headers, "pi.local:8000")
    assert (reason is None) if refused is None else (refused in reason)
    assert csrf_refusal("GET", cookies, headers, "pi.local:8000") is None


def test_a_cookie_carrying_post_without_the_token_is_refused(api: ApiClient, phone: ApiClient, web_services) -> None:
    """A POST with cookies but no token, or from another origin, is refused and logs nothing."""
    _playing(api)
    phone.post("/api/seats/join", {"player": "David"})
    before = log_of(web_services)
    claim = {"type": "claim", "player": "David", "village": "A"}
    reply = phone.entry(claim, csrf=False)
    assert reply.status_code == 403 and CSRF_HEADER in reply.json["error"]
    reply = phone.entry(claim, headers={"Origin": "http://evil.example"})
    assert reply.status_code == 403
    # A forged form post carries the cookies but cannot know the token.
    reply = phone.client.post("/api/events", data='{"type": "undo"}', headers={"X-Mayor-Pin": PIN})
    assert reply.status_code == 403
    assert log_of(web_services) == before


def test_a_script_without_cookies_needs_only_the_pin(web_app, web_services) -> None:
    """A client sending no cookies needs only the Mayor PIN header, no CSRF token."""
    bare = web_app.test_client(use_cookies=False)
    reply = bare.post("/api/events", json={"type": "new_game", "players": ["A"]}, headers={"X-Mayor-Pin": PIN})
    assert reply.status_code == 201


def test_every_response_hands_out_a_csrf_cookie_once(web_app) -> None:
    """The first response sets a script-readable strict CSRF cookie; later ones do not."""
    client = web_app.test_client()
    first = client.get("/healthz")
    cookie = next(c for c in first.headers.getlist("Set-Cookie") if c.startswith("tucana_csrf="))
    assert "HttpOnly" not in cookie and "SameSite=Strict" in cookie
    second = client.get("/api/session")
    assert not any(c.startswith("tucana_csrf=") for c in second.headers.getlist("Set-Cookie"))
    assert second.json["csrf"] == cookie.split(";")[0].split("=")[1]


def test_the_pin_is_made_once_per_data_folder_and_kept_private(tmp_path: Path) -> None:
    """The PIN is six digits, kept in a 0600 file, reused, and remade if the file is damaged."""
    first = Security.in_folder(tmp_path)
    assert len(first.pin) == 6 and first.pin.isdigit()
    mode = stat.S_IMODE(os.stat(tmp_path / SECRETS_FILE).st_mode)
    assert mode == 0o600
    again = Security.in_folder(tmp_path)
    assert again.pin == first.pin
    (tmp_path / SECRETS_FILE).write_text("{damaged")
    fresh = Security.in_folder(tmp_path, token_bytes=lambda n: bytes([7]) * n)
    assert fresh.pin == f"{int.from_bytes(bytes([7]) * 8, 'big') % 10**6:06d}"


def test_a_pin_must_be_six_digits() -> None:
    """A PIN that is not six digits is refused."""
    with pytest.raises(ValueError, match="6 digits"):
        Security("1234", SeatBook())
