"""Headless Chromium enrolls a WOODCUT-style card from the Mayor console, then forgets it."""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hardware.conftest import WoodcutTable
from tests.web.test_browser import CHROMIUM, _phone, browser  # noqa: F401  (browser is a fixture)
from web.app import create_app
from web.services import build_services

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


@pytest.fixture()
def woodcut_server(tmp_path: Path) -> Iterator[tuple[str, object]]:
    """The app with the real rig, started, on a virtual table of WOODCUT cards; deck in data/deck."""
    from werkzeug.serving import make_server

    from hardware.config import PinMap
    from hardware.rig import build_rig

    services = build_services(tmp_path / "data", keepalive_s=1.0)
    table = WoodcutTable(random.Random(5), size=(640, 360), hand_reads=0, clear_reads=0)
    rig = build_rig("virtual", "mock", PinMap(), "en", services.table, time.monotonic, random.Random(7),
                    speech=False, virtual=table, deck_dir=tmp_path / "data" / "deck")
    rig.start()
    services.rig = rig
    app = create_app({"TESTING": True}, services=services)
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}", services
    finally:
        services.hub.close()
        httpd.shutdown()
        services.close()


def _lay(base: str, pin: str, cards: list[str]) -> None:
    request = urllib.request.Request(base + "/api/table/lay", data=json.dumps({"cards": cards}).encode(),
                                     method="POST", headers={"X-Mayor-Pin": pin, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5):
        pass


def test_the_console_enrolls_a_card_and_forgets_it(woodcut_server, browser) -> None:  # noqa: F811
    base, services = woodcut_server
    pin = services.security.pin
    mayor = _phone(browser, base).new_page()
    mayor.goto("/mayor")
    mayor.fill("#pin", pin)
    mayor.press("#pin", "Enter")
    _lay(base, pin, ["desert"])
    mayor.click("#enroll-open")
    mayor.wait_for_function("() => document.querySelector('#enroll-progress').textContent.includes('0 photo')")
    assert mayor.inner_text("#enroll-card") == "Desert"  # the first card with no photo
    assert mayor.is_disabled("#enroll-forget")
    deadline = time.monotonic() + 5
    while services.rig.scanner.last_frame is None and time.monotonic() < deadline:
        time.sleep(0.05)
    mayor.click("#enroll-capture")
    mayor.wait_for_function("() => document.querySelector('#enroll-result').textContent.includes('1 photo')")
    assert mayor.inner_text("#enroll-card") == "Forest"  # on to the next card
    mayor.click("#enroll-capture")  # the desert still lies there: refused, the reason shown
    mayor.wait_for_function("() => document.querySelector('#enroll-result').textContent.includes('still sees')")
    assert services.rig.enrollment()["enrolled"] == {"desert": 1}
    mayor.click("#enroll-back")
    assert not mayor.is_disabled("#enroll-forget")
    mayor.click("#enroll-forget")
    mayor.wait_for_function("() => document.querySelector('#enroll-result').textContent.includes('forgotten')")
    assert services.rig.enrollment()["enrolled"] == {}
