"""OpenCV frame sources: a USB webcam (usb:N) and replays of a folder of images or a video file."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import cv2
import numpy as np

from hardware.camera import Camera, check_frame
from hardware.errors import ConfigError, HardwareError

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})
VIDEO_SUFFIXES = frozenset({".mp4", ".avi", ".mkv", ".mov", ".webm", ".mjpeg", ".h264"})
# A still is shown for this many reads (1 s at the scanner's 15 frames/s) so the voter can settle.
STILL_READS = 15
USB_FRAME_SIZE = (1280, 720)  # width, height asked of a webcam; cards need ~150 px across to read
USB_FAILED_READS = 5  # consecutive failed grabs before a webcam counts as unplugged


class UsbCamera(Camera):
    """A webcam through cv2.VideoCapture; keeps its driver buffer at one frame so no frame is stale."""

    def __init__(self, index: int = 0, *, capture: cv2.VideoCapture | None = None) -> None:
        self.name = f"usb:{index}"
        self._capture = capture if capture is not None else cv2.VideoCapture(index)
        if not self._capture.isOpened():
            self._capture.release()
            raise HardwareError(f"no webcam answers at {self.name}")
        # Why: a deep driver queue would hand the scanner frames from before the Mayor laid a card.
        self._capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, USB_FRAME_SIZE[0])
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, USB_FRAME_SIZE[1])
        self._failures = 0

    def read(self) -> np.ndarray | None:
        """The newest webcam frame; HardwareError after several failed grabs in a row."""
        ok, frame = self._capture.read()
        if not ok or frame is None:
            self._failures += 1
            if self._failures >= USB_FAILED_READS:
                raise HardwareError(f"the webcam {self.name} stopped sending frames")
            return None
        self._failures = 0
        return check_frame(frame)

    def _release(self) -> None:
        self._capture.release()


class FrameReplay(Camera):
    """Replays frames from an iterable, each held for a number of reads; None once they run out."""

    def __init__(self, frames: Iterable[np.ndarray | None], *, reads_per_frame: int = 1, name: str = "replay") -> None:
        if reads_per_frame < 1:
            raise ConfigError("reads_per_frame must be at least 1")
        self.name = name
        self._frames: Iterator[np.ndarray | None] = iter(frames)
        self._reads_per_frame = reads_per_frame
        self._current: np.ndarray | None = None
        self._left = 0
        self.finished = False

    def read(self) -> np.ndarray | None:
        """The next frame of the replay, or None when it has ended or a frame was unreadable."""
        if self._left == 0:
            try:
                self._current = next(self._frames)
            except StopIteration:
                self.finished = True
                self._current = None
            self._left = self._reads_per_frame
        self._left -= 1
        return None if self._current is None else check_frame(self._current)


def _natural_key(path: Path) -> list[object]:
    """Sort frame_2 before frame_10."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


def image_files(folder: Path) -> list[Path]:
    """The image files of a folder in natural order; ConfigError when there are none."""
    files = sorted((p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES), key=_natural_key)
    if not files:
        raise ConfigError(f"{folder} holds no images ({', '.join(sorted(IMAGE_SUFFIXES))})")
    return files


def _load_images(files: list[Path], skipped: list[Path]) -> Iterator[np.ndarray | None]:
    for path in files:
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            # An unreadable file is skipped, not fatal: the rest of the replay still counts.
            log.warning("replay: %s is not a readable image, skipped", path)
            skipped.append(path)
        yield frame


class FolderReplay(FrameReplay):
    """Replays a folder of images in natural name order, loading each when it is needed."""

    def __init__(self, folder: Path, *, reads_per_frame: int = STILL_READS, loop: bool = False) -> None:
        files = image_files(folder)
        self.skipped: list[Path] = []
        frames = _cycle(files, self.skipped) if loop else _load_images(files, self.skipped)
        super().__init__(frames, reads_per_frame=reads_per_frame, name=f"folder:{folder}")


def _cycle(files: list[Path], skipped: list[Path]) -> Iterator[np.ndarray | None]:
    while True:
        yield from _load_images(files, skipped)


class VideoReplay(Camera):
    """Replays a video file frame by frame through OpenCV; None once it has ended."""

    def __init__(self, path: Path) -> None:
        self.name = f"folder:{path}"
        self._capture = cv2.VideoCapture(str(path))
        if not self._capture.isOpened():
            self._capture.release()
            raise ConfigError(f"{path} is not a video OpenCV can open")
        self.finished = False

    def read(self) -> np.ndarray | None:
        """The next frame of the video, or None at its end."""
        if self.finished:
            return None
        ok, frame = self._capture.read()
        if not ok or frame is None:
            self.finished = True
            return None
        return check_frame(frame)

    def _release(self) -> None:
        self._capture.release()


def open_replay(path: Path, *, reads_per_frame: int = STILL_READS) -> Camera:
    """A replay of a folder of images or a video file (folder:PATH)."""
    if path.is_dir():
        return FolderReplay(path, reads_per_frame=reads_per_frame)
    if path.suffix.lower() in VIDEO_SUFFIXES:
        return VideoReplay(path)
    raise ConfigError(f"{path} is neither a folder of images nor a video ({', '.join(sorted(VIDEO_SUFFIXES))})")
