"""A Hypothesis fuzz test over the JSON API: never a 500, and a refused request changes nothing.

Bodies are entry-shaped objects with wrong types, huge numbers, lone surrogates and deep nesting,
or any JSON at all, or raw text; headers and query values are any Latin-1 text. The app keeps its
state across examples (a game is under way), so accepted requests move the game along.
"""

from __future__ import annotations

import json
import os
from typing import Any

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.moves import ENTRY_TYPES
from tests.web.conftest import PIN, ApiClient, log_of, start_game
from web.services import Services

# Examples per test: a few seconds of the default run. TUCANA_FUZZ_EXAMPLES=2000 digs deeper.
EXAMPLES = int(os.environ.get("TUCANA_FUZZ_EXAMPLES", "120"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
ODD_TEXT = ["\ud800", "Mary\udfff", "²", "¹²", "\u2028", "\u0085", "\x00", "constructor", "__proto__",
            "Mary", "David", "M\u0430ry", "x" * 300, "", " ", "\u200b"]
NAMES = ["players", "cards", "player", "sight", "village", "red", "letters", "sights",
         "island", "start_village", "special_bonus", "direction", "symmetric", "pin", "extra"]

texts = st.one_of(st.sampled_from(ODD_TEXT), st.text(max_size=30))
numbers = st.one_of(st.integers(), st.integers(min_value=2**62, max_value=2**80), st.floats(allow_nan=False))
scalars = st.one_of(st.none(), st.booleans(), numbers, texts,
                    st.sampled_from(list(ENTRY_TYPES)), st.sampled_from(["desert", "water", "any", "A", "yeti"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(texts, inner, max_size=4)), max_leaves=12)
entries = st.fixed_dictionaries({"type": st.one_of(st.sampled_from(list(ENTRY_TYPES)), values)},
                                optional={name: values for name in NAMES})
headers = st.text(alphabet=st.characters(max_codepoint=255, exclude_categories=("Cc",)), max_size=25)


VALID = [
    {"type": "reveal", "cards": ["desert", "water"]}, {"type": "reveal", "cards": ["forest", "any"]},
    {"type": "claim", "player": "David", "village": "A"}, {"type": "claim", "player": "Mary", "sight": "yeti"},
    {"type": "claim", "player": "Mary", "red": "book"}, {"type": "undo"}, {"type": "end_game"},
    {"type": "setup_card", "letters": "CEBAEDCDAB"}, {"type": "solo_keep", "letters": ["A", "C"]},
    {"type": "new_game", "players": ["Mary", "David"]}, {"player": "David"}, {"pin": PIN},
]


@st.composite
def near_misses(draw: st.DrawFn) -> dict:
    """A well-formed body (an entry, a seat, a PIN), often with one field made wrong."""
    doc = dict(draw(st.sampled_from(VALID)))
    if draw(st.booleans()):
        doc[draw(st.sampled_from([*doc, *NAMES]))] = draw(values)
    return doc


def _json_text(doc: Any) -> str:
    """JSON text that may hold lone surrogates (escaped, as a client would send them)."""
    return json.dumps(doc, ensure_ascii=True)


bodies = st.one_of(
    near_misses().map(_json_text),
    near_misses().map(_json_text),
    entries.map(_json_text),
    values.map(_json_text),
    st.text(max_size=60),
    st.integers(min_value=1, max_value=50_000).map(lambda n: "[" * n + "]" * n),
    st.integers(min_value=4000, max_value=6000).map(lambda n: '{"type": "undo", "x": ' + "9" * n + "}"),
)
POSTS = ["/api/events", "/api/seats/join", "/api/seats/free", "/api/mayor/login", "/api/import",
         "/api/seats/leave", "/api/mayor/logout"]


def everything(services: Services) -> tuple:
    """The state a request could change."""
    game_id = services.table.game_id
    return (log_of(services), len(services.store.games()), services.security.seats.holders(game_id),
            services.security.sessions.count)


def _check(reply: Any, before: tuple, services: Services) -> None:
    assert reply.status_code < 500, reply.get_data()[:300]
    if reply.status_code >= 400:
        assert everything(services) == before


@FUZZ
@given(path=st.sampled_from(POSTS), body=bodies, mayor=st.booleans(),
       expect=st.none() | st.none() | st.integers(0, 8).map(str) | headers,
       key=st.none() | st.none() | st.text("0123456789abcdef", min_size=8, max_size=8) | headers)
def test_no_post_gets_a_500_and_a_refusal_changes_nothing(
    web_app: Flask, web_services: Services, path: str, body: str, mayor: bool, expect: str | None,
    key: str | None,
) -> None:
    """Any body, PIN or not, any X-Expect-Seq and Idempotency-Key: a clear answer every time."""
    client = ApiClient(web_app.test_client())
    if web_services.table.game_id is None or web_services.table.state.ended:
        start_game(client)
    sent = {"X-Expect-Seq": expect, "Idempotency-Key": key}
    extra = {name: value for name, value in sent.items() if value is not None}
    before = everything(web_services)
    reply = client.post(path, data=body, mayor=mayor, headers=extra)
    _check(reply, before, web_services)


@FUZZ
@given(docs=st.lists(near_misses(), min_size=1, max_size=6), expect=st.none() | st.integers(0, 9))
def test_entries_near_the_rules_get_a_clear_answer(web_app: Flask, web_services: Services, docs: list[dict],
                                                   expect: int | None) -> None:
    """Runs of entries as the Mayor, mostly well-formed: 201, or a 4xx that changes nothing."""
    client = ApiClient(web_app.test_client())
    if web_services.table.game_id is None or web_services.table.state.ended:
        start_game(client)
    for doc in docs:
        extra = {"X-Expect-Seq": str(web_services.table.seq + expect % 2)} if expect is not None else {}
        before = everything(web_services)
        _check(client.entry(doc, mayor=True, headers=extra), before, web_services)


@FUZZ
@given(since=headers, game_id=headers, last=headers)
def test_no_query_gets_a_500(web_app: Flask, web_services: Services, since: str, game_id: str, last: str) -> None:
    """Any since, game_id or Last-Event-ID: 200 or a 4xx, never a 500; nothing changes."""
    client = web_app.test_client()
    before = everything(web_services)
    for path, params in (("/api/log", {"since": since}), ("/api/log.jsonl", {"game_id": game_id}),
                         ("/api/stream", {"last_event_id": last, "game_id": game_id})):
        reply = client.get(path, query_string=params, buffered=False)
        reply.close()  # a stream that opened is closed at once
        assert reply.status_code < 500
    reply = client.get("/api/stream", headers={"Last-Event-ID": last}, buffered=False)
    reply.close()
    assert reply.status_code < 500
    assert everything(web_services) == before


def test_the_fuzzed_game_is_still_a_game(web_app: Flask, web_services: Services) -> None:
    """After fuzzing, the stored log replays to the state the table holds (nothing half-stored)."""
    from companion.game import Game

    client = ApiClient(web_app.test_client())
    start_game(client)
    client.entry({"type": "reveal", "cards": ["desert", "water"]}, headers={"X-Mayor-Pin": PIN})
    entries = [e for _, e in web_services.table.log_since(0)]
    assert Game.replay(entries).state == web_services.table.state
