"""The JSON API's happy paths through Flask's test client: state, events, log, export/import, seats."""

from __future__ import annotations

import json
import re

from companion.rules import REVEALS_PER_ROUND
from tests.conftest import ROUND_CARDS
from tests.web.conftest import ApiClient, log_of, start_game
from web.openapi import document


def _reveal_round(api: ApiClient) -> None:
    for turn in range(REVEALS_PER_ROUND):
        cards = ROUND_CARDS[2 * turn: 2 * turn + 2]
        assert api.entry({"type": "reveal", "cards": cards}, mayor=True).status_code == 201


def test_healthz_and_empty_state(api: ApiClient) -> None:
    """Health check and state answer with no game and seq 0 before anything is logged."""
    assert api.get("/healthz").json == {"ok": True, "game_id": None, "seq": 0}
    state = api.get("/api/state").json
    assert state["phase"] == "no_game"
    assert state["players"] == [] and state["game_id"] is None and state["seq"] == 0


def test_new_game_and_setup_card_give_everything_a_page_needs(api: ApiClient) -> None:
    """After new game and set-up card the state has village letters, bonuses, pad and deck."""
    start_game(api, ["Mary", "David", "Lena"], special_bonus=True)
    state = api.get("/api/state").json
    assert state["phase"] == "setup" and state["seq"] == 2 and state["mayor"] == "Mary"
    assert state["setup"]["special_bonus"] is True and state["needs_red_bonus"] is True
    # The set-up card "CEBAEDCDAB": seat p writes its first letter at village p.
    assert state["village_letters"] == {"Mary": "CEBAEDCDAB", "David": "BCEBAEDCDA", "Lena": "ABCEBAEDCD"}
    assert state["blue"] == {"A": [3], "B": [4], "C": [5], "D": [6], "E": [7]}
    assert state["score_pad"]["villages"]["A"] == 14
    assert state["score_pad"]["sights"]["sea_monster"] == [4, 5]
    assert state["deck_left"] == {"desert": 8, "forest": 7, "mountain": 6, "water": 4, "any": 2}


def test_the_state_says_what_comes_next_so_no_page_decides_it(api: ApiClient) -> None:
    """The state gives the next step, the revealable pairs and the drawn red bonus cards."""
    start_game(api, ["Mary", "David"], special_bonus=True)
    state = api.get("/api/state").json
    assert (state["next_step"], state["reveal_pairs"], state["red_drawn"]) == ("red_bonus", [], None)
    api.entry({"type": "red_bonus", "sights": ["yeti"]}, mayor=True)
    state = api.get("/api/state").json
    assert (state["next_step"], state["red_drawn"], state["turns_per_round"]) == ("reveal", ["yeti"], 13)
    assert len(state["reveal_pairs"]) == 15 and ["any", "any"] in state["reveal_pairs"]
    api.entry({"type": "reveal", "cards": ["any", "forest"]}, mayor=True)
    pairs = api.get("/api/state").json["reveal_pairs"]
    assert ["any", "any"] not in pairs and ["forest", "any"] in pairs  # one any card left this round
    api.entry({"type": "claim", "player": "Mary", "red": "yeti"}, mayor=True)
    assert api.get("/api/state").json["red_drawn"] == ["yeti"]  # taken, still drawn this game


def test_reveal_answers_the_entry_its_events_and_the_new_state(api: ApiClient) -> None:
    """A reveal answers 201 with the entry, its events and the new state as /api/state gives it."""
    start_game(api)
    reply = api.entry({"type": "reveal", "cards": ["desert", "water"]}, mayor=True)
    assert reply.status_code == 201
    doc = reply.json
    assert (doc["game_id"], doc["seq"]) == (1, 3)
    assert doc["entry"] == {"type": "reveal", "cards": ["desert", "water"]}
    assert doc["events"] == [{"type": "revealed", "round": 1, "turn": 1, "cards": ["desert", "water"]}]
    state = doc["state"]
    assert state["announcement"] == ["desert", "water"]
    assert (state["round"], state["turn"], state["cards_left"]) == (1, 1, 25)
    assert state["deck_left"]["desert"] == 7 and state["deck_left"]["water"] == 3
    assert api.get("/api/state").json == state


def test_a_claim_from_the_players_phone_takes_the_blue_bonus(api: ApiClient, phone: ApiClient) -> None:
    """A seated phone's village claim earns the blue bonus, shown in the state and standings."""
    start_game(api)
    api.entry({"type": "reveal", "cards": ["desert", "water"]}, mayor=True)
    assert phone.post("/api/seats/join", {"player": "David"}).json == {"game_id": 1, "seat": "David"}
    reply = phone.entry({"type": "claim", "player": "David", "village": "A"})
    assert reply.status_code == 201
    kinds = [e["type"] for e in reply.json["events"]]
    assert kinds == ["claimed", "bonus_taken"]
    state = reply.json["state"]
    assert state["blue"]["A"] == []
    assert state["bonus_taken"] == [
        {"player": "David", "kind": "blue", "card": "A", "points": 3, "round": 1, "turn": 1}
    ]
    assert state["sheets"]["David"]["villages"] == ["A"]
    david = next(p for p in state["standings"]["players"] if p["name"] == "David")
    assert (david["villages"], david["bonus"], david["total"], david["rank"]) == (14, 3, 17, 1)


def test_a_whole_game_ends_with_standings_and_achievements(api: ApiClient) -> None:
    """A solo game played through to end_game reports standings and an achievement."""
    start_game(api, ["Mary"])  # solo: 2 rounds; with 3+ blue cards won, solo_keep is refused
    _reveal_round(api)
    state = api.get("/api/state").json
    assert state["is_last_turn"] and state["round_over"] and state["needs_solo_keep"]
    assert state["rounds_done"] == 0
    for letter in "ABCDE":
        assert api.entry({"type": "claim", "player": "Mary", "village": letter}, mayor=True).status_code == 201
    assert api.entry({"type": "solo_keep", "letters": ["A", "C"]}, mayor=True).status_code == 400
    _reveal_round(api)
    assert api.get("/api/state").json["rounds_done"] == 1
    reply = api.entry({"type": "end_game"}, mayor=True)
    assert reply.status_code == 201
    assert [e["type"] for e in reply.json["events"]][-1] == "game_ended"
    standings = reply.json["state"]["standings"]
    assert standings["finished"] is True and standings["winners"] == ["Mary"]
    mary = standings["players"][0]
    assert mary["villages"] == 14 + 13 + 12 + 11 + 10
    assert mary["bonus"] == 2 + 2 + 3 + 4 + 5  # solo plays the #2 blue cards
    assert mary["total"] == 60 + 16
    assert mary["achievement"] == "dinner" and mary["achievement_text"] == "Dinner at the Mayor's house"
    assert reply.json["state"]["phase"] == "finished" and reply.json["state"]["rounds_done"] == 2


def test_undo_takes_back_the_last_entry(api: ApiClient) -> None:
    """Undo logs an undone event for the last entry and restores the earlier state."""
    start_game(api)
    api.entry({"type": "reveal", "cards": ["desert", "water"]}, mayor=True)
    reply = api.entry({"type": "undo"}, mayor=True)
    assert reply.status_code == 201 and reply.json["seq"] == 4
    assert reply.json["events"][0]["type"] == "undone"
    assert reply.json["events"][0]["entry"] == {"type": "reveal", "cards": ["desert", "water"]}
    assert reply.json["state"]["announcement"] is None and reply.json["state"]["turn"] == 0


def test_log_since_gives_the_entries_after_a_seq(api: ApiClient) -> None:
    """The log API returns only the entries after the given seq, or all of them."""
    start_game(api)
    api.entry({"type": "reveal", "cards": ["forest", "any"]}, mayor=True)
    doc = api.get("/api/log?since=1").json
    assert doc["game_id"] == 1 and doc["seq"] == 3
    assert [e["seq"] for e in doc["entries"]] == [2, 3]
    assert doc["entries"][1]["entry"] == {"type": "reveal", "cards": ["forest", "any"]}
    assert len(api.get("/api/log").json["entries"]) == 3


def test_export_then_import_gives_the_same_game(api: ApiClient, web_services) -> None:
    """An exported JSONL log imports as a new game with the same state."""
    start_game(api)
    api.entry({"type": "reveal", "cards": ["desert", "water"]}, mayor=True)
    api.entry({"type": "claim", "player": "Mary", "sight": "obelisk"}, mayor=True)
    before = api.get("/api/state").json
    export = api.get("/api/log.jsonl")
    assert export.status_code == 200 and export.mimetype == "application/x-ndjson"
    assert "attachment" in export.headers["Content-Disposition"]
    text = export.data.decode()
    assert [json.loads(line)["type"] for line in text.splitlines()] == [
        "new_game", "setup_card", "reveal", "claim"
    ]
    reply = api.post("/api/import", data=text, mayor=True)
    assert reply.status_code == 201 and reply.json["game_id"] == 2
    after = api.get("/api/state").json
    assert after["game_id"] == 2
    assert {k: v for k, v in after.items() if k != "game_id"} == {
        k: v for k, v in before.items() if k != "game_id"
    }
    games = api.get("/api/games").json
    assert games["current"] == 2 and [g["game_id"] for g in games["games"]] == [2, 1]
    assert api.get("/api/log.jsonl?game_id=1").data.decode() == text


def test_a_second_new_game_starts_over_with_a_new_id(api: ApiClient) -> None:
    """A second new_game starts game 2 at seq 1 with its own island and players."""
    start_game(api)
    reply = api.entry({"type": "new_game", "players": ["Ana", "Bo"], "island": "grande"}, mayor=True)
    assert reply.status_code == 201
    assert (reply.json["game_id"], reply.json["seq"]) == (2, 1)
    assert reply.json["state"]["rounds"] == 3 and reply.json["state"]["players"] == ["Ana", "Bo"]


def test_seats_list_who_holds_which(api: ApiClient, phone: ApiClient) -> None:
    """The seats list shows which seats are taken and which is this phone's; leaving frees it."""
    start_game(api)
    phone.post("/api/seats/join", {"player": "Mary"})
    assert phone.get("/api/seats").json["seats"] == [
        {"player": "Mary", "taken": True, "mine": True},
        {"player": "David", "taken": False, "mine": False},
    ]
    assert phone.get("/api/session").json["seat"] == "Mary"
    assert phone.post("/api/seats/leave").json == {"seat": None}
    assert phone.get("/api/session").json["seat"] is None
    assert api.get("/api/seats").json["seats"][0]["taken"] is False


def test_expected_seq_lets_the_mayor_act_on_what_they_see(api: ApiClient) -> None:
    """An X-Expect-Seq header equal to the current seq lets the entry through."""
    start_game(api)
    reply = api.entry({"type": "undo"}, mayor=True, headers={"X-Expect-Seq": "2"})
    assert reply.status_code == 201


def test_openapi_describes_every_api_route(api: ApiClient, web_app) -> None:
    """The OpenAPI document covers every API route and method, and every reference resolves."""
    doc = api.get("/api/openapi.json").json
    assert doc["openapi"].startswith("3.")
    for rule in web_app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule.removeprefix("/api"))  # OpenAPI's {name}
        assert path in doc["paths"], f"{rule.rule} is missing from the OpenAPI document"
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert method.lower() in doc["paths"][path], f"{method} {rule.rule} is undocumented"
    assert doc == document()
    refs = set(re.findall(r'"\$ref": "#/components/(\w+)/(\w+)"', json.dumps(doc)))
    assert refs and all(name in doc["components"][kind] for kind, name in refs)
    assert set(doc["components"]["schemas"]["Entry"]["oneOf"][0]) == {"$ref"}


def test_reading_changes_nothing(api: ApiClient, web_services) -> None:
    """The read-only API routes answer 200 and leave the log unchanged."""
    start_game(api)
    before = log_of(web_services)
    for path in ("/api/state", "/api/log", "/api/games", "/api/seats", "/api/session", "/api/camera"):
        assert api.get(path).status_code == 200, path
    assert log_of(web_services) == before
