"""The log entries of contract 1 as frozen dataclasses, with strict JSON parsing and printing."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from typing import Any

from companion.errors import LogFormatError
from companion.names import clean_name, clean_players


class Island(Enum):
    """Which side of the sheet is played: Isla Petit (2 rounds) or Isla Grande (3 rounds)."""

    PETIT = "petit"
    GRANDE = "grande"

    @property
    def printed_name(self) -> str:
        """The island's name as the score pad prints it: 'Isla Petit', 'Isla Grande'."""
        return "Isla " + self.value.capitalize()


class Direction(Enum):
    """Which way players write the set-up card's letters around their island."""

    CLOCKWISE = "clockwise"
    COUNTERCLOCKWISE = "counterclockwise"


class Terrain(Enum):
    """A terrain card face."""

    DESERT = "desert"
    FOREST = "forest"
    MOUNTAIN = "mountain"
    WATER = "water"
    ANY = "any"


class Sight(Enum):
    """A sight type, in score-pad order (top row first)."""

    OBELISK = "obelisk"
    BOOK = "book"
    TOUCAN = "toucan"
    YETI = "yeti"
    SEA_MONSTER = "sea_monster"


LETTERS = ("A", "B", "C", "D", "E")
MAX_PLAYERS = 8
VILLAGES = 10


@dataclass(frozen=True)
class NewGame:
    """Starts a game: players in seat order (first is the Mayor), island and variants."""

    players: tuple[str, ...]
    island: Island = Island.PETIT
    special_bonus: bool = False
    start_village: int = 1
    direction: Direction = Direction.CLOCKWISE
    symmetric: bool = False

    @property
    def mayor(self) -> str:
        """The first player, who reveals the cards."""
        return self.players[0]


@dataclass(frozen=True)
class SetupCard:
    """The set-up card's ten letters read clockwise from the red letter."""

    letters: str


@dataclass(frozen=True)
class RedBonus:
    """The red bonus cards drawn for the Special Bonus variant."""

    sights: tuple[Sight, ...]


@dataclass(frozen=True)
class Reveal:
    """The Mayor's two terrain cards for one turn."""

    cards: tuple[Terrain, Terrain]


@dataclass(frozen=True)
class Claim:
    """A player joined one more sight, a village pair, or two identical sights (red)."""

    player: str
    sight: Sight | None = None
    village: str | None = None
    red: Sight | None = None


@dataclass(frozen=True)
class SoloKeep:
    """Solo: the two blue cards drawn to stay for the last round."""

    letters: tuple[str, ...]


@dataclass(frozen=True)
class EndGame:
    """Closes the last turn after the last round's 13th reveal; final scoring."""


@dataclass(frozen=True)
class Undo:
    """Takes back the latest entry that is not an undo."""


@dataclass(frozen=True)
class Trail:
    """One trail segment on a player's digital island sheet, between two spaces [row, column]."""

    player: str
    from_: tuple[int, int]
    to: tuple[int, int]
    bonus: bool = False


Entry = NewGame | SetupCard | RedBonus | Reveal | Claim | SoloKeep | EndGame | Undo | Trail

ENTRY_TYPES: dict[str, type] = {
    "new_game": NewGame,
    "setup_card": SetupCard,
    "red_bonus": RedBonus,
    "reveal": Reveal,
    "claim": Claim,
    "solo_keep": SoloKeep,
    "end_game": EndGame,
    "undo": Undo,
    "trail": Trail,
}
TYPE_NAMES: dict[type, str] = {cls: name for name, cls in ENTRY_TYPES.items()}

_REQUIRED: dict[str, frozenset[str]] = {
    "new_game": frozenset({"players"}),
    "setup_card": frozenset({"letters"}),
    "red_bonus": frozenset({"sights"}),
    "reveal": frozenset({"cards"}),
    "claim": frozenset({"player"}),
    "solo_keep": frozenset({"letters"}),
    "end_game": frozenset(),
    "undo": frozenset(),
    "trail": frozenset({"player", "from", "to"}),
}
_OPTIONAL: dict[str, frozenset[str]] = {
    "new_game": frozenset({"island", "special_bonus", "start_village", "direction", "symmetric"}),
    "claim": frozenset({"sight", "village", "red"}),
    "trail": frozenset({"bonus"}),
}


def _enum(cls: type[Enum], value: Any, field: str) -> Any:
    try:
        return cls(value)
    except ValueError:
        choices = ", ".join(repr(m.value) for m in cls)
        raise LogFormatError.of("not_a_choice", field=field, choices=choices, value=repr(value)) from None


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise LogFormatError.of("not_a_bool", field=field, value=repr(value))
    return value


def _letter(value: Any, field: str) -> str:
    if value not in LETTERS:
        raise LogFormatError.of("not_a_letter", field=field, value=repr(value))
    return value


def _list(value: Any, field: str) -> list:
    if not isinstance(value, list):
        raise LogFormatError.of("not_a_list", field=field, value=repr(value))
    return value


def _players(value: Any) -> tuple[str, ...]:
    names = _list(value, "players")
    if not 1 <= len(names) <= MAX_PLAYERS:
        raise LogFormatError.of("players_count", most=MAX_PLAYERS, count=len(names))
    return clean_players(names)


def _start_village(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= VILLAGES:
        raise LogFormatError.of("start_village", villages=VILLAGES, value=repr(value))
    return value


def _setup_letters(value: Any) -> str:
    if not isinstance(value, str) or len(value) != VILLAGES or sorted(value) != sorted(LETTERS * 2):
        raise LogFormatError.of("setup_letters", value=repr(value))
    return value


def _new_game(obj: dict) -> NewGame:
    return NewGame(
        players=_players(obj["players"]),
        island=_enum(Island, obj.get("island", "petit"), "island"),
        special_bonus=_bool(obj.get("special_bonus", False), "special_bonus"),
        start_village=_start_village(obj.get("start_village", 1)),
        direction=_enum(Direction, obj.get("direction", "clockwise"), "direction"),
        symmetric=_bool(obj.get("symmetric", False), "symmetric"),
    )


def _reveal(obj: dict) -> Reveal:
    cards = _list(obj["cards"], "cards")
    if len(cards) != 2:
        raise LogFormatError.of("reveal_two_cards", count=len(cards))
    return Reveal(cards=tuple(_enum(Terrain, c, "cards") for c in cards))  # type: ignore[arg-type]


def _claim(obj: dict) -> Claim:
    player = clean_name(obj["player"])
    given = [k for k in ("sight", "village", "red") if k in obj]
    if len(given) != 1:
        raise LogFormatError.of("claim_one_thing")
    kind = given[0]
    if kind == "village":
        return Claim(player=player, village=_letter(obj["village"], "village"))
    sight = _enum(Sight, obj[kind], kind)
    return Claim(player=player, sight=sight) if kind == "sight" else Claim(player=player, red=sight)


def _red_bonus(obj: dict) -> RedBonus:
    sights = tuple(_enum(Sight, s, "sights") for s in _list(obj["sights"], "sights"))
    if not sights:
        raise LogFormatError.of("red_bonus_empty")
    if len(set(sights)) != len(sights):
        raise LogFormatError.of("red_bonus_twice")
    return RedBonus(sights=sights)


def _solo_keep(obj: dict) -> SoloKeep:
    letters = tuple(_letter(v, "letters") for v in _list(obj["letters"], "letters"))
    if len(letters) != 2 or letters[0] == letters[1]:
        raise LogFormatError.of("solo_keep_two")
    return SoloKeep(letters=letters)


def _space(value: Any, field: str) -> tuple[int, int]:
    if not (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise LogFormatError.of("not_a_space_field", field=field, value=repr(value))
    return (value[0], value[1])


def _trail(obj: dict) -> Trail:
    return Trail(
        player=clean_name(obj["player"]),
        from_=_space(obj["from"], "from"),
        to=_space(obj["to"], "to"),
        bonus=_bool(obj.get("bonus", False), "bonus"),
    )


_PARSERS = {
    "new_game": _new_game,
    "setup_card": lambda obj: SetupCard(letters=_setup_letters(obj["letters"])),
    "red_bonus": _red_bonus,
    "reveal": _reveal,
    "claim": _claim,
    "solo_keep": _solo_keep,
    "end_game": lambda obj: EndGame(),
    "undo": lambda obj: Undo(),
    "trail": _trail,
}


def parse_entry(obj: Any) -> Entry:
    """Turn one decoded JSON object into an entry; unknown fields and bad values are refused."""
    if not isinstance(obj, dict):
        raise LogFormatError.of("not_an_object")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in ENTRY_TYPES:
        raise LogFormatError.of("unknown_type", kind=repr(kind))
    fields = set(obj) - {"type"}
    missing = _REQUIRED[kind] - fields
    if missing:
        raise LogFormatError.of("missing_fields", kind=kind, fields=", ".join(sorted(missing)))
    unknown = fields - _REQUIRED[kind] - _OPTIONAL.get(kind, frozenset())
    if unknown:
        raise LogFormatError.of("unknown_fields", kind=kind, fields=", ".join(sorted(unknown)))
    return _PARSERS[kind](obj)


def load_json(text: str) -> Any:
    """Decode JSON text; whatever json refuses (bad syntax, deep nesting, huge numbers) is a LogFormatError."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise LogFormatError.of("not_json", detail=exc.msg, line=exc.lineno) from None
    except RecursionError:
        raise LogFormatError.of("json_too_deep") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise LogFormatError.of("json_value", detail=str(exc)) from None


def parse_line(line: str) -> Entry:
    """Parse one JSONL line into an entry."""
    return parse_entry(load_json(line))


def entry_to_dict(entry: Entry) -> dict[str, Any]:
    """The contract-1 JSON object of an entry (defaults of new_game written out)."""
    kind = TYPE_NAMES[type(entry)]
    out: dict[str, Any] = {"type": kind}
    if isinstance(entry, NewGame):
        out.update(
            players=list(entry.players),
            island=entry.island.value,
            special_bonus=entry.special_bonus,
            start_village=entry.start_village,
            direction=entry.direction.value,
            symmetric=entry.symmetric,
        )
    elif isinstance(entry, SetupCard):
        out["letters"] = entry.letters
    elif isinstance(entry, RedBonus):
        out["sights"] = [s.value for s in entry.sights]
    elif isinstance(entry, Reveal):
        out["cards"] = [c.value for c in entry.cards]
    elif isinstance(entry, Claim):
        out["player"] = entry.player
        if entry.sight is not None:
            out["sight"] = entry.sight.value
        elif entry.village is not None:
            out["village"] = entry.village
        else:
            out["red"] = entry.red.value  # type: ignore[union-attr]
    elif isinstance(entry, SoloKeep):
        out["letters"] = list(entry.letters)
    elif isinstance(entry, Trail):
        out.update({"player": entry.player, "from": list(entry.from_), "to": list(entry.to)})
        out["bonus"] = entry.bonus
    return out


# Line breaks to some readers (JavaScript, str.splitlines) that JSON lets stand raw in a string:
# escaped, so every line of an export is one entry whatever splits it.
_LINE_BREAKS = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\u0085": "\\u0085"}


def escape_line_breaks(line: str) -> str:
    """A JSON line with U+2028, U+2029 and U+0085 written as escapes (the same JSON value)."""
    for char, escape in _LINE_BREAKS.items():
        line = line.replace(char, escape)
    return line


def dump_line(entry: Entry) -> str:
    """One compact JSONL line for an entry (no newline)."""
    return escape_line_breaks(json.dumps(entry_to_dict(entry), separators=(", ", ": "), ensure_ascii=False))
