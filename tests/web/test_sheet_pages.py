"""The island sheet's server side: the pages' markup, the sheets in the state, seat picks, texts."""

from __future__ import annotations

import json
import re

import pytest

from companion.moves import Island
from companion.sheet import SeatMode
from tests.conftest import LogBuilder
from web import i18n
from web.island import island_svg
from web.island_json import island_json
from web.seat_modes import SeatModes

CONFIG = re.compile(r'<script type="application/json" id="tucana-config">(.*?)</script>', re.S)


def _config(html: str) -> dict:
    return json.loads(CONFIG.search(html).group(1))


@pytest.mark.parametrize(("island", "hexes"), [(Island.PETIT, 73), (Island.GRANDE, 104)])
def test_every_space_of_the_sketch_can_be_tapped_and_drawn_to(island, hexes) -> None:
    """Each hex names its space, terrain and centre; the trail layers sit under the marks."""
    svg = island_svg(island, "Isla")
    spaces = re.findall(r'<polygon class="hex t-(\w+)" data-space="(\d+),(\d+)" data-terrain="(\w+)" '
                        r'data-cx="[\d.]+" data-cy="[\d.]+"', svg)
    assert len(spaces) == hexes and all(cls == terrain for cls, _, _, terrain in spaces)
    assert svg.index('<g class="legal"></g><g class="trails"></g>') < svg.index('class="village"')
    assert svg.count('class="sight-ring"') == (10 if island is Island.PETIT else 15)


def test_the_phone_page_offers_the_pick_and_the_island_once(api, phone) -> None:
    """A phone page has the paper/sheet pick, one island, and the API path of the pick."""
    from tests.web.conftest import start_game

    start_game(api, island="grande")
    html = phone.get("/play/1").get_data(as_text=True)
    assert 'id="mode-pick"' in html and 'id="pick-sheet"' in html
    assert html.count('<svg class="island"') == 1 and html.count('class="hex ') == 104
    config = _config(html)
    assert config["api"]["seat_mode"] == "/api/seats/mode"
    assert config["state"]["seat_modes"] == {"Mary": "undecided", "David": "undecided"}


@pytest.mark.parametrize(("path", "ids"), [("/table", ["sheet-status"]), ("/mayor", ["sheet-status", "waiting-for"])])
def test_the_table_and_the_console_show_who_has_drawn(api, path, ids) -> None:
    """The table display and the Mayor's console carry the sheet status (and the console the wait)."""
    html = api.get(path).get_data(as_text=True)
    assert all(f'id="{name}"' in html for name in ids)


def test_the_state_says_when_a_sheet_has_nothing_to_draw(rare_case) -> None:
    """The rare case: nothing_to_draw, no legal segment, not waited for; picks do not change it."""
    state = rare_case.state
    doc = island_json(state, {"David": SeatMode.SHEET})
    lin = doc["island_sheets"]["Lin"]
    assert lin["nothing_to_draw"] is True and lin["legal"] == [] and lin["drawn"] is False
    assert [2, 10] in lin["joined_sights"] and len(lin["segments"]) == 14
    assert doc["waiting_for"] == ["David"], "David picked the sheet and has not drawn yet"
    assert doc["seat_modes"] == {"Lin": "sheet", "David": "sheet"}


def test_the_engine_mode_wins_over_a_pick() -> None:
    """A seat that claimed on paper stays paper whatever its phone picked."""
    game = LogBuilder(players=["Mary", "David"]).setup().reveal().claim("David", sight="yeti")
    doc = island_json(game.state, {"David": SeatMode.SHEET, "Mary": SeatMode.PAPER})
    assert doc["seat_modes"] == {"Mary": "paper", "David": "paper"} and doc["island_sheets"] == {}


def test_seat_picks_survive_a_restart_and_a_damaged_file_is_forgotten(tmp_path) -> None:
    """Picks are kept per game in a file; a damaged file starts empty; only paper or sheet."""
    path = tmp_path / "seat-modes.json"
    SeatModes(path).pick(3, "Léa", SeatMode.SHEET)
    assert SeatModes(path).picks(3) == {"Léa": SeatMode.SHEET} and SeatModes(path).picks(4) == {}
    with pytest.raises(ValueError, match="paper or sheet"):
        SeatModes(path).pick(3, "Léa", SeatMode.UNDECIDED)
    path.write_text("{not json")
    assert SeatModes(path).picks(3) == {}
    path.write_text(json.dumps({"3": {"Léa": "ink", "Bo": "paper"}, "x": {}}))
    assert SeatModes(path).picks(3) == {"Bo": SeatMode.PAPER}


def test_a_feature_catalog_may_not_repeat_a_key(tmp_path) -> None:
    """Feature texts merge into the language; a key defined twice is refused, naming the file."""
    (tmp_path / "en.json").write_text(json.dumps({"a.b": "A"}))
    (tmp_path / "sheet").mkdir()
    (tmp_path / "sheet" / "en.json").write_text(json.dumps({"sheet.x": "X"}))
    assert i18n.merged_catalog(tmp_path, "en") == {"a.b": "A", "sheet.x": "X"}
    (tmp_path / "sheet" / "en.json").write_text(json.dumps({"a.b": "again"}))
    with pytest.raises(ValueError, match=r"sheet/en.json repeats \['a.b'\]"):
        i18n.merged_catalog(tmp_path, "en")


def test_the_sheet_speaks_three_languages() -> None:
    """Every sheet text exists in English, French and Spanish."""
    keys = {lang: {k for k in i18n.catalog(lang) if k.startswith("sheet.")} for lang in i18n.LANGUAGES}
    assert len(keys["en"]) > 30 and keys["en"] == keys["fr"] == keys["es"]
