"""`tucana serve`: the companion in one process (contract 2), on waitress with a thread per stream."""

from __future__ import annotations

import argparse
import contextlib
import errno
import signal
import socket
import sys
from pathlib import Path
from typing import Any

from hardware.config import CAMERA_SPEC_HELP, GpioMode
from web.cli import EXIT_REFUSED
from web.i18n import LANGUAGES

EXIT_FAILURE = 1  # the port is busy or the server could not start: not a refused input
SPARE_THREADS = 8  # request threads left for pages and API calls while every stream is open
# Streams given up (a newcomer took the slot, the phone went away) whose thread still waits on
# a write until the write timeout (web/server.py): their threads must not be the spare ones.
STALLED_THREADS = 16
# A phone that stops reading (asleep, Wi-Fi gone) holds at most this much unsent output in the
# server: past it, its stream thread waits instead of buffering more (waitress's default is 16 MiB).
OUTBUF_HIGH_WATERMARK = 256 * 1024
SHUTDOWN_WAIT_S = 3.0  # seconds request threads get to finish on SIGTERM (systemd waits 90)
LISTEN_BACKLOG = 128  # pending connections while every phone at a table reconnects at once


def add_parser(subparsers: Any) -> None:
    """Register `tucana serve` and its flags (contract 2)."""
    parser = subparsers.add_parser(
        "serve",
        help="run the companion: camera, game and the site every phone opens",
        description="Run the companion. Flags win over the configuration file.",
    )
    parser.add_argument("--config", metavar="PATH",
                        help="settings file (default: $TUCANA_CONFIG, /etc/tucana/tucana.toml, "
                             "~/.config/tucana/tucana.toml)")
    parser.add_argument("--host", help="address to listen on (default 0.0.0.0: every interface)")
    parser.add_argument("--port", help="TCP port (default 8000)")
    parser.add_argument("--data", metavar="DIR", help="folder for the game log and secrets")
    parser.add_argument("--camera", metavar=CAMERA_SPEC_HELP,
                        help="where frames come from (default virtual off a Pi, picamera on one)")
    parser.add_argument("--gpio", choices=[mode.value for mode in GpioMode],
                        help="button, LEDs and buzzer: gpiozero mock pins or real ones "
                        "(default auto: real on a Pi, mock off one)")
    parser.add_argument("--language", choices=LANGUAGES,
                        help="default language of the pages and the speech")
    parser.set_defaults(run=_run)


def _say(message: str) -> None:
    print(f"tucana serve: {message}", file=sys.stderr, flush=True)


def bind(host: str, port: int) -> socket.socket:
    """Bind and listen before anything else opens, so a busy port fails fast and clearly."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(LISTEN_BACKLOG)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


def urls(host: str, port: int) -> list[str]:
    """The addresses to print: the LAN address first when listening on every interface."""
    names = []
    if host in ("0.0.0.0", "::", ""):
        try:
            from web.join import lan_address

            address = lan_address()
        except (ImportError, OSError):
            address = None
        if address:
            names.append(address)
        names.append("localhost")
    else:
        names.append(f"[{host}]" if ":" in host else host)
    suffix = "" if port == 80 else f":{port}"
    return [f"http://{name}{suffix}/" for name in names]


def _settings(args: argparse.Namespace) -> Any:
    """The configuration file with the flags on top, auto camera/GPIO made concrete."""
    from web.settings import load_settings

    config = getattr(args, "config", None)
    return load_settings(Path(config) if config else None).with_overrides(
        host=args.host, port=args.port, data_dir=args.data, camera=args.camera,
        gpio=args.gpio, language=args.language,
    ).resolved()


def _open_rig(settings: Any, services: Any) -> Any:
    """Open the camera, scanner, controls and speech once (web/rig.py)."""
    from web.rig import open_rig

    return open_rig(settings, services)


def _run(args: argparse.Namespace) -> int:
    """Start everything, serve until SIGINT/SIGTERM, then close it all; returns the exit code."""
    from companion.errors import ConfigError, HardwareError, TucanaError

    try:
        settings = _settings(args)
    except ConfigError as error:
        _say(str(error))
        return EXIT_REFUSED
    try:
        sock = bind(settings.host, settings.port)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            _say(f"port {settings.port} on {settings.host} is busy (another tucana serve?); "
                 "stop it or pick another with --port")
        elif isinstance(error, socket.gaierror):
            _say(f"cannot listen on {settings.host!r}: {error.strerror or error}")
            return EXIT_REFUSED
        else:
            _say(f"cannot listen on {settings.host}:{settings.port}: {error.strerror or error}")
        return EXIT_FAILURE
    try:
        return _serve(sock, settings)
    except (HardwareError, TucanaError) as error:
        _say(str(error))
        return EXIT_REFUSED if isinstance(error, ConfigError) else EXIT_FAILURE
    finally:
        sock.close()


def _serve(sock: socket.socket, settings: Any) -> int:
    from web.app import MAX_BODY_BYTES, create_app
    from web.hardware_api import MJPEG_MAX_STREAMS
    from web.server import create_table_server
    from web.services import build_services
    from web.stream import MAX_STREAMS

    try:
        services = build_services(settings.data_dir, settings=settings, notify=_say)
    except OSError as error:
        _say(f"cannot use the data folder {settings.data_dir}: {error.strerror or error}")
        return EXIT_FAILURE
    try:
        services.rig = _open_rig(settings, services)
        app = create_app({"TUCANA_LANGUAGE": settings.language}, services=services)
        server = create_table_server(
            app, sock, threads=MAX_STREAMS + MJPEG_MAX_STREAMS + SPARE_THREADS + STALLED_THREADS,
            max_body_bytes=MAX_BODY_BYTES, asyncore_use_poll=True, ident="tucana",
            outbuf_high_watermark=OUTBUF_HIGH_WATERMARK, clear_untrusted_proxy_headers=True,
        )
        _stop_on_signals(server, services)
        print(f"Tucana Companion is ready (camera: {settings.camera}, GPIO: {settings.gpio}, "
              f"data: {settings.data_dir})", flush=True)
        for url in urls(settings.host, settings.port):
            print(f"  open {url}   table: {url}table   Mayor: {url}mayor", flush=True)
        print(f"  Mayor PIN: {services.security.pin}", flush=True)
        with contextlib.suppress(KeyboardInterrupt):  # our signal handler ends the loop this way
            server.run()
        services.stopping.set()
        services.hub.close()
        # Let request threads finish (streams end at once now) before the wake-up pipe closes.
        server.task_dispatcher.shutdown(timeout=SHUTDOWN_WAIT_S)
        server.close()
        return 0
    finally:
        services.close()


def _stop_on_signals(server: Any, services: Any) -> None:
    """SIGTERM (systemd) and SIGINT (Ctrl-C) end the streams, then the server loop."""

    def stop(signum: int, frame: Any) -> None:
        services.stopping.set()
        services.hub.close()
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
