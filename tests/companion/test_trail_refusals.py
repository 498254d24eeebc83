"""Every rule that refuses a trail (or a claim of a sheet seat), one row each; the game stays as it was."""

from __future__ import annotations

import json

import pytest

from companion.errors import LogFormatError, RuleError
from companion.moves import Trail, dump_line, parse_line

TWO = {"players": ["Mary", "David"]}


def _ended(b):
    while not b.state.all_revealed:
        b.reveal(*(t.value for t in b.state.possible_reveals[0]))
    return b.end()


def _t(start, end, player="Mary", bonus=False):
    return {"type": "trail", "player": player, "from": list(start), "to": list(end), "bonus": bonus}


REFUSALS = [
    # (id, new_game fields, steps before, the refused entry, words in the message)
    ("before the first reveal", TWO, lambda b: b.setup(), _t((3, 1), (3, 3)), "no card has been revealed"),
    ("by a stranger", TWO, lambda b: b.setup().reveal(), _t((3, 1), (3, 3), player="Zed"), "not a player"),
    ("after the game ended", TWO, lambda b: _ended(b.setup()), _t((3, 1), (3, 3)), "game has ended"),
    ("before the set-up card", TWO, lambda b: b.reveal("desert", "forest"), _t((3, 1), (3, 3)), "set-up card is not read"),
    ("by a paper seat", TWO, lambda b: b.setup().reveal().claim("Mary", sight="yeti").reveal("desert", "forest"),
     _t((3, 1), (3, 3)), "scores on paper"),
    ("off the map", TWO, lambda b: b.setup().reveal("desert", "forest"), _t((0, 0), (0, 2)), "[0, 0] is not a space of Isla Petit"),
    ("off Isla Grande", {**TWO, "island": "grande"}, lambda b: b.setup().reveal("water", "water"),
     _t((0, 14), (0, 16)), "[0, 16] is not a space of Isla Grande"),
    ("not adjacent", TWO, lambda b: b.setup().reveal("desert", "desert"), _t((3, 1), (3, 5)), "not adjacent"),
    ("the same space twice", TWO, lambda b: b.setup().reveal("desert", "desert"), _t((3, 1), (3, 1)), "not adjacent"),
    ("terrains not revealed", TWO, lambda b: b.setup().reveal("water", "mountain"), _t((3, 1), (3, 3)),
     "joins water and mountain: [3, 1] is desert, [3, 3] is forest"),
    ("one terrain right, one wrong", TWO, lambda b: b.setup().reveal("desert", "water"), _t((3, 1), (3, 3)),
     "[3, 3] is forest"),
    ("a second segment in a turn", TWO, lambda b: b.setup().reveal("desert", "forest").trail("Mary", (3, 1), (3, 3)),
     _t((3, 3), (3, 5)), "already drew this turn's segment"),
    ("an edge drawn before", TWO, lambda b: b.setup().reveal("desert", "forest").trail("Mary", (3, 1), (3, 3))
     .reveal("forest", "desert"), _t((3, 3), (3, 1)), "already drawn"),
    ("a bonus never earned", TWO, lambda b: b.setup().reveal("desert", "forest"), _t((3, 1), (3, 3), bonus=True),
     "no bonus segment"),
    ("a bonus earned last turn", TWO, lambda b: b.setup().draw("Mary", (2, 10), (2, 12), (1, 13))
     .draw("Mary", (7, 9), (7, 11), (8, 12)).reveal("desert", "desert"), _t((5, 3), (5, 5), bonus=True), "no bonus segment"),
    ("a claim by a sheet seat", TWO, lambda b: b.setup().reveal("desert", "forest").trail("Mary", (3, 1), (3, 3)),
     {"type": "claim", "player": "Mary", "village": "A"}, "draws on the island sheet"),
    ("a sheet seat's claim in a later turn", TWO, lambda b: b.setup().reveal("desert", "forest").trail("Mary", (3, 1), (3, 3))
     .reveal(), {"type": "claim", "player": "Mary", "sight": "yeti"}, "claims come from their trails"),
]


@pytest.mark.parametrize(("new_game", "before", "entry", "words"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_the_engine_refuses(log, new_game, before, entry, words):
    """Each refused entry raises a RuleError naming the rule, and the state is unchanged."""
    builder = before(log(**new_game))
    state = builder.state
    with pytest.raises(RuleError, match=_escaped(words)):
        builder.add(entry)
    assert builder.state == state


def _escaped(words: str) -> str:
    import re

    return re.escape(words)


FORMAT = [
    ("missing to", '{"type": "trail", "player": "Mary", "from": [3, 1]}', "needs to"),
    ("missing player", '{"type": "trail", "from": [3, 1], "to": [3, 3]}', "needs player"),
    ("one number", '{"type": "trail", "player": "Mary", "from": [3], "to": [3, 3]}', "[row, column]"),
    ("three numbers", '{"type": "trail", "player": "Mary", "from": [3, 1, 0], "to": [3, 3]}', "[row, column]"),
    ("a true for a row", '{"type": "trail", "player": "Mary", "from": [true, 1], "to": [3, 3]}', "[row, column]"),
    ("a fraction", '{"type": "trail", "player": "Mary", "from": [3, 1.5], "to": [3, 3]}', "[row, column]"),
    ("text numbers", '{"type": "trail", "player": "Mary", "from": ["3", "1"], "to": [3, 3]}', "[row, column]"),
    ("an object", '{"type": "trail", "player": "Mary", "from": {"row": 3, "col": 1}, "to": [3, 3]}', "[row, column]"),
    ("bonus as text", '{"type": "trail", "player": "Mary", "from": [3, 1], "to": [3, 3], "bonus": "yes"}', "bonus must be true or false"),
    ("an unknown field", '{"type": "trail", "player": "Mary", "from": [3, 1], "to": [3, 3], "terrain": "desert"}', "unknown field"),
    ("an empty player", '{"type": "trail", "player": "", "from": [3, 1], "to": [3, 3]}', "needs at least one visible character"),
    ("a number for a player", '{"type": "trail", "player": 7, "from": [3, 1], "to": [3, 3]}', "a player name is text"),
]


@pytest.mark.parametrize(("line", "words"), [r[1:] for r in FORMAT], ids=[r[0] for r in FORMAT])
def test_a_malformed_trail_line_is_refused(line, words):
    """A trail line that breaks contract 1's shape is a LogFormatError saying what is wrong."""
    with pytest.raises(LogFormatError, match=_escaped(words)):
        parse_line(line)


def test_a_trail_line_round_trips_and_bonus_defaults_to_false():
    """A trail without bonus reads as bonus false and is written back with every field."""
    entry = parse_line('{"type": "trail", "player": "Léa", "from": [3, 1], "to": [3, 3]}')
    assert entry == Trail("Léa", (3, 1), (3, 3), bonus=False)
    assert json.loads(dump_line(entry)) == {"type": "trail", "player": "Léa", "from": [3, 1], "to": [3, 3], "bonus": False}
    assert parse_line(dump_line(entry)) == entry
