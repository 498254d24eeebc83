"""Headless Chromium draws whole rounds on the island sheet: one phone on Isla Petit (with a chain
reaction), one on Isla Grande (the 3rd yeti's bonus segment), each beside a paper seat.

Every segment is two taps on the phone's island. Screenshots go to out/screenshots/ (gitignored);
the README's picture of the sheet is one of them.
"""

from __future__ import annotations

from typing import Any

from companion.island import MAPS
from companion.moves import Island, Terrain
from tests.web.browser import (
    NEEDS_CHROMIUM,
    PHONE,
    SHOTS,
    phone_context,
    post_as_mayor,
    served,
    unlock_console,
)
from web.services import Services

pytestmark = NEEDS_CHROMIUM

SEGMENTS_JS = "(me) => ((window.Tucana.live.state.island_sheets || {})[me] || {segments: []}).segments.length"
SHEET_JS = "(me) => (window.Tucana.live.state.island_sheets || {})[me]"
TURN_JS = "(n) => window.Tucana.live.state.round * 100 + window.Tucana.live.state.turn >= n"


def _shot(page: Any, name: str, *, full: bool = False) -> None:
    """Save a screenshot; a phone page must never scroll sideways."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"], name
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def _join(browser: Any, base: str, seat: int, lang: str = "en-GB", width: int = PHONE["width"]) -> Any:
    page = phone_context(browser, base, lang).new_page()
    page.set_viewport_size({"width": width, "height": PHONE["height"]})
    page.goto("/play")
    page.click(f'#seats button[data-seat="{seat}"]')
    page.wait_for_url(f"**/play/{seat}")
    return page


def _pick_sheet(page: Any, me: str) -> None:
    page.click("#pick-sheet")
    page.wait_for_function("(me) => window.Tucana.live.state.seat_modes[me] === 'sheet'", arg=me)


def _tap(page: Any, space: tuple[int, int]) -> None:
    """One finger on the centre of a space of the island, as a phone's touch screen sends it."""
    page.evaluate("() => document.getElementById('island-card').scrollIntoView({block: 'start'})")
    box = page.locator(f'polygon[data-space="{space[0]},{space[1]}"]').bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _draw(page: Any, me: str, start: tuple[int, int], end: tuple[int, int]) -> None:
    """Tap a space then its neighbour; return once the phone's live state holds the new segment."""
    before = page.evaluate(SEGMENTS_JS, me)
    _tap(page, start)
    _tap(page, end)
    page.wait_for_function(f"(me) => ({SEGMENTS_JS})(me) === {before + 1}", arg=me)


def _reveal_for(base: str, services: Services, start: tuple[int, int], end: tuple[int, int]) -> None:
    """The Mayor reveals a pair that allows the segment (its terrains, or "any" where the deck is short)."""
    state = services.table.state
    island = MAPS[state.setup.island]
    a, b = (island.hexes[island.index[s]].terrain for s in (start, end))
    wanted = [(a, b), (a, Terrain.ANY), (Terrain.ANY, b), (Terrain.ANY, Terrain.ANY)]
    pair = next(p for p in wanted if state.reveal_problem(p) is None)
    _reveal(base, services, pair)


def _reveal(base: str, services: Services, pair: tuple[Terrain, Terrain]) -> None:
    post_as_mayor(base, services.security.pin, "/api/events", {"type": "reveal", "cards": [c.value for c in pair]})


def _filler(base: str, services: Services) -> None:
    """Reveal whatever the deck still holds (the phone then draws any legal segment)."""
    _reveal(base, services, services.table.state.possible_reveals[0])


def _wait_turn(page: Any, services: Services) -> None:
    state = services.table.state
    page.wait_for_function(TURN_JS, arg=state.round * 100 + state.turn)


def _draw_any(page: Any, me: str) -> None:
    """Draw the first segment the engine lists as legal for this reveal (if any is left)."""
    sheet = page.evaluate(SHEET_JS, me)
    if sheet["legal"]:
        r1, c1, r2, c2 = sheet["legal"][0]
        _draw(page, me, (r1, c1), (r2, c2))


def _start(base: str, services: Services, players: list[str], island: Island) -> None:
    pin = services.security.pin
    post_as_mayor(base, pin, "/api/events", {"type": "new_game", "players": players, "island": island.value})
    post_as_mayor(base, pin, "/api/events", {"type": "setup_card", "letters": "CEBAEDCDAB"})


def test_a_round_on_isla_petit_with_a_chain_reaction(tmp_path, browser) -> None:
    """Mary draws 13 turns on her phone: two sights at once, a bonus segment, a chain reaction."""
    with served(tmp_path) as (base, services):
        _start(base, services, ["Mary", "David"], Island.PETIT)
        mary = _join(browser, base, 1)
        david = _join(browser, base, 2, "fr-FR")
        assert mary.is_visible("#mode-pick")
        _shot(mary, "sheet-pick")
        _pick_sheet(mary, "Mary")
        david.click("#pick-paper")
        mayor = phone_context(browser, base).new_page()
        unlock_console(mayor, services.security.pin)

        path = [(2, 6), (2, 8), (2, 10), (2, 12), (1, 13)]  # a toucan and an obelisk to village 2
        for start, end in zip(path, path[1:], strict=False):
            _reveal_for(base, services, start, end)
            _wait_turn(mary, services)
            if start == (2, 6):
                mayor.wait_for_function("() => document.getElementById('waiting-for').textContent === 'Waiting for Mary'")
                _shot(mary, "sheet-petit-turn-1")
            _draw(mary, "Mary", start, end)
        mary.wait_for_function("() => document.getElementById('sheet-sights').textContent === '3'")
        mayor.wait_for_function("() => document.getElementById('waiting-for').textContent === 'Every island sheet has drawn.'")
        assert mary.locator(".sight-ring.joined").count() == 2

        for start, end in [((6, 12), (7, 11)), ((7, 9), (8, 10)), ((8, 10), (8, 12))]:
            _reveal_for(base, services, start, end)
            _wait_turn(mary, services)
            _draw(mary, "Mary", start, end)
        # The second obelisk reached village 5: a bonus segment is offered at once.
        mary.wait_for_function("() => document.getElementById('sheet-prompt').dataset.kind === 'bonus'")
        assert "Bonus trail: anywhere" in mary.inner_text("#sheet-prompt")
        assert mary.evaluate(SHEET_JS, "Mary")["bonus_due"] == 1
        _shot(mary, "sheet-petit-bonus")
        _draw(mary, "Mary", (7, 9), (7, 11))  # joins the second toucan: a chain reaction
        # bonus_due was 1 before this draw too: wait for the drawn bonus trail itself, then for the new offer
        mary.wait_for_function("() => document.querySelectorAll('#island-card .trails line.bonus').length === 1")
        mary.wait_for_function("() => document.getElementById('sheet-prompt').dataset.kind === 'bonus'")
        assert mary.evaluate(SHEET_JS, "Mary")["bonus_due"] == 1
        _draw(mary, "Mary", (8, 12), (8, 14))
        mary.wait_for_function("() => document.getElementById('sheet-prompt').dataset.kind === 'drawn'")
        _shot(mary, "sheet-petit-chain")
        assert mary.inner_text("#sheet-sights") == str(1 + 2 + 2 + 3)

        # David taps a claim on paper in the same game; the sheet's derived claims sit beside it.
        david.click('#pairs button[data-village="B"]')
        david.click("#confirm-yes")
        david.wait_for_selector('#pairs button[data-village="B"].circled')

        while services.table.state.turn < 13:
            _filler(base, services)
            _wait_turn(mary, services)
            _draw_any(mary, "Mary")
        mary.reload()  # a reload shows the sheet exactly as it was
        mary.wait_for_function(f"() => ({SEGMENTS_JS})('Mary') === document.querySelectorAll('#island-card .trails line').length")
        assert mary.locator("#island-card .trails line.bonus").count() == 2
        _filler(base, services)  # round 2's first reveal closes round 1
        mary.wait_for_function("() => window.Tucana.live.state.rounds_done === 1")
        assert services.table.state.sheets["Mary"].sights_by_round == (8,)
        table = phone_context(browser, base).new_page()
        table.goto("/table")
        table.wait_for_selector('#sheet-status .sheet-chip[data-player="Mary"]')
        _shot(table, "sheet-table-chips")
        _shot(mayor, "sheet-mayor-waiting")
        _shot(mary, "sheet-petit-round-2", full=True)


def test_a_round_on_isla_grande_with_the_third_yeti_at_360_px(tmp_path, browser) -> None:
    """Léa draws a round on a 360 px phone: the third yeti grants a bonus segment drawn at once."""
    with served(tmp_path) as (base, services):
        _start(base, services, ["Bo", "Léa"], Island.GRANDE)
        lea = _join(browser, base, 2, "es-ES", width=360)
        _pick_sheet(lea, "Léa")
        plan = [
            [(11, 1), (10, 0), (9, 1), (8, 0)],  # a yeti to village 8
            [(7, 15), (7, 17), (6, 18), (5, 19)],  # a yeti to village 3
            [(6, 8), (6, 10), (6, 12), (6, 14), (7, 15)],  # the third yeti joins the second's trail
        ]
        for path in plan:
            for start, end in zip(path, path[1:], strict=False):
                _reveal_for(base, services, start, end)
                _wait_turn(lea, services)
                _draw(lea, "Léa", start, end)
        lea.wait_for_function("() => document.getElementById('sheet-prompt').dataset.kind === 'bonus'")
        assert "Sendero extra" in lea.inner_text("#sheet-prompt")
        assert lea.inner_text("#sheet-sights") == str(3 + 4 + 4 + 4)  # three yetis, the sea monster at [6, 12]
        _shot(lea, "sheet-grande-bonus-360")
        _zoom_with_two_fingers(lea)
        _draw(lea, "Léa", (6, 10), (7, 9))  # near the middle, where the fingers zoomed in
        lea.click("#zoom-fit")
        assert lea.get_attribute("#island-card svg.island", "data-zoom") == "1.00"
        while services.table.state.turn < 13:
            _filler(base, services)
            _wait_turn(lea, services)
            _draw_any(lea, "Léa")
        lea.wait_for_function(f"() => window.Tucana.live.state.seq === {services.table.seq}")
        _shot(lea, "sheet-grande-round-end-360")
        assert lea.inner_text("#sheet-sights") == str(services.table.state.sheets["Léa"].sight_points_now)


def _zoom_with_two_fingers(page: Any) -> None:
    """Spread two fingers over the island: the view zooms in (touch pointer events, as a phone sends)."""
    page.evaluate("() => document.getElementById('island-card').scrollIntoView({block: 'start'})")
    box = page.locator("#sheet-view").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.evaluate("""([cx, cy]) => {
      const view = document.getElementById('sheet-view');
      const fire = (type, id, x, y) => view.dispatchEvent(new PointerEvent(type, {
        pointerId: id, pointerType: 'touch', clientX: x, clientY: y, bubbles: true, isPrimary: id === 1}));
      fire('pointerdown', 1, cx - 20, cy); fire('pointerdown', 2, cx + 20, cy);
      for (let step = 1; step <= 5; step++) { fire('pointermove', 1, cx - 20 - 10 * step, cy); fire('pointermove', 2, cx + 20 + 10 * step, cy); }
      fire('pointerup', 1, cx - 70, cy); fire('pointerup', 2, cx + 70, cy);
    }""", [cx, cy])
    assert float(page.get_attribute("#island-card svg.island", "data-zoom")) > 2.5
