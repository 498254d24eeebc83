"""One error hierarchy for the whole product; each error is also the builtin it resembles."""

from __future__ import annotations


class TucanaError(Exception):
    """Root of every error the companion raises on purpose."""


class LogFormatError(TucanaError, ValueError):
    """A log line that is not a well-formed entry of contract 1 (bad JSON, unknown field, bad value)."""


class RuleError(TucanaError, ValueError):
    """A well-formed entry that the rules of Trails of Tucana refuse at this point of the game."""


class RefusedLine(TucanaError, ValueError):
    """A log refused while replaying: names the line (1-based) and carries the underlying error."""

    def __init__(self, line: int, error: TucanaError) -> None:
        super().__init__(f"line {line}: {error}")
        self.line = line
        self.error = error


class UnknownGameError(TucanaError, LookupError):
    """A game id the log store does not hold."""


class PermissionRefused(TucanaError, PermissionError):
    """An action by someone who may not take it (a wrong Mayor PIN, a claim for another seat)."""


class ConflictError(TucanaError, RuntimeError):
    """An action that clashes with the current state of a resource (a stale sequence number)."""


class StorageFull(TucanaError, OSError):
    """The Pi's storage (its SD card) is full: nothing was saved, and nothing changed."""

    def __init__(self, message: str = "") -> None:
        super().__init__(
            message
            or "the Pi's storage is full, so nothing was saved: free some space on its SD card "
            "(old exports, photos, logs) and try again"
        )


class CardReadError(TucanaError, ValueError):
    """An image or frame that cannot be read as a picture (empty, corrupt, wrong shape)."""


class DeckError(TucanaError, ValueError):
    """A reference deck folder that is missing, malformed or names an unknown card."""


class HardwareError(TucanaError, OSError):
    """A camera, pin or speaker that cannot be opened or stopped answering."""


class ConfigError(TucanaError, ValueError):
    """A configuration file or flag with a bad value."""
