"""The pages: table display, Mayor console, seat picking and each player's phone (thin views)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Response,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup
from werkzeug.routing import BuildError

from companion.moves import MAX_PLAYERS, VILLAGES, Island, Sight
from companion.names import NAME_MAX_CHARS
from companion.rules import SETUP_CARDS, red_card_count
from vision.cards import CARD_IDS
from web import i18n
from web.island import island_svg
from web.join import join_qr_svg, join_url, wifi_qr_svg
from web.security import CSRF_COOKIE, CSRF_HEADER, MAYOR_COOKIE, SEAT_COOKIE
from web.serialize import state_json

bp = Blueprint(
    "pages",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/assets",
)


def _services() -> Any:
    return current_app.extensions["tucana"]


def _language() -> str:
    settings = getattr(_services(), "settings", None)
    default = getattr(settings, "language", None) or current_app.config.get("TUCANA_LANGUAGE")
    accepted = [(code, quality) for code, quality in request.accept_languages]
    return i18n.pick_language(request.cookies.get(i18n.LANGUAGE_COOKIE), accepted, default)


@bp.app_context_processor
def _page_context() -> dict[str, Any]:
    if request.blueprint != bp.name:
        return {}
    lang = _language()
    return {
        "lang": lang,
        "languages": i18n.LANGUAGES,
        "t": lambda key, **params: i18n.translate(lang, key, **params),
    }


# The API routes the scripts call, by endpoint name (web/api.py, web/hardware_api.py).
_API_ENDPOINTS = {
    "state": "api.state",
    "stream": "api.stream",
    "events": "api.post_entry",
    "claim": "api.post_entry",
    "log": "api.log",
    "export": "api.export",
    "seats": "api.join_seat",
    "seat_mode": "api.pick_seat_mode",
    "seat_list": "api.seats",
    "seat_free": "api.free_seat",
    "mayor_login": "api.mayor_login",
    "seat_keep": "api.keep_seats",
    "mayor_logout": "api.mayor_logout",
    "snapshot": "hardware_api.snapshot",
    "crop": "hardware_api.crop",
    "preview": "hardware_api.preview_stream",
    "lay": "hardware_api.lay_cards",
    "enroll": "hardware_api.enroll_card",
    "camera_confirm": "hardware_api.confirm_reading",
    "camera_dismiss": "hardware_api.dismiss_reading",
    "lay_next": "hardware_api.lay_next",
}


def _api_urls() -> dict[str, str]:
    """The API paths the scripts call; an endpoint this app lacks is left out."""
    urls = {}
    for name, endpoint in _API_ENDPOINTS.items():
        try:
            urls[name] = url_for(endpoint)
        except BuildError:
            continue
    return urls


def _client(page: str, **extra: Any) -> dict[str, Any]:
    """The JSON the page's script starts from: texts, API paths, and the state right now."""
    services = _services()
    game_id, seq, state = services.table.snapshot()
    return {
        "page": page,
        "lang": _language(),
        "i18n": i18n.client_catalog(_language()),
        "api": _api_urls(),
        "csrf_cookie": CSRF_COOKIE,
        "csrf_header": CSRF_HEADER,
        "state": state_json(game_id, seq, state, services.seat_modes.picks(game_id)),
        "seats_url": url_for("pages.seats"),
        "play_url": url_for("pages.phone", seat=0),
        **extra,
    }


def _render(template: str, page: str, client: dict[str, Any] | None, **context: Any) -> str:
    return render_template(template, page=page, client=client, live=client is not None, **context)


def _my_player() -> str | None:
    services = _services()
    return services.security.seats.player_for(services.table.game_id, request.cookies.get(SEAT_COOKIE))


@bp.get("/")
def home() -> str:
    """A landing page with the three ways in."""
    return _render("pages/home.html", "home", None)


@bp.get("/table")
def table() -> str:
    """The table display: join codes, the announcement, deck and bonus cards, banners."""
    hotspot = getattr(getattr(_services(), "settings", None), "hotspot", None)
    url = join_url(request, _services(), url_for("pages.seats"))
    wifi = wifi_qr_svg(hotspot)
    return _render(
        "pages/table.html",
        "table",
        _client("table"),
        join_url=url,
        join_qr=Markup(join_qr_svg(url)),
        wifi_qr=Markup(wifi) if wifi else None,
        wifi_ssid=getattr(hotspot, "ssid", ""),
    )


@bp.get("/mayor")
def mayor() -> str:
    """The Mayor's console (the PIN unlocks it in the page)."""
    services = _services()
    is_mayor = services.security.is_mayor_session(request.cookies.get(MAYOR_COOKIE))
    return _render(
        "pages/mayor.html",
        "mayor",
        _client(
            "mayor",
            is_mayor=is_mayor,
            has_camera=_has_camera(),
            max_players=MAX_PLAYERS,
            name_max_chars=NAME_MAX_CHARS,
            red_counts={n: red_card_count(n) for n in range(1, MAX_PLAYERS + 1)},
            villages=VILLAGES,
            card_ids=list(CARD_IDS),  # contract 2's order: the order enrollment asks for them
            card_names={card: i18n.card_name(_language(), card) for card in CARD_IDS},
            pin=services.security.pin if is_mayor else None,
        ),
        setup_cards=sorted(SETUP_CARDS.items()),
        villages=VILLAGES,
        sights=[s.value for s in Sight],
    )


def _has_camera() -> bool:
    rig = getattr(_services(), "rig", None)
    return rig is not None and getattr(rig, "scanner", None) is not None


@bp.get("/play")
def seats() -> str:
    """Seat picking: one button per player of the current game."""
    players = _services().table.state.players
    mine = _my_player()
    my_seat = players.index(mine) + 1 if mine in players else None
    return _render("pages/seats.html", "seats", _client("seats"), players=players, my_seat=my_seat)


@bp.get("/play/<int:seat>")
def phone(seat: int) -> str | Response:
    """One player's phone: villages, score pad, announcement, reminders, final scores."""
    state = _services().table.state
    if not 1 <= seat <= len(state.players):
        return redirect(url_for("pages.seats"))
    name = state.players[seat - 1]
    lang = _language()
    island = state.setup.island if state.setup else Island.PETIT
    mine = _my_player() == name
    return _render(
        "pages/phone.html",
        "phone",
        _client("phone", me=name, seat=seat, is_mine=mine),
        name=name,
        seat=seat,
        is_mine=mine,
        island_svg=Markup(island_svg(island, i18n.translate(lang, "island." + island.value))),
    )


@bp.get("/lang/<code>")
def set_language(code: str) -> Response:
    """Switch the language (kept in a cookie) and go back to the page the switch was on."""
    target = request.args.get("next", "")
    parts = urlsplit(target)
    # Only a path on this site: an open redirect would let a link send phones elsewhere.
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        target = url_for("pages.home")
    response = redirect(target)
    chosen = i18n.normalise(code)
    if chosen:
        response.set_cookie(
            i18n.LANGUAGE_COOKIE,
            chosen,
            max_age=i18n.LANGUAGE_COOKIE_MAX_AGE_S,
            samesite="Lax",
            httponly=True,
        )
    return response
