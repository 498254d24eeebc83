"""Small private JSON files of the data folder (secrets, seats, sessions): atomic, owner-only."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

from companion.errors import StorageFull

_FULL = {errno.ENOSPC, errno.EDQUOT}


def write_private(path: Path, doc: object) -> None:
    """Write JSON atomically with owner-only permissions; a full disk is StorageFull, file unchanged."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(doc, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as error:
        tmp.unlink(missing_ok=True)
        if error.errno in _FULL:
            raise StorageFull() from error
        raise


def read_json(path: Path) -> object | None:
    """The file's JSON, or None when it is missing or damaged (then it is made again)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
