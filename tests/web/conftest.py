"""Fixtures of the web tests: services in a temp folder, the app, and API clients (one per phone)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.store import LogStore
from companion.table import Table
from tests.web.browser import CHROMIUM, CHROMIUM_ARGS, served
from web.app import create_app
from web.seat_modes import SeatModes
from web.security import CSRF_COOKIE, CSRF_HEADER, PIN_HEADER, SeatBook, Security
from web.services import Services
from web.stream import StreamHub

PIN = "424242"
TEST_KEEPALIVE_S = 0.2  # short keep-alives so stream tests see one within their time bound


class FakeClock:
    """A clock the test moves by hand (for the PIN lockout)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class ApiClient:
    """One browser: a Flask test client with its own cookies, sending the CSRF header like a page."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.client.get("/api/session")  # a page load: the browser now holds the CSRF cookie

    @property
    def csrf(self) -> str:
        """The CSRF token from this client's cookie, or empty before any page was loaded."""
        cookie = self.client.get_cookie(CSRF_COOKIE)
        return cookie.value if cookie else ""

    def get(self, path: str, **kwargs: Any) -> Any:
        """GET the path with the underlying test client."""
        return self.client.get(path, **kwargs)

    def post(self, path: str, body: Any = None, *, mayor: bool = False, csrf: bool = True,
             headers: dict[str, str] | None = None, data: str | bytes | None = None) -> Any:
        """POST JSON with the CSRF token, and the Mayor PIN header when asked."""
        sent = dict(headers or {})
        if csrf:
            sent.setdefault(CSRF_HEADER, self.csrf)
        if mayor:
            sent.setdefault(PIN_HEADER, PIN)
        if data is None:
            data = json.dumps(body) if body is not None else ""
        return self.client.post(path, data=data, headers=sent, content_type="application/json")

    def entry(self, entry: dict[str, Any], **kwargs: Any) -> Any:
        """POST one log entry to the events API."""
        return self.post("/api/events", entry, **kwargs)


@pytest.fixture
def clock() -> FakeClock:
    """A fake clock the tests move by hand."""
    return FakeClock()


@pytest.fixture
def web_services(tmp_path: Path, clock: FakeClock) -> Iterator[Services]:
    """Store, table, stream hub and security in a temporary folder, closed afterwards."""
    store = LogStore(tmp_path / "tucana.sqlite3", durable=False)  # the fast store: no test here pulls the plug
    table = Table(store)
    seat_modes = SeatModes(tmp_path / "seat-modes.json")
    hub = StreamHub(table, keepalive_s=TEST_KEEPALIVE_S, picks=seat_modes.picks)
    security = Security(PIN, SeatBook(tmp_path / "seats.json", clock=clock), clock=clock)
    services = Services(store=store, table=table, hub=hub, security=security, seat_modes=seat_modes)
    yield services
    services.close()


@pytest.fixture
def web_app(web_services: Services) -> Flask:
    """The Flask app in testing mode over the test services."""
    return create_app({"TESTING": True}, services=web_services)


@pytest.fixture
def api(web_app: Flask) -> ApiClient:
    """The Mayor's console (sends the PIN when asked to)."""
    return ApiClient(web_app.test_client())


@pytest.fixture
def phone(web_app: Flask) -> ApiClient:
    """A player's phone, with cookies of its own."""
    return ApiClient(web_app.test_client())


@pytest.fixture
def other_phone(web_app: Flask) -> ApiClient:
    """A second player's phone."""
    return ApiClient(web_app.test_client())


def start_game(api: ApiClient, players: list[str] | None = None, **options: Any) -> None:
    """New game with a set-up card, through the API as the Mayor."""
    new = {"type": "new_game", "players": players or ["Mary", "David"], **options}
    assert api.entry(new, mayor=True).status_code == 201
    assert api.entry({"type": "setup_card", "letters": "CEBAEDCDAB"}, mayor=True).status_code == 201


def log_of(services: Services) -> tuple[int | None, int, list[str]]:
    """The current game id, seq and every stored log line: a refused request must leave it as is."""
    game_id = services.table.game_id
    lines = services.store.export_jsonl(game_id).splitlines() if game_id is not None else []
    return game_id, services.table.seq, lines


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Services]]:
    """The real app on a loopback port in a thread, with its services (for the browser tests)."""
    with served(tmp_path) as found:
        yield found


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (never a downloaded browser), launched once per run."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    """The shared Chromium for one test: its contexts are closed after it, and no page may throw."""
    chromium.page_errors = []  # uncaught script errors of every page of this test
    try:
        yield chromium
        assert chromium.page_errors == []
    finally:
        for context in chromium.contexts:
            context.close()
