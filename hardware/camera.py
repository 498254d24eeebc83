"""The camera interface every frame source implements, and the factory that opens one from a spec."""

from __future__ import annotations

from types import TracebackType
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from hardware.config import CameraKind, CameraSpec
from hardware.errors import ConfigError, HardwareError

if TYPE_CHECKING:
    from hardware.virtual_table import VirtualTable


@runtime_checkable
class CameraSource(Protocol):
    """A source of BGR frames: read() gives the newest frame, None when there is none right now."""

    def read(self) -> np.ndarray | None:
        """The newest frame (H x W x 3 uint8, BGR) or None; raises HardwareError when the camera is lost."""
        ...

    def close(self) -> None:
        """Release the device; safe to call twice."""
        ...


class Camera:
    """Base class giving every source `with` support and an idempotent close()."""

    name = "camera"
    closed = False

    def read(self) -> np.ndarray | None:
        """The newest frame or None; subclasses implement it."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the device once."""
        if not self.closed:
            self.closed = True
            self._release()

    def _release(self) -> None:
        """Free the underlying device; subclasses override."""

    def __enter__(self) -> Camera:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def check_frame(frame: object) -> np.ndarray:
    """The frame as a BGR uint8 array; HardwareError when a source hands back something else."""
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.size == 0:
        shape = getattr(frame, "shape", None)
        raise HardwareError(f"the camera gave an unreadable frame (shape {shape})")
    if frame.dtype != np.uint8:
        raise HardwareError(f"the camera gave {frame.dtype} pixels, not uint8")
    return frame


def open_camera(spec: CameraSpec, *, virtual_table: VirtualTable | None = None) -> Camera | None:
    """Open the source a spec names (None for 'none'); HardwareError when the device will not open."""
    kind = spec.kind
    if kind is CameraKind.NONE:
        return None
    if kind is CameraKind.VIRTUAL:
        if virtual_table is None:
            raise ConfigError("the virtual camera needs a virtual table to look at")
        return virtual_table
    if kind is CameraKind.USB:
        from hardware.camera_cv import UsbCamera

        return UsbCamera(spec.index)
    if kind is CameraKind.FOLDER:
        from hardware.camera_cv import open_replay

        assert spec.path is not None
        return open_replay(spec.path)
    from hardware.camera_pi import PiCamera

    return PiCamera()
