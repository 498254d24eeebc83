"""The hardware rig as the web sees it: camera status, preview JPEGs, virtual table, enrollment."""

from __future__ import annotations

from typing import Any


def open_rig(settings: Any, services: Any) -> Any:
    """Open the camera, scanner and controls once; None when serving without a camera."""
    if settings.camera == "none":
        return None
    return None  # wired to hardware/ once its entry point lands
