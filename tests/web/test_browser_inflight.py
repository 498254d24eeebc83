"""Headless Chromium taps while the server has not answered yet: nothing tapped is lost or doubled.

Playwright's page.route holds the console's (or phone's) POST, so the test decides when the
server sees it and when its answer reaches the page.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from tests.web.browser import (
    HTTP_TIMEOUT_S,
    NEEDS_CHROMIUM,
    phone_context,
    post_as_mayor,
    stored_claims,
    unlock_console,
)

pytestmark = NEEDS_CHROMIUM

EVENTS = "**/api/events"
TURN_JS = "(text) => document.getElementById('turn-label').textContent === text"
CONFIRM_ENABLED_JS = "() => !document.getElementById('confirm-reveal').disabled"


def _start(base: str, pin: str) -> None:
    post_as_mayor(base, pin, "/api/events", {"type": "new_game", "players": ["Mary", "David"]})
    post_as_mayor(base, pin, "/api/events", {"type": "setup_card", "letters": "CEBAEDCDAB"})


def _log(base: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(base + "/api/log?since=0", timeout=HTTP_TIMEOUT_S) as response:
        return [e["entry"] for e in json.loads(response.read())["entries"]]


def _hold_posts(page: Any) -> list[Any]:
    """Hold every POST to /api/events the page sends; the list fills with their routes."""
    held: list[Any] = []
    page.route(EVENTS, lambda route: held.append(route) if route.request.method == "POST" else route.continue_())
    return held


def _wait_held(page: Any, held: list[Any], count: int) -> None:
    """Let Playwright deliver the page's requests to the route until count are held."""
    for _ in range(300):  # 30 s: waiting on the test's own thread pumps Playwright's events
        if len(held) >= count:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{len(held)} requests held, wanted {count}")


@pytest.mark.parametrize("order", ["stream_first", "answer_only"])
def test_a_pair_tapped_while_the_reveal_is_on_its_way_survives(server, browser, order) -> None:
    """A pair picked while a reveal is in flight is kept and sent once, whatever arrives first."""
    base, services = server
    pin = services.security.pin
    _start(base, pin)
    mayor = phone_context(browser, base).new_page()
    unlock_console(mayor, pin)
    mayor.wait_for_selector("#play", state="visible")
    if order == "answer_only":
        mayor.evaluate("() => window.Tucana.live.close()")  # only the POST's answer redraws the console
    held = _hold_posts(mayor)

    mayor.click('#pairs-grid button[data-cards="desert,water"]')
    mayor.click("#confirm-reveal")
    _wait_held(mayor, held, 1)
    mayor.click('#pairs-grid button[data-cards="forest,forest"]')  # the fast Mayor's next pair
    assert mayor.is_disabled("#confirm-reveal")  # one reveal at a time
    mayor.click("#confirm-reveal", force=True)  # a double tap: nothing more goes out
    mayor.wait_for_timeout(300)
    assert len(held) == 1

    if order == "stream_first":
        answer = held[0].fetch()  # the server applies the reveal; the stream brings the new turn
        mayor.wait_for_function(TURN_JS, arg="Turn 1 of 13")
        assert "Forest and forest" in mayor.inner_text("#pending-cards") + mayor.inner_text("#confirm-reveal")
        held[0].fulfill(response=answer)
    else:
        held[0].continue_()
    mayor.wait_for_function(CONFIRM_ENABLED_JS)
    assert mayor.inner_text("#confirm-reveal") == "Confirm: Forest and forest!"
    assert mayor.evaluate(TURN_JS, "Turn 1 of 13")

    mayor.unroute(EVENTS)
    mayor.click("#confirm-reveal")
    mayor.wait_for_function(TURN_JS, arg="Turn 2 of 13")
    reveals = [e["cards"] for e in _log(base) if e["type"] == "reveal"]
    assert reveals == [["desert", "water"], ["forest", "forest"]]


def test_a_pair_tapped_before_another_reveal_is_dropped(server, browser) -> None:
    """A picked pair is dropped when another screen reveals first."""
    base, services = server
    pin = services.security.pin
    _start(base, pin)
    mayor = phone_context(browser, base).new_page()
    unlock_console(mayor, pin)
    mayor.wait_for_selector("#play", state="visible")
    mayor.click('#pairs-grid button[data-cards="desert,water"]')
    assert mayor.evaluate(CONFIRM_ENABLED_JS)
    post_as_mayor(base, pin, "/api/events", {"type": "reveal", "cards": ["forest", "any"]})  # another screen
    mayor.wait_for_function("() => document.getElementById('confirm-reveal').disabled")
    assert mayor.inner_text("#confirm-reveal") == "Confirm"


def test_a_refused_reveal_stays_picked_and_a_stale_seq_from_claims_is_sent_again(server, browser) -> None:
    """A console that missed a claim resends its reveal once and logs it without an error."""
    base, services = server
    pin = services.security.pin
    _start(base, pin)
    post_as_mayor(base, pin, "/api/events", {"type": "reveal", "cards": ["desert", "water"]})
    mayor = phone_context(browser, base).new_page()
    unlock_console(mayor, pin)
    mayor.wait_for_function(TURN_JS, arg="Turn 1 of 13")
    mayor.evaluate("() => window.Tucana.live.close()")  # the console misses Mary's claim
    post_as_mayor(base, pin, "/api/events", {"type": "claim", "player": "Mary", "village": "A"})
    mayor.click('#pairs-grid button[data-cards="forest,forest"]')
    mayor.click("#confirm-reveal")  # seen seq is stale: the console checks the turn and sends again
    mayor.wait_for_function(TURN_JS, arg="Turn 2 of 13")
    assert mayor.is_hidden("#mayor-error")
    reveals = [e["cards"] for e in _log(base) if e["type"] == "reveal"]
    assert reveals == [["desert", "water"], ["forest", "forest"]]


def test_a_claim_tapped_while_another_is_on_its_way_is_sent_once_each(server, browser) -> None:
    """Two claims tapped while one is in flight are each sent once and both drawn circled."""
    base, services = server
    pin = services.security.pin
    _start(base, pin)
    post_as_mayor(base, pin, "/api/events", {"type": "reveal", "cards": ["desert", "water"]})
    mary = phone_context(browser, base).new_page()
    mary.goto("/play")
    mary.click('#seats button[data-seat="1"]')
    mary.wait_for_url("**/play/1")
    held = _hold_posts(mary)

    mary.click('#pairs button[data-village="A"]')
    mary.click("#confirm-yes")
    _wait_held(mary, held, 1)
    assert mary.is_disabled('#pairs button[data-village="A"]')  # drawn as made: no second A claim
    mary.click('#sight-rows button[data-sight="toucan"].next')  # another claim meanwhile
    mary.click("#confirm-yes")
    _wait_held(mary, held, 2)
    held[1].continue_()
    held[0].continue_()
    mary.wait_for_selector('#pairs button[data-village="A"].circled')
    mary.wait_for_selector('#sight-rows button[data-sight="toucan"].circled')
    # Drawn circled as made is not stored yet: wait (bounded) for the server to have both.
    claims = stored_claims(mary, base, 2)
    assert sorted(json.dumps(c, sort_keys=True) for c in claims) == sorted(
        json.dumps(c, sort_keys=True) for c in (
            {"type": "claim", "player": "Mary", "village": "A"},
            {"type": "claim", "player": "Mary", "sight": "toucan"},
        ))
    assert mary.is_hidden("#claim-error")
    assert mary.locator('#sight-rows button[data-sight="toucan"].circled').count() == 1
