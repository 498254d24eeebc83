"""Every error class of the API: a clear JSON message, the right status, and nothing changed."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import ApiClient, log_of, start_game
from web.app import MAX_BODY_BYTES

# (name, method, path, body or raw text, send the PIN, extra headers, status, words in the message)
CASES: list[tuple[str, str, str, Any, bool, dict[str, str], int, str]] = [
    ("empty body", "POST", "/api/events", "", True, {}, 400, "needs a JSON object"),
    ("not JSON", "POST", "/api/events", "{reveal", True, {}, 400, "not valid JSON"),
    ("JSON list", "POST", "/api/events", "[1, 2]", True, {}, 400, "JSON object"),
    ("unknown type", "POST", "/api/events", {"type": "shuffle"}, True, {}, 400, "unknown entry type"),
    ("unknown field", "POST", "/api/events", {"type": "undo", "why": "x"}, True, {}, 400, "unknown field"),
    ("bad terrain", "POST", "/api/events", {"type": "reveal", "cards": ["desert", "lava"]}, True, {},
     400, "cards must be one of"),
    ("rule: 3 cards", "POST", "/api/events", {"type": "reveal", "cards": ["desert"] * 3}, True, {},
     400, "exactly two cards"),
    ("rule: setup twice", "POST", "/api/events", {"type": "setup_card", "letters": "ECAEBDABDC"}, True,
     {}, 400, "already read"),
    ("rule: red bonus off", "POST", "/api/events", {"type": "red_bonus", "sights": ["yeti"]}, True, {},
     400, "Special Bonus"),
    ("rule: claim before a reveal", "POST", "/api/events", {"type": "claim", "player": "Mary",
                                                           "village": "A"}, True, {}, 400, "revealed"),
    ("stale seq", "POST", "/api/events", {"type": "undo"}, True, {"X-Expect-Seq": "1"}, 409,
     "log moved on"),
    ("bad expected seq", "POST", "/api/events", {"type": "undo"}, True, {"X-Expect-Seq": "two"}, 400,
     "X-Expect-Seq"),
    ("no PIN", "POST", "/api/events", {"type": "reveal", "cards": ["desert", "water"]}, False, {}, 403,
     "Mayor's PIN"),
    ("wrong PIN", "POST", "/api/events", {"type": "undo"}, False, {"X-Mayor-Pin": "000000"}, 403,
     "wrong Mayor PIN"),
    ("claim without seat", "POST", "/api/events", {"type": "claim", "player": "David", "village": "A"},
     False, {}, 403, "seat first"),
    ("import: not the Mayor", "POST", "/api/import", '{"type": "new_game", "players": ["A"]}', False,
     {}, 403, "Mayor's PIN"),
    ("import: bad line", "POST", "/api/import",
     '{"type": "new_game", "players": ["A", "B"]}\n{"type": "claim", "player": "A", "village": "A"}\n',
     True, {}, 400, "line 2"),
    ("import: empty", "POST", "/api/import", "\n", True, {}, 400, "no game"),
    ("import: not JSONL", "POST", "/api/import", "hello", True, {}, 400, "line 1"),
    ("join: unknown player", "POST", "/api/seats/join", {"player": "Zed"}, False, {}, 400,
     "not a player"),
    ("join: no player", "POST", "/api/seats/join", {"seat": 1}, False, {}, 400, "unknown field"),
    ("join: player not text", "POST", "/api/seats/join", {"player": 3}, False, {}, 400,
     "non-empty text"),
    ("free: not the Mayor", "POST", "/api/seats/free", {"player": "Mary"}, False, {}, 403, "Mayor's PIN"),
    ("login: wrong PIN", "POST", "/api/mayor/login", {"pin": "123456"}, False, {}, 403, "wrong"),
    ("login: PIN not text", "POST", "/api/mayor/login", {"pin": 424242}, False, {}, 400, "text"),
    ("lay: no camera", "POST", "/api/table/lay", {"cards": ["desert"]}, True, {}, 503, "no camera"),
    ("lay: bad body", "POST", "/api/table/lay", {"cards": "desert"}, True, {}, 400, "cards"),
    ("enroll: no camera", "POST", "/api/deck/enroll", {"card": "desert"}, True, {}, 503, "no camera"),
    ("unknown route", "GET", "/api/nope", None, False, {}, 404, "not found"),
    ("wrong method", "GET", "/api/events", None, False, {}, 405, "not allowed"),
    ("log: bad since", "GET", "/api/log?since=-1", None, False, {}, 400, "since"),
    ("export: bad id", "GET", "/api/log.jsonl?game_id=x", None, False, {}, 400, "game_id"),
    ("export: unknown game", "GET", "/api/log.jsonl?game_id=99", None, False, {}, 404, "no game 99"),
    ("stream: bad last id", "GET", "/api/stream?last_event_id=abc", None, False, {}, 400,
     "Last-Event-ID"),
    ("snapshot: no camera", "GET", "/api/camera/snapshot.jpg", None, False, {}, 503, "no camera"),
    # Inputs that once gave a 500 (issue 11): each is a clear 400 now.
    ("type as a list", "POST", "/api/events", {"type": ["undo"]}, True, {}, 400, "unknown entry type"),
    ("type as an object", "POST", "/api/events", {"type": {"undo": 1}}, True, {}, 400,
     "unknown entry type"),
    ("100k-deep nesting", "POST", "/api/events", "[" * 100_000 + "]" * 100_000, True, {}, 400,
     "nested too deeply"),
    ("5000-digit integer", "POST", "/api/events",
     '{"type": "new_game", "players": ["A"], "start_village": ' + "7" * 5000 + "}", True, {}, 400,
     "not valid JSON"),
    ("lone surrogate in a name", "POST", "/api/events", '{"type": "new_game", "players": ["\\ud800"]}',
     True, {}, 400, "surrogate"),
    ("lone surrogate in a claim", "POST", "/api/events",
     '{"type": "claim", "player": "Mary\\udc00", "village": "A"}', True, {}, 400, "surrogate"),
    ("lone surrogate in the PIN", "POST", "/api/mayor/login", '{"pin": "42424\\ud800"}', False, {},
     400, "surrogate"),
    ("lone surrogate in a seat", "POST", "/api/seats/join", '{"player": "\\ud800"}', False, {}, 400,
     "surrogate"),
    ("superscript X-Expect-Seq", "POST", "/api/events", {"type": "undo"}, True, {"X-Expect-Seq": "²"},
     400, "X-Expect-Seq"),
    ("X-Expect-Seq of 2^63", "POST", "/api/events", {"type": "undo"}, True,
     {"X-Expect-Seq": str(2**63)}, 400, "X-Expect-Seq"),
    ("superscript since", "GET", "/api/log?since=²", None, False, {}, 400, "since"),
    ("since of 2^63", "GET", f"/api/log?since={2**63}", None, False, {}, 400, "since"),
    ("superscript game_id", "GET", "/api/log.jsonl?game_id=²", None, False, {}, 400, "game_id"),
    ("game_id of 2^63", "GET", f"/api/log.jsonl?game_id={2**63}", None, False, {}, 400, "game_id"),
    ("superscript last_event_id", "GET", "/api/stream?last_event_id=²", None, False, {}, 400,
     "Last-Event-ID"),
    ("last_event_id of 2^64", "GET", f"/api/stream?last_event_id={2**64}", None, False, {}, 400,
     "Last-Event-ID"),
    ("stream game_id of 2^63", "GET", f"/api/stream?game_id={2**63}", None, False, {}, 400, "game_id"),
    ("superscript Last-Event-ID header", "GET", "/api/stream", None, False, {"Last-Event-ID": "¹"}, 400,
     "Last-Event-ID"),
    ("import: type as a list", "POST", "/api/import", '{"type": ["new_game"], "players": ["A"]}', True,
     {}, 400, "unknown entry type"),
    ("import: deep nesting", "POST", "/api/import", "[" * 100_000 + "]" * 100_000, True, {}, 400,
     "nested too deeply"),
    ("import: 5000-digit integer", "POST", "/api/import",
     '{"type": "new_game", "players": ["A"], "start_village": ' + "7" * 5000 + "}", True, {}, 400,
     "line 1"),
    ("import: lone surrogate", "POST", "/api/import", '{"type": "new_game", "players": ["\\udfff"]}',
     True, {}, 400, "surrogate"),
    ("look-alike players", "POST", "/api/events", {"type": "new_game", "players": ["Mary", "Mar\u0443"]},
     True, {}, 400, "looks the same"),
    ("name over 24 characters", "POST", "/api/events", {"type": "new_game", "players": ["x" * 200_000]},
     True, {}, 400, "at most 24"),
    ("bad Idempotency-Key", "POST", "/api/events", {"type": "undo"}, True, {"Idempotency-Key": "a b"},
     400, "Idempotency-Key"),
    ("enrollment: no camera", "GET", "/api/deck/enroll", None, False, {}, 503, "no camera"),
]


@pytest.mark.parametrize(
    ("method", "path", "body", "pin", "headers", "status", "words"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_a_refused_request_says_why_and_changes_nothing(
    api: ApiClient, web_services, method: str, path: str, body: Any, pin: bool,
    headers: dict[str, str], status: int, words: str,
) -> None:
    """Each bad or forbidden request gets its status and a JSON reason; the log is unchanged."""
    start_game(api)
    before = log_of(web_services)
    if method == "GET":
        reply = api.get(path, headers=headers)
    elif isinstance(body, str):
        reply = api.post(path, data=body, mayor=pin, headers=headers)
    else:
        reply = api.post(path, body, mayor=pin, headers=headers)
    assert reply.status_code == status
    assert reply.is_json, reply.data[:200]
    assert words.lower() in reply.json["error"].lower()
    assert log_of(web_services) == before
    assert api.get("/api/games").json["current"] == before[0]


def test_an_oversized_body_is_refused(api: ApiClient, web_services) -> None:
    """A body over the size limit is refused with 413 and changes nothing."""
    start_game(api)
    before = log_of(web_services)
    reply = api.post("/api/import", data="x" * (MAX_BODY_BYTES + 1), mayor=True)
    assert reply.status_code == 413 and "error" in reply.json
    assert log_of(web_services) == before


def test_a_refused_import_names_the_line(api: ApiClient) -> None:
    """A refused import names the bad line and creates no game."""
    text = ('{"type": "new_game", "players": ["A"]}\n{"type": "setup_card", "letters": "CEBAEDCDAB"}\n'
            '{"type": "claim", "player": "A", "village": "A"}\n')
    reply = api.post("/api/import", data=text, mayor=True)
    assert reply.status_code == 400 and reply.json["line"] == 3
    assert api.get("/api/games").json["games"] == []


def test_entries_before_any_game_are_refused(api: ApiClient, web_services) -> None:
    """Entries before any new_game are refused and nothing is stored."""
    reply = api.entry({"type": "reveal", "cards": ["desert", "water"]}, mayor=True)
    assert reply.status_code == 400 and "new_game" in reply.json["error"]
    assert api.get("/api/log.jsonl").status_code == 404
    assert log_of(web_services) == (None, 0, [])


def test_page_errors_stay_html_but_api_errors_are_json(api: ApiClient) -> None:
    """Unknown pages give an HTML 404, unknown API paths a JSON one."""
    reply = api.get("/no-such-page")
    assert reply.status_code == 404 and not reply.is_json
