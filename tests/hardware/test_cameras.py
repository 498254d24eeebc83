"""Camera sources: replays of folders and videos, a webcam's stale-frame guard, the picamera2 adapter."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hardware.camera import Camera, CameraSource, check_frame, open_camera
from hardware.camera_cv import (
    USB_FAILED_READS,
    FolderReplay,
    FrameReplay,
    UsbCamera,
    VideoReplay,
    open_replay,
)
from hardware.camera_pi import PiCamera, lores_to_bgr
from hardware.config import parse_camera_spec
from hardware.errors import ConfigError, HardwareError


def _frame(value: int, size=(64, 48)) -> np.ndarray:
    return np.full((size[1], size[0], 3), value, np.uint8)


def test_frame_replay_holds_each_frame_then_ends():
    """Frame replay returns each frame for reads_per_frame reads, then None and finished."""
    replay = FrameReplay([_frame(1), _frame(2)], reads_per_frame=2)
    values = [int(replay.read()[0, 0, 0]) for _ in range(4)]
    assert values == [1, 1, 2, 2]
    assert replay.read() is None and replay.finished


def test_folder_replay_in_natural_order_skips_unreadable_files(tmp_path):
    """Folder replay reads images in natural number order and skips unreadable files as None."""
    for n in (10, 2, 1):
        cv2.imwrite(str(tmp_path / f"frame_{n}.png"), _frame(n))
    (tmp_path / "frame_5.png").write_bytes(b"not a png")
    (tmp_path / "notes.txt").write_text("ignored")
    with FolderReplay(tmp_path, reads_per_frame=1) as replay:
        seen = [replay.read() for _ in range(5)]
    assert [None if f is None else int(f[0, 0, 0]) for f in seen] == [1, 2, None, 10, None]
    assert replay.skipped == [tmp_path / "frame_5.png"]
    assert replay.closed


def test_folder_without_images_is_a_clear_error(tmp_path):
    """A folder with no images raises ConfigError saying so."""
    with pytest.raises(ConfigError, match="holds no images"):
        FolderReplay(tmp_path)


def test_video_replay(tmp_path):
    """A recorded video is replayed frame by frame, with None after the last one."""
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 15, (64, 48))
    for n in range(5):
        writer.write(_frame(40 * n + 20))
    writer.release()
    camera = open_replay(path)
    assert isinstance(camera, VideoReplay)
    frames = [camera.read() for _ in range(6)]
    assert all(f is not None for f in frames[:5]) and frames[5] is None
    assert abs(int(frames[4].mean()) - 180) < 10
    camera.close()


def test_open_camera_from_spec(tmp_path):
    """A camera spec opens the matching camera; none gives None and a bare virtual is refused."""
    cv2.imwrite(str(tmp_path / "a.png"), _frame(9))
    camera = open_camera(parse_camera_spec(f"folder:{tmp_path}"))
    assert isinstance(camera, CameraSource) and int(camera.read()[0, 0, 0]) == 9
    assert open_camera(parse_camera_spec("none")) is None
    with pytest.raises(ConfigError):
        open_camera(parse_camera_spec("virtual"))  # needs the table to look at


@pytest.mark.parametrize("bad", [np.zeros((4, 4), np.uint8), np.zeros((4, 4, 3), np.float32), None])
def test_unreadable_frames_are_refused(bad):
    """A grey, a float or a missing frame raises HardwareError."""
    with pytest.raises(HardwareError):
        check_frame(bad)


class Capture:
    """Stands in for cv2.VideoCapture: a webcam that sends some frames and then is unplugged."""

    def __init__(self, good: int, opened: bool = True) -> None:
        self.good = good
        self.opened = opened
        self.props: dict[int, float] = {}
        self.released = False

    def isOpened(self) -> bool:  # noqa: N802 (OpenCV's name)
        """Whether the fake device opened."""
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        """Record a capture property."""
        self.props[prop] = value
        return True

    def read(self):
        """A frame while good ones remain, then a failed grab."""
        if self.good > 0:
            self.good -= 1
            return True, _frame(7)
        return False, None

    def release(self) -> None:
        """Note that the device was released."""
        self.released = True


def test_usb_camera_keeps_one_frame_buffered_and_reports_unplugging():
    """A USB camera buffers one frame, tolerates a few failed reads, then reports it is lost."""
    capture = Capture(good=2)
    camera = UsbCamera(0, capture=capture)
    assert capture.props[cv2.CAP_PROP_BUFFERSIZE] == 1
    assert camera.read() is not None and camera.read() is not None
    for _ in range(USB_FAILED_READS - 1):
        assert camera.read() is None  # a dropped grab is not yet a lost camera
    with pytest.raises(HardwareError, match="stopped sending"):
        camera.read()
    camera.close()
    assert capture.released


def test_usb_camera_that_does_not_open():
    """A USB camera that fails to open raises HardwareError naming its spec."""
    with pytest.raises(HardwareError, match="usb:3"):
        UsbCamera(3, capture=Capture(good=0, opened=False))


class Request:
    """Stands in for a picamera2 capture request with a timestamp and a lores image."""
    def __init__(self, stamp: int, lores: np.ndarray, log: list) -> None:
        self.stamp, self.lores, self.log = stamp, lores, log

    def get_metadata(self) -> dict:
        """Fixed sensor metadata with this request's timestamp."""
        return {"SensorTimestamp": self.stamp, "ExposureTime": 9000, "AnalogueGain": 1.5, "ColourGains": (1.8, 1.4)}

    def make_array(self, stream: str) -> np.ndarray:
        """A blank main image or the lores image, by stream name."""
        if stream == "main":
            return np.zeros((86, 154, 3), np.uint8)  # "RGB888": BGR bytes, ready for OpenCV
        assert stream == "lores"
        return self.lores

    def release(self) -> None:
        """Log that this request was handed back."""
        self.log.append(("release", self.stamp))


class Picamera2:
    """Stands in for picamera2.Picamera2: a queue of timestamped requests, some older than asked."""

    camera_controls: dict = {}

    def __init__(self, stamps: list[int], lores: np.ndarray) -> None:
        self.stamps, self.lores, self.log = list(stamps), lores, []
        self.controls: dict = {}

    def create_video_configuration(self, **config):
        """Log the requested configuration and return it as is."""
        self.log.append(("config", config))
        return dict(config)

    def align_configuration(self, config) -> None:
        """Leave the configuration as the test set it."""
        pass

    def configure(self, config) -> None:
        """Keep the configuration the camera applied."""
        self.configured = config

    def start(self) -> None:
        """Log that the camera started."""
        self.log.append(("start",))

    def capture_request(self) -> Request:
        """The next queued request, oldest first."""
        return Request(self.stamps.pop(0), self.lores, self.log)

    def set_controls(self, controls: dict) -> None:
        """Record the controls the camera set."""
        self.controls.update(controls)

    def stop(self) -> None:
        """Log that the camera stopped."""
        self.log.append(("stop",))

    def close(self) -> None:
        """Log that the camera closed."""
        self.log.append(("close",))


def _i420(width: int, height: int) -> np.ndarray:
    bgr = np.zeros((height, width, 3), np.uint8)
    bgr[:] = (30, 160, 220)  # desert yellow
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420)


def test_picamera_drops_stale_frames_and_locks_exposure_once_settled():
    """The Pi camera drops frames exposed before the read and locks exposure after settling."""
    stamps = [50, 80, 150, 200, 300]  # the first two were exposed before the read was asked (t=100)
    fake = Picamera2(stamps, _i420(64, 48))
    clock = iter([100, 190, 290])
    camera = PiCamera(open_camera=lambda: fake, clock_ns=lambda: next(clock), settle_frames=2)
    config = fake.configured
    assert config["main"]["format"] == "RGB888" and config["lores"]["format"] == "YUV420"
    assert config["queue"] is False
    config["lores"]["size"] = (64, 48)  # what align_configuration would leave for this test
    camera._lores_size = (64, 48)
    frame = camera.read()
    assert frame.shape == (48, 64, 3)
    assert [e for e in fake.log if e[0] == "release"] == [("release", 50), ("release", 80), ("release", 150)]
    assert camera.locked is None  # still settling
    camera.read()
    assert camera.locked == {"ExposureTime": 9000, "AnalogueGain": 1.5, "ColourGains": (1.8, 1.4),
                             "AeEnable": False, "AwbEnable": False}
    assert fake.controls["AeEnable"] is False
    assert camera.capture_main().shape == (86, 154, 3)
    assert fake.log[-1] == ("release", 300)  # the request was handed back
    camera.close()
    assert fake.log[-2:] == [("stop",), ("close",)]


def test_picamera_that_only_sends_old_frames_is_lost():
    """A Pi camera that only delivers frames older than the read is reported lost."""
    fake = Picamera2([1] * 10, _i420(64, 48))
    camera = PiCamera(open_camera=lambda: fake, clock_ns=lambda: 100)
    with pytest.raises(HardwareError, match="old frames"):
        camera.read()


def test_missing_picamera2_is_a_hardware_error():
    """Without picamera2 installed, opening the Pi camera raises HardwareError naming it."""
    with pytest.raises(HardwareError, match="picamera2"):
        PiCamera()  # picamera2 is not installed off a Pi


def test_lores_to_bgr_keeps_colour():
    """Converting the I420 lores image to BGR keeps the colour."""
    bgr = lores_to_bgr(_i420(64, 48), (64, 48))
    assert np.allclose(bgr[10, 10], (30, 160, 220), atol=6)


def test_camera_base_class_closes_once():
    """A camera releases its device once, however often it is closed."""
    class Counting(Camera):
        """A camera that counts how often its device is released."""
        releases = 0

        def _release(self) -> None:
            self.releases += 1

    camera = Counting()
    with camera:
        pass
    camera.close()
    assert camera.releases == 1
