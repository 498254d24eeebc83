"""Headless Chromium enrolls a WOODCUT-style card from the Mayor console, then forgets it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hardware.conftest import SMALL_FRAME, WoodcutTable, wait_for
from tests.web.browser import NEEDS_CHROMIUM, phone_context, post_as_mayor, served, unlock_console
from web.services import Services

pytestmark = NEEDS_CHROMIUM


@pytest.fixture()
def woodcut_server(tmp_path: Path) -> Iterator[tuple[str, Services]]:
    """The app with the real rig, started, on a virtual table of WOODCUT cards; deck in data/deck."""
    table = WoodcutTable(random.Random(5), size=SMALL_FRAME, hand_reads=0, clear_reads=0)
    with served(tmp_path, rig=True, virtual=table, deck_dir=tmp_path / "data" / "deck") as found:
        yield found


def test_the_console_enrolls_a_card_and_forgets_it(woodcut_server, browser) -> None:
    """The console captures a card photo, refuses one while it still lies there, and forgets it."""
    base, services = woodcut_server
    pin = services.security.pin
    mayor = phone_context(browser, base).new_page()
    unlock_console(mayor, pin)
    post_as_mayor(base, pin, "/api/table/lay", {"cards": ["desert"]})
    laid = services.rig.scanner.status().frames
    mayor.click("#enroll-open")
    mayor.wait_for_function("() => document.querySelector('#enroll-progress').textContent.includes('0 photo')")
    assert mayor.inner_text("#enroll-card") == "Desert"  # the first card with no photo
    assert mayor.is_disabled("#enroll-forget")
    # Two frames more: the one being read while the card was laid may still show the empty mat.
    assert wait_for(lambda: services.rig.scanner.status().frames >= laid + 2)
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
