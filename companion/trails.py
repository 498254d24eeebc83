"""Trails on the digital island sheet: which segments are legal, and the claims a segment makes.

A segment never scores by itself: the connections it completes become ordinary claims (a sight
joined to a village, a village pair, two sights of a red card) applied by companion.claims, the
same code that scores a paper seat's taps, so both kinds of seat score and tie alike.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.claims import apply_claim
from companion.errors import RuleError
from companion.events import Claimed, Event, NothingToDraw, TrailDrawn
from companion.island import MAPS, Edge, IslandMap, Space, pair_key
from companion.moves import LETTERS, Claim, Sight, Trail
from companion.sheet import IslandSheet, SeatMode
from companion.state import GameState, PlayerSheet, evolve

_SIGHT_ORDER = {sight: n for n, sight in enumerate(Sight)}


def island_map(state: GameState) -> IslandMap:
    """The map of the island this game is played on."""
    assert state.setup is not None
    return MAPS[state.setup.island]


def drawing(state: GameState, player: str) -> IslandSheet:
    """A player's island sheet (blank until their first segment)."""
    return state.sheets[player].drawing or IslandSheet.blank(island_map(state))


def sheet_seats(state: GameState) -> tuple[str, ...]:
    """The players on the digital island sheet, in seat order."""
    return tuple(p for p in state.players if state.sheets[p].mode is SeatMode.SHEET)


def legal_edges(state: GameState, player: str) -> tuple[Edge, ...]:
    """The segments the player may draw now: any free edge while a bonus is due, else this reveal's pair."""
    if state.last_reveal is None or state.ended:
        return ()
    sheet, island = drawing(state, player), island_map(state)
    if sheet.bonus_left(state.reveals):
        return tuple(e for e in island.edges if e not in sheet.drawn)
    if sheet.has_drawn(state.reveals):
        return ()
    return _free(island, sheet, state)


def _free(island: IslandMap, sheet: IslandSheet, state: GameState) -> tuple[Edge, ...]:
    assert state.last_reveal is not None
    return tuple(e for e in island.edges_for[pair_key(state.last_reveal.cards)] if e not in sheet.drawn)


def nothing_to_draw(state: GameState, player: str) -> bool:
    """Rare case: the player has not drawn this turn and no segment of the revealed pair is left."""
    if state.last_reveal is None or state.ended:
        return False
    sheet, island = drawing(state, player), island_map(state)
    if sheet.has_drawn(state.reveals) or sheet.bonus_left(state.reveals):
        return False
    pairs = island.edges_for[pair_key(state.last_reveal.cards)]
    return all(e in sheet.drawn for e in pairs)


def waiting_for(state: GameState, planned: Iterable[str] = ()) -> tuple[str, ...]:
    """Sheet seats still to draw this turn: the turn's segment (unless the rare case) or a bonus one.

    planned names players who mean to draw on the sheet but have not scored yet (their phone
    picked the sheet): they are waited for too until their first segment decides their seat.
    """
    if state.last_reveal is None or state.ended:
        return ()
    also = set(planned)
    seats = [
        p for p in state.players
        if state.sheets[p].mode is SeatMode.SHEET
        or (p in also and state.sheets[p].mode is SeatMode.UNDECIDED)
    ]
    return tuple(p for p in seats if legal_edges(state, p))


def rare_cases(state: GameState) -> list[Event]:
    """NothingToDraw for every sheet seat the reveal just made leaves without a segment."""
    assert state.last_reveal is not None
    return [
        NothingToDraw(p, state.round, state.turn, state.last_reveal.cards)
        for p in sheet_seats(state)
        if nothing_to_draw(state, p)
    ]


def _where(space: Space) -> str:
    return f"[{space[0]}, {space[1]}]"


def _edge_for(state: GameState, trail: Trail) -> Edge:
    """The edge of a trail entry, or a RuleError naming what is wrong with its spaces."""
    island = island_map(state)
    for space in (trail.from_, trail.to):
        if space not in island.index:
            raise RuleError.of("not_a_space", space=_where(space), island=island.island)
    edge = island.edge(trail.from_, trail.to)
    if edge is None:
        raise RuleError.of("not_adjacent", a=_where(trail.from_), b=_where(trail.to))
    return edge


def _check_turn_segment(state: GameState, trail: Trail, sheet: IslandSheet, edge: Edge) -> None:
    """Refuse a non-bonus segment that is not this turn's to draw."""
    assert state.last_reveal is not None
    island = island_map(state)
    if sheet.has_drawn(state.reveals):
        raise RuleError.of("segment_drawn_this_turn", player=trail.player)
    cards = state.last_reveal.cards
    if island.allows(cards, edge):
        return
    if not _free(island, sheet, state):
        raise RuleError.of("nothing_to_draw", terrain=cards[0], other=cards[1], player=trail.player)
    a, b = (island.hexes[i] for i in edge)
    raise RuleError.of("segment_terrains", terrain=cards[0], other=cards[1], a=_where(a.space),
                       a_terrain=a.terrain, b=_where(b.space), b_terrain=b.terrain)


def apply_trail(state: GameState, trail: Trail) -> tuple[GameState, list[Event]]:
    """Draw one segment on a sheet seat's island and score what it joins (the caller checked the turn)."""
    player = state.sheets[trail.player]
    if player.mode is SeatMode.PAPER:
        raise RuleError.of("paper_seat", player=trail.player)
    letters = state.village_letters.get(trail.player)
    if not letters:
        raise RuleError.of("no_letters_yet")
    edge = _edge_for(state, trail)
    sheet = drawing(state, trail.player)
    if edge in sheet.drawn:
        raise RuleError.of("segment_already_drawn", a=_where(trail.from_), b=_where(trail.to))
    if trail.bonus and not sheet.bonus_left(state.reveals):
        raise RuleError.of("no_bonus_segment", player=trail.player)
    if not trail.bonus:
        _check_turn_segment(state, trail, sheet, edge)
    sheet = sheet.with_segment(edge, bonus=trail.bonus, reveals=state.reveals)
    claims, sights = derived_claims(state, trail.player, sheet, edge, letters)
    state = _with_sheet(state, trail.player, evolve(player, mode=SeatMode.SHEET, drawing=sheet))
    events: list[Event] = []
    earned = 0
    for claim in claims:
        state, caused = apply_claim(state, claim)
        events.extend(caused)
        earned += sum(1 for e in caused if isinstance(e, Claimed) and e.bonus_segment)
    sheet = sheet.with_joined(sights, earned=earned)
    state = _with_sheet(state, trail.player, evolve(state.sheets[trail.player], drawing=sheet))
    drawn = TrailDrawn(trail.player, trail.from_, trail.to, trail.bonus, sheet.bonus_left(state.reveals))
    return state, [drawn, *events]


def _with_sheet(state: GameState, player: str, sheet: PlayerSheet) -> GameState:
    return evolve(state, sheets={**state.sheets, player: sheet})


def derived_claims(
    state: GameState, player: str, sheet: IslandSheet, edge: Edge, letters: str
) -> tuple[list[Claim], frozenset[int]]:
    """The claims a new segment completes, and the sight spaces it joins to a village.

    Only the piece the segment belongs to can have changed. Sights come first (score-pad order),
    then village pairs, then red pairs: one segment's claims are all of one turn, so their order
    changes no score.
    """
    island = island_map(state)
    piece = sheet.piece(edge[0])
    members = frozenset(piece)
    done = state.sheets[player]
    claims: list[Claim] = []
    new_sights: frozenset[int] = frozenset()
    if any(island.hexes[i].village for i in piece):
        new_sights = frozenset(i for i in piece if island.hexes[i].sight and i not in sheet.joined)
        ordered = sorted(new_sights, key=lambda i: (_SIGHT_ORDER[island.hexes[i].sight], i))  # type: ignore[index]
        claims += [Claim(player, sight=island.hexes[i].sight) for i in ordered]
    for letter in LETTERS:
        if letter in done.villages:
            continue
        pair = [island.villages[n] for n in range(1, len(letters) + 1) if letters[n - 1] == letter]
        if all(i in members for i in pair):
            claims.append(Claim(player, village=letter))
    for sight in state.red_drawn or ():
        if sight not in done.reds and sum(1 for i in island.sights[sight] if i in members) >= 2:
            claims.append(Claim(player, red=sight))
    return claims, new_sights
