"""The JSON API: state, log, export/import, event calls (contract-1 entries), seats, Mayor, stream.

Views are thin: they check who is asking, hand the entry to the table and serialise the answer.
The rules live in the engine. web/API.md describes every route for the pages.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, g, jsonify, request
from werkzeug.exceptions import BadRequest, NotFound, ServiceUnavailable

from companion.errors import LogFormatError
from companion.moves import Claim, Entry, Trail, load_json, parse_entry
from companion.names import clean_name
from companion.sheet import SeatMode
from web.errors import PermissionRefused, RequestRefused, WebConflict
from web.idempotency import EXPECT_SEQ_HEADER, request_id
from web.seat_modes import PICKABLE
from web.security import (
    MAYOR_COOKIE,
    PIN_HEADER,
    SEAT_COOKIE,
    SEAT_COOKIE_MAX_AGE_S,
)
from web.serialize import accepted_json, entry_json, state_json
from web.services import Services
from web.sessions import MAYOR_SESSION_S
from web.stream import TooManyStreams

bp = Blueprint("api", __name__, url_prefix="/api")

JSONL_TYPES = "application/x-ndjson"
WHOLE_NUMBER_MAX = 2**63 - 1  # SQLite's integers: a larger seq or game id cannot exist


def services() -> Services:
    """The Services of the running app."""
    return current_app.extensions["tucana"]


def _body() -> dict[str, Any]:
    """The request body as a JSON object, or a clear 400."""
    text = request.get_data(as_text=True)
    if not text.strip():
        raise BadRequest("the request needs a JSON object as its body")
    try:
        doc = load_json(text)
    except LogFormatError as exc:
        raise BadRequest(f"the body is {exc}") from None
    if not isinstance(doc, dict):
        raise BadRequest("the body must be a JSON object")
    return doc


def whole_number(name: str, raw: str | None) -> int | None:
    """A query or header value that must be a whole number (ASCII digits, 0 to 2^63-1), or None."""
    if raw is None:
        return None
    text = raw.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 19 or int(text) > WHOLE_NUMBER_MAX:
        raise BadRequest(f"{name} must be a whole number from 0 to {WHOLE_NUMBER_MAX}, not {raw!r}")
    return int(text)


def _field(doc: dict[str, Any], name: str, allowed: set[str]) -> str:
    """A required non-empty text field of a small body; other fields are refused."""
    unknown = set(doc) - allowed
    if unknown:
        raise BadRequest(f"unknown field(s) {', '.join(sorted(unknown))}")
    value = doc.get(name)
    if not isinstance(value, str) or not value:
        raise BadRequest(f"{name} must be non-empty text")
    if any(0xD800 <= ord(c) <= 0xDFFF for c in value):
        raise BadRequest(f"{name} must be valid Unicode text (it holds a lone surrogate)")
    return value


def _player(doc: dict[str, Any]) -> str:
    """The {"player": name} of a seat request, in the engine's one form of a name."""
    try:
        return clean_name(_field(doc, "player", {"player"}))
    except LogFormatError as exc:
        raise BadRequest(str(exc)) from None


def _address() -> str:
    return request.remote_addr or "?"


def is_mayor() -> bool:
    """True when the request carries the right PIN header or the mayor cookie (a wrong PIN raises)."""
    security = services().security
    pin = request.headers.get(PIN_HEADER)
    if pin is not None:
        security.check_pin(pin, _address())
        return True
    return security.is_mayor_session(request.cookies.get(MAYOR_COOKIE))


def require_mayor() -> None:
    """Refuse with 403 unless the Mayor is asking."""
    if not is_mayor():
        raise PermissionRefused.of("mayor_only")


def seat_player() -> str | None:
    """The player whose seat this phone holds in the current game, or None."""
    s = services()
    return s.security.seats.player_for(s.table.game_id, request.cookies.get(SEAT_COOKIE), _address())


_SEAT_ENTRIES = {Claim: "claim", Trail: "draw"}  # entries a seat makes for itself, and the verb


def _authorise(entry: Entry) -> None:
    """A claim or a trail needs that player's seat or the Mayor; every other entry needs the Mayor."""
    verb = _SEAT_ENTRIES.get(type(entry))
    if verb is None:
        require_mayor()
        return
    if is_mayor():
        return
    player = entry.player  # type: ignore[union-attr]
    seat = seat_player()
    if seat is None:
        raise PermissionRefused.of(f"seat_first_{verb}", player=player)
    if seat != player:
        raise PermissionRefused.of(f"other_seat_{verb}", seat=seat, player=player)


def _picks(game_id: int | None) -> dict[str, SeatMode]:
    return services().seat_modes.picks(game_id)


@bp.get("/session")
def session() -> Response:
    """Who this browser is: its CSRF token, its seat, whether it is the Mayor (and then the PIN)."""
    s = services()
    mayor = s.security.is_mayor_session(request.cookies.get(MAYOR_COOKIE))
    doc: dict[str, Any] = {
        "csrf": g.csrf_token,
        "game_id": s.table.game_id,
        "seat": seat_player(),
        "mayor": mayor,
    }
    if mayor:
        doc["pin"] = s.security.pin
    return jsonify(doc)


@bp.get("/state")
def state() -> Response:
    """The whole table state (see web/API.md)."""
    game_id, seq, st = services().table.snapshot()
    return jsonify(state_json(game_id, seq, st, _picks(game_id)))


@bp.get("/log")
def log() -> Response:
    """The current game's entries after ?since=N (default 0), each saying whether an undo took it back."""
    since = whole_number("since", request.args.get("since", "0"))
    table = services().table
    game_id, seq, _ = table.snapshot()
    undone = table.game.undone()
    entries = [{**entry_json(s, e), "undone": s in undone} for s, e in table.log_since(since or 0) if s <= seq]
    return jsonify({"game_id": game_id, "seq": seq, "entries": entries})


@bp.get("/games")
def games() -> Response:
    """Every stored game, newest first."""
    rows = services().store.games()
    return jsonify({
        "current": services().table.game_id,
        "games": [
            {"game_id": g_.id, "created": g_.created, "players": list(g_.players), "entries": g_.entries}
            for g_ in rows
        ],
    })


@bp.get("/log.jsonl")
def export() -> Response:
    """A game's log as a JSONL download (?game_id=N, default the current game)."""
    s = services()
    asked = whole_number("game_id", request.args.get("game_id"))
    game_id = asked if asked is not None else s.table.game_id
    if game_id is None:
        raise NotFound("no game to export yet")
    text = s.store.export_jsonl(game_id)
    return Response(
        text,
        mimetype=JSONL_TYPES,
        headers={"Content-Disposition": f'attachment; filename="tucana-game-{game_id}.jsonl"'},
    )


@bp.post("/import")
def import_log() -> tuple[Response, int]:
    """Mayor: check a JSONL log against the rules, store it as a new game and make it current."""
    require_mayor()
    text = request.get_data(as_text=True)
    s = services()
    done = s.table.import_game(text, request_id=request_id())  # RefusedLine names the line
    if done.fresh:
        s.hub.reset()
    state = state_json(done.game_id, done.seq, done.state, _picks(done.game_id))
    return jsonify({"game_id": done.game_id, "seq": done.seq, "state": state}), 201


@bp.post("/events")
def post_entry() -> tuple[Response, int]:
    """Add one contract-1 entry to the current game (or start one with new_game)."""
    entry = parse_entry(_body())
    _authorise(entry)
    expect_seq = whole_number(EXPECT_SEQ_HEADER, request.headers.get(EXPECT_SEQ_HEADER))
    accepted = services().table.submit(entry, expect_seq=expect_seq, request_id=request_id())
    return jsonify(accepted_json(accepted, picks=_picks(accepted.game_id))), 201


@bp.get("/seats")
def seats() -> Response:
    """The players of the current game and whether a phone holds each seat (the Mayor sees more)."""
    s = services()
    game_id, _, st = s.table.snapshot()
    holders = s.security.seats.holders(game_id)
    mine = seat_player()
    mayor = s.security.is_mayor_session(request.cookies.get(MAYOR_COOKIE))
    seats = []
    for p in st.players:
        seat: dict[str, Any] = {"player": p, "taken": p in holders, "mine": p == mine}
        if mayor and p in holders:  # when it was taken and from how many addresses: a copied cookie shows
            seat.update(since=holders[p].since, devices=holders[p].devices)
        seats.append(seat)
    return jsonify({"game_id": game_id, "seats": seats})


@bp.post("/seats/join")
def join_seat() -> Response:
    """Take a seat of the current game: sets the HttpOnly seat cookie."""
    player = _player(_body())
    s = services()
    game_id, _, st = s.table.snapshot()
    if game_id is None or player not in st.players:
        raise RequestRefused.of("not_a_seat", player=player)
    token = s.security.seats.join(game_id, player, request.cookies.get(SEAT_COOKIE), _address())
    _seats_changed(game_id)
    response = jsonify({"game_id": game_id, "seat": player})
    response.set_cookie(SEAT_COOKIE, token, max_age=SEAT_COOKIE_MAX_AGE_S, httponly=True,
                        samesite="Strict", path="/")
    return response


@bp.post("/seats/mode")
def pick_seat_mode() -> Response:
    """This phone's seat picks how it scores: "paper" or "sheet" (the engine's mode wins once decided)."""
    value = _field(_body(), "mode", {"mode"})
    mode = next((m for m in PICKABLE if m.value == value), None)
    if mode is None:
        raise BadRequest(f"mode must be 'paper' or 'sheet', not {value!r}")
    s = services()
    player = seat_player()
    if player is None:
        raise PermissionRefused.of("mode_needs_seat")
    game_id, _, st = s.table.snapshot()
    decided = st.sheets[player].mode
    if decided is not SeatMode.UNDECIDED and decided is not mode:
        raise WebConflict.of("mode_decided", player=player, mode=decided.value)
    s.seat_modes.pick(game_id, player, mode)  # type: ignore[arg-type]
    s.hub.reset()  # the table and the Mayor see whom to wait for
    return jsonify({"seat": player, "mode": mode.value})


@bp.post("/seats/leave")
def leave_seat() -> Response:
    """Give up this phone's seat."""
    s = services()
    player = seat_player()
    if player is not None and s.table.game_id is not None and s.security.seats.free(s.table.game_id, player):
        _seats_changed(s.table.game_id)
    response = jsonify({"seat": None})
    response.delete_cookie(SEAT_COOKIE, path="/", samesite="Strict", httponly=True)
    return response


@bp.post("/seats/free")
def free_seat() -> Response:
    """Mayor: free a player's seat so another phone can take it."""
    require_mayor()
    player = _player(_body())
    s = services()
    freed = s.table.game_id is not None and s.security.seats.free(s.table.game_id, player)
    if freed:
        _seats_changed(s.table.game_id)
    return jsonify({"player": player, "freed": freed})


@bp.post("/seats/keep")
def keep_seats() -> Response:
    """Mayor: a new game with the same players keeps every phone on its seat of game {"from": id}."""
    require_mayor()
    doc = _body()
    previous = doc.get("from")
    if set(doc) - {"from"} or not isinstance(previous, int) or isinstance(previous, bool):
        raise BadRequest('the body is {"from": the game id whose seats the current game keeps}')
    s = services()
    game_id, _, st = s.table.snapshot()
    if game_id is None or game_id == previous:
        raise RequestRefused.of("no_new_game")
    kept = s.security.seats.carry(previous, game_id, st.players)
    _seats_changed(game_id)
    return jsonify({"game_id": game_id, "kept": sorted(kept)})


def _seats_changed(game_id: int) -> None:
    """Tell every page which seats are held now: a phone learns at once that its seat changed."""
    services().hub.seats_changed(game_id, set(services().security.seats.holders(game_id)))


@bp.post("/mayor/login")
def mayor_login() -> Response:
    """Check the Mayor's PIN once; sets the HttpOnly mayor cookie and answers the PIN."""
    pin = _field(_body(), "pin", {"pin"})
    security = services().security
    session_id = security.login(pin, _address())
    doc: dict[str, Any] = {"mayor": True, "pin": security.pin}
    wrong = security.guard.report()
    if wrong:  # someone tried PINs since the last login: the console says so
        doc["wrong_pins"] = wrong
    response = jsonify(doc)
    response.set_cookie(MAYOR_COOKIE, session_id, max_age=int(MAYOR_SESSION_S),
                        httponly=True, samesite="Strict", path="/")
    return response


@bp.get("/mayor")
def mayor() -> Response:
    """Whether this browser is the Mayor's console; the PIN comes with a yes."""
    security = services().security
    if security.is_mayor_session(request.cookies.get(MAYOR_COOKIE)):
        return jsonify({"mayor": True, "pin": security.pin})
    return jsonify({"mayor": False})


@bp.post("/mayor/logout")
def mayor_logout() -> Response:
    """End this browser's Mayor session (revoked on the server) and forget its cookie."""
    services().security.sessions.revoke(request.cookies.get(MAYOR_COOKIE))
    response = jsonify({"mayor": False})
    response.delete_cookie(MAYOR_COOKIE, path="/", samesite="Strict", httponly=True)
    return response


@bp.get("/stream")
def stream() -> Response:
    """Server-Sent Events: `entry` and `reset` messages with id = seq, keep-alive comments."""
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    last_event_id = whole_number("Last-Event-ID", raw)
    game_id = whole_number("game_id", request.args.get("game_id"))
    try:
        body = services().hub.stream(
            last_event_id=last_event_id,
            game_id=game_id,
            rig=request.args.get("rig") == "1",
            client=_address(),
            disconnected=request.environ.get("waitress.client_disconnected"),
        )
    except TooManyStreams as exc:
        raise ServiceUnavailable(str(exc)) from None
    return Response(
        body,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        direct_passthrough=True,
    )
