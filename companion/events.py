"""What happened when an entry was accepted: frozen dataclasses for the screens, LEDs and buzzer."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from companion.moves import Entry, NewGame, Sight, Terrain

if TYPE_CHECKING:
    from companion.scoring import Standings


class BonusKind(Enum):
    """Which bonus deck a bonus card comes from."""

    BLUE = "blue"
    RED = "red"


@dataclass(frozen=True)
class GameStarted:
    """A new game with its players and variants."""

    setup: NewGame


@dataclass(frozen=True)
class SetupDone:
    """The set-up card was read: every player's village letters are fixed."""

    letters: str
    card_number: int | None


@dataclass(frozen=True)
class RedBonusDrawn:
    """The red bonus cards of the Special Bonus variant are on the table."""

    sights: tuple[Sight, ...]


@dataclass(frozen=True)
class Revealed:
    """The Mayor revealed two terrain cards: the announcement."""

    round: int
    turn: int
    cards: tuple[Terrain, Terrain]


@dataclass(frozen=True)
class LastTurn:
    """The 13th reveal of a round: this is the round's last turn."""

    round: int


@dataclass(frozen=True)
class RoundEnded:
    """A round closed; each player's sight sum written in the Final Scoring Box."""

    round: int
    sights: dict[str, int]


@dataclass(frozen=True)
class Claimed:
    """A claim scored: a sight value circled, a village pair circled, or a red pair made."""

    player: str
    points: int
    sight: Sight | None = None
    village: str | None = None
    red: Sight | None = None
    bonus_segment: bool = False  # the last value of a sight row: draw a bonus trail segment now


@dataclass(frozen=True)
class BonusTaken:
    """A player took a blue or red bonus card (or tied for it in the same turn)."""

    player: str
    kind: BonusKind
    card: str
    points: int
    round: int
    turn: int


@dataclass(frozen=True)
class TrailDrawn:
    """A segment on a player's island sheet; its connections follow as Claimed and BonusTaken events."""

    player: str
    from_: tuple[int, int]
    to: tuple[int, int]
    bonus: bool
    bonus_due: int  # bonus segments the player may still draw this turn (chain reactions add more)


@dataclass(frozen=True)
class NothingToDraw:
    """Rare case: no segment of the revealed pair is left on this sheet seat's island this turn."""

    player: str
    round: int
    turn: int
    cards: tuple[Terrain, Terrain]


@dataclass(frozen=True)
class SoloKept:
    """Solo: the two blue cards that stay for the last round."""

    letters: tuple[str, ...]


@dataclass(frozen=True)
class GameEnded:
    """The last round closed; final standings."""

    standings: Standings


@dataclass(frozen=True)
class Undone:
    """The latest entry was taken back."""

    entry: Entry


Event = (
    GameStarted
    | SetupDone
    | RedBonusDrawn
    | Revealed
    | LastTurn
    | RoundEnded
    | Claimed
    | BonusTaken
    | TrailDrawn
    | NothingToDraw
    | SoloKept
    | GameEnded
    | Undone
)
