"""The OpenAPI 3 document of the JSON API, served at GET /api/openapi.json."""

from __future__ import annotations

from enum import Enum
from typing import Any

from flask import Blueprint, Response, jsonify

from companion.moves import LETTERS, Direction, Island, Sight, Terrain
from companion.sheet import SeatMode
from companion.state import NextStep

bp = Blueprint("openapi", __name__, url_prefix="/api")

OPENAPI_VERSION = "3.0.3"
API_VERSION = "1.0.0"

_ERROR = {"$ref": "#/components/responses/Error"}
_JSON_OBJ = {"type": "object", "additionalProperties": True}


def _enum(cls: Any) -> dict[str, Any]:
    return {"type": "string", "enum": [m.value for m in cls]}


def _entry_schemas() -> dict[str, Any]:
    """Contract 1 as JSON Schema: one schema per entry type, joined by oneOf."""
    sight = _enum(Sight)
    letter = {"type": "string", "enum": list(LETTERS)}
    space = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
             "description": "[row, column] in the maps' doubled-column coordinates"}

    def obj(kind: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
        return {
            "type": "object",
            "additionalProperties": False,
            "required": ["type", *required],
            "properties": {"type": {"type": "string", "enum": [kind]}, **props},
        }

    return {
        "NewGame": obj("new_game", {
            "players": {"type": "array", "minItems": 1, "maxItems": 8, "uniqueItems": True,
                        "items": {"type": "string", "minLength": 1}},
            "island": _enum(Island), "special_bonus": {"type": "boolean"},
            "start_village": {"type": "integer", "minimum": 1, "maximum": 10},
            "direction": _enum(Direction), "symmetric": {"type": "boolean"},
        }, ["players"]),
        "SetupCard": obj("setup_card", {"letters": {"type": "string", "pattern": "^[A-E]{10}$"}},
                         ["letters"]),
        "RedBonus": obj("red_bonus", {"sights": {"type": "array", "items": sight, "minItems": 1}},
                        ["sights"]),
        "Reveal": obj("reveal", {"cards": {"type": "array", "items": _enum(Terrain),
                                           "minItems": 2, "maxItems": 2}}, ["cards"]),
        "Claim": obj("claim", {"player": {"type": "string"}, "sight": sight, "village": letter,
                               "red": sight}, ["player"]),
        "SoloKeep": obj("solo_keep", {"letters": {"type": "array", "items": letter,
                                                  "minItems": 2, "maxItems": 2}}, ["letters"]),
        "EndGame": obj("end_game", {}, []),
        "Undo": obj("undo", {}, []),
        "Trail": obj("trail", {"player": {"type": "string"}, "from": space, "to": space,
                               "bonus": {"type": "boolean"}}, ["player", "from", "to"]),
    }


def _state_schema() -> dict[str, Any]:
    """The state document of GET /api/state (web/API.md explains each field)."""
    integer, text, flag = {"type": "integer"}, {"type": "string"}, {"type": "boolean"}
    counts = {"type": "object", "additionalProperties": integer}
    nullable_text = {"type": "string", "nullable": True}
    return {
        "type": "object",
        "properties": {
            "game_id": {"type": "integer", "nullable": True}, "seq": integer,
            "phase": {"type": "string", "enum": ["no_game", "setup", "playing", "finished"]},
            "setup": {"allOf": [{"$ref": "#/components/schemas/NewGame"}], "nullable": True},
            "players": {"type": "array", "items": text}, "mayor": nullable_text,
            "rounds": integer, "round": integer, "turn": integer, "turns_per_round": integer,
            "is_last_turn": flag, "round_over": flag, "rounds_done": integer, "needs_solo_keep": flag,
            "needs_red_bonus": flag, "next_step": _enum(NextStep),
            "undo": {"allOf": [{"$ref": "#/components/schemas/Entry"}], "nullable": True},
            "reveal_pairs": {"type": "array", "items": {"type": "array", "items": _enum(Terrain)}},
            "announcement": {"type": "array", "items": _enum(Terrain), "nullable": True},
            "deck_left": counts, "cards_left": integer, "setup_letters": nullable_text,
            "village_letters": {"type": "object", "additionalProperties": text},
            "blue": {"type": "object", "additionalProperties": {"type": "array", "items": integer}},
            "red": counts, "red_drawn": {"type": "array", "items": _enum(Sight), "nullable": True},
            "bonus_taken": {"type": "array", "items": _JSON_OBJ},
            "sheets": {"type": "object", "additionalProperties": _JSON_OBJ},
            "score_pad": {"type": "object", "nullable": True}, "standings": _JSON_OBJ,
            "seat_modes": {"type": "object", "additionalProperties": _enum(SeatMode)},
            "waiting_for": {"type": "array", "items": text},
            "island_sheets": {"type": "object", "additionalProperties": _JSON_OBJ},
        },
    }


class Auth(Enum):
    """Who may call a route (the document's x-auth and its security schemes)."""

    NONE = "none"
    MAYOR = "mayor"
    SEAT_OR_MAYOR = "seat-or-mayor"


_SECURITY = {
    Auth.NONE: None,
    Auth.MAYOR: [{"mayorPin": []}, {"mayorCookie": []}],
    Auth.SEAT_OR_MAYOR: [{"seatCookie": []}, {"mayorPin": []}, {"mayorCookie": []}],
}


def _op(summary: str, *, auth: Auth = Auth.NONE, body: Any = None, ok: int = 200,
        ok_schema: Any = _JSON_OBJ, media: str = "application/json",
        params: list[dict[str, Any]] | None = None, errors: tuple[int, ...] = ()) -> dict[str, Any]:
    """One operation: summary, who may call it, body, success response and error statuses."""
    op: dict[str, Any] = {
        "summary": summary,
        "x-auth": auth.value,
        "responses": {str(ok): {"description": "OK", "content": {media: {"schema": ok_schema}}}},
    }
    if _SECURITY[auth] is not None:
        op["security"] = _SECURITY[auth]
    if body is not None:
        op["requestBody"] = {"required": True, "content": body}
    if params:
        op["parameters"] = params
    for status in errors:
        op["responses"][str(status)] = _ERROR
    return op


def _query(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description,
            "schema": {"type": "integer", "minimum": 0}}


def _json(schema: Any) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


def _enrollment_schemas() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The owner's deck progress, and what enrolling and forgetting add to it."""
    integer = {"type": "integer"}
    progress = {"folder": {"type": "string"}, "enrolled": {"type": "object", "additionalProperties": integer},
                "done": integer, "total": integer, "photos": integer,
                "next": {"type": "string", "nullable": True}, "problem": {"type": "string", "nullable": True}}
    enrolled = {"card": {"type": "string"}, "file": {"type": "string"}, "card_photos": integer}
    return ({"type": "object", "properties": progress},
            {"type": "object", "properties": {**progress, **enrolled}},
            {"type": "object", "properties": {**progress, "removed": integer}})


def _paths() -> dict[str, Any]:
    """Every route: the game's (web/api.py), then the camera's (web/hardware_api.py)."""
    return {**_game_paths(), **_hardware_paths(), "/openapi.json": {"get": _op("This document")}}


def _game_paths() -> dict[str, Any]:
    """The routes of web/api.py: state, log, events, seats, the Mayor, the stream."""
    entry = {"$ref": "#/components/schemas/Entry"}
    player = _json({"type": "object", "required": ["player"], "additionalProperties": False,
                    "properties": {"player": {"type": "string"}}})
    return {
        "/session": {"get": _op("This browser: CSRF token, seat, Mayor or not (and the PIN if so)")},
        "/state": {"get": _op("Everything a page needs to draw the table, console or a phone",
                              ok_schema={"$ref": "#/components/schemas/State"})},
        "/log": {"get": _op("The current game's entries with their seq",
                            params=[_query("since", "only entries after this seq")], errors=(400,))},
        "/games": {"get": _op("Every stored game, newest first")},
        "/log.jsonl": {"get": _op("A game's log as JSONL (contract 1)", media="application/x-ndjson",
                                  ok_schema={"type": "string"},
                                  params=[_query("game_id", "default: the current game")],
                                  errors=(400, 404))},
        "/import": {"post": _op("Check a JSONL log, store it as a new game and make it current",
                                auth=Auth.MAYOR, ok=201, body={"application/x-ndjson": {"schema": {"type": "string"}}},
                                errors=(400, 403, 429))},
        "/events": {"post": _op("Add one contract-1 entry; a claim or trail needs that player's seat or the Mayor",
                                auth=Auth.SEAT_OR_MAYOR, ok=201, body=_json(entry),
                                ok_schema={"$ref": "#/components/schemas/Accepted"},
                                params=[{"name": "X-Expect-Seq", "in": "header", "required": False,
                                         "schema": {"type": "integer"},
                                         "description": "the seq the caller last saw; else 409"}],
                                errors=(400, 403, 409, 429))},
        "/seats": {"get": _op("Players of the current game and which seats phones hold")},
        "/seats/join": {"post": _op("Take a seat: sets the HttpOnly tucana_seat cookie", body=player,
                                    errors=(400, 409))},
        "/seats/mode": {"post": _op("This phone's seat picks how it scores: paper or the island sheet",
                                    auth=Auth.SEAT_OR_MAYOR,
                                    body=_json({"type": "object", "required": ["mode"],
                                                "additionalProperties": False,
                                                "properties": {"mode": {"type": "string",
                                                                        "enum": ["paper", "sheet"]}}}),
                                    errors=(400, 403, 409))},
        "/seats/leave": {"post": _op("Give up this phone's seat")},
        "/seats/free": {"post": _op("Free a player's seat", auth=Auth.MAYOR, body=player,
                                    errors=(400, 403, 429))},
        "/seats/keep": {"post": _op("A new game with the same players keeps each phone on its seat",
                                    auth=Auth.MAYOR, body=_json({"type": "object", "required": ["from"],
                                                                 "properties": {"from": {"type": "integer"}}}),
                                    errors=(400, 403, 429))},
        "/mayor": {"get": _op("Whether this browser is the Mayor's console (with the PIN if so)")},
        "/mayor/login": {"post": _op("Check the PIN once: sets the HttpOnly tucana_mayor cookie",
                                     body=_json({"type": "object", "required": ["pin"],
                                                 "properties": {"pin": {"type": "string"}}}),
                                     errors=(400, 403, 429))},
        "/mayor/logout": {"post": _op("Forget the mayor cookie")},
        "/stream": {"get": _op("Server-Sent Events: hello, entry and reset (id = seq), seats, and rig "
                               "(the Rig document) with rig=1",
                               media="text/event-stream", ok_schema={"type": "string"},
                               params=[_query("last_event_id", "catch up after this seq (or the "
                                              "Last-Event-ID header)"),
                                       _query("game_id", "the game the page shows; another -> reset"),
                                       _query("rig", "1: also the hardware's status, now and on each change")],
                               errors=(400, 503))},
    }


def _hardware_paths() -> dict[str, Any]:
    """The routes of web/hardware_api.py: camera, virtual table, scanner, button, deck enrollment."""
    entry = {"$ref": "#/components/schemas/Entry"}
    rig = {"$ref": "#/components/schemas/Rig"}
    enrollment, enrolled, forgotten = _enrollment_schemas()
    return {
        "/camera": {"get": _op("Camera and scanner status with the last reading", ok_schema=rig)},
        "/camera/snapshot.jpg": {"get": _op("The newest frame", media="image/jpeg",
                                            ok_schema={"type": "string", "format": "binary"},
                                            errors=(503,))},
        "/camera/crop.jpg": {"get": _op("The crop of the last reading", media="image/jpeg",
                                        ok_schema={"type": "string", "format": "binary"},
                                        errors=(503,))},
        "/camera/stream.mjpg": {"get": _op("The camera preview as MJPEG",
                                           media="multipart/x-mixed-replace",
                                           ok_schema={"type": "string", "format": "binary"},
                                           errors=(503,))},
        "/table/lay": {"post": _op("Lay cards on the virtual table ([] clears it)", auth=Auth.MAYOR,
                                   body=_json({"type": "object", "required": ["cards"],
                                               "properties": {"cards": {"type": "array",
                                                                        "items": {"type": "string"}}}}),
                                   ok_schema=rig, errors=(400, 403, 409, 503))},
        "/table/lay_next": {"post": _op("Lay the cards the game needs next on the virtual table",
                                        auth=Auth.MAYOR, ok_schema=rig, errors=(403, 409, 503))},
        "/scanner/confirm": {"post": _op("Apply the reading waiting for the Mayor, as read", auth=Auth.MAYOR,
                                         ok=201, ok_schema=rig, errors=(400, 403, 409, 503))},
        "/scanner/dismiss": {"post": _op("Drop the reading waiting for the Mayor", auth=Auth.MAYOR,
                                         ok_schema=rig, errors=(403, 503))},
        "/scanner/correct": {"post": _op("Apply this entry instead of the reading waiting for the Mayor",
                                         auth=Auth.MAYOR, ok=201, ok_schema=rig, body=_json(entry),
                                         errors=(400, 403, 503))},
        "/button": {"post": _op("The Mayor's button on screen: press (confirm / next) or hold (undo)",
                                auth=Auth.MAYOR, ok_schema=rig,
                                body=_json({"type": "object", "required": ["action"],
                                            "properties": {"action": {"type": "string", "enum": ["press", "hold"]}}}),
                                errors=(400, 403, 503))},
        "/deck/enroll": {
            "get": _op("The owner's deck: cards enrolled, photos of each, the next card to lay",
                       ok_schema=enrollment, errors=(503,)),
            "post": _op("Take the current frame as a photo of the one card under the camera", auth=Auth.MAYOR,
                        body=_json({"type": "object", "required": ["card"],
                                    "properties": {"card": {"type": "string"}}}),
                        ok_schema=enrolled, errors=(400, 403, 409, 503)),
            "delete": _op("Forget every photo of the owner's deck", auth=Auth.MAYOR,
                          ok_schema=forgotten, errors=(400, 403, 503)),
        },
        "/deck/enroll/{card}": {
            "delete": _op("Forget the photos of one card (the built-in art reads it again)", auth=Auth.MAYOR,
                          ok_schema=forgotten, errors=(400, 403, 503),
                          params=[{"name": "card", "in": "path", "required": True,
                                   "description": "a card ID, e.g. desert", "schema": {"type": "string"}}]),
        },
    }


def _rig_schema() -> dict[str, Any]:
    """The hardware's status: GET /api/camera, every camera route, the stream's rig event."""
    cards = {"type": "array", "items": {"type": "string"}}
    nullable = {"type": "object", "nullable": True, "additionalProperties": True}
    return {"type": "object", "properties": {
        "camera": {"type": "string"}, "camera_ok": {"type": "boolean"}, "scanner": nullable,
        "virtual": {"type": "boolean"}, "virtual_cards": cards, "stable": cards,
        "half_read": {"type": "string", "nullable": True}, "reading": nullable, "pending": nullable,
        "note": nullable, "lights": _JSON_OBJ, "language": {"type": "string"},
        "accepted": {"allOf": [{"$ref": "#/components/schemas/Accepted"}], "nullable": True}}}


_IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False, "schema": {"type": "string"},
    "description": "one random key per user action (8-128 of A-Z a-z 0-9 - _), sent again with a retry: "
                   "the retry gets the first answer and changes nothing; the same key with another "
                   "request -> 422",
}


def _changing(paths: dict[str, Any]) -> dict[str, Any]:
    """Every POST and DELETE takes an Idempotency-Key and may answer 422 or 507 (storage full)."""
    for operations in paths.values():
        for method, op in operations.items():
            if method in ("post", "delete"):
                op["parameters"] = [*op.get("parameters", []), _IDEMPOTENCY_KEY]
                op["responses"].setdefault("422", _ERROR)
                op["responses"].setdefault("507", _ERROR)
    return paths


def document() -> dict[str, Any]:
    """The whole OpenAPI document."""
    schemas = _entry_schemas()
    schemas["Entry"] = {"oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in list(schemas)]}
    schemas["State"] = _state_schema()
    schemas["Accepted"] = {"type": "object", "properties": {
        "game_id": {"type": "integer"}, "seq": {"type": "integer"}, "entry": {"$ref": "#/components/schemas/Entry"},
        "events": {"type": "array", "items": _JSON_OBJ}, "state": {"$ref": "#/components/schemas/State"}}}
    schemas["Error"] = {"type": "object", "required": ["error"],
                        "properties": {"error": {"type": "string"}, "code": {"type": "string"},
                                       "params": _JSON_OBJ, "line": {"type": "integer"}}}
    schemas["Rig"] = _rig_schema()
    return {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": "Tucana Companion API",
            "version": API_VERSION,
            "description": "The Pi's JSON API; web/API.md has the prose. State-changing calls made "
                           "with cookies need the X-CSRF-Token header equal to the tucana_csrf cookie.",
        },
        "servers": [{"url": "/api"}],
        "paths": _changing(_paths()),
        "components": {
            "schemas": schemas,
            "responses": {"Error": {"description": "Refused; nothing changed",
                                    "content": _json({"$ref": "#/components/schemas/Error"})}},
            "securitySchemes": {
                "mayorPin": {"type": "apiKey", "in": "header", "name": "X-Mayor-Pin"},
                "mayorCookie": {"type": "apiKey", "in": "cookie", "name": "tucana_mayor"},
                "seatCookie": {"type": "apiKey", "in": "cookie", "name": "tucana_seat"},
            },
        },
    }


@bp.get("/openapi.json")
def openapi_json() -> Response:
    """GET /api/openapi.json."""
    return jsonify(document())
