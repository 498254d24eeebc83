"""The hardware side's errors (camera, pins, speech, the owner's deck, configuration) and their English.

Each is a companion.errors.TucanaError (the one hierarchy) and the builtin it resembles; web maps
them to HTTP answers in one place (web/app.py). A refusal the Mayor console may show has a code
here; web/translations holds it in French and Spanish under "refusal.<code>".
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from companion.errors import TucanaError

# The English of every hardware refusal a page may show, by code.
REFUSALS: Mapping[str, str] = MappingProxyType({
    "no_camera": "no camera: tap the cards on the Mayor's console instead",
    "no_frame": "no camera frame yet: wait a moment and try again",
    "no_reading": "no reading yet",
    "camera_lost": "the camera is lost (reconnecting): try again once it is back",
    "desk_busy": "the Mayor's desk is busy: try again",
    "desk_slow": "the Mayor's desk did not answer in time: try again",
    "previews_full": "{count} camera previews are open already",
    "jpeg": "could not encode the frame as JPEG",
    "nothing_waiting": "no reading is waiting for the Mayor",
    "no_virtual_table": "there is no virtual table: lay real cards under the camera",
    "no_deck_folder": "no deck folder: enroll with `tucana cards enroll --deck DIR --card ID IMAGE...`",
    "enroll_in_game": "a game is under way and the scanner would read the card into it: "
                      "enroll cards before a new game or after the end of this one",
    "not_a_card_id": "not a card ID: {card} (e.g. desert, blue-C2, red-yeti, setup-07)",
    "frame_unreadable": "the camera frame cannot be read: {detail}",
    "hand_in_view": "something else is in view (a hand?): leave the card alone on the mat",
    "no_card_in_view": "no card under the camera: lay the card alone, flat and fully in view",
    "several_cards": "several cards under the camera: leave only the card to enroll",
    "still_enrolled_card": "the camera still sees the card just enrolled as {card}: "
                           "lay {wanted} in its place first",
})


class HardwareRefusal(TucanaError):
    """A hardware error with a code of REFUSALS (or free text for a device's own words)."""

    catalogue = REFUSALS


class HardwareError(HardwareRefusal, OSError):
    """A camera, pin or speaker that cannot be opened or stopped answering."""


class NotNowError(HardwareRefusal, RuntimeError):
    """A request the hardware cannot do in the situation at hand (a game under way, the wrong cards in view)."""


class CardReadError(HardwareRefusal, ValueError):
    """An image or frame that cannot be read as a picture (empty, corrupt, wrong shape)."""


class DeckError(HardwareRefusal, ValueError):
    """A reference deck folder that is missing, malformed or names an unknown card."""


class ConfigError(TucanaError, ValueError):
    """A configuration file or flag with a bad value (said on the command line, never on a page)."""
