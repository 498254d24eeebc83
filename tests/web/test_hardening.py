"""Clear refusals, nothing lost: a full disk, races over HTTP, names, and the security headers."""

from __future__ import annotations

import errno
import os
import threading

import pytest
from flask import Flask

from companion.store import LogStore
from tests.web.conftest import PIN, ApiClient, log_of, start_game
from web.app import CONTENT_SECURITY_POLICY
from web.services import Services
from web.sessions import MayorSessions

HTTP_RACE_TRIES = 60  # each try is four requests through Flask: the engine's test runs 1000
REVEAL = {"type": "reveal", "cards": ["desert", "water"]}


def _fill_disk(store: LogStore) -> None:
    """Make SQLite's file unable to grow, as a full SD card does (SQLITE_FULL)."""
    (pages,) = store._db.execute("PRAGMA page_count").fetchone()
    store._db.execute(f"PRAGMA max_page_count = {pages}")


def _no_space(*args: object) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_is_a_507_a_person_can_act_on(api: ApiClient, web_services: Services) -> None:
    """Entries refused on a full disk: 507 naming the storage, log and state unchanged."""
    start_game(api)
    api.entry(REVEAL, mayor=True)
    _fill_disk(web_services.store)
    before = log_of(web_services), web_services.table.snapshot()
    reply = None
    for n in range(300):  # the last free page of the file fills first
        entry = {"type": "undo"} if n % 2 else {"type": "claim", "player": "David", "sight": "yeti"}
        reply = api.entry(entry, mayor=True, headers={"Idempotency-Key": f"entry-{n:04d}" + "x" * 100})
        if reply.status_code != 201:
            break
        before = log_of(web_services), web_services.table.snapshot()
    assert reply.status_code == 507
    assert "storage is full" in reply.json["error"] and "free some space" in reply.json["error"]
    assert (log_of(web_services), web_services.table.snapshot()) == before


def test_a_seat_refused_on_a_full_disk_stays_free(api: ApiClient, phone: ApiClient, web_services: Services,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat book could not save: 507, the seat is not taken, the same phone gets it later."""
    start_game(api)
    monkeypatch.setattr("web.private_files.os.fsync", _no_space)
    reply = phone.post("/api/seats/join", {"player": "David"})
    assert reply.status_code == 507 and "storage is full" in reply.json["error"]
    assert web_services.security.seats.taken(web_services.table.game_id) == set()
    monkeypatch.undo()
    assert phone.post("/api/seats/join", {"player": "David"}).status_code == 200


def test_a_login_refused_on_a_full_disk_opens_no_session(api: ApiClient, web_services: Services,
                                                         monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """The session could not be kept: 507 and no session, so no cookie that works only until a restart."""
    web_services.security.sessions = MayorSessions(tmp_path / "mayor-sessions.json")
    monkeypatch.setattr("web.private_files.os.fsync", _no_space)
    reply = api.post("/api/mayor/login", {"pin": PIN})
    assert reply.status_code == 507 and web_services.security.sessions.count == 0


def test_racing_consoles_over_http_add_one_entry_per_seq(web_app: Flask, web_services: Services) -> None:
    """Two consoles' reveals, an undo and a claim, all expecting the same seq: one gets in."""
    console = ApiClient(web_app.test_client())
    start_game(console)
    console.entry(REVEAL, mayor=True)
    bodies = [{"type": "reveal", "cards": ["forest", "water"]}] * 2 + [
        {"type": "undo"}, {"type": "claim", "player": "David", "sight": "toucan"}]
    clients = [ApiClient(web_app.test_client()) for _ in bodies]
    for _ in range(HTTP_RACE_TRIES):
        seq = web_services.table.seq
        start = threading.Barrier(len(bodies))
        codes: list[int] = []

        def send(client: ApiClient, body: dict, seq: int = seq, start: threading.Barrier = start,
                 codes: list[int] = codes) -> None:
            start.wait()
            codes.append(client.entry(body, mayor=True, headers={"X-Expect-Seq": str(seq)}).status_code)

        threads = [threading.Thread(target=send, args=pair) for pair in zip(clients, bodies, strict=True)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        # One gets in; the rest are stale (409), or the rules refused one that came first (400).
        assert codes.count(201) == 1 and set(codes) <= {201, 400, 409}
        assert web_services.table.seq == seq + 1
        if web_services.table.state.reveals > 3:  # keep the deck and the round far from their ends
            console.entry({"type": "undo"}, mayor=True)


def test_names_are_cleaned_and_look_alikes_refused_through_the_api(api: ApiClient, phone: ApiClient) -> None:
    """A zero-width space is dropped; a seat asked for by the uncleaned name is the cleaned one's."""
    reply = api.entry({"type": "new_game", "players": ["Mary\u200b", " David "]}, mayor=True)
    assert reply.status_code == 201 and reply.json["state"]["players"] == ["Mary", "David"]
    assert phone.post("/api/seats/join", {"player": "Mary\u200b"}).json["seat"] == "Mary"
    refused = api.entry({"type": "new_game", "players": ["Mary", "M\u0430ry"]}, mayor=True)
    assert refused.status_code == 400 and "looks the same" in refused.json["error"]


@pytest.mark.parametrize("path", ["/", "/table", "/mayor", "/play", "/api/state", "/assets/js/common.js",
                                  "/api/nope", "/healthz"])
def test_every_answer_carries_the_security_headers(api: ApiClient, path: str) -> None:
    """Pages, API, assets and errors: CSP, no framing, no sniffing."""
    reply = api.get(path)
    assert reply.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY and "script-src 'self'" in CONTENT_SECURITY_POLICY
    assert reply.headers["X-Frame-Options"] == "DENY"
    assert reply.headers["X-Content-Type-Options"] == "nosniff"


def test_no_page_needs_inline_script_or_style(api: ApiClient) -> None:
    """The CSP forbids inline code: the pages carry none (the start-up JSON is data, not script)."""
    start_game(api)
    for path in ("/", "/table", "/mayor", "/play", "/play/1"):
        html = api.get(path).get_data(as_text=True)
        assert " style=" not in html and " onclick=" not in html and "<style" not in html
        for tag in html.split("<script")[1:]:
            head = tag.split(">", 1)[0]
            assert " src=" in head or 'type="application/json"' in head, head
