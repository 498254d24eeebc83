"""Player names: the one normal form, the length cap and look-alike names refused."""

from __future__ import annotations

import pytest

from companion.errors import LogFormatError, RuleError
from companion.game import Game
from companion.moves import Claim, NewGame, Reveal, SetupCard, Terrain, parse_entry
from companion.names import NAME_MAX_CHARS, clean_name, lookalike_key


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Mary", "Mary"),
        ("  Mary  ", "Mary"),
        ("Mary\u200b", "Mary"),  # zero-width space
        ("Ma\u00adry", "Mary"),  # soft hyphen
        ("\u202eMary", "Mary"),  # right-to-left override
        ("Mary\ufe0f", "Mary"),  # variation selector
        ("Mary\tAnn", "Mary Ann"),
        ("Mary \u3000  Ann", "Mary Ann"),  # ideographic and plain spaces collapse to one
        ("Jose\u0301", "Jos\u00e9"),  # NFC: e + combining acute is é
        ("Zoë 🦜", "Zoë 🦜"),
    ],
)
def test_a_name_is_cleaned_to_one_form(raw: str, clean: str) -> None:
    """NFC, invisible characters dropped, spaces collapsed and trimmed."""
    assert clean_name(raw) == clean


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("", "visible"),
        ("\u200b\u200d", "visible"),
        ("\u3164", "visible"),  # Hangul filler: a letter drawn as nothing
        ("\u2800", "visible"),  # Braille blank
        ("x" * (NAME_MAX_CHARS + 1), f"at most {NAME_MAX_CHARS}"),
        ("Mary\ud800", "surrogate"),
        (["Mary"], "text"),
        (7, "text"),
    ],
)
def test_unusable_names_are_refused(raw: object, words: str) -> None:
    """Empty after cleaning, too long, a lone surrogate or not text: refused with a reason."""
    with pytest.raises(LogFormatError, match=words):
        clean_name(raw)


def test_the_length_cap_counts_characters_after_cleaning() -> None:
    """A 24-character name with invisible padding is accepted; 200 kB names are not."""
    assert clean_name("x" * NAME_MAX_CHARS + "\u200b" * 50) == "x" * NAME_MAX_CHARS
    with pytest.raises(LogFormatError):
        clean_name("x" * 200_000)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Mary", "M\u0430ry"),  # Cyrillic a
        ("Mary", "Mar\u0443"),  # Cyrillic u
        ("Mary", "mary"),
        ("Mary", "MARY"),
        ("José", "Jose"),  # speech reads both the same
        ("Ian", "lan"),
        ("Arnie", "Amie"),
        ("Bob", "B0b"),
        ("Mary Ann", "MaryAnn"),
        ("Mary", "Ｍａｒｙ"),  # fullwidth letters
        ("Olga", "\u039flga"),  # Greek capital omicron
    ],
)
def test_look_alike_names_are_refused_in_one_game(first: str, second: str) -> None:
    """Two players whose names look the same cannot sit at one table."""
    assert lookalike_key(first) == lookalike_key(second)
    with pytest.raises(LogFormatError, match="looks the same"):
        parse_entry({"type": "new_game", "players": [first, second]})


@pytest.mark.parametrize(("first", "second"), [("Ann", "Anne"), ("Mary", "Marty"), ("Eva", "Ava"),
                                               ("Li", "Lu"), ("Søren", "Soren Jr")])
def test_different_names_stay_different(first: str, second: str) -> None:
    """Names a table tells apart are both accepted."""
    assert parse_entry({"type": "new_game", "players": [first, second]}).players == (first, second)


def test_the_same_name_twice_after_cleaning_is_a_duplicate() -> None:
    """Mary and Mary + zero-width space are one name: the second is a duplicate."""
    with pytest.raises(LogFormatError, match="unique"):
        parse_entry({"type": "new_game", "players": ["Mary", "Mary\u200b"]})


def test_a_claim_names_its_player_in_the_same_form() -> None:
    """A claim for 'Mary' + zero-width space is Mary's claim; one for a look-alike is nobody's."""
    game = Game.replay([NewGame(("Mary", "David")), SetupCard("CEBAEDCDAB"),
                        Reveal((Terrain.DESERT, Terrain.WATER))])
    claim = parse_entry({"type": "claim", "player": "Mary\u200b ", "village": "A"})
    assert claim == Claim(player="Mary", village="A")
    game.apply(claim)
    impostor = parse_entry({"type": "claim", "player": "M\u0430ry", "village": "A"})
    with pytest.raises(RuleError, match="not a player"):
        game.apply(impostor)
