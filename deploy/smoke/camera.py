#!/usr/bin/env python3
"""Smoke check on a real Pi: open the camera as the companion does, save a still, print size and fps.

    sudo systemctl stop tucana
    /opt/tucana/venv/bin/python /opt/tucana/deploy/smoke/camera.py --out still.jpg
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import _common

DEFAULT_SECONDS = 5.0  # long enough for auto exposure to settle (about 1.5 s) and a steady fps
EMPTY_SLEEP_S = 0.005  # pause after an empty read, so a source with no new frame is not spun on


def measure(camera: object, seconds: float) -> tuple[object, int, int, float]:
    """Read frames for `seconds`: the last frame, frames read, empty reads, elapsed seconds."""
    frame, frames, empty = None, 0, 0
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        got = camera.read()
        if got is None:
            empty += 1
            time.sleep(EMPTY_SLEEP_S)
            continue
        frame, frames = got, frames + 1
    return frame, frames, empty, time.monotonic() - start


def main(argv: list[str] | None = None) -> int:
    """Run the check; exit 0 when frames came and the still was saved."""
    parser = _common.base_parser(__doc__.splitlines()[0])
    parser.add_argument("--camera", help="picamera, usb:N, folder:PATH or virtual (default: config)")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS, help="how long to read")
    parser.add_argument("--out", type=Path, default=Path("tucana-still.jpg"), help="still to save")
    args = parser.parse_args(argv)
    try:
        import cv2

        spec = _common.settings(args, camera=args.camera).camera
        print(f"camera {spec}: opening")
        with _common.open_camera(spec) as camera:
            frame, frames, empty, elapsed = measure(camera, args.seconds)
            locked = getattr(camera, "locked", None)
    except (_common.ConfigError, _common.HardwareError) as error:
        return _common.fail(error)
    if frame is None:
        print(f"error: no frame in {elapsed:.1f} s ({empty} empty reads)", file=sys.stderr)
        _common.hint_if_busy()
        return _common.EXIT_FAILED
    height, width = frame.shape[:2]
    print(f"frames: {width}x{height} BGR, {frames / elapsed:.1f} frames/s "
          f"({frames} frames, {empty} empty reads in {elapsed:.1f} s)")
    if spec == "virtual":
        print("(the virtual camera renders frames on demand: its rate means nothing)")
    if locked is not None:
        print(f"exposure, white balance and focus locked at: {locked}")
    if not cv2.imwrite(str(args.out), frame):
        print(f"error: could not write {args.out}", file=sys.stderr)
        return _common.EXIT_FAILED
    print(f"saved {args.out} ({width}x{height}): both cards should be sharp and fill a good part of it")
    return _common.EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
