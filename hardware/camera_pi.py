"""The Raspberry Pi camera through picamera2: the only module that imports picamera2 or libcamera."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from hardware.camera import Camera, check_frame
from hardware.errors import HardwareError

log = logging.getLogger(__name__)

MAIN_SIZE = (1536, 864)  # width, height: the BGR "RGB888" main stream, kept for sharp card crops
LORES_SIZE = (768, 432)  # the low-resolution YUV420 stream the scanner detects cards on
FRAME_RATE = 30  # frames/s asked of the sensor: twice the scanner's rate, so a fresh frame is near
BUFFER_COUNT = 4  # enough for libcamera to keep streaming while the scanner holds one request
SETTLE_FRAMES = 45  # ~1.5 s at 30 fps for auto exposure, white balance and focus to settle
MAX_STALE_DRAIN = BUFFER_COUNT + 1  # older queued frames dropped per read before giving up waiting
LOCKED_CONTROLS = ("ExposureTime", "AnalogueGain", "ColourGains")


def _open_picamera2() -> Any:
    """Open the first Pi camera; HardwareError when picamera2 or the camera is missing."""
    try:
        from picamera2 import Picamera2
    except ImportError as exc:
        raise HardwareError(
            "picamera2 is not installed: on a Pi, apt install python3-picamera2 "
            "(or use --camera usb:0 / virtual)"
        ) from exc
    try:
        return Picamera2()
    except (RuntimeError, IndexError, OSError) as exc:
        raise HardwareError(f"no Pi camera answers: {exc}") from exc


def _manual_focus_mode() -> Any:
    """libcamera's AfModeEnum.Manual, imported here so only this module knows libcamera."""
    from libcamera import controls

    return controls.AfModeEnum.Manual


def _continuous_focus_mode() -> Any:
    """libcamera's AfModeEnum.Continuous."""
    from libcamera import controls

    return controls.AfModeEnum.Continuous


def lores_to_bgr(lores: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """A YUV420 (I420) lores array, (h*3/2, w) or padded wider, converted to a BGR frame of size."""
    width, height = size
    planar = np.ascontiguousarray(lores[: height * 3 // 2, :width])
    return cv2.cvtColor(planar, cv2.COLOR_YUV2BGR_I420)


class PiCamera(Camera):
    """The Pi camera in a video configuration: main BGR stream plus a lores stream for detection.

    Auto exposure, white balance and focus run for SETTLE_FRAMES, then are locked at the values
    they reached, so the cards' colours stay steady for the vision reader all evening. Every read
    drops frames that were exposed before it was asked for, so a frame is never stale.
    """

    def __init__(
        self,
        *,
        open_camera: Callable[[], Any] = _open_picamera2,
        clock_ns: Callable[[], int] = time.monotonic_ns,
        settle_frames: int = SETTLE_FRAMES,
    ) -> None:
        self.name = "picamera"
        self._camera = open_camera()
        self._clock_ns = clock_ns
        self._settle_left = settle_frames
        self.locked: dict[str, Any] | None = None
        try:
            self._lores_size = self._configure()
            self._camera.start()
        except Exception as exc:
            self._camera.close()
            raise HardwareError(f"the Pi camera would not start: {exc}") from exc

    def _configure(self) -> tuple[int, int]:
        cam = self._camera
        config = cam.create_video_configuration(
            main={"size": MAIN_SIZE, "format": "RGB888"},
            lores={"size": LORES_SIZE, "format": "YUV420"},
            buffer_count=BUFFER_COUNT,
            queue=False,  # never hand out a frame captured before the request
            controls={"FrameRate": FRAME_RATE},
        )
        cam.align_configuration(config)
        cam.configure(config)
        if "AfMode" in cam.camera_controls:
            cam.set_controls({"AfMode": _continuous_focus_mode()})
        return tuple(config["lores"]["size"])  # type: ignore[return-value]

    def read(self) -> np.ndarray | None:
        """The newest lores frame as BGR; HardwareError when the camera stops answering."""
        asked = self._clock_ns()
        try:
            lores, metadata = self._fresh_lores(asked)
        except HardwareError:
            raise
        except Exception as exc:  # libcamera raises assorted errors when the ribbon is pulled
            raise HardwareError(f"the Pi camera stopped answering: {exc}") from exc
        self._settle(metadata)
        return check_frame(lores_to_bgr(lores, self._lores_size))

    def _fresh_lores(self, asked: int) -> tuple[np.ndarray, dict]:
        """Capture requests until one was exposed after `asked`, releasing every request taken."""
        for _ in range(MAX_STALE_DRAIN):
            request = self._camera.capture_request()
            try:
                metadata = request.get_metadata()
                stamp = metadata.get("SensorTimestamp", asked)
                if stamp >= asked:
                    return request.make_array("lores"), metadata
            finally:
                request.release()
        raise HardwareError("the Pi camera only sends old frames")

    def capture_main(self) -> np.ndarray:
        """A fresh full-resolution BGR frame from the main stream (stills for enrollment, previews)."""
        request = self._camera.capture_request()
        try:
            return check_frame(np.ascontiguousarray(request.make_array("main")))
        finally:
            request.release()

    def _settle(self, metadata: dict) -> None:
        """Count settling frames; then lock exposure, gains, white balance and focus."""
        if self.locked is not None:
            return
        self._settle_left -= 1
        if self._settle_left > 0:
            return
        locked = {name: metadata[name] for name in LOCKED_CONTROLS if name in metadata}
        locked.update(AeEnable=False, AwbEnable=False)
        if "AfMode" in self._camera.camera_controls and "LensPosition" in metadata:
            locked.update(AfMode=_manual_focus_mode(), LensPosition=metadata["LensPosition"])
        self._camera.set_controls(locked)
        self.locked = locked
        log.info("Pi camera settled and locked: %s", locked)

    def _release(self) -> None:
        try:
            self._camera.stop()
        finally:
            self._camera.close()
