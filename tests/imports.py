"""What a package's modules import, read from their source (every import statement, nested ones too)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def imports_of(path: Path) -> Iterator[str]:
    """The top-level name of every absolute import in a module, wherever it stands in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            yield "."  # a relative import: stays inside its own package


def package_imports(package: str) -> set[tuple[str, str]]:
    """(module path relative to the repo, imported top-level name) for every module of a package."""
    root = REPO / package
    return {(str(path.relative_to(REPO)), name) for path in sorted(root.rglob("*.py"))
            for name in imports_of(path)}
