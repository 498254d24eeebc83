"""The scanner: a background loop from the camera through the vision reader and voter to the desk.

Each processed frame goes to the eyes (hardware.eyes: vision's reader and voter); when the set of
stable cards changes, the scanner posts it to the desk, which gives it a meaning and touches the
engine. The camera is opened through a callable so a lost camera can be reopened with backoff
while the game goes on by hand. Clock and sleep are passed in, so tests run without waiting.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from hardware.camera import CameraSource
from hardware.errors import HardwareError
from hardware.eyes import Eyes, Look
from hardware.inbox import CameraState, Message, Seen

log = logging.getLogger(__name__)

TARGET_FPS = 15.0  # processed frames per second: a card is read within ~0.3 s, at a quarter of a core
BACKOFF_FIRST_S = 0.5  # first wait before reopening a lost camera
BACKOFF_MAX_S = 8.0  # longest wait between attempts: a replugged camera is back within 8 s
FPS_SMOOTHING = 0.1  # weight of the newest frame in the frames/s moving average


@dataclass(frozen=True)
class ScannerStatus:
    """What the web console shows of the scanner."""

    running: bool
    camera: str
    camera_ok: bool
    fps: float
    frames: int
    stable: tuple[str, ...]
    look: Look | None
    error: str = ""
    reconnects: int = 0
    next_attempt_s: float | None = None  # seconds until the next reopening, while the camera is lost
    settled: Look | None = None  # the frame whose cards last became the stable set (not the empty mat)
    settled_count: int = 0  # how many times cards settled: a new number is a new "last reading"

    def to_json(self) -> dict:
        """A JSON-ready summary (crops left out: see Rig.crop_jpeg for the settled cards' image)."""
        readings = [] if self.look is None else [r.to_json() for r in self.look.readings]
        return {
            "running": self.running, "camera": self.camera, "camera_ok": self.camera_ok,
            "fps": round(self.fps, 1), "frames": self.frames, "stable": list(self.stable),
            "readings": readings, "error": self.error, "reconnects": self.reconnects,
            "next_attempt_s": self.next_attempt_s,
        }


@dataclass
class _Backoff:
    """Doubling waits between attempts to reopen the camera."""

    first_s: float = BACKOFF_FIRST_S
    max_s: float = BACKOFF_MAX_S
    wait_s: float = field(init=False, default=0.0)
    next_at: float = field(init=False, default=0.0)

    def failed(self, now: float) -> None:
        self.wait_s = self.first_s if self.wait_s == 0 else min(self.wait_s * 2, self.max_s)
        self.next_at = now + self.wait_s

    def reset(self) -> None:
        self.wait_s = 0.0
        self.next_at = 0.0


class Scanner:
    """Reads frames, votes, and posts stable cards; step() does one frame, start() loops in a thread."""

    def __init__(
        self,
        open_camera: Callable[[], CameraSource],
        eyes: Eyes,
        post: Callable[[Message], None],
        *,
        name: str = "camera",
        fps: float = TARGET_FPS,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        backoff_first_s: float = BACKOFF_FIRST_S,
        backoff_max_s: float = BACKOFF_MAX_S,
    ) -> None:
        self._open = open_camera
        self.eyes = eyes
        self._post = post
        self.name = name
        self.period_s = 1.0 / fps
        self._clock = clock
        self._sleep = sleep
        self._backoff = _Backoff(backoff_first_s, backoff_max_s)
        self._camera: CameraSource | None = None
        self._camera_ok = True  # nothing lost yet; the first failure flips it and tells the desk
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._stable: tuple[str, ...] = ()
        self._look: Look | None = None
        self._settled: Look | None = None
        self._settled_count = 0
        self.last_frame: np.ndarray | None = None  # the newest frame, for the console's preview
        self._frames = 0
        self._fps = 0.0
        self._last_frame_at: float | None = None
        self._error = ""
        self._reconnects = 0

    # --- one frame ---------------------------------------------------------------------------
    def step(self) -> bool:
        """Process one frame if the camera gives one; False when there was nothing to process."""
        now = self._clock()
        frame = self._grab(now)
        if frame is None:
            return False
        look = self.eyes.look(frame, now)
        with self._lock:
            self.last_frame = frame
            self._look = look
            self._count_frame(now)
            changed = look.stable != self._stable
            if changed:
                self._stable = look.stable
                if look.stable:
                    self._settled, self._settled_count = look, self._settled_count + 1
        if changed:
            self._post(Seen(look.stable))
        return True

    def _grab(self, now: float) -> np.ndarray | None:
        """The next frame, opening or reopening the camera as the backoff allows."""
        if self._camera is None:
            if now < self._backoff.next_at:
                return None
            try:
                self._camera = self._open()
            except HardwareError as exc:
                self._lost(now, exc)
                return None
            self._found()
        try:
            return self._camera.read()
        except HardwareError as exc:
            self._drop_camera()
            self._lost(now, exc)
            return None

    def _lost(self, now: float, exc: Exception) -> None:
        self._backoff.failed(now)
        self._error = str(exc)
        if self._camera_ok:
            log.warning("camera lost (%s): the game goes on by hand; retrying", exc)
            self._camera_ok = False
            self._post(CameraState(ok=False))

    def _found(self) -> None:
        self._backoff.reset()
        if not self._camera_ok:
            log.info("camera back")
            self._camera_ok = True
            self._reconnects += 1
            self._error = ""
            self._post(CameraState(ok=True))

    def _drop_camera(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            try:
                camera.close()
            except Exception:  # the device is already gone; closing is best effort
                log.debug("closing a lost camera failed", exc_info=True)

    def _count_frame(self, now: float) -> None:
        self._frames += 1
        if self._last_frame_at is not None and now > self._last_frame_at:
            instant = 1.0 / (now - self._last_frame_at)
            self._fps = instant if self._fps == 0 else self._fps + FPS_SMOOTHING * (instant - self._fps)
        self._last_frame_at = now

    # --- the loop ------------------------------------------------------------------------------
    def run(self) -> None:
        """Process frames at the target rate until stop(); sleeps between frames and during backoff."""
        while not self._stop.is_set():
            started = self._clock()
            try:
                self.step()
            except Exception:  # one bad frame must not end the scanner
                log.exception("scanner step failed")
            left = self.period_s - (self._clock() - started)
            if self._camera is None and not self._camera_ok:
                left = max(left, self._backoff.next_at - self._clock())
            if left > 0:
                self._sleep_unless_stopped(left)

    def _sleep_unless_stopped(self, seconds: float) -> None:
        if self._sleep is time.sleep:
            self._stop.wait(seconds)  # wakes at once on stop()
        else:
            self._sleep(seconds)

    def start(self) -> None:
        """Run the loop in a daemon thread."""
        self._stop.clear()
        self._thread = threading.Thread(target=self.run, name="tucana-scanner", daemon=True)
        self._thread.start()

    def stop(self, timeout_s: float = 5.0) -> None:
        """End the loop and release the camera."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout_s)
            self._thread = None
        self._drop_camera()

    close = stop

    # --- for the console -----------------------------------------------------------------------
    def status(self) -> ScannerStatus:
        """A snapshot for the web console."""
        with self._lock:
            now = self._clock()
            waiting = None if self._camera_ok else max(0.0, self._backoff.next_at - now)
            return ScannerStatus(
                running=self._thread is not None and self._thread.is_alive(),
                camera=self.name, camera_ok=self._camera_ok, fps=self._fps, frames=self._frames,
                stable=self._stable, look=self._look, error=self._error,
                reconnects=self._reconnects, next_attempt_s=waiting,
                settled=self._settled, settled_count=self._settled_count,
            )
