"""Helpers of the browser tests: Debian's Chromium, a phone-sized context, the app on a loopback port.

Every wait is a condition with a generous bound: on a busy 2-core CI machine a live update can
take seconds, and a bound that only matters when the test fails costs nothing when it passes.
"""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from web.app import create_app
from web.services import Services, build_services

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}  # a common phone viewport, CSS pixels
PHONES = {"360x740": {"width": 360, "height": 740}, "390x844": PHONE}  # a small phone and a common one
TABLE = {"width": 1280, "height": 800}  # a laptop, tablet or small TV: the console and the table display
LOCALES = {"en": "en-GB", "fr": "fr-FR", "es": "es-ES"}  # a browser in each language of the pages
WAIT_MS = 30_000  # longest wait for a page to show a live update: a loaded CI machine, not a phone
HTTP_TIMEOUT_S = 30.0  # a test's own API call to the server in its thread, on that same machine
KEEPALIVE_S = 1.0  # stream keep-alives: a page's dead stream shows within a second
SHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
# Records each navigator.vibrate call so a test can see the round-end buzz.
VIBRATE_SPY = "navigator.vibrate = (p) => { (window.__buzz = window.__buzz || []).push(p); return true; };"
# Turns anything the Content-Security-Policy blocks into a page error, so every browser test fails on it.
CSP_WATCH = ("document.addEventListener('securitypolicyviolation', (e) => setTimeout(() => { "
             "throw new Error('CSP blocked ' + e.effectiveDirective + ' ' + e.blockedURI); }));")

NEEDS_CHROMIUM = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium "
                       "(apt-get install chromium); CI installs it"),
]


def phone_context(browser: Any, base: str, lang: str = "en-GB", viewport: dict[str, int] = PHONE) -> Any:
    """A phone-sized browser context on the app, its script errors collected on the browser."""
    context = browser.new_context(viewport=viewport, locale=lang, base_url=base, has_touch=True)
    context.add_init_script(VIBRATE_SPY)
    context.add_init_script(CSP_WATCH)
    context.on("weberror", lambda error: browser.page_errors.append(str(error.error)))
    context.set_default_timeout(WAIT_MS)
    return context


@contextmanager
def serve(services: Services) -> Iterator[str]:
    """The real app over these services on a loopback port in a thread; yields its base URL."""
    from werkzeug.serving import make_server

    app = create_app({"TESTING": True}, services=services)
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        services.hub.close()  # ends the open streams so their threads finish
        httpd.shutdown()
        services.close()


@contextmanager
def served(tmp_path: Path, *, rig: bool = False, **rig_options: Any) -> Iterator[tuple[str, Services]]:
    """The app over fresh services in tmp_path/data; with rig, also the real rig, started.

    The rig looks at the virtual table with gpiozero's mock pins and no speech; rig_options go
    to hardware.rig.build_rig (a virtual table of other cards, a deck folder).
    """
    services = build_services(tmp_path / "data", keepalive_s=KEEPALIVE_S, durable=False)
    if rig:
        from hardware.config import PinMap
        from hardware.rig import build_rig

        options = {"speech": False, **rig_options}
        services.use_rig(build_rig("virtual", "mock", PinMap(), "en", services.table, time.monotonic,
                                 random.Random(7), **options))
        services.rig.start()
    with serve(services) as base:
        yield base, services


def unlock_console(page: Any, pin: str) -> None:
    """Open the Mayor console and unlock it with the PIN."""
    page.goto("/mayor")
    page.fill("#pin", pin)
    page.press("#pin", "Enter")


def submit(table: Any, *entries: dict) -> None:
    """Add contract-1 entries straight to the table, as any screen would (the pages follow live)."""
    from companion.moves import parse_entry

    for entry in entries:
        table.submit(parse_entry(entry))


def wait_uncircled(page: Any, sight: str) -> None:
    """Wait until the pad circles no value of a sight (an undone claim redrawn).

    Waiting for a `.next` value that is not circled would not do: right after the claim, the
    sight's second value is exactly that.
    """
    page.wait_for_function(
        "(sight) => !document.querySelector(`#sight-rows button[data-sight=\"${sight}\"].circled`)", arg=sight)


def stored_claims(page: Any, base: str, count: int) -> list[dict[str, Any]]:
    """The claims in the server's log once it holds `count` of them (bounded wait).

    A pad draws a claim circled as it is sent, before the server has stored it, so a circled
    button alone does not say the log has the claim yet.
    """
    claims: list[dict[str, Any]] = []
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        with urllib.request.urlopen(base + "/api/log?since=0", timeout=HTTP_TIMEOUT_S) as response:
            entries = json.loads(response.read())["entries"]
        claims = [e["entry"] for e in entries if e["entry"]["type"] == "claim"]
        if len(claims) >= count:
            break
        page.wait_for_timeout(100)  # waiting in the page pumps Playwright's events meanwhile
    return claims


def post_as_mayor(base: str, pin: str, path: str, body: dict) -> dict:
    """POST a JSON body to the API with the Mayor's PIN; the answer's JSON."""
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), method="POST",
        headers={"X-Mayor-Pin": pin, "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT_S) as response:
        return json.loads(response.read())
