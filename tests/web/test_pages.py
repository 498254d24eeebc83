"""The pages over Flask's test client: languages, seats, escaping, QR codes, the island sketch."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from companion.errors import REFUSALS as RULE_REFUSALS
from companion.moves import Island, parse_entry
from hardware.errors import REFUSALS as HARDWARE_REFUSALS
from tests.conftest import ROUND_CARDS
from web import i18n
from web.app import create_app
from web.errors import REFUSALS as WEB_REFUSALS
from web.island import island_svg
from web.join import join_url, lan_address, qr_svg, wifi_qr_svg, wifi_text
from web.services import build_services
from web.settings import Hotspot, Settings

WEB = Path(__file__).resolve().parents[2] / "web"
EVIL = '<script>alert()</script>'  # 24 characters: the cap on a name


@pytest.fixture()
def services(tmp_path):
    """Real services over a temporary data folder."""
    built = build_services(tmp_path / "data", durable=False)
    yield built
    built.close()


@pytest.fixture()
def client(services):
    """A test client of the whole app."""
    return create_app({"TESTING": True}, services=services).test_client()


def _play(services, *entries: dict) -> None:
    for obj in entries:
        services.table.submit(parse_entry(obj))


def _start(services, players=("Mary", "David"), **options) -> None:
    _play(services, {"type": "new_game", "players": list(players), **options},
          {"type": "setup_card", "letters": "CEBAEDCDAB"})


def _config(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="tucana-config">(.*?)</script>', html, re.S)
    assert found, "the page carries its start-up JSON"
    return json.loads(found.group(1))


@pytest.mark.parametrize("path", ["/", "/table", "/mayor", "/play", "/play/1"])
@pytest.mark.parametrize(("accept", "lang", "word"), [
    ("en-GB,en;q=0.9", "en", "Tucana Companion"),
    ("fr-FR,fr;q=0.9,en;q=0.5", "fr", "Tucana Compagnon"),
    ("es-MX,es;q=0.8", "es", "Tucana Compañero"),
    ("de-DE,de;q=0.9", "en", "Tucana Companion"),
])
def test_every_page_renders_in_the_browser_language(services, client, path, accept, lang, word) -> None:
    """Each page is served in the language the browser asks for, in lang and in its words."""
    _start(services)
    response = client.get(path, headers={"Accept-Language": accept})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert f'<html lang="{lang}">' in html
    assert word in html


def test_the_scripts_get_the_texts_of_the_page_language(services, client) -> None:
    """The start-up JSON carries the texts of the page's language, the state and the seat."""
    _start(services)
    html = client.get("/play/1", headers={"Accept-Language": "es"}).get_data(as_text=True)
    config = _config(html)
    assert config["i18n"]["announce.pair"] == "¡{a} y {b}!"
    assert config["i18n"]["terrain.water"] == "Agua"
    assert config["state"]["phase"] == "setup"
    assert config["me"] == "Mary" and config["seat"] == 1


def test_the_language_switch_is_a_cookie_that_beats_the_browser(client) -> None:
    """The language link sets a cookie, redirects back, and the cookie beats Accept-Language."""
    response = client.get("/lang/fr?next=/table")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/table")
    assert "tucana_lang=fr" in response.headers["Set-Cookie"]
    html = client.get("/table", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert '<html lang="fr">' in html and "Rejoindre la partie" in html


@pytest.mark.parametrize("target", ["//evil.example/x", "http://evil.example/", "javascript:alert(1)", "table"])
def test_the_language_switch_only_goes_back_to_this_site(client, target) -> None:
    """The language link refuses to redirect to another site and goes home instead."""
    response = client.get("/lang/es", query_string={"next": target})
    assert response.status_code == 302
    assert response.headers["Location"] in ("/", "http://localhost/")


def test_an_unknown_language_changes_nothing(client) -> None:
    """An unsupported language code sets no language cookie."""
    response = client.get("/lang/xx?next=/")
    assert "tucana_lang" not in response.headers.get("Set-Cookie", "")


def test_the_seat_page_lists_the_players_escaped(services, client) -> None:
    """Player names are HTML-escaped on the seat page while the JSON keeps the real name."""
    _start(services, players=("Mary", EVIL, "Zoë & Co"))
    html = client.get("/play").get_data(as_text=True)
    assert EVIL not in html  # neither in the buttons nor in the start-up JSON
    assert "&lt;script&gt;alert()&lt;/script&gt;" in html
    assert "Zoë &amp; Co" in html
    assert _config(html)["state"]["players"][1] == EVIL  # the JSON still carries the real name
    assert html.count('data-seat="') == 3


def test_the_phone_page_escapes_the_player_name(services, client) -> None:
    """A hostile player name never reaches the phone page unescaped."""
    _start(services, players=(EVIL, "David"))
    html = client.get("/play/1").get_data(as_text=True)
    assert EVIL not in html
    assert "&lt;script&gt;" in html


def test_the_seat_page_before_any_game_says_to_wait(client) -> None:
    """With no game started the seat page shows the waiting notice and no seat buttons."""
    html = client.get("/play").get_data(as_text=True)
    assert 'id="no-game"' in html and "data-seat" not in html


@pytest.mark.parametrize("seat", [0, 3, 99])
def test_a_seat_that_does_not_exist_goes_back_to_seat_picking(services, client, seat) -> None:
    """A phone page for a seat outside the game redirects to seat picking."""
    _start(services)
    response = client.get(f"/play/{seat}")
    assert response.status_code == 302 and response.headers["Location"].endswith("/play")


def test_a_phone_page_knows_whether_this_phone_holds_the_seat(services, client) -> None:
    """Only the phone that joined a seat sees it as its own, on the phone page and seat list."""
    _start(services)
    assert _config(client.get("/play/2").get_data(as_text=True))["is_mine"] is False
    token = client.get_cookie("tucana_csrf").value
    joined = client.post("/api/seats/join", json={"player": "David"}, headers={"X-CSRF-Token": token})
    assert joined.status_code == 200
    html = client.get("/play/2").get_data(as_text=True)
    assert _config(html)["is_mine"] is True and 'id="not-mine"' not in html
    assert _config(client.get("/play/1").get_data(as_text=True))["is_mine"] is False
    seats = client.get("/play").get_data(as_text=True)
    assert re.search(r'data-seat="2" data-name="David" class="primary"', seats)


def test_the_phone_page_draws_the_island_of_the_game(services, client) -> None:
    """The phone page draws every hex and the ten villages of the chosen island."""
    _start(services, island="grande")
    html = client.get("/play/1").get_data(as_text=True)
    assert html.count('class="hex ') == 104
    assert html.count('data-village="') == 10


def test_the_mayor_console_hides_the_pin_and_offers_the_set_up_cards(services, client) -> None:
    """Without login the console hides the PIN but lists the 13 set-up cards and the card ids."""
    html = client.get("/mayor").get_data(as_text=True)
    config = _config(html)
    assert config["is_mayor"] is False and config["pin"] is None
    assert services.security.pin not in json.dumps(config)
    assert html.count('class="setup-card"') == 13
    assert 'data-letters="CEBAEDCDAB"' in html
    assert config["red_counts"] == {str(n): (2 if n >= 5 else 1) for n in range(1, 9)}
    assert len(config["card_ids"]) == 33 and config["card_ids"][5] == "blue-A1"


def test_the_mayor_console_opens_with_the_mayor_cookie(services, client) -> None:
    """After a PIN login the console knows the Mayor and shows the PIN to the Mayor only."""
    client.get("/mayor")
    token = client.get_cookie("tucana_csrf").value
    login = client.post("/api/mayor/login", json={"pin": services.security.pin},
                        headers={"X-CSRF-Token": token})
    assert login.status_code == 200
    config = _config(client.get("/mayor").get_data(as_text=True))
    assert config["is_mayor"] is True
    assert config["pin"] == services.security.pin  # the console shows it to the Mayor only


def test_every_api_path_the_scripts_call_exists(client) -> None:
    """Every API address handed to the scripts is present and the readable ones answer 200."""
    urls = _config(client.get("/mayor").get_data(as_text=True))["api"]
    assert {"state", "stream", "events", "claim", "seats", "mayor_login", "export", "log"} <= set(urls)
    assert client.get(urls["state"]).status_code == 200
    assert client.get(urls["log"]).status_code == 200


def test_the_table_display_shows_a_join_code_by_ip_address(services, client) -> None:
    """Without a hotspot the table shows one QR code of the join link by IP address."""
    html = client.get("/table", base_url="http://192.168.4.1:8000").get_data(as_text=True)
    assert "http://192.168.4.1:8000/play" in html
    assert qr_svg("http://192.168.4.1:8000/play", "http://192.168.4.1:8000/play") in html
    assert "WIFI:" not in html and html.count('class="qr"') == 1  # no hotspot configured


def test_the_table_display_shows_the_wifi_code_when_the_hotspot_is_on(services, client) -> None:
    """With the hotspot on, the table display shows a Wi-Fi QR code and the network name."""
    services.settings = replace(Settings(), hotspot=Hotspot(enabled=True, ssid="Tucana", password="toucan123"))
    html = client.get("/table").get_data(as_text=True)
    assert qr_svg(wifi_text("Tucana", "toucan123"), "Tucana") in html
    assert "Wi-Fi: Tucana" in html


class _Request:
    def __init__(self, host: str) -> None:
        self.host, self.scheme = host, "http"


@pytest.mark.parametrize(("host", "addresses", "expected"), [
    ("localhost:8000", ["100.64.0.5", "10.42.0.1"], "http://10.42.0.1:8000/play"),
    ("127.0.0.1:8000", ["100.64.0.5"], "http://100.64.0.5:8000/play"),
    ("[::1]:8000", ["10.42.0.1"], "http://10.42.0.1:8000/play"),
    ("localhost", ["10.42.0.1"], "http://10.42.0.1/play"),
    ("localhost:8000", [], "http://localhost:8000/play"),
    ("10.42.0.1:8000", ["192.168.1.5"], "http://10.42.0.1:8000/play"),
])
def test_the_join_url_uses_an_ip_address_phones_can_reach(host, addresses, expected) -> None:
    """The join link swaps a name or loopback host for a LAN address phones can reach."""
    assert join_url(_Request(host), None, "/play", addresses) == expected


def test_lan_address_prefers_a_private_address() -> None:
    """A private LAN address is preferred over others, and no address gives None."""
    assert lan_address(["100.64.0.7", "192.168.4.1"]) == "192.168.4.1"
    assert lan_address([]) is None


@pytest.mark.parametrize(("ssid", "password", "text"), [
    ("Tucana", "toucan123", "WIFI:T:WPA;S:Tucana;P:toucan123;;"),
    ('My;Net,"x"', "a:b\\c", 'WIFI:T:WPA;S:My\\;Net\\,\\"x\\";P:a\\:b\\\\c;;'),
    ("Open", "", "WIFI:T:nopass;S:Open;;"),
])
def test_the_wifi_payload_escapes_special_characters(ssid, password, text) -> None:
    """The Wi-Fi QR payload backslash-escapes the characters the format reserves."""
    assert wifi_text(ssid, password) == text


def test_no_wifi_code_without_a_hotspot() -> None:
    """No Wi-Fi QR code is drawn when there is no hotspot or it is disabled."""
    assert wifi_qr_svg(None) is None
    assert wifi_qr_svg(Hotspot(enabled=False, ssid="Tucana", password="toucan123")) is None


def test_the_island_sketch_escapes_its_title() -> None:
    """The island SVG escapes the title text it is given."""
    svg = island_svg(Island.PETIT, "<b>")
    assert "<title id=\"island-title\">&lt;b&gt;</title>" in svg


@pytest.mark.parametrize(("cookie", "accepted", "default", "chosen"), [
    ("es", [("fr", 1.0)], "en", "es"),
    (None, [("de", 1.0), ("fr-CA", 0.8)], "en", "fr"),
    (None, [("en", 0.3), ("es", 0.9)], "fr", "es"),
    ("klingon", [], "fr", "fr"),
    (None, [("*", 1.0)], None, "en"),
    (None, [], "ES", "es"),
])
def test_pick_language(cookie, accepted, default, chosen) -> None:
    """The language comes from the cookie, then Accept-Language, then the default."""
    assert i18n.pick_language(cookie, accepted, default) == chosen


# English inflects some words itself ("toucans", "9th"); the other languages use the plain value.
ENGLISH_FORMS = {"sights": "sight", "nth": "n"}


def test_the_three_catalogs_have_the_same_keys_and_placeholders() -> None:
    """French and Spanish have exactly the English keys with the same placeholders."""
    english = i18n.catalog("en")
    for language in ("fr", "es"):
        other = i18n.catalog(language)
        assert set(other) == set(english), language
        for key, text in english.items():
            wanted = {ENGLISH_FORMS.get(name, name) for name in re.findall(r"\{(\w+)\}", text)}
            assert set(re.findall(r"\{(\w+)\}", other[key])) <= wanted, key


def test_every_refusal_a_page_can_show_is_in_every_language() -> None:
    """Each refusal of the rules, the hardware and the web has a key in en, fr and es."""
    codes = [*RULE_REFUSALS, *HARDWARE_REFUSALS, *WEB_REFUSALS]
    assert len(codes) == len(set(codes)), "two packages use the same refusal code"
    for language in i18n.LANGUAGES:
        missing = [c for c in codes if "refusal." + c not in i18n.catalog(language)]
        assert missing == [], language


def test_every_refusal_of_the_engine_has_a_code() -> None:
    """No rule refuses with words of its own: every raise in companion/ names a catalogue code."""
    free = []
    for path in (WEB.parent / "companion").glob("*.py"):
        free += [f"{path.name}: {line.strip()}" for line in path.read_text("utf-8").splitlines()
                 if re.search(r"raise (RuleError|LogFormatError|UnknownGameError|RefusalError)\(", line)]
    assert free == []


def test_every_text_the_pages_ask_for_exists() -> None:
    """Every text key used by the templates and scripts exists in the English catalog."""
    sources = [*WEB.joinpath("templates").rglob("*.html"), *WEB.joinpath("static", "js").glob("*.js")]
    asked = set()
    for path in sources:
        asked |= set(re.findall(r"""\bt\(\s*["']([a-z_]+\.[a-z_0-9]+)["']""", path.read_text("utf-8")))
    assert len(asked) > 100
    assert asked - set(i18n.catalog("en")) == set()


def test_translate_falls_back_to_english_then_to_the_key() -> None:
    # French puts a no-break space before "!": the mark never wraps alone onto the next line.
    """A missing language falls back to English, a missing key to the key itself."""
    assert i18n.translate("fr", "announce.pair", a="Désert", b="Eau") == "Désert et Eau\u00a0!"
    assert i18n.translate("xx", "terrain.water") == "Water"
    assert i18n.translate("es", "no.such_key") == "no.such_key"
    assert i18n.translate("en", "status.round", n=1) == "Round {n} of {of}"  # a missing value never crashes


def test_a_hotspot_name_is_escaped_on_the_table_display(services, client) -> None:
    """A hotspot name with markup is escaped on the table display."""
    services.settings = replace(Settings(), hotspot=Hotspot(enabled=True, ssid="<b>Tuc</b>", password="toucan123"))
    html = client.get("/table").get_data(as_text=True)
    assert "<b>Tuc</b>" not in html
    assert "Wi-Fi: &lt;b&gt;Tuc&lt;/b&gt;" in html


def _finish(services, *claims: dict) -> None:
    """Two full rounds of the fixed deck order, the claims in the first turn, then the end."""
    _start(services)
    for round_no in (1, 2):
        for turn in range(13):
            _play(services, {"type": "reveal", "cards": ROUND_CARDS[2 * turn:2 * turn + 2]})
            if (round_no, turn) == (1, 0):
                _play(services, *claims)
    _play(services, {"type": "end_game"})


def test_a_finished_game_page_starts_from_the_engine_result(services, client) -> None:
    # Mary and David join A, B and C in the same turn: 39 + 12 bonus each, a shared 51 on Isla Petit.
    """A finished game's page carries the engine's standings and the texts to word them."""
    _finish(services, *({"type": "claim", "player": p, "village": v} for v in "ABC" for p in ("Mary", "David")))
    config = _config(client.get("/play/1", headers={"Accept-Language": "fr"}).get_data(as_text=True))
    standings = config["state"]["standings"]
    assert standings["finished"] and standings["winners"] == ["Mary", "David"]
    assert [(p["total"], p["rank"], p["achievement"]) for p in standings["players"]] == [(51, 1, "yeti")] * 2
    texts = config["i18n"]  # the script words the result from these, in the page's language
    assert texts["achievement.yeti"] == "Vous valez mieux qu'un yéti"
    assert "{names}" in texts["standings.shared"] and "{bonus}" in texts["standings.tie_shared"]


@pytest.mark.parametrize("path", ["/play/1", "/mayor", "/table"])
def test_the_notice_of_each_live_page_can_be_put_away(services, client, path) -> None:
    """Each live page has a hidden alert banner with its text and an OK button."""
    _start(services)
    html = client.get(path).get_data(as_text=True)
    banner = re.search(r'<div id="banner" class="banner[^"]*" role="alert" hidden>(.*?)</div>', html, re.S)
    assert banner and 'id="banner-text"' in banner.group(1) and 'id="banner-ok"' in banner.group(1)


# An address the browser would fetch from: a scheme or a protocol-relative "//" in an attribute or url().
_FETCHED = re.compile(r"""(?:\b(?:src|href|action)\s*=\s*["']|url\(\s*["']?|@import\s+["']?)(?:[a-z]+:)?//""", re.I)
_SVG_NAMESPACE = "http://www.w3.org/2000/svg"


def test_nothing_on_the_pages_comes_from_the_internet(services, client) -> None:
    """No page, style, script or image loads anything from outside the Pi."""
    _start(services)
    for path in ("/", "/play", "/play/1", "/mayor", "/table"):
        html = client.get(path, base_url="http://192.168.4.1:8000").get_data(as_text=True)
        fetched = [m.group(0) for m in _FETCHED.finditer(html)]
        # The only absolute address is the join link the table shows (this Pi), never fetched.
        assert all(path == "/table" and "href" in hit for hit in fetched), (path, fetched)
        assert html.count("://") == html.count("http://192.168.4.1:8000/play") + html.count(_SVG_NAMESPACE), path
    for asset in WEB.joinpath("static").rglob("*"):
        if asset.suffix in {".css", ".js", ".svg"}:
            text = asset.read_text("utf-8").replace(_SVG_NAMESPACE, "")
            assert "://" not in text and not _FETCHED.search(text), asset.name
