"""The Flask application factory: blueprints, JSON errors, CSRF check, /healthz."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, g, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.errors import (
    ConflictError,
    HardwareError,
    PermissionRefused,
    RefusedLine,
    StorageFull,
    TucanaError,
    UnknownGameError,
)
from web import idempotency
from web.security import CSRF_COOKIE, PinLockout, csrf_refusal
from web.services import Services

MAX_BODY_BYTES = 2 * 1024 * 1024  # an imported log of a whole game is ~10 kB; this leaves room
_log = logging.getLogger(__name__)

# Most specific first: PinLockout is a PermissionRefused that asks the caller to wait.
_STATUS: tuple[tuple[type[TucanaError], int], ...] = (
    (PinLockout, 429),
    (PermissionRefused, 403),
    (ConflictError, 409),
    (UnknownGameError, 404),
    (StorageFull, 507),
    (HardwareError, 503),
    (TucanaError, 400),
)

# Every script, style, image and stream comes from the Pi itself (the phones have no internet),
# so nothing else may run, load or frame the pages: an injected tag would find nothing to do.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers older than CSP 2
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def error_status(error: TucanaError) -> int:
    """The HTTP status of an engine or web error."""
    return next(status for cls, status in _STATUS if isinstance(error, cls))


def _register_errors(app: Flask) -> None:
    @app.errorhandler(TucanaError)
    def _tucana_error(error: TucanaError) -> tuple[Response, int]:
        doc: dict[str, Any] = {"error": str(error)}
        if isinstance(error, RefusedLine):
            doc["line"] = error.line
        return jsonify(doc), error_status(error)

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException) -> Any:
        if not request.path.startswith("/api/") and request.path != "/healthz":
            return error
        return jsonify({"error": error.description or error.name}), error.code or 500

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Any:
        _log.exception("unexpected error on %s %s", request.method, request.path)
        if request.path.startswith("/api/"):
            return jsonify({"error": "internal error; the log is unchanged"}), 500
        return "Internal error", 500


def _register_csrf(app: Flask) -> None:
    @app.before_request
    def _csrf_check() -> tuple[Response, int] | None:
        g.csrf_token = request.cookies.get(CSRF_COOKIE) or app.extensions["tucana"].security.new_csrf()
        reason = csrf_refusal(request.method, request.cookies, request.headers, request.host)
        if reason is not None:
            return jsonify({"error": reason}), 403
        return None

    @app.after_request
    def _csrf_cookie(response: Response) -> Response:
        if request.cookies.get(CSRF_COOKIE) != getattr(g, "csrf_token", None):
            # Readable by the page's script (not HttpOnly): it echoes it in the X-CSRF-Token header.
            response.set_cookie(CSRF_COOKIE, g.csrf_token, samesite="Strict", path="/")
        return response


def _register_headers(app: Flask) -> None:
    @app.after_request
    def _security_headers(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response


def create_app(config: Mapping[str, Any] | None = None, *, services: Services | None = None) -> Flask:
    """Build the app around the given services (a test's, or those `tucana serve` opened)."""
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY_BYTES, JSON_SORT_KEYS=False)
    if config:
        app.config.update(config)
    if services is None:
        from web.services import build_services
        from web.settings import load_settings

        settings = load_settings().resolved()
        data_dir = app.config.get("TUCANA_DATA_DIR", settings.data_dir)
        services = build_services(data_dir, settings=settings)
    app.extensions["tucana"] = services
    app.json.sort_keys = False  # keep documents in the order web/API.md gives

    from web import api, hardware_api, openapi, pages

    for blueprint in (api.bp, hardware_api.bp, openapi.bp, pages.bp):
        app.register_blueprint(blueprint)
    _register_errors(app)
    _register_csrf(app)
    idempotency.install(app, lambda: services.answers)  # after the CSRF check: a forgery gets nothing
    _register_headers(app)

    @app.get("/healthz")
    def healthz() -> Response:
        """200 once the app is built: the store is open and the table resumed."""
        game_id, seq, _ = services.table.snapshot()
        return jsonify({"ok": True, "game_id": game_id, "seq": seq})

    return app
