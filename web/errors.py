"""The web side's errors (who may ask, what clashes) and the English of the refusals a page may show.

Each is a companion.errors.TucanaError (the one hierarchy) and the builtin it resembles; web/app.py
maps every error to its HTTP answer in one place. French and Spanish live in web/translations
under "refusal.<code>", beside the rules' and the hardware's refusals.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from companion.errors import TucanaError

# The English of every web refusal a page may show, by code.
REFUSALS: Mapping[str, str] = MappingProxyType({
    "mayor_only": "this needs the Mayor's PIN",
    "wrong_pin": "wrong Mayor PIN",
    "pin_lockout": "too many wrong PINs: try again in {seconds} s",
    "pin_wait": "{failures} wrong PINs in a row: every PIN waits, try again in {seconds} s",
    "seat_first_claim": "take {player}'s seat first to claim for {player}",
    "other_seat_claim": "this phone holds {seat}'s seat: it cannot claim for {player}",
    "seat_first_draw": "take {player}'s seat first to draw for {player}",
    "other_seat_draw": "this phone holds {seat}'s seat: it cannot draw for {player}",
    "mode_needs_seat": "take a seat first: only a seat picks how it scores",
    "mode_decided": "{player} already scores on {mode}: the first claim or trail decided it",
    "seat_taken": "{player}'s seat is taken by another phone; the Mayor can free it",
    "not_a_seat": "{player} is not a player of the current game",
    "not_virtual": "the camera is not the virtual table: lay real cards under it",
    "no_new_game": "start the new game first: its seats are kept from the game before",
})


class WebRefusal(TucanaError):
    """A web error with a code of REFUSALS."""

    catalogue = REFUSALS


class RequestRefused(WebRefusal, ValueError):
    """A well-formed request the current game cannot take (a seat that is not in it)."""


class PermissionRefused(WebRefusal, PermissionError):
    """An action by someone who may not take it (a wrong Mayor PIN, a claim for another seat)."""


class WebConflict(WebRefusal, RuntimeError):
    """An action that clashes with what is: a seat another phone holds, a camera that is not the virtual table."""
