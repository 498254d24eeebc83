"""Trails over the API: posted like claims (same seat rules, same errors), streamed, seat mode picks."""

from __future__ import annotations

import json

import pytest

from tests.web.conftest import ApiClient, log_of, start_game
from tests.web.test_stream import open_stream

# Village 2 of the Mayor on Isla Petit is [1, 13]; the obelisk [2, 10]; [2, 12] is a mountain.
DESERT_MOUNTAIN = {"type": "reveal", "cards": ["desert", "mountain"]}
MOUNTAIN_FOREST = {"type": "reveal", "cards": ["mountain", "forest"]}


def _trail(start, end, player="Mary", bonus=False) -> dict:
    return {"type": "trail", "player": player, "from": list(start), "to": list(end), "bonus": bonus}


def _join(phone: ApiClient, player: str) -> None:
    assert phone.post("/api/seats/join", {"player": player}).status_code == 200


def test_a_seat_draws_a_trail_and_the_state_shows_its_sheet(api, phone) -> None:
    """Mary's phone posts a segment: 201, the trail event, her sheet with the segment drawn."""
    start_game(api)
    _join(phone, "Mary")
    api.entry(DESERT_MOUNTAIN, mayor=True)
    reply = phone.entry(_trail((2, 10), (2, 12)))
    assert reply.status_code == 201, reply.json
    doc = reply.json
    assert doc["events"][0] == {"type": "trail_drawn", "player": "Mary", "from": [2, 10], "to": [2, 12],
                                "bonus": False, "bonus_due": 0}
    sheet = doc["state"]["island_sheets"]["Mary"]
    assert sheet["segments"] == [[2, 10, 2, 12, 0]] and sheet["drawn"] is True and sheet["legal"] == []
    assert doc["state"]["seat_modes"] == {"Mary": "sheet", "David": "undecided"}
    assert doc["state"]["sheets"]["Mary"]["mode"] == "sheet"


def test_the_segment_that_joins_the_obelisk_scores_it(api, phone) -> None:
    """The next segment reaches village 2: the obelisk's 1 is circled by the engine."""
    start_game(api)
    _join(phone, "Mary")
    api.entry(DESERT_MOUNTAIN, mayor=True)
    phone.entry(_trail((2, 10), (2, 12)))
    api.entry(MOUNTAIN_FOREST, mayor=True)
    doc = phone.entry(_trail((2, 12), (1, 13))).json
    assert {"type": "claimed", "player": "Mary", "points": 1, "sight": "obelisk", "village": None,
            "red": None, "bonus_segment": False} in doc["events"]
    assert doc["state"]["sheets"]["Mary"]["sight_points_now"] == 1
    assert doc["state"]["island_sheets"]["Mary"]["joined_sights"] == [[2, 10]]


@pytest.mark.parametrize(("who", "status", "words"), [
    ("nobody", 403, "take Mary's seat first to draw for Mary"),
    ("David", 403, "this phone holds David's seat: it cannot draw for Mary"),
])
def test_only_the_seat_or_the_mayor_draws_for_a_player(api, phone, who, status, words) -> None:
    """A trail needs that player's seat (or the Mayor), exactly like a claim; nothing is stored."""
    start_game(api)
    api.entry(DESERT_MOUNTAIN, mayor=True)
    if who != "nobody":
        _join(phone, who)
    before = log_of(api.client.application.extensions["tucana"])
    reply = phone.entry(_trail((2, 10), (2, 12)))
    assert reply.status_code == status and words in reply.json["error"]
    assert log_of(api.client.application.extensions["tucana"]) == before
    assert api.entry(_trail((2, 10), (2, 12)), mayor=True).status_code == 201


@pytest.mark.parametrize(("entry", "words"), [
    (_trail((2, 10), (1, 9)), "this turn's segment joins desert and mountain"),
    (_trail((2, 10), (4, 10)), "not adjacent"),
    ({"type": "trail", "player": "Mary", "from": [2, 10], "to": [2, 12], "colour": "red"}, "unknown field"),
    ({"type": "trail", "player": "Mary", "from": "2,10", "to": [2, 12]}, "[row, column]"),
])
def test_a_refused_trail_is_a_400_and_changes_nothing(api, phone, web_services, entry, words) -> None:
    """A trail the rules or the format refuse answers 400 with the reason; the log is unchanged."""
    start_game(api)
    _join(phone, "Mary")
    api.entry(DESERT_MOUNTAIN, mayor=True)
    before = log_of(web_services)
    reply = phone.entry(entry)
    assert reply.status_code == 400 and words in reply.json["error"]
    assert log_of(web_services) == before


def test_a_paper_seat_cannot_draw_and_a_sheet_seat_cannot_claim(api, phone, other_phone) -> None:
    """Once a seat has scored one way the other way is a 400 naming why."""
    start_game(api)
    _join(phone, "Mary")
    _join(other_phone, "David")
    api.entry(DESERT_MOUNTAIN, mayor=True)
    assert phone.entry(_trail((2, 10), (2, 12))).status_code == 201
    assert other_phone.entry({"type": "claim", "player": "David", "sight": "yeti"}).status_code == 201
    refused = phone.entry({"type": "claim", "player": "Mary", "sight": "yeti"})
    assert refused.status_code == 400 and "draws on the island sheet" in refused.json["error"]
    refused = other_phone.entry(_trail((3, 1), (3, 3), player="David"))
    assert refused.status_code == 400 and "scores on paper" in refused.json["error"]


def test_a_trail_reaches_every_stream_with_the_sheet(api, phone, other_phone) -> None:
    """The segment goes out over the stream like any entry, with the drawn sheet in the state."""
    start_game(api)
    _join(phone, "Mary")
    api.entry(DESERT_MOUNTAIN, mayor=True)
    _, reader = open_stream(other_phone, "/api/stream?game_id=1")
    reader.until("hello")
    phone.entry(_trail((2, 10), (2, 12)))
    message = reader.until("entry")
    assert message.data["entry"] == _trail((2, 10), (2, 12))
    assert message.data["state"]["island_sheets"]["Mary"]["segments"] == [[2, 10, 2, 12, 0]]


def test_a_seat_that_picks_the_sheet_is_waited_for_before_its_first_segment(api, phone, web_services) -> None:
    """The pick shows in seat_modes and waiting_for (pushed to streams); the first segment ends the wait."""
    start_game(api)
    _join(phone, "Mary")
    _, reader = open_stream(api, "/api/stream?game_id=1")
    reader.until("hello")
    reply = phone.post("/api/seats/mode", {"mode": "sheet"})
    assert reply.status_code == 200 and reply.json == {"seat": "Mary", "mode": "sheet"}
    assert reader.until("reset").data["state"]["seat_modes"]["Mary"] == "sheet"
    state = api.entry(DESERT_MOUNTAIN, mayor=True).json["state"]
    assert state["waiting_for"] == ["Mary"] and state["island_sheets"]["Mary"]["legal"]
    state = phone.entry(_trail((2, 10), (2, 12))).json["state"]
    assert state["waiting_for"] == []
    saved = json.loads((web_services.seat_modes._path).read_text())
    assert saved == {"1": {"Mary": "sheet"}}


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"mode": "ink"}, 400, "mode must be 'paper' or 'sheet'"),
    ({"mode": "undecided"}, 400, "mode must be 'paper' or 'sheet'"),
    ({"mode": "sheet", "x": 1}, 400, "unknown field"),
])
def test_a_bad_mode_pick_is_refused(api, phone, body, status, words) -> None:
    """Only paper or sheet can be picked."""
    start_game(api)
    _join(phone, "Mary")
    reply = phone.post("/api/seats/mode", body)
    assert reply.status_code == status and words in reply.json["error"]


def test_a_pick_needs_a_seat_and_cannot_overturn_the_engine(api, phone) -> None:
    """Without a seat: 403; after a claim decided paper, picking the sheet is a 409."""
    start_game(api)
    assert phone.post("/api/seats/mode", {"mode": "sheet"}).status_code == 403
    _join(phone, "Mary")
    api.entry(DESERT_MOUNTAIN, mayor=True)
    phone.entry({"type": "claim", "player": "Mary", "sight": "yeti"})
    reply = phone.post("/api/seats/mode", {"mode": "sheet"})
    assert reply.status_code == 409 and "already scores on paper" in reply.json["error"]
    assert phone.post("/api/seats/mode", {"mode": "paper"}).status_code == 200
