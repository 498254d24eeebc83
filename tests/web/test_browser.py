"""Headless Chromium plays a round: the Mayor's console and two phones, live over the stream.

Screenshots of each page in a phone viewport go to out/screenshots/ (gitignored).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.browser import (
    NEEDS_CHROMIUM,
    PHONE,
    SHOTS,
    phone_context,
    post_as_mayor,
    served,
    unlock_console,
    wait_uncircled,
)
from web.services import Services

CAMERA_WAIT_MS = 60_000  # the scanner reads and votes over several frames, slowly on a busy machine

# The rest of round 1 after "desert and water": 12 pairs that the 27-card deck allows.
ROUND_REST = [
    ("desert", "desert"), ("desert", "desert"), ("desert", "desert"), ("desert", "forest"),
    ("forest", "forest"), ("forest", "forest"), ("forest", "forest"),
    ("mountain", "mountain"), ("mountain", "mountain"), ("mountain", "mountain"),
    ("water", "water"), ("water", "any"),
]

# The round and turn of the state a page follows live, as one comparable string.
TURN_JS = "() => { const s = window.Tucana.live.state; return `${s.game_id}:${s.round}:${s.turn}`; }"

pytestmark = NEEDS_CHROMIUM


def _reveal(mayor: Any, a: str, b: str) -> None:
    """Tap a pair and confirm it; return once the console's live state shows the new turn.

    Confirm stays disabled until the server answered (one reveal at a time): so wait for the
    turn, not for time (test_browser_inflight.py taps the next pair before the answer).
    """
    turn = mayor.evaluate(TURN_JS)
    mayor.click(f'#pairs-grid button[data-cards="{a},{b}"]')
    mayor.click("#confirm-reveal")
    mayor.wait_for_function(f"(before) => ({TURN_JS})() !== before", arg=turn)


def _reveal_by_api(base: str, pin: str, pairs: list[tuple[str, str]]) -> None:
    for a, b in pairs:
        post_as_mayor(base, pin, "/api/events", {"type": "reveal", "cards": [a, b]})


# The ids of the visible cards that the visible notice (#banner) covers, at the current scroll.
NOTICE_OVER_JS = """() => {
  const b = document.getElementById("banner").getBoundingClientRect();
  return [...document.querySelectorAll(".card")].filter((card) => {
    const r = card.getBoundingClientRect();
    return r.height > 0 && r.top < b.bottom && r.bottom > b.top;
  }).map((card) => card.id || card.className);
}"""


def _assert_notice_in_flow(page: object) -> None:
    """The notice covers no card, at the top of the page or scrolled down (a sticky one did)."""
    for scroll in ("0", "400", "document.documentElement.scrollHeight"):
        page.evaluate(f"() => window.scrollTo(0, {scroll})")
        assert page.evaluate(NOTICE_OVER_JS) == [], scroll
    page.evaluate("() => window.scrollTo(0, 0)")


def _shot(page: object, name: str) -> None:
    """Save a full-page screenshot; a phone page must never scroll sideways."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"], name
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _wizard_two_players(mayor: Any, first: str, second: str) -> None:
    """Start a two-player game in the console's wizard with the default island and options."""
    mayor.fill("#player-1", first)
    mayor.fill("#player-2", second)
    mayor.click("#wizard-next")
    mayor.click("#wizard-next")
    mayor.click("#wizard-start")


def _start_on_the_console(browser: Any, base: str, pin: str) -> Any:
    """The Mayor unlocks the console, starts Mary and David's game and taps the set-up card."""
    mayor = phone_context(browser, base).new_page()
    mayor.goto("/mayor")
    mayor.fill("#pin", pin)
    mayor.click("#pin-form button[type=submit]")
    mayor.wait_for_selector("#wizard", state="visible")
    _shot(mayor, "mayor-wizard")
    _wizard_two_players(mayor, "Mary", "<b>David</b>")
    mayor.wait_for_selector("#setup", state="visible")
    mayor.click('#setup-cards button[data-letters="CEBAEDCDAB"]')
    mayor.wait_for_selector("#play", state="visible")
    return mayor


def _take_seats(browser: Any, base: str) -> tuple[Any, Any]:
    """Mary's phone (English) takes seat 1, then David's (French) takes seat 2."""
    mary = phone_context(browser, base).new_page()
    david = phone_context(browser, base, "fr-FR").new_page()
    for page, name, seat in ((mary, "Mary", 1), (david, "<b>David</b>", 2)):
        page.goto("/play")
        if seat == 1:
            _shot(page, "seats")
        else:  # Mary's phone holds seat 1 by now
            page.wait_for_function("() => document.querySelector('#seats button[data-seat=\"1\"]').textContent.includes('prise')")
        page.click(f'#seats button[data-seat="{seat}"]')
        page.wait_for_url(f"**/play/{seat}")
        assert page.inner_text(".me-name") == name  # the name is text, never markup
    return mary, david


def _claim(page: Any, button: str) -> None:
    """Tap a claim on the score pad and confirm it."""
    page.click(button)
    page.click("#confirm-yes")


def test_a_round_with_the_mayor_console_and_two_phones(server, browser) -> None:
    """A game on the console and two phones: live reveals, claims, undo, catch-up, standings."""
    base, services = server
    pin = services.security.pin
    mayor = _start_on_the_console(browser, base, pin)
    mary, david = _take_seats(browser, base)
    assert mary.inner_text("#villages .village:first-child .letter") == "C"
    assert david.inner_text("#villages .village:first-child .letter") == "B"  # seat 2 starts at village 2
    assert david.locator("html").get_attribute("lang") == "fr"

    _reveal(mayor, "desert", "water")
    mary.wait_for_function("() => document.querySelector('#words').textContent === 'Desert and water!'")
    david.wait_for_function("() => document.querySelector('#words').textContent === 'Désert et eau\u00a0!'")

    # Mary joins the villages A-A: a claim; David's phone sees the blue bonus go, live.
    _claim(mary, '#pairs button[data-village="A"]')
    mary.wait_for_selector('#pairs button[data-village="A"].circled')
    david.wait_for_function("() => document.querySelector('#blue').textContent.includes('Mary +3')")
    assert david.is_enabled('#pairs button[data-village="B"]')  # his own seat: he may claim
    _claim(mary, '#sight-rows button[data-sight="toucan"].next')
    mary.wait_for_selector('#sight-rows button[data-sight="toucan"].circled')
    # The console offers to take back exactly that claim once it has it (not the reveal before it).
    mayor.wait_for_function("() => document.getElementById('undo-what').textContent === \"Undo Mary's toucan claim?\"")
    mayor.once("dialog", lambda dialog: dialog.accept())
    mayor.click("#undo")  # the Mayor takes the toucan back: Mary's pad follows
    wait_uncircled(mary, "toucan")
    _claim(mary, '#sight-rows button[data-sight="toucan"].next')
    mary.wait_for_selector('#sight-rows button[data-sight="toucan"].circled')

    # David's phone sleeps through a reveal (its stream dies), then wakes up and catches up.
    david.evaluate("() => window.Tucana.live.close()")
    _reveal(mayor, *ROUND_REST[0])
    mary.wait_for_function("() => document.querySelector('#turn-label').textContent === 'Turn 2 of 13'")
    assert david.inner_text("#turn-label") == "Tour 1 sur 13"  # asleep: it missed the reveal
    david.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    david.wait_for_function("() => document.querySelector('#turn-label').textContent === 'Tour 2 sur 13'")
    # Turns 3 to 12 come from another screen while both phones sleep (each catches up once when
    # it wakes); the Mayor taps the round's last pair on the console.
    for page in (mary, david):
        page.evaluate("() => window.Tucana.live.close()")
    _reveal_by_api(base, pin, ROUND_REST[1:-1])
    for page in (mary, david):
        page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    mayor.wait_for_function("() => document.querySelector('#turn-label').textContent === 'Turn 12 of 13'")
    _reveal(mayor, *ROUND_REST[-1])
    for page in (mary, david):
        page.wait_for_selector("#banner", state="visible")
        assert page.evaluate("() => (window.__buzz || []).length") >= 1
    assert "II" not in mary.inner_text("#banner-text") and " I" in mary.inner_text("#banner-text")
    mayor.wait_for_selector("#banner", state="visible")
    for page in (mayor, mary):
        _assert_notice_in_flow(page)

    table = phone_context(browser, base).new_page()
    table.goto("/table")
    table.wait_for_selector("#banner", state="visible")
    assert table.inner_text("#words") == "Water and any terrain!"  # sentence case
    _shot(table, "table")
    table.set_viewport_size({"width": 1280, "height": 800})  # a tablet or TV at the table
    table.screenshot(path=str(SHOTS / "table-landscape.png"))
    _shot(mayor, "mayor")
    mary.screenshot(path=str(SHOTS / "phone-round-end.png"))  # the reminder, as the phone shows it
    mary.click("#banner-ok")
    _shot(mary, "phone-score-pad")
    mayor.click("#banner-ok")  # put away: Mary's claim on the last turn redraws the console without it
    _claim(mary, '#pairs button[data-village="B"]')
    mayor.wait_for_function("() => document.querySelector('#standings tbody td:nth-child(5)').textContent === '27'")
    assert mayor.is_hidden("#banner") and mary.is_hidden("#banner")

    # Round 2 by the API to keep the test short, the phones and the table asleep meanwhile (each
    # catches up once when it wakes), then the Mayor ends the game on the console.
    for page in (mary, david, table):
        page.evaluate("() => window.Tucana.live.close()")
    _reveal_by_api(base, pin, [("desert", "water"), *ROUND_REST])
    for page in (mary, david, table):
        page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    mayor.wait_for_selector("#end-game", state="visible")
    mayor.once("dialog", lambda dialog: dialog.accept())
    mayor.click("#end-go")
    for page in (mary, david, table):
        page.wait_for_selector("#standings table.standings")
        page.wait_for_function("() => document.querySelector('#standings').textContent.includes('!')")
    assert "Mary" in mary.inner_text("#standings tr.winner")
    export = mayor.request.get(mayor.get_attribute("#export", "href"))
    lines = export.text().splitlines()
    assert json.loads(lines[0])["type"] == "new_game" and json.loads(lines[-1]) == {"type": "end_game"}
    _shot(mary, "final-scores")
    _shot(david, "final-scores-fr")


def test_a_solo_game_with_special_bonus_typed_set_up_and_solo_keep(server, browser) -> None:
    """A Spanish solo game: special bonus, typed set-up, start village and solo keep."""
    base, services = server
    pin = services.security.pin
    mayor = phone_context(browser, base, "es-ES").new_page()
    unlock_console(mayor, pin)
    mayor.wait_for_selector("#wizard", state="visible")
    mayor.click("#player-inputs .row:nth-child(2) button")  # solo: remove the second player
    mayor.fill("#player-1", "Ana")
    mayor.click("#wizard-next")
    mayor.check("#special-bonus")
    mayor.click("#wizard-next")
    assert mayor.is_visible("#mayor-error")  # no red card picked yet: the wizard says so
    mayor.check('#red-choices input[value="yeti"]')
    mayor.click("#wizard-next")
    mayor.select_option("#start-village", "4")
    mayor.check('input[name="direction"][value="counterclockwise"]')
    mayor.click("#wizard-start")
    mayor.wait_for_selector("#setup", state="visible")
    mayor.fill("#setup-letters", "cebaedcdab")
    mayor.press("#setup-letters", "Enter")
    mayor.wait_for_selector("#play", state="visible")

    ana = phone_context(browser, base, "es-ES").new_page()
    ana.goto("/play")
    ana.click('#seats button[data-seat="1"]')
    ana.wait_for_url("**/play/1")
    # Start village 4, counter-clockwise: village 4 gets the card's first letter, village 3 the next.
    assert ana.inner_text("#villages .village:nth-child(4) .letter") == "C"
    assert ana.inner_text("#villages .village:nth-child(3) .letter") == "E"
    assert ana.is_visible('#reds button[data-red="yeti"]')

    _reveal_by_api(base, pin, [("desert", "water"), *ROUND_REST])
    mayor.wait_for_selector("#solo-keep", state="visible")
    assert mayor.is_disabled('#pairs-grid button[data-cards="desert,desert"]')  # keep first
    mayor.check('#solo-choices input[value="A"]')
    mayor.check('#solo-choices input[value="C"]')
    mayor.click("#solo-go")
    mayor.wait_for_selector("#solo-keep", state="hidden")
    ana.wait_for_function("() => document.querySelector('#blue').textContent.includes('B–B') "
                          "&& document.querySelectorAll('#blue .bonus.gone').length === 3")
    _reveal(mayor, "desert", "forest")
    ana.wait_for_function("() => document.querySelector('#round-label').textContent === 'Ronda 2 de 2'")


@pytest.fixture()
def camera_server(tmp_path) -> Iterator[tuple[str, Services]]:
    """The app with the real rig on the built-in virtual camera and gpiozero's mock pins."""
    with served(tmp_path, rig=True) as found:
        yield found


def test_the_console_reads_cards_from_the_virtual_camera(camera_server, browser) -> None:
    """Cards laid on the virtual camera are read and revealed on the console with a crop image."""
    base, services = camera_server
    mayor = phone_context(browser, base).new_page()
    mayor.set_default_timeout(CAMERA_WAIT_MS)
    unlock_console(mayor, services.security.pin)
    _wizard_two_players(mayor, "Mary", "David")
    mayor.wait_for_selector("#camera-panel", state="visible")
    mayor.click("#lay-next")  # the virtual table deals the set-up card; the camera reads it
    mayor.wait_for_selector("#play", state="visible")
    mayor.wait_for_function("() => document.querySelector('#camera-reading').textContent.includes('Card ')")
    mayor.click("#lay-next")  # two terrain cards: read, and revealed on every screen
    mayor.wait_for_function("() => document.querySelector('#turn-label').textContent === 'Turn 1 of 13'")
    names = {"desert": "desert", "forest": "forest", "mountain": "mountain", "water": "water", "any": "any terrain"}
    a, b = (names[card.value] for card in services.table.state.last_reveal.cards)
    assert mayor.inner_text("#words") == f"{a.capitalize()} and {b}!"
    mayor.wait_for_function("() => document.querySelector('#camera-crop').naturalWidth > 0")  # the new crop
    _shot(mayor, "mayor-camera")
