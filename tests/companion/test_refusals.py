"""Every rule that refuses an entry, one row each; a refusal leaves the game as it was."""

from __future__ import annotations

import pytest

from companion.errors import LogFormatError, RuleError
from companion.moves import parse_line

TWO = {"players": ["Mary", "David"]}
FIVE = {"players": ["Mary", "David", "Alice", "Adam", "Lin"]}


def _last_round_done(b):
    for _ in range(b.state.rounds):
        b.to_round_end()
    return b


REFUSALS = [
    # (id, new_game fields, steps before, the refused entry, words in the message)
    ("9th desert in a round", TWO, lambda b: b.setup().reveal("desert", "desert").reveal("desert", "desert")
     .reveal("desert", "desert").reveal("desert", "desert"), {"type": "reveal", "cards": ["desert", "forest"]}, "9th desert"),
    ("3rd water pair", TWO, lambda b: b.reveal("water", "water").reveal("water", "water"),
     {"type": "reveal", "cards": ["water", "mountain"]}, "5th water"),
    ("third any in a round", TWO, lambda b: b.reveal("any", "any"), {"type": "reveal", "cards": ["forest", "any"]}, "3rd any"),
    ("third obelisk on Isla Petit", TWO, lambda b: b.reveal().claim("Mary", sight="obelisk").claim("Mary", sight="obelisk"),
     {"type": "claim", "player": "Mary", "sight": "obelisk"}, "Isla Petit"),
    ("fourth yeti on Isla Grande", {**TWO, "island": "grande"},
     lambda b: b.reveal().claim("Mary", sight="yeti").claim("Mary", sight="yeti").claim("Mary", sight="yeti"),
     {"type": "claim", "player": "Mary", "sight": "yeti"}, "Isla Grande"),
    ("village pair claimed twice", TWO, lambda b: b.reveal().claim("David", village="C").reveal(),
     {"type": "claim", "player": "David", "village": "C"}, "scores once"),
    ("claim before the first reveal", TWO, lambda b: b.setup(), {"type": "claim", "player": "Mary", "village": "A"}, "no card has been revealed"),
    ("claim by a stranger", TWO, lambda b: b.reveal(), {"type": "claim", "player": "Zed", "village": "A"}, "not a player"),
    ("claim after the game ended", TWO, lambda b: _last_round_done(b).end(),
     {"type": "claim", "player": "Mary", "village": "A"}, "game has ended"),
    ("reveal after the game ended", TWO, lambda b: _last_round_done(b).end(), {"type": "reveal", "cards": ["desert", "water"]}, "game has ended"),
    ("undo after the game ended", TWO, lambda b: _last_round_done(b).end(), {"type": "undo"}, "game has ended"),
    ("end_game twice", TWO, lambda b: _last_round_done(b).end(), {"type": "end_game"}, "game has ended"),
    ("a reveal past the last round", TWO, _last_round_done, {"type": "reveal", "cards": ["desert", "water"]}, "end the game"),
    ("end_game before the last reveal", TWO, lambda b: b.reveals(20), {"type": "end_game"}, "this is reveal 20"),
    ("end_game on Grande after round 2", {**TWO, "island": "grande"}, lambda b: b.reveals(26), {"type": "end_game"}, "reveal 39"),
    ("a second new_game", TWO, lambda b: b, {"type": "new_game", "players": ["X"]}, "already under way"),
    ("set-up card after the first reveal", TWO, lambda b: b.reveal(), {"type": "setup_card", "letters": "CEBAEDCDAB"}, "before the first reveal"),
    ("set-up card read twice", TWO, lambda b: b.setup(), {"type": "setup_card", "letters": "ECAEBDABDC"}, "already read"),
    ("red bonus without Special Bonus", TWO, lambda b: b, {"type": "red_bonus", "sights": ["yeti"]}, "Special Bonus"),
    ("one red card for five players", {**FIVE, "special_bonus": True}, lambda b: b, {"type": "red_bonus", "sights": ["yeti"]}, "draws 2"),
    ("two red cards for two players", {**TWO, "special_bonus": True}, lambda b: b, {"type": "red_bonus", "sights": ["yeti", "book"]}, "draws 1"),
    ("red cards drawn twice", {**TWO, "special_bonus": True}, lambda b: b.add({"type": "red_bonus", "sights": ["yeti"]}),
     {"type": "red_bonus", "sights": ["book"]}, "already drawn"),
    ("reveal before the red cards are drawn", {**TWO, "special_bonus": True}, lambda b: b, {"type": "reveal", "cards": ["desert", "water"]}, "red_bonus"),
    ("red claim without Special Bonus", TWO, lambda b: b.reveal(), {"type": "claim", "player": "Mary", "red": "yeti"}, "Special Bonus"),
    ("red claim for a card not in play", {**TWO, "special_bonus": True},
     lambda b: b.add({"type": "red_bonus", "sights": ["yeti"]}).reveal(), {"type": "claim", "player": "Mary", "red": "book"}, "no red bonus card for two books"),
    ("red pair claimed twice", {**TWO, "special_bonus": True},
     lambda b: b.add({"type": "red_bonus", "sights": ["yeti"]}).reveal().claim("Mary", red="yeti"),
     {"type": "claim", "player": "Mary", "red": "yeti"}, "already joined two yetis"),
    ("solo_keep in a multiplayer game", TWO, lambda b: b.to_round_end(), {"type": "solo_keep", "letters": ["A", "B"]}, "only for the solo game"),
    ("solo_keep too early", {"players": ["Kari"]}, lambda b: b.reveals(12), {"type": "solo_keep", "letters": ["A", "B"]}, "after the 13th reveal"),
    ("solo_keep of a card already won", {"players": ["Kari"]}, lambda b: b.reveal().claim("Kari", village="A").to_round_end(),
     {"type": "solo_keep", "letters": ["A", "B"]}, "no longer on the table"),
    ("solo_keep twice", {"players": ["Kari"]}, lambda b: b.to_round_end().add({"type": "solo_keep", "letters": ["A", "B"]}),
     {"type": "solo_keep", "letters": ["C", "D"]}, "already drawn"),
    ("solo last round without solo_keep", {"players": ["Kari"], "island": "grande"}, lambda b: b.reveals(26),
     {"type": "reveal", "cards": ["desert", "water"]}, "solo_keep"),
    ("undo with nothing to undo", TWO, lambda b: b, {"type": "undo"}, "nothing to undo"),
]


@pytest.mark.parametrize(
    ("setup", "before", "refused", "words"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS]
)
def test_rule_refuses_and_keeps_the_game(log, setup, before, refused, words):
    """Each rule refuses its entry with a message naming it, and the game is unchanged."""
    builder = before(log(**setup))
    state, length = builder.state, len(builder.game)
    with pytest.raises(RuleError, match=words):
        builder.add(refused)
    assert builder.state is state and len(builder.game) == length


def test_anything_before_new_game_is_refused(log):
    """A log starts with new_game."""
    from companion.game import Game
    from companion.moves import Reveal, Terrain

    with pytest.raises(RuleError, match="starts with new_game"):
        Game().apply(Reveal((Terrain.DESERT, Terrain.WATER)))


BAD_LINES = [
    ("not JSON", '{"type": "reveal", "cards": ["desert", "water"]', "not valid JSON"),
    ("not an object", '["reveal"]', "JSON object"),
    ("unknown type", '{"type": "shuffle"}', "unknown entry type"),
    ("unknown field", '{"type": "reveal", "cards": ["desert", "water"], "by": "Mary"}', "unknown field"),
    ("unknown field on end_game", '{"type": "end_game", "now": true}', "unknown field"),
    ("missing field", '{"type": "reveal"}', "needs cards"),
    ("three cards", '{"type": "reveal", "cards": ["desert", "water", "forest"]}', "exactly two"),
    ("unknown terrain", '{"type": "reveal", "cards": ["desert", "lava"]}', "cards must be one of"),
    ("nine players", '{"type": "new_game", "players": ["a","b","c","d","e","f","g","h","i"]}', "1 to 8"),
    ("no players", '{"type": "new_game", "players": []}', "1 to 8"),
    ("duplicate names", '{"type": "new_game", "players": ["Mary", "Mary"]}', "unique"),
    ("empty name", '{"type": "new_game", "players": [""]}', "visible character"),
    ("invisible name", '{"type": "new_game", "players": ["\\u200b\\u3164"]}', "visible character"),
    ("name too long", '{"type": "new_game", "players": ["' + "x" * 25 + '"]}', "at most 24"),
    ("look-alike names", '{"type": "new_game", "players": ["Mary", "M\\u0430ry"]}', "looks the same"),
    ("lone surrogate in a name", '{"type": "new_game", "players": ["\\ud800"]}', "surrogate"),
    ("lone surrogate in a claim", '{"type": "claim", "player": "A\\udfff", "sight": "yeti"}', "surrogate"),
    ("type as a list", '{"type": ["reveal"]}', "unknown entry type"),
    ("type as an object", '{"type": {"reveal": 1}}', "unknown entry type"),
    ("nested too deeply", "[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ("5000-digit number", '{"type": "new_game", "players": ["A"], "start_village": ' + "9" * 5000 + "}",
     "not valid JSON"),
    ("unknown island", '{"type": "new_game", "players": ["A"], "island": "medio"}', "island must be"),
    ("start village 11", '{"type": "new_game", "players": ["A"], "start_village": 11}', "1 to 10"),
    ("start village true", '{"type": "new_game", "players": ["A"], "start_village": true}', "1 to 10"),
    ("special bonus as 1", '{"type": "new_game", "players": ["A"], "special_bonus": 1}', "true or false"),
    ("bad direction", '{"type": "new_game", "players": ["A"], "direction": "left"}', "direction must be"),
    ("set-up letters with a triple", '{"type": "setup_card", "letters": "AAABCDEBCD"}', "each of A-E twice"),
    ("set-up letters too short", '{"type": "setup_card", "letters": "ABCDE"}', "each of A-E twice"),
    ("claim of two things", '{"type": "claim", "player": "A", "sight": "yeti", "village": "A"}', "exactly one"),
    ("claim of nothing", '{"type": "claim", "player": "A"}', "exactly one"),
    ("village F", '{"type": "claim", "player": "A", "village": "F"}', "village must be"),
    ("unknown sight", '{"type": "claim", "player": "A", "sight": "dragon"}', "sight must be"),
    ("solo_keep of one card", '{"type": "solo_keep", "letters": ["A"]}', "two different"),
    ("solo_keep of the same card twice", '{"type": "solo_keep", "letters": ["A", "A"]}', "two different"),
    ("red_bonus twice the same", '{"type": "red_bonus", "sights": ["yeti", "yeti"]}', "must differ"),
]


@pytest.mark.parametrize(("line", "words"), [r[1:] for r in BAD_LINES], ids=[r[0] for r in BAD_LINES])
def test_malformed_line_is_refused(line, words):
    """A line that is not a well-formed entry is a LogFormatError (also a ValueError)."""
    with pytest.raises(LogFormatError, match=words) as info:
        parse_line(line)
    assert isinstance(info.value, ValueError)
