"""Headless Chromium against issue 11's findings: odd player names, a lost answer, logging out."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from tests.web.browser import (
    HTTP_TIMEOUT_S,
    NEEDS_CHROMIUM,
    phone_context,
    post_as_mayor,
    stored_claims,
    unlock_console,
)

pytestmark = NEEDS_CHROMIUM

ODD_NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty"]


def _start(base: str, pin: str, players: list[str]) -> None:
    for entry in ({"type": "new_game", "players": players}, {"type": "setup_card", "letters": "CEBAEDCDAB"},
                  {"type": "reveal", "cards": ["desert", "water"]}):
        post_as_mayor(base, pin, "/api/events", entry)


def _claims(base: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(base + "/api/log?since=0", timeout=HTTP_TIMEOUT_S) as response:
        return [e["entry"] for e in json.loads(response.read())["entries"] if e["entry"]["type"] == "claim"]


def _seat(browser: Any, base: str, seat: int) -> Any:
    page = phone_context(browser, base).new_page()
    page.goto("/play")
    page.click(f'#seats button[data-seat="{seat}"]')
    page.wait_for_url(f"**/play/{seat}")
    return page


def test_players_named_like_object_properties_play_normally(server, browser) -> None:
    """constructor, __proto__, toString, hasOwnProperty: each phone shows its letters and claims."""
    base, services = server
    pin = services.security.pin
    post_as_mayor(base, pin, "/api/events", {"type": "new_game", "players": ODD_NAMES})
    phones = [_seat(browser, base, seat) for seat in range(1, len(ODD_NAMES) + 1)]  # no letters yet
    post_as_mayor(base, pin, "/api/events", {"type": "setup_card", "letters": "CEBAEDCDAB"})
    post_as_mayor(base, pin, "/api/events", {"type": "reveal", "cards": ["desert", "water"]})
    for page, name in zip(phones, ODD_NAMES, strict=True):
        assert page.inner_text(".me-name") == name
        page.wait_for_selector('#pairs button[data-village="E"]:not([disabled])')
        assert len(page.inner_text("#villages")) > 0
        page.click('#pairs button[data-village="E"]')
        page.click("#confirm-yes")
        page.wait_for_selector('#pairs button[data-village="E"].circled')
    assert sorted(c["player"] for c in stored_claims(phones[-1], base, len(ODD_NAMES))) == sorted(ODD_NAMES)


def test_a_claim_whose_answer_was_lost_is_stored_once(server, browser) -> None:
    """The server stores the claim but the answer never arrives: the retry is answered, not stored again."""
    base, services = server
    _start(base, services.security.pin, ["Mary", "David"])
    page = _seat(browser, base, 2)
    keys: list[str] = []

    def lose_first_answer(route: Any) -> None:
        keys.append(route.request.headers.get("idempotency-key", ""))
        if len(keys) == 1:
            route.fetch()  # the server gets it and answers...
            route.abort("connectionreset")  # ...but the Wi-Fi drops the answer
        else:
            route.continue_()

    page.route("**/api/events", lose_first_answer)
    page.click('#pairs button[data-village="A"]')
    page.click("#confirm-yes")
    for _ in range(300):  # the retry comes half a second later; waiting pumps Playwright's events
        if len(keys) >= 2:
            break
        page.wait_for_timeout(100)
    page.wait_for_selector('#pairs button[data-village="A"].circled')
    page.wait_for_timeout(300)  # the retry's answer is drawn: no error shows
    assert page.is_hidden("#claim-error")
    assert len(keys) == 2 and keys[0] == keys[1] and len(keys[0]) == 32
    assert _claims(base) == [{"type": "claim", "player": "David", "village": "A"}]


def test_logging_out_locks_the_console_and_ends_the_session(server, browser) -> None:
    """Log out asks for the PIN again; the old cookie opens nothing, even in another browser."""
    base, services = server
    mayor = phone_context(browser, base).new_page()
    unlock_console(mayor, services.security.pin)
    mayor.wait_for_selector("#console", state="visible")
    cookie = next(c for c in mayor.context.cookies() if c["name"] == "tucana_mayor")
    mayor.click("#mayor-logout")
    mayor.wait_for_selector("#pin-gate", state="visible")
    thief = phone_context(browser, base)
    thief.add_cookies([{**cookie}])
    page = thief.new_page()
    page.goto("/mayor")
    page.wait_for_selector("#pin-gate", state="visible")
    assert services.security.sessions.count == 0
