"""companion/ is the pure rules engine: it imports the standard library and itself, nothing else."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "companion"


def _imports(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


def test_companion_imports_only_the_standard_library():
    """Every import in companion/ is a stdlib module or companion itself."""
    allowed = set(sys.stdlib_module_names) | {"companion", "__future__"}
    found = {(path.name, name) for path in PACKAGE.glob("*.py") for name in _imports(path)}
    assert found, "no imports found: the test looked in the wrong place"
    assert {(f, n) for f, n in found if n not in allowed} == set()
