"""Random valid games for property tests, benchmarks and demos; the randomness is passed in."""

from __future__ import annotations

import random
from collections.abc import Iterator

from companion.game import Game
from companion.island import Edge
from companion.moves import (
    LETTERS,
    Claim,
    Direction,
    EndGame,
    Entry,
    Island,
    NewGame,
    RedBonus,
    Reveal,
    SetupCard,
    Sight,
    SoloKeep,
    Terrain,
    Trail,
)
from companion.rules import DECK, REVEALS_PER_ROUND, SETUP_CARDS, red_card_count
from companion.trails import drawing, island_map, legal_edges

NAMES = ("Mary", "David", "Alice", "Adam", "Lin", "Geir", "Anna", "Kjetil")


def shuffled_deck(rng: random.Random) -> list[Terrain]:
    """The 27 terrain cards in a random order."""
    deck = [terrain for terrain, count in DECK.items() for _ in range(count)]
    rng.shuffle(deck)
    return deck


def random_setup(rng: random.Random, players: int | None = None) -> NewGame:
    """A new_game with random players, island and options."""
    count = players if players is not None else rng.randint(1, len(NAMES))
    return NewGame(
        players=NAMES[:count],
        island=rng.choice(list(Island)),
        special_bonus=rng.random() < 0.5,
        start_village=rng.randint(1, 10),
        direction=rng.choice(list(Direction)),
        symmetric=rng.random() < 0.3,
    )


PURPOSE_RATE = 0.85  # how often a random sheet draws with a purpose rather than anywhere legal


def _claims(rng: random.Random, game: Game, name: str, rate: float) -> Iterator[Claim]:
    """Claims a paper player could make now, each kept with probability `rate`."""
    state = game.state
    sheet = state.sheets[name]
    for sight in Sight:
        if sheet.sights[sight] < len(state.sight_values(sight)) and rng.random() < rate:
            yield Claim(player=name, sight=sight)
    for letter in LETTERS:
        if letter not in sheet.villages and rng.random() < rate / 3:
            yield Claim(player=name, village=letter)
    for sight in state.red_drawn or ():
        if sight not in sheet.reds and rng.random() < rate / 3:
            yield Claim(player=name, red=sight)


def _pick(rng: random.Random, game: Game, name: str, legal: tuple[Edge, ...]) -> Edge:
    """A random legal edge, mostly one that joins two marked pieces, else one that grows a piece.

    A piece is marked when it holds a village, a sight or a trail: joining two of them is what
    scores, so random sheets reach the bonus segments and chain reactions often enough to test.
    """
    island = island_map(game.state)
    sheet = drawing(game.state, name)
    drawn = {i for seg in sheet.segments for i in seg.edge}
    marked = {sheet.labels[i] for i, h in enumerate(island.hexes) if h.village or h.sight or i in drawn}
    joins = [e for e in legal if sheet.labels[e[0]] != sheet.labels[e[1]]
             and sheet.labels[e[0]] in marked and sheet.labels[e[1]] in marked]
    grows = [e for e in legal if sheet.labels[e[0]] in marked or sheet.labels[e[1]] in marked]
    for choice in (joins, grows):
        if choice and rng.random() < PURPOSE_RATE:
            return rng.choice(choice)
    return rng.choice(legal)


def _sheet_turn(rng: random.Random, game: Game, name: str, rate: float) -> Iterator[Trail]:
    """This turn's segment (drawn with probability `rate`), then every bonus segment it earns."""
    island = island_map(game.state)
    bonus = False
    while True:
        legal = legal_edges(game.state, name)
        if not legal or (not bonus and rng.random() >= rate):
            return
        a, b = _pick(rng, game, name, legal)
        trail = Trail(name, island.space(a), island.space(b), bonus=bonus)
        yield trail
        game, _ = game.apply(trail)
        bonus = True


def _turn(rng: random.Random, game: Game, sheet_seats: set[str], claim_rate: float) -> Iterator[Entry]:
    """Every player's entries of one turn, the players in a random order (ties mix both kinds)."""
    players = list(game.state.players)
    rng.shuffle(players)
    for name in players:
        if name in sheet_seats:
            for trail in _sheet_turn(rng, game, name, 0.9):
                yield trail
                game, _ = game.apply(trail)
            continue
        for claim in list(_claims(rng, game, name, claim_rate)):
            yield claim
            game, _ = game.apply(claim)


def random_game(
    rng: random.Random, setup: NewGame | None = None, *, claim_rate: float = 0.08, sheets: float = 0.0
) -> list[Entry]:
    """A complete valid log: set-up, every reveal with random claims (and trails) between them, end_game.

    Each player is a sheet seat with probability `sheets`; a sheet seat draws a segment most turns.
    """
    setup = setup or random_setup(rng)
    sheet_seats = {name for name in setup.players if sheets and rng.random() < sheets}
    entries: list[Entry] = [setup, SetupCard(rng.choice(list(SETUP_CARDS.values())))]
    if setup.special_bonus:
        entries.append(RedBonus(tuple(rng.sample(list(Sight), red_card_count(len(setup.players))))))
    game = Game.replay(entries)
    for _ in range(game.state.rounds):
        deck = shuffled_deck(rng)
        if game.state.needs_solo_keep:
            kept = [letter for letter, stack in game.state.blue.items() if stack]
            keep = SoloKeep(tuple(rng.sample(kept, 2)))
            game, _ = game.apply(keep)
            entries.append(keep)
        for turn in range(REVEALS_PER_ROUND):
            reveal = Reveal((deck[2 * turn], deck[2 * turn + 1]))
            game, _ = game.apply(reveal)
            entries.append(reveal)
            for entry in list(_turn(rng, game, sheet_seats, claim_rate)):
                game, _ = game.apply(entry)
                entries.append(entry)
    entries.append(EndGame())
    return entries
