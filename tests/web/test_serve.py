"""`tucana serve` as a real process: it starts on a free port, /healthz answers, SIGTERM stops it;
bad flags and a busy port give a clear message and an exit code, never a traceback."""

from __future__ import annotations

import io
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from web.cli import EXIT_REFUSED
from web.commands.serve import EXIT_FAILURE, LogLevel, configure_logging

START_S = 30.0  # the longest a start may take on a busy 2-core CI machine
STOP_S = 10.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _env(tmp_path: Path) -> dict[str, str]:
    """No configuration file of the machine's: a clean home and config folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUCANA_")}
    env.update(HOME=str(tmp_path / "home"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "share"), PYTHONUNBUFFERED="1")
    return env


def _serve(tmp_path: Path, *flags: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "web.cli", "serve", *flags],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(tmp_path),
    )


def _get(url: str) -> tuple[int, dict]:
    with urllib.request.urlopen(url, timeout=2) as reply:
        return reply.status, json.loads(reply.read())


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """A running tucana serve process on a free port, killed after the test."""
    port = _free_port()
    proc = _serve(tmp_path, "--host", "127.0.0.1", "--port", str(port), "--data", str(tmp_path / "data"),
                  "--camera", "none", "--gpio", "mock", "--language", "fr")
    yield proc, port
    if proc.poll() is None:
        proc.kill()
        proc.wait(STOP_S)


def _wait_healthy(proc: subprocess.Popen[str], port: int) -> dict:
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()[1]
        try:
            status, doc = _get(f"http://127.0.0.1:{port}/healthz")
        except OSError:
            time.sleep(0.1)
            continue
        assert status == 200
        return doc
    raise AssertionError(f"/healthz did not answer within {START_S} s")


def test_serve_answers_healthz_and_stops_on_sigterm(served, tmp_path: Path) -> None:
    """Serve answers healthz and OpenAPI, prints URL and PIN, and exits 0 on SIGTERM."""
    proc, port = served
    assert _wait_healthy(proc, port) == {"ok": True, "game_id": None, "seq": 0}
    status, doc = _get(f"http://127.0.0.1:{port}/api/openapi.json")
    assert status == 200 and doc["openapi"].startswith("3.")
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=STOP_S)
    assert proc.returncode == 0, err
    assert f"http://127.0.0.1:{port}/" in out
    pin = json.loads((tmp_path / "data" / "web-secrets.json").read_text())["pin"]
    assert f"Mayor PIN: {pin}" in out
    assert (tmp_path / "data" / "tucana.sqlite3").exists()
    assert "Traceback" not in err
    assert f"INFO tucana.serve: listening on 127.0.0.1:{port}" in err  # logged to stderr, with its level
    assert "INFO tucana.serve: SIGTERM: stopping" in err


@pytest.mark.parametrize("journald", [False, True])
def test_serve_logs_to_stderr_with_levels_and_log_level(monkeypatch, journald: bool) -> None:
    """--log-level keeps what is at least that loud; under journald the time is left to the journal."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    monkeypatch.delenv("JOURNAL_STREAM", raising=False)
    if journald:
        monkeypatch.setenv("JOURNAL_STREAM", "8:1234")
    out = io.StringIO()
    try:
        configure_logging("warning", stream=out)
        logging.getLogger("hardware.scanner").info("camera back")
        logging.getLogger("hardware.scanner").warning("camera lost (unplugged): the game goes on by hand")
    finally:
        root.handlers[:], _ = saved
        root.setLevel(saved[1])
    lines = out.getvalue().splitlines()
    assert len(lines) == 1 and "camera back" not in out.getvalue()
    expected = "WARNING hardware.scanner: camera lost (unplugged): the game goes on by hand"
    assert lines[0] == expected if journald else lines[0].endswith(" " + expected)


def test_serve_offers_the_log_levels() -> None:
    """`tucana serve --help` lists --log-level and its levels."""
    done = subprocess.run([sys.executable, "-m", "web.cli", "serve", "--help"], capture_output=True, text=True,
                          timeout=START_S, check=False)
    assert done.returncode == 0 and "--log-level" in done.stdout
    assert all(level.value in done.stdout for level in LogLevel)


def _read_until(sock: socket.socket, marker: bytes, deadline: float) -> bytes:
    data = b""
    while marker not in data:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        chunk = sock.recv(65536)
        assert chunk, "the stream closed"
        data += chunk
    return data


def test_the_production_server_streams_without_buffering(served, tmp_path: Path) -> None:
    """The production server delivers streamed events without buffering them."""
    proc, port = served
    _wait_healthy(proc, port)
    pin = json.loads((tmp_path / "data" / "web-secrets.json").read_text())["pin"]
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        head = _read_until(sock, b"event: hello", time.monotonic() + 5)
        assert b"text/event-stream" in head and b"X-Accel-Buffering: no" in head
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/events", method="POST",
            data=json.dumps({"type": "new_game", "players": ["Ana", "Bo"]}).encode(),
            headers={"X-Mayor-Pin": pin, "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=5) as reply:
            assert reply.status == 201
        # The small message must come at once, not when some buffer fills up.
        data = _read_until(sock, b"id: 1\n", time.monotonic() + 5)
        assert b"event: reset" in data and b'"game_id":1' in data
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=STOP_S)
    assert proc.returncode == 0


def test_a_busy_port_is_a_clear_message(tmp_path: Path) -> None:
    """A port already in use gives a clear message naming it, without a traceback."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        proc = _serve(tmp_path, "--host", "127.0.0.1", "--port", str(port), "--camera", "none",
                      "--data", str(tmp_path / "data"))
        out, err = proc.communicate(timeout=START_S)
    assert proc.returncode == EXIT_FAILURE
    assert f"port {port}" in err and "busy" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        (["--port", "99999"], "port"),
        (["--port", "eighty"], "port"),
        (["--camera", "kinect"], "camera"),
        (["--camera", "usb:x"], "camera"),
        (["--host", "no such host"], "host"),
        (["--gpio", "maybe"], "--gpio"),
        (["--language", "de"], "--language"),
    ],
)
def test_bad_flags_are_refused_with_exit_2(tmp_path: Path, flags: list[str], words: str) -> None:
    """Invalid serve flags exit with the refused code and a clear message."""
    proc = _serve(tmp_path, "--data", str(tmp_path / "data"), *flags)
    out, err = proc.communicate(timeout=START_S)
    assert proc.returncode == EXIT_REFUSED, err
    assert words in err and "Traceback" not in err
