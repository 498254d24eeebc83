"""Random valid games for property tests, benchmarks and demos; the randomness is passed in."""

from __future__ import annotations

import random
from collections.abc import Iterator

from companion.game import Game
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
)
from companion.rules import DECK, REVEALS_PER_ROUND, SETUP_CARDS, red_card_count

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


def _claims(rng: random.Random, game: Game, rate: float) -> Iterator[Claim]:
    """Claims a player could make now, each kept with probability `rate`."""
    state = game.state
    for name, sheet in state.sheets.items():
        for sight in Sight:
            if sheet.sights[sight] < len(state.sight_values(sight)) and rng.random() < rate:
                yield Claim(player=name, sight=sight)
        for letter in LETTERS:
            if letter not in sheet.villages and rng.random() < rate / 3:
                yield Claim(player=name, village=letter)
        for sight in state.red_drawn or ():
            if sight not in sheet.reds and rng.random() < rate / 3:
                yield Claim(player=name, red=sight)


def random_game(rng: random.Random, setup: NewGame | None = None, *, claim_rate: float = 0.08) -> list[Entry]:
    """A complete valid log: set-up, every reveal with random claims between them, end_game."""
    setup = setup or random_setup(rng)
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
            for claim in list(_claims(rng, game, claim_rate)):
                game, _ = game.apply(claim)
                entries.append(claim)
    entries.append(EndGame())
    return entries
