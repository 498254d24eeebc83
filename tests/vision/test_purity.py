"""vision/ is pure functions over numpy arrays: the standard library, numpy, OpenCV and itself."""

from __future__ import annotations

import sys

from tests.imports import package_imports

ALLOWED = set(sys.stdlib_module_names) | {"__future__", "numpy", "cv2", "vision", "."}


def test_vision_imports_nothing_of_the_project_but_itself():
    """vision imports only the standard library, numpy, OpenCV and itself."""
    found = package_imports("vision")
    assert any(name == "cv2" for _, name in found), "no imports found: the test looked in the wrong place"
    assert {(module, name) for module, name in found if name not in ALLOWED} == set()
