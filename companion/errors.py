"""The rules' errors, the root of the product's one error hierarchy, and the English of every refusal.

Every error the companion raises on purpose is a TucanaError and also the builtin it resembles.
A refusal a page may show carries a code and its parameters besides its English text: the pages
translate it by that code ("refusal.<code>" in web/translations), the command line prints the text.
Each package keeps the English of its own refusals (hardware/errors.py, web/errors.py); this
module holds the rules' only.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from types import MappingProxyType
from typing import Any, ClassVar, Self

Params = Mapping[str, Any]


class TucanaError(Exception):
    """Root of every error the companion raises on purpose.

    code and params, when set, name the refusal in its package's catalogue so a page can say it
    in the reader's language; an error without a code is shown as its English text.
    """

    catalogue: ClassVar[Mapping[str, str]] = MappingProxyType({})

    def __init__(self, message: str, /, *, code: str | None = None, params: Params | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params: Params = MappingProxyType(dict(params or {}))

    @classmethod
    def of(cls, code: str, /, **params: Any) -> Self:
        """The error for a code of the class's catalogue, its English filled in from params."""
        text = cls.catalogue[code].format(**{k: english(v) for k, v in params.items()})
        return cls(text, code=code, params={k: plain(v) for k, v in params.items()})


def plain(value: Any) -> Any:
    """A parameter as JSON carries it: an enum by its value, a tuple as a list."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


def english(value: Any) -> Any:
    """A parameter as the English text shows it ('sea_monster' -> 'sea monster', lists joined)."""
    if isinstance(value, Enum):
        return getattr(value, "printed_name", None) or str(value.value).replace("_", " ")
    if isinstance(value, tuple | list):
        return ", ".join(str(english(v)) for v in value)
    return value


# The English of every refusal of the rules, by code. Placeholders: player, sight (a Sight),
# terrain (a Terrain), island (an Island, in English its printed name), letters and numbers; "sights" and "nth" are English
# forms (plural, ordinal) that the other languages do without.
REFUSALS: Mapping[str, str] = MappingProxyType({
    # the log's format (contract 1)
    "not_json": "not valid JSON ({detail} at line {line})",
    "json_too_deep": "not valid JSON here (nested too deeply)",
    "json_value": "not valid JSON here ({detail})",
    "not_an_object": "an entry is a JSON object",
    "unknown_type": "unknown entry type {kind}",
    "missing_fields": "{kind} needs {fields}",
    "unknown_fields": "{kind} has unknown field(s) {fields}",
    "not_a_choice": "{field} must be one of {choices}, not {value}",
    "not_a_bool": "{field} must be true or false, not {value}",
    "not_a_letter": "{field} must be one of A, B, C, D, E, not {value}",
    "not_a_list": "{field} must be a list, not {value}",
    "players_count": "players must name 1 to {most} players, not {count}",
    "name_not_text": "a player name is text, not {value}",
    "name_surrogate": "a player name must be valid Unicode text (it holds a lone surrogate)",
    "name_empty": "a player name needs at least one visible character",
    "name_too_long": "a player name has at most {most} characters, not {count}",
    "players_twice": "player names must be unique: '{name}' is there twice",
    "players_lookalike": "'{name}' looks the same as '{other}': give each player a name the table can tell apart",
    "start_village": "start_village must be a whole number from 1 to {villages}, not {value}",
    "setup_letters": "letters must be 10 letters with each of A-E twice, not {value}",
    "reveal_two_cards": "a reveal shows exactly two cards, not {count}",
    "claim_one_thing": "a claim names exactly one of sight, village or red",
    "red_bonus_empty": "red_bonus names at least one red card",
    "red_bonus_twice": "each red bonus card is in the box once: sights must differ",
    "solo_keep_two": 'solo_keep names two different blue cards, e.g. ["A", "C"]',
    "not_an_entry": "not a log entry: {entry}",
    "empty_log": "the log holds no game: it starts with new_game",
    # the rules
    "no_game": "no game yet: the log starts with new_game",
    "game_ended": "the game has ended: nothing more can be added",
    "game_under_way": "a game is already under way: one log holds one game",
    "setup_card_after_reveal": "the set-up card belongs to the set-up, before the first reveal",
    "setup_card_read": "the set-up card is already read: undo it to read another",
    "red_bonus_after_reveal": "drawing the red bonus cards belongs to the set-up, before the first reveal",
    "red_bonus_not_in_variant": "red bonus cards are only used in the Special Bonus variant",
    "red_bonus_drawn": "the red bonus cards are already drawn",
    "red_bonus_count": "with {players} player(s) the Mayor draws {wanted} red bonus card(s), not {given}",
    "red_bonus_first": "Special Bonus: draw the red bonus cards (red_bonus) before the first reveal",
    "all_revealed": "round {rounds} of {rounds} has had its 13 reveals: end the game (end_game)",
    "solo_keep_first": "solo: before the last round, draw the 2 blue bonus cards that stay (solo_keep)",
    "deck_exceeded": "a {nth} {terrain} card in round {round}: the deck holds only {limit} (a misread card?)",
    "claim_before_reveal": "a claim belongs to a turn: no card has been revealed yet",
    "not_a_player": "{player} is not a player of this game",
    "sights_all_joined": "{player} has already joined all {count} {sights}: {island} has no more to join",
    "village_pair_joined": "{player} has already joined the {letter} village pair: each pair scores once",
    "red_claim_not_in_variant": "red bonus claims are only part of the Special Bonus variant",
    "red_card_not_in_play": "no red bonus card for two {sights} is in play",
    "red_pair_joined": "{player} has already joined two {sights}",
    "solo_keep_not_solo": "solo_keep is only for the solo game",
    "solo_keep_done": "the blue cards for the last round are already drawn",
    "solo_keep_when": "solo_keep comes after the 13th reveal of round {round}, before the last round's first reveal",
    "solo_keep_all_stay": "you won {won} blue bonus cards: every remaining card stays in play",
    "blue_card_gone": "blue bonus card {letters} is no longer on the table",
    "end_too_early": "the game ends after the 13th reveal of round {rounds} (reveal {last}); this is reveal {reveals}",
    "nothing_to_undo": "nothing to undo",
    # the island sheet (trail entries)
    "not_a_space_field": "{field} must be a space as [row, column] (two whole numbers), not {value}",
    "trail_before_reveal": "a trail segment belongs to a turn: no card has been revealed yet",
    "claims_from_trails": "{player} draws on the island sheet: their claims come from their trails",
    "not_a_space": "{space} is not a space of {island}",
    "not_adjacent": "{a} and {b} are not adjacent spaces",
    "segment_drawn_this_turn": "{player} already drew this turn's segment: wait for the next reveal",
    "nothing_to_draw": "nothing to draw this turn: no {terrain} and {other} segment is left on {player}'s island",
    "segment_terrains": "this turn's segment joins {terrain} and {other}: {a} is {a_terrain}, {b} is {b_terrain}",
    "paper_seat": "{player} scores on paper (claims were tapped): a paper seat draws no trails",
    "no_letters_yet": "the set-up card is not read yet: the villages have no letters to join",
    "segment_already_drawn": "the segment {a}-{b} is already drawn",
    "no_bonus_segment": "{player} has no bonus segment to draw: one is earned this turn by joining the "
                        "last sight of a type to a village",
    "refused_line": "line {line}: {error}",
    "unknown_game": "no game {game_id} in the store",
    # the table and its store
    "log_moved_on": "the log moved on: you saw entry {seen}, the newest is {newest}; reload",
    "request_id_reused": "this request id was used for another entry: send a new one",
    "storage_full": "the Pi's storage is full, so nothing was saved: free some space on its SD card "
                    "(old exports, photos, logs) and try again",
})


class RefusalError(TucanaError):
    """A refusal of the rules engine: its codes are those of REFUSALS."""

    catalogue = REFUSALS


class LogFormatError(RefusalError, ValueError):
    """A log line that is not a well-formed entry of contract 1 (bad JSON, unknown field, bad value)."""


class RuleError(RefusalError, ValueError):
    """A well-formed entry that the rules of Trails of Tucana refuse at this point of the game."""


class RefusedLine(RefusalError, ValueError):
    """A log refused while replaying: names the line (1-based) and carries the underlying error."""

    def __init__(self, line: int, error: TucanaError) -> None:
        super().__init__(REFUSALS["refused_line"].format(line=line, error=error), code="refused_line",
                         params={"line": line, "error": str(error)})
        self.line = line
        self.error = error


class UnknownGameError(RefusalError, LookupError):
    """A game id the log store does not hold."""


class ConflictError(RefusalError, RuntimeError):
    """An entry sent for a log that moved on since its sender looked, or a request id used twice."""


class StorageFull(RefusalError, OSError):
    """The Pi's storage (its SD card) is full: nothing was saved, and nothing changed."""

    def __init__(self, message: str = "", /, **kwargs: object) -> None:
        if message:
            super().__init__(message, **kwargs)
        else:
            super().__init__(REFUSALS["storage_full"], code="storage_full")
