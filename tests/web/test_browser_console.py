"""Headless Chromium on the Mayor console at 1280x800: what the evening at the table found.

Starting a game closes the wizard and never makes two; a new game with the same players keeps
the phones on their seats; undo says what it takes back and is gone once the game ended; the
announcement, the pairs and Confirm sit above the fold beside a camera panel that folds away;
the table display's scores are 28 px; refusals come in the console's language.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser import (
    LOCALES,
    NEEDS_CHROMIUM,
    PHONE,
    SHOTS,
    TABLE,
    phone_context,
    submit,
    unlock_console,
)
from tests.web.test_browser import ROUND_REST
from tests.web.test_browser_inflight import EVENTS, _hold_posts, _wait_held

pytestmark = NEEDS_CHROMIUM

SETUP = {"type": "setup_card", "letters": "CEBAEDCDAB"}
MIN_SCORE_PX = 28  # the table display's scores, read from across a table
# Where an element's box ends, in CSS pixels from the top of the screen (nothing scrolled).
BOTTOM_JS = "(selector) => document.querySelector(selector).getBoundingClientRect().bottom"
SMALLEST_SCORE_JS = """() => Math.min(...[...document.querySelectorAll('#standings td, #standings th')]
  .filter((cell) => cell.getClientRects().length).map((cell) => parseFloat(getComputedStyle(cell).fontSize)))"""


def _console(browser: Any, base: str, pin: str, lang: str = "en") -> tuple[Any, list[str]]:
    """The unlocked console at 1280x800; every dialog it opens is accepted and its text kept."""
    page = phone_context(browser, base, LOCALES[lang], TABLE).new_page()
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    unlock_console(page, pin)
    return page, asked


def _rounds(table: Any, count: int) -> None:
    """Reveal `count` whole rounds on the table (13 reveals each)."""
    for _ in range(count):
        submit(table, *({"type": "reveal", "cards": list(p)} for p in [("desert", "water"), *ROUND_REST]))


def _games(services: Any) -> int:
    return len(services.store.games())


@pytest.mark.parametrize("way", ["tools", "final scores, solo"])
def test_start_closes_the_wizard_and_a_second_press_makes_no_second_game(server, browser, way: str) -> None:
    """Start closes the wizard at once; pressed again while it starts, nothing more goes out."""
    base, services = server
    if way == "tools":
        submit(services.table, {"type": "new_game", "players": ["Mary", "David"]}, SETUP)
    else:
        submit(services.table, {"type": "new_game", "players": ["Ana"]}, SETUP)
        _rounds(services.table, 1)
        submit(services.table, {"type": "solo_keep", "letters": ["A", "C"]})
        _rounds(services.table, 1)
        submit(services.table, {"type": "end_game"})
    mayor, asked = _console(browser, base, services.security.pin)
    mayor.click("#wizard-open" if way == "tools" else "#new-game")
    mayor.wait_for_selector("#wizard", state="visible")
    if way == "tools":
        mayor.fill("#player-1", "Ann")
        mayor.fill("#player-2", "Bob")
    mayor.click("#wizard-next")
    mayor.click("#wizard-next")
    held = _hold_posts(mayor)
    mayor.click("#wizard-start")
    _wait_held(mayor, held, 1)
    mayor.click("#wizard-start", force=True)  # the second press, while the first is on its way
    mayor.wait_for_timeout(300)
    assert len(held) == 1
    held[0].continue_()
    mayor.wait_for_selector("#wizard", state="hidden")
    mayor.wait_for_selector("#setup", state="visible")
    mayor.unroute(EVENTS)
    assert _games(services) == 2 and services.table.state.players == (("Ann", "Bob") if way == "tools" else ("Ana",))
    assert len(asked) == 1  # the abandon question, or the same-seats question: never both, never twice


def test_a_new_game_with_the_same_players_keeps_every_phone_on_its_seat(server, browser) -> None:
    """The console asks once; each phone then follows the new game on its own seat, still able to claim."""
    base, services = server
    submit(services.table, {"type": "new_game", "players": ["Mary", "David"]}, SETUP)
    phones = {}
    for seat, lang in ((1, "en"), (2, "fr")):
        phones[seat] = phone_context(browser, base, LOCALES[lang], PHONE).new_page()
        phones[seat].goto("/play")
        phones[seat].click(f'#seats button[data-seat="{seat}"]')
        phones[seat].wait_for_url(f"**/play/{seat}")
        phones[seat].evaluate("() => window.Tucana.live.close()")  # asleep through the game: no redraws
    _rounds(services.table, 2)
    submit(services.table, {"type": "end_game"})
    for page in phones.values():
        page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    mayor, asked = _console(browser, base, services.security.pin)
    mayor.click("#new-game")
    mayor.click("#wizard-next")
    mayor.click("#wizard-next")
    mayor.click("#wizard-start")
    mayor.wait_for_selector("#setup", state="visible")
    assert asked == ["Same players in the same seats: keep every phone on its seat?"]
    submit(services.table, SETUP, {"type": "reveal", "cards": ["forest", "water"]})
    for seat, page in phones.items():
        page.wait_for_url(f"**/play/{seat}")
        page.wait_for_selector('#sight-rows button[data-sight="book"].next:enabled')
        assert page.is_hidden("#not-mine") and page.is_hidden("#seat-lost")


def test_undo_says_what_it_takes_back_and_is_gone_once_the_game_ended(server, browser) -> None:
    """The console names the claim an undo takes back, marks it in the log, and offers no undo at the end."""
    base, services = server
    table = services.table
    submit(table, {"type": "new_game", "players": ["Léa", "Tom"]}, SETUP, {"type": "reveal", "cards": ["desert", "water"]},
           {"type": "claim", "player": "Léa", "sight": "toucan"})
    mayor, asked = _console(browser, base, services.security.pin)
    mayor.wait_for_selector("#play", state="visible")
    assert mayor.inner_text("#undo-what") == "Undo Léa's toucan claim?"
    mayor.click("#undo")
    mayor.wait_for_function("() => document.getElementById('undo-what').textContent.startsWith('Undo the reveal')")
    assert asked == ["Undo Léa's toucan claim?"]
    mayor.click("#tools-title")  # the log folds out under the tools
    mayor.click("details:has(#log) > summary")
    mayor.wait_for_selector("#log li.undone")
    assert "Léa" in mayor.inner_text("#log li.undone") and "undone" in mayor.inner_text("#log li.undone")

    submit(table, *({"type": "reveal", "cards": list(p)} for p in ROUND_REST))
    _rounds(table, 1)
    mayor.wait_for_selector("#end-game", state="visible")
    # At the end "End the game" comes first: above the announcement, in view.
    assert mayor.evaluate(BOTTOM_JS, "#end-go") < mayor.evaluate("() => document.getElementById('words').getBoundingClientRect().top")
    assert mayor.evaluate(BOTTOM_JS, "#end-go") <= TABLE["height"]
    mayor.screenshot(path=str(SHOTS / "mayor-end.png"))
    mayor.click("#end-go")
    mayor.wait_for_selector("#standings .result")
    assert mayor.is_hidden("#undo") and mayor.inner_text("#undo-what") == ""


def test_the_console_keeps_the_turn_above_the_fold_and_the_table_display_scores_large(tmp_path, browser) -> None:
    """1280x800: announcement, pairs and Confirm in view beside a camera panel that folds; scores >= 28 px."""
    from tests.web.browser import served

    with served(tmp_path, rig=True) as (base, services):
        submit(services.table, {"type": "new_game", "players": ["Mary", "David", "Alice"]}, SETUP,
               {"type": "reveal", "cards": ["desert", "water"]}, {"type": "claim", "player": "Alice", "village": "A"})
        mayor, _ = _console(browser, base, services.security.pin)
        mayor.wait_for_selector("#camera-panel", state="visible")
        mayor.click('#pairs-grid button[data-cards="forest,forest"]')
        for selector in ("#words", "#pairs-grid", "#confirm-reveal"):
            assert mayor.evaluate(BOTTOM_JS, selector) <= TABLE["height"], selector
        mayor.screenshot(path=str(SHOTS / "mayor-landscape.png"))
        mayor.click("#camera-title")  # fold the camera away; it stays folded on this browser
        # <details> fires "toggle" as a task after the click: a reload at once could beat it under load
        mayor.wait_for_function("() => localStorage.getItem('tucana-camera-folded') === 'true'")
        mayor.reload()
        mayor.wait_for_selector("#play", state="visible")
        assert mayor.evaluate("() => document.getElementById('camera-panel').open") is False

        display = phone_context(browser, base, "en-GB", TABLE).new_page()
        display.goto("/table")
        display.wait_for_selector("#standings td")
        assert display.evaluate(SMALLEST_SCORE_JS) >= MIN_SCORE_PX
        submit(services.table, *({"type": "reveal", "cards": list(p)} for p in ROUND_REST))
        _rounds(services.table, 1)
        submit(services.table, {"type": "end_game"})
        display.wait_for_selector("#standings .result")
        assert display.evaluate(SMALLEST_SCORE_JS) >= MIN_SCORE_PX
        display.screenshot(path=str(SHOTS / "table-final-landscape.png"))


REFUSED = {
    "en": "With 2 player(s) the Mayor draws 1 red bonus card(s), not 2.",
    "fr": "À 2 joueur(s), le Maire pioche 1 carte(s) bonus rouge(s), pas 2.",
    "es": "Con 2 jugador(es), el Alcalde roba 1 carta(s) de bonificación roja(s), no 2.",
}


@pytest.mark.parametrize("lang", list(LOCALES))
def test_an_engine_refusal_reaches_the_console_in_its_language(server, browser, lang: str) -> None:
    """The engine refuses two red cards for two players: the console says why in its own language."""
    base, services = server
    submit(services.table, {"type": "new_game", "players": ["Mary", "David"], "special_bonus": True}, SETUP)
    mayor, _ = _console(browser, base, services.security.pin, lang)
    mayor.wait_for_selector("#red-setup", state="visible")
    mayor.check('#red-setup-choices input[value="yeti"]')
    mayor.check('#red-setup-choices input[value="book"]')
    mayor.click("#red-setup-go")
    mayor.wait_for_selector("#mayor-error", state="visible")
    assert mayor.inner_text("#mayor-error") == REFUSED[lang]
    assert services.table.state.red_drawn is None


# The rest of round 1 after desert-water, any-any and forest-forest: ten pairs the deck still holds.
ROUND_ONE_REST = [("desert", "desert")] * 3 + [("desert", "forest")] + [("forest", "forest")] * 2 + \
    [("mountain", "mountain")] * 3 + [("water", "water")]
NOTE_JS = "(words) => document.getElementById('camera-note').textContent === words"


def test_the_camera_note_is_live_consistent_and_french_and_a_held_reading_says_why(tmp_path, browser) -> None:
    """The rig's state comes over the stream: notes in French with card names, never stale; a reading
    the deck cannot hold says why and offers only what can be accepted; no crop before a reading."""
    import random

    from hardware.virtual_table import VirtualTable
    from tests.hardware.conftest import SMALL_FRAME
    from tests.web.browser import post_as_mayor, served

    virtual = VirtualTable(random.Random(7), size=SMALL_FRAME, hand_reads=0, clear_reads=0)
    with served(tmp_path, rig=True, virtual=virtual) as (base, services):
        pin = services.security.pin
        submit(services.table, {"type": "new_game", "players": ["Ana"]}, SETUP)
        mayor, _ = _console(browser, base, pin, "fr")
        polled = []
        mayor.on("request", lambda request: polled.append(request.url) if request.url.endswith("/api/camera") else None)
        mayor.wait_for_selector("#camera-panel", state="visible")
        assert mayor.is_hidden("#camera-crop-figure") and mayor.get_attribute("#camera-crop", "src") is None

        post_as_mayor(base, pin, "/api/table/lay", {"cards": ["desert"]})
        mayor.wait_for_function(NOTE_JS, arg="Désert lu\u00a0: en attente de la deuxième carte.")
        assert mayor.inner_text("#camera-reading").startswith("Désert ")
        mayor.wait_for_function("() => document.getElementById('camera-crop').naturalWidth > 0")
        mayor.click('#pairs-grid button[data-cards="desert,water"]')  # the Mayor taps the pair instead
        mayor.click("#confirm-reveal")
        mayor.wait_for_function(NOTE_JS, arg="")  # the half-read card is settled: no stale "waiting"

        submit(services.table, {"type": "reveal", "cards": ["any", "any"]})
        post_as_mayor(base, pin, "/api/table/lay", {"cards": ["any", "forest"]})  # a third "any": a misread
        mayor.wait_for_selector("#pending-why", state="visible")
        assert mayor.inner_text("#pending-why").startswith(
            "En attente\u00a0: Une 3e carte terrain au choix dans la manche 1\u00a0: la pioche n'en contient que 2")
        assert mayor.is_disabled("#confirm-reveal") and mayor.is_disabled('#pairs-grid button[data-cards="forest,any"]')
        mayor.screenshot(path=str(SHOTS / "mayor-held-fr.png"))
        mayor.click('#pairs-grid button[data-cards="forest,forest"]')  # what was really shown
        mayor.click("#confirm-reveal")
        mayor.wait_for_selector("#pending-why", state="hidden")
        mayor.wait_for_selector("#dismiss-reading", state="hidden")
        assert [c.value for c in services.table.state.last_reveal.cards] == ["forest", "forest"]

        submit(services.table, *({"type": "reveal", "cards": list(p)} for p in ROUND_ONE_REST))
        mayor.wait_for_selector("#solo-keep", state="visible")
        post_as_mayor(base, pin, "/api/table/lay", {"cards": ["blue-A1"]})
        mayor.wait_for_function(NOTE_JS, arg="Posez encore 1 carte(s) bleue(s).")
        mayor.check('#solo-choices input[value="A"]')
        mayor.check('#solo-choices input[value="C"]')
        mayor.click("#solo-go")
        mayor.wait_for_selector("#solo-keep", state="hidden")
        mayor.wait_for_function(NOTE_JS, arg="")  # kept on the console: no "1 more blue card" left behind
        assert polled == []  # everything came over the stream
