"""Headless Chromium plays a player's phone at 360x740 and 390x844 in English, French and Spanish.

One Isla Grande game with the Special Bonus per size and language: the first tap lands where it
was aimed and moves nothing, the header is one row, announcements and questions are in sentence
case, a red pair shows its points and then its gone state, the phone is told when the Mayor
undoes its claim and when its seat is freed and then taken, the pad greys out under a reconnecting banner while
the Pi is out of reach, and the final scores keep every Total in view.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.moves import Sight
from tests.hardware.conftest import wait_for
from tests.web.browser import (
    LOCALES,
    NEEDS_CHROMIUM,
    PHONES,
    SHOTS,
    phone_context,
    post_as_mayor,
    submit,
    wait_uncircled,
)
from tests.web.test_browser import ROUND_REST

pytestmark = NEEDS_CHROMIUM

PLAYERS = ["Léa", "Maximiliano", "Bartholomew", "Zoé"]  # long names: the widest score table
FIRST = ("desert", "any")
ANNOUNCED = {"en": "Desert and any terrain!", "fr": "Désert et terrain au choix\u00a0!",
             "es": "¡Desierto y cualquier terreno!"}
ASK_OBELISK = {"en": "Joined one more obelisk to a village? Circle 1.",
               "fr": "Un obélisque de plus relié à un village\u00a0? Entourez 1.",
               "es": "¿Un obelisco más conectado a un pueblo? Rodea el 1."}
UNDONE = {"en": "The Mayor undid your claim: obelisk.", "fr": "Le Maire a annulé votre marque\u00a0: obélisque.",
          "es": "El Alcalde ha deshecho tu anotación: obelisco."}
RED_POINTS = {"en": "+6 bonus", "fr": "+6 bonus", "es": "+6 de bonif."}
RED_GONE = {"en": "bonus gone", "fr": "bonus parti", "es": "bonif. agotada"}
SEAT_FREED = {"en": "The Mayor freed Léa's seat", "fr": "Le Maire a libéré la place de Léa",
              "es": "El Alcalde ha liberado el asiento de Léa"}
SEAT_TAKEN = {"en": "Another phone now holds Léa's seat", "fr": "Un autre téléphone occupe maintenant la place de Léa",
              "es": "Otro móvil tiene ahora el asiento de Léa"}
RECONNECTING = {"en": "Reconnecting to the Pi", "fr": "Reconnexion au Pi", "es": "Reconectando con la Pi"}

# The header's title and language links share one row; the sound mark is the same size either way.
HEADER_JS = """() => {
  const box = (s) => document.querySelector(s).getBoundingClientRect();
  const brand = box(".brand"), langs = box(".langs"), header = box(".topbar"), sound = box("#sound");
  return {sameRow: Math.abs((brand.top + brand.bottom) / 2 - (langs.top + langs.bottom) / 2) < 4,
          height: header.height, sound: [sound.width, sound.height], wide: document.documentElement.scrollWidth};
}"""
# Every Total of the final scores lies wholly inside its scrolling box and the screen.
TOTALS_SHOWN_JS = """() => {
  const box = document.querySelector("#standings .table-scroll").getBoundingClientRect();
  return [...document.querySelectorAll("#standings td.total")].map((cell) => {
    const r = cell.getBoundingClientRect();
    return r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.right <= innerWidth && r.width > 0
      ? cell.textContent : "hidden";
  });
}"""


def _box(page: Any, selector: str) -> tuple[float, float, float, float]:
    """Where an element is on the screen, rounded to a tenth of a pixel."""
    box = page.locator(selector).bounding_box()
    return tuple(round(box[k], 1) for k in ("x", "y", "width", "height"))


def _finish(page: Any, table: Any) -> None:
    """Play the rest of the game on the table while the phone sleeps; it wakes to the final scores."""
    page.evaluate("() => window.Tucana.live.close()")  # asleep: one catch-up, not 39 redraws
    rest = list(ROUND_REST)
    submit(table, *({"type": "reveal", "cards": list(pair)} for pair in rest))
    for _ in range(2):
        submit(table, *({"type": "reveal", "cards": list(pair)} for pair in [("desert", "water"), *rest]))
    submit(table, {"type": "end_game"})
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")


@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize("size", list(PHONES))
def test_a_phone_through_a_whole_game(server, browser, size: str, lang: str) -> None:
    """First tap, header, sentence case, red pair, undo and seat notices, reconnecting, final totals."""
    base, services = server
    table, pin = services.table, services.security.pin
    submit(table, {"type": "new_game", "players": PLAYERS, "island": "grande", "special_bonus": True},
           {"type": "red_bonus", "sights": ["yeti"]}, {"type": "setup_card", "letters": "CEBAEDCDAB"},
           {"type": "reveal", "cards": list(FIRST)})
    page = phone_context(browser, base, LOCALES[lang], PHONES[size]).new_page()
    page.goto("/play")
    page.click('#seats button[data-seat="1"]')
    page.wait_for_url("**/play/1")

    header = page.evaluate(HEADER_JS)
    assert header["sameRow"] and header["height"] <= 64 and header["wide"] <= PHONES[size]["width"], header
    assert page.locator("#alerts-on").count() == 0  # no box to tap away (it moved the page under the finger)
    assert page.get_attribute("#sound", "data-on") == "false"
    assert page.inner_text("#words") == ANNOUNCED[lang]

    # The first tap unlocks the sound on its way to the button it lands on; nothing moves.
    obelisk = '#sight-rows button[data-sight="obelisk"].next'
    page.locator(obelisk).scroll_into_view_if_needed()  # where the finger is about to land
    before = {s: _box(page, s) for s in (obelisk, "#pad", "#sound")}
    page.tap(obelisk)
    assert page.inner_text("#confirm-what") == ASK_OBELISK[lang]
    assert {s: _box(page, s) for s in before} == before
    assert page.get_attribute("#sound", "data-on") == "true" and header["sound"] == [44, 44]
    page.click("#confirm-yes")
    page.wait_for_selector('#sight-rows button[data-sight="obelisk"].circled')  # drawn as sent...
    assert wait_for(lambda: table.state.sheets["Léa"].sights[Sight.OBELISK] == 1)  # ...and stored

    # The Mayor takes the obelisk back: the phone says whose claim and what.
    post_as_mayor(base, pin, "/api/events", {"type": "undo"})
    wait_uncircled(page, "obelisk")
    assert page.inner_text("#banner-text") == UNDONE[lang]

    # A red pair shows its points; once another player took the card, it says the bonus is gone.
    red = '#reds button[data-red="yeti"]'
    assert RED_POINTS[lang] in page.inner_text(red)
    submit(table, {"type": "claim", "player": "Zoé", "red": "yeti"})
    page.wait_for_selector(red + ".gone")
    assert RED_GONE[lang] in page.inner_text(red)
    page.click(red)
    assert page.inner_text("#confirm-what").endswith(page.evaluate("() => window.Tucana.t('pad.no_bonus')"))
    page.click("#confirm-no")

    # The Pi out of reach: the pad greys out under a banner, and comes back with the stream.
    page.route("**/api/stream*", lambda route: route.abort())
    page.evaluate("() => window.Tucana.live.reopen()")
    page.wait_for_selector("#offline", state="visible")
    assert RECONNECTING[lang] in page.inner_text("#offline")
    assert page.evaluate("() => getComputedStyle(document.getElementById('pad')).pointerEvents") == "none"
    page.screenshot(path=str(SHOTS / f"phone-reconnecting-{lang}-{size}.png"))
    page.unroute("**/api/stream*")
    page.evaluate("() => window.Tucana.live.reopen()")
    page.wait_for_selector("#offline", state="hidden")

    # The Mayor frees the seat: the phone learns it at once, and can no longer claim.
    post_as_mayor(base, pin, "/api/seats/free", {"player": "Léa"})
    page.wait_for_selector("#seat-lost", state="visible")
    assert SEAT_FREED[lang] in page.inner_text("#seat-lost")
    assert page.is_disabled('#sight-rows button[data-sight="book"].next')
    other = phone_context(browser, base, LOCALES[lang], PHONES[size]).request  # another phone takes it
    other.get("/api/session")
    csrf = next(c["value"] for c in other.storage_state()["cookies"] if c["name"] == "tucana_csrf")
    assert other.post("/api/seats/join", data={"player": "Léa"}, headers={"X-CSRF-Token": csrf}).ok
    page.wait_for_function("(words) => document.getElementById('seat-lost').textContent.startsWith(words)",
                           arg=SEAT_TAKEN[lang])

    # Isla Grande's final scores at this width: every Total in view, in this language.
    _finish(page, table)
    page.wait_for_selector("#standings .result")
    totals = [str(p.total) for p in sorted(table.state.standings.players, key=lambda p: p.rank)]
    assert page.evaluate(TOTALS_SHOWN_JS) == totals
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"phone-final-grande-{lang}-{size}.png"), full_page=True)
