"""Benchmark (not a test): issue 9's leave-one-style-out protocol for the card reader, and its speed.

Run: .venv/bin/python tests/benchmarks/bench_vision.py [--scale 1] [--runs 3] [--verbose]

Protocol (tests/benchmarks/vision_sets.py holds the split):
  tuning    styles standard, woodcut; table tops vision.tables.TUNING_TOPS; seeds 100-199.
            Tune the reader on these (make_vision_set.py exports them for score.py).
  held out  styles painted, flat (vision.art: independent code paths, never tuned on); table tops
            vision.tables.HELD_OUT_TOPS; seed HELD_OUT_SEED. Only ever measured.
  stress    style dusk (dark, low-contrast cards) on the held-out tops: held out as well, but
            harsher than issue 9 asks, so it is reported on its own, not in the headline.
Each style but standard gets a fresh deck enrolled through vision.store.enroll from two clear
photos per card on its own group of tops (refused photos are counted per card); standard is read
with the built-in deck. Each style's test photos are graded as score.py grades them (a photo is
right when the multiset of names equals the cards shown; a name not there is wrong; a back,
another game's card, a hand or an empty table must get no name) on held-out and on tuning tops,
by family (terrain single, terrain pairs, blue, red, set-up at least / under 30% of the frame
height, negatives), by table top and by card size. The headline is the held-out styles on the
held-out tops, checked against issue 9's "Done when". The product's main read, the Mayor's two
terrain cards at rest under the scanner's camera (768x432, cards 25-45% of its height), is
measured apart for each held-out style on each held-out top. The built-in deck is also read on the
live-table simulator (vision.simulator), as this benchmark measured it before, so a change
that costs the built-in deck its figures shows.
Speed: median thread CPU ms per two-card frame, 1280x720 and the scanner's 768x432, on one
core (cv2.setNumThreads(1)), built-in deck on standard frames and the enrolled painted deck on
painted frames; median of --runs runs (thread time: other processes do not inflate it).
Exit 1 when a headline target or the speed target is missed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import vision  # noqa: E402, F401  (before numpy: the reader's one BLAS thread, as in the product)

# isort: split
import cv2  # noqa: E402
import numpy as np  # noqa: E402

from tests.benchmarks.vision_grading import (  # noqa: E402
    MS_TARGET,
    Graded,
    breakdown,
    cell,
    count,
    family_figures,
    pass_fail,
    share,
    targets,
    verdict,
)
from tests.benchmarks.vision_sets import (  # noqa: E402
    ENROLL_PHOTOS,
    HELD_OUT_SEED,
    HELD_OUT_STYLES,
    SEEN_STYLES,
    STRESS_STYLES,
    TUNING_STYLES,
    enrollment,
    exam_photos,
    generator,
    thing,
)
from vision.cards import CARD_IDS, TERRAINS  # noqa: E402
from vision.deck import Deck, builtin_deck  # noqa: E402
from vision.photo import Photo, PhotoConditions, take_photo  # noqa: E402
from vision.props import foreign_card, random_back  # noqa: E402
from vision.reader import CardReader, FrameReading  # noqa: E402
from vision.render import STANDARD, render_card  # noqa: E402
from vision.simulator import random_scene  # noqa: E402
from vision.store import enroll, load_deck  # noqa: E402
from vision.tables import HELD_OUT_TOPS, TUNING_TOPS, TableTop  # noqa: E402

# Test photos per (style, group of tops) at --scale 1: most where the headline is measured.
PLAN = {("painted", "held-out"): 80, ("flat", "held-out"): 80, ("painted", "tuning"): 20,
        ("flat", "tuning"): 20, ("standard", "tuning"): 60, ("woodcut", "tuning"): 60,
        ("standard", "held-out"): 40, ("woodcut", "held-out"): 40, ("dusk", "held-out"): 60,
        ("dusk", "tuning"): 0, ("gilded", "held-out"): 80, ("inkwash", "held-out"): 80,
        ("gilded", "tuning"): 20, ("inkwash", "tuning"): 20, ("lacquer", "held-out"): 80,
        ("chalk", "held-out"): 80, ("lacquer", "tuning"): 20, ("chalk", "tuning"): 20,
        ("mosaic", "held-out"): 160, ("riso", "held-out"): 160, ("mosaic", "tuning"): 40, ("riso", "tuning"): 40}
LIVE_FRAMES = 150  # built-in deck on the live-table simulator, at --scale 1
TIMING_FRAMES = 20  # two-card frames per size and deck in each timing run
PAIRS_PER_TOP = 20  # the Mayor's pairs at rest per held-out top and held-out style, at --scale 1
SCANNER_SIZE = (768, 432)  # the Pi camera's low-resolution stream the scanner reads
TIMING_HEIGHTS = (0.25, 0.45)  # cards at rest under the scanner's camera


def group_of(style: str) -> str:
    """The group of tops a style is enrolled on: a held-out style on held-out tops."""
    return "tuning" if style in TUNING_STYLES else "held-out"


def enrolled_deck(style: str, seed: int, verbose: bool) -> tuple[Deck | None, Counter, int]:
    """A fresh deck enrolled from the style's clear photos; (deck or None when every photo was
    refused, refused photos by card, photos)."""
    refused: Counter = Counter()
    photos = 0
    with tempfile.TemporaryDirectory() as folder:
        for card, shots in enrollment(style, group_of(style), seed):
            for shot in shots:
                photos += 1
                try:
                    enroll(folder, card, shot.photo.image)
                except ValueError as exc:  # the owner is told which photo and why, and retakes it
                    refused[card] += 1
                    if verbose:
                        print(f"  enroll {style} {card} on {shot.photo.top.value}: {exc}", file=sys.stderr)
        return (load_deck(folder) if refused.total() < photos else None), refused, photos


def grade(reader: CardReader | None, style: str, tops: str, seed: int, n: int, verbose: bool) -> list[Graded]:
    """Read one style's test photos on one group of tops and grade each as score.py does (no
    reader: nothing was enrolled, so nothing is found)."""
    rows = []
    for shot in exam_photos(style, tops, seed, n):
        cards = reader.read(shot.photo.image).cards if reader is not None else ()
        named = [c.card for c in cards]
        v = verdict(shot.labels, named, len(cards))
        height = min((s.height for s in shot.photo.seen if s.thing.label), default=1.0)
        rows.append(Graded(style, tops, shot.photo.top.value, shot.family, height, v))
        if verbose and v != "correct":
            print(f"  {v:7} {style}/{shot.photo.top.value}: {shot.labels} read as {named} "
                  f"(height {height:.2f}, tilt {shot.photo.tilt:.0f}, {shot.photo.optics})", file=sys.stderr)
    return rows


def print_rows(title: str, rows: list[Graded]) -> None:
    """A group's figures: overall, by family, by table top, by card size."""
    c = count(rows)
    print(f"  {title}: {cell(c)}")
    print("    by family: " + "; ".join(f"{k} {cell(v)}" for k, v in family_figures(rows).items() if v["n"]))
    print("    by top:    " + breakdown(rows, lambda r: r.top))
    print("    by size:   " + breakdown(rows, lambda r: r.size))


def print_targets(title: str, rows: list[Graded], enroll_refused: int | None) -> bool:
    """Issue 9's targets on these rows; True when all are met."""
    c = count(rows)
    print(f"== {title}: {c['n']} photos, {100 * share(c):.1f}% right, {100 * share(c, 'wrong'):.2f}% wrong, "
          f"{100 * share(c, 'refused'):.1f}% refused, {100 * share(c, 'missed'):.1f}% missed")
    checks = targets(rows, enroll_refused)
    for what, figure, met in checks:
        print(f"     {what:24} {figure:28} {pass_fail(met)}")
    return all(met for _, _, met in checks)


def live_table(frames: int, g: np.random.Generator) -> Counter:
    """The built-in deck on vision.simulator's frames (this benchmark's protocol before issue 9)."""
    reader = CardReader(builtin_deck())
    standard = {card: render_card(card, STANDARD) for card in CARD_IDS}
    c: Counter = Counter()
    for i in range(frames):
        if i % 5 == 4:  # negatives: backs and other games' cards
            objs = [random_back(g) if g.random() < 0.5 else foreign_card(g)]
            labels: list[str | None] = [None]
        else:
            labels = [CARD_IDS[int(k)] for k in g.integers(0, len(CARD_IDS), int(g.integers(1, 3)))]
            objs = [standard[card] for card in labels]
        scene = random_scene(objs, g, labels=labels)
        reading = reader.read(scene.render(g))
        c[verdict(labels, [r.card for r in reading.cards], len(reading.cards))] += 1
        c["n"] += 1
    return c


def mayors_pair(style: str, size: tuple[int, int], g: np.random.Generator,
                top: TableTop | None = None) -> tuple[list[str], Photo]:
    """Two random terrain cards of a style at rest under the scanner's camera (cards 25-45% of the
    frame's height), on this top or a random one: the cards and the photo."""
    pair = [TERRAINS[int(k)] for k in g.integers(0, len(TERRAINS), 2)]
    cond = PhotoConditions(frames=(size,), card_height=TIMING_HEIGHTS)
    return pair, take_photo([thing(style, card) for card in pair], g, cond, pair=True, top=top)


def mayors_pairs(reader: CardReader | None, style: str, seed: int, per_top: int) -> dict[str, Counter]:
    """The Mayor's two terrain cards at rest under the scanner's camera (its 768x432 stream, the cards
    25-45% of its height), on each held-out top, read with the style's enrolled deck: verdicts by top.
    Right means what the scanner logs: the two cards named in a clean frame (one flagged as having a
    hand in view, or with another outline refused beside them, is counted refused, and also as
    unclean). Wrong is any wrong name, as score.py counts it; "logged" counts those in a clean frame,
    which the scanner would log if the next frames agreed."""
    g = generator(style, "held-out", seed, "pairs")
    by_top: dict[str, Counter] = {}
    for top in HELD_OUT_TOPS:
        c = by_top.setdefault(top.value, Counter())
        for _ in range(per_top):
            pair, photo = mayors_pair(style, SCANNER_SIZE, g, top)
            reading = reader.read(photo.image) if reader is not None else FrameReading(())
            v = verdict(pair, [r.card for r in reading.cards], len(reading.cards))
            if v == "correct" and not reading.clean:  # the voter waits for a frame with every outline named and
                v, c["unclean"] = "refused", c["unclean"] + 1  # no hand in it: nothing is logged
            if v == "wrong" and reading.clean:  # a wrong name beside a refused outline is never logged; this one is
                c["logged"] += 1
            c[v] += 1
            c["n"] += 1
    return by_top


def timing(reader: CardReader, style: str, size: tuple[int, int], g: np.random.Generator, runs: int) -> list[float]:
    """Median thread-CPU ms per two-card frame of this size, for each of runs runs."""
    frames = [mayors_pair(style, size, g)[1].image for _ in range(TIMING_FRAMES)]
    medians = []
    for _ in range(runs):
        cpu = []
        for image in frames:
            t0 = time.thread_time()
            reader.read(image)
            cpu.append(time.thread_time() - t0)
        medians.append(1000 * statistics.median(cpu))
    return medians


def main(argv: list[str] | None = None) -> int:
    """Run the protocol and print its figures; exit 1 when a headline or speed target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every photo count")
    parser.add_argument("--runs", type=int, default=3, help="timing runs (median reported)")
    parser.add_argument("--seed", type=int, default=HELD_OUT_SEED)
    parser.add_argument("--verbose", action="store_true", help="print every photo not read right")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    started = time.perf_counter()
    print(f"tuning:   styles {', '.join(TUNING_STYLES)}; tops {', '.join(t.value for t in TUNING_TOPS)}; seeds 100-199")
    print(f"held out: styles {', '.join(HELD_OUT_STYLES)}; tops {', '.join(t.value for t in HELD_OUT_TOPS)}; "
          f"seed {args.seed}")
    rows: list[Graded] = []
    refused_by_style: dict[str, int] = {}
    readers: dict[str, CardReader | None] = {}
    print(f"seen:     styles {', '.join(SEEN_STYLES)} (held out, but their misses were looked at): reported apart")
    for style in TUNING_STYLES + HELD_OUT_STYLES + SEEN_STYLES + STRESS_STYLES:
        if style == "standard":
            readers[style] = CardReader(builtin_deck())
            print(f"\n{style} (tuning style): the built-in deck")
        else:
            deck, refused, photos = enrolled_deck(style, args.seed, args.verbose)
            readers[style] = CardReader(deck) if deck is not None else None
            refused_by_style[style] = refused.total()
            empty = [card for card in CARD_IDS if refused[card] >= ENROLL_PHOTOS]
            kind = "stress" if style in STRESS_STYLES else "seen" if style in SEEN_STYLES else group_of(style)
            print(f"\n{style} ({kind} style): deck enrolled from {photos} photos on {group_of(style)} tops, "
                  f"{refused.total()} refused" + (f" ({', '.join(f'{k} {v}' for k, v in sorted(refused.items()))})"
                                                  if refused else "")
                  + (f"; no photo left for {', '.join(empty)}" if empty else ""))
        for tops in ("held-out", "tuning"):
            n = round(PLAN[(style, tops)] * args.scale)
            if n == 0:
                continue
            style_rows = grade(readers[style], style, tops, args.seed, n, args.verbose)
            print_rows(f"{tops} tops", style_rows)
            rows += style_rows
    print()
    worst = max((refused_by_style[s] for s in HELD_OUT_STYLES), default=0)
    groups = {"held-out": HELD_OUT_STYLES, "tuning": TUNING_STYLES, "seen": SEEN_STYLES}
    select = {(sg, tg): [r for r in rows if r.style in groups[sg] and r.tops == tg]
              for sg in groups for tg in ("held-out", "tuning")}
    print_targets(f"seen styles ({', '.join(SEEN_STYLES)}: their misses were looked at) on held-out tops",
                  select[("seen", "held-out")], max((refused_by_style[s] for s in SEEN_STYLES), default=0))
    headline_ok = print_targets("held-out styles on held-out tops (HEADLINE)", select[("held-out", "held-out")], worst)
    print_targets("held-out styles on tuning tops", select[("held-out", "tuning")], None)
    print_targets("tuning styles on held-out tops", select[("tuning", "held-out")], None)
    print_targets("tuning styles on tuning tops", select[("tuning", "tuning")], refused_by_style.get("woodcut"))
    print_targets("built-in deck, standard style, all tops", [r for r in rows if r.style == "standard"], None)
    for style in STRESS_STYLES:
        print_targets(f"stress style {style} on held-out tops (not in the headline)",
                      [r for r in rows if r.style == style], refused_by_style.get(style))
    for style in HELD_OUT_STYLES + SEEN_STYLES:
        by_top = mayors_pairs(readers[style], style, args.seed, max(1, round(PAIRS_PER_TOP * args.scale)))
        total = sum(by_top.values(), Counter())
        print(f"== the Mayor's {style} pair at rest, {SCANNER_SIZE[0]}x{SCANNER_SIZE[1]}, held-out tops: {cell(total)}, "
              f"{100 * share(total):.1f}% right, {100 * share(total, 'wrong'):.2f}% wrong")
        print(f"     named wrong in a clean frame (the scanner would log it): {total['logged']}")
        print("     by top: " + "; ".join(f"{top} {c['correct']}/{c['n']}" + (f" ({c['wrong']} wrong)" if c["wrong"] else "")
                                        + (f" ({c['unclean']} right but unclean)" if c["unclean"] else "")
                                        for top, c in by_top.items()))
    live = live_table(max(1, round(LIVE_FRAMES * args.scale)), generator("standard", "live", args.seed, "live"))
    print(f"== built-in deck on the live-table simulator (vision.simulator, before issue 9): {cell(live)}, "
          f"{100 * share(live):.1f}% right, {100 * share(live, 'wrong'):.2f}% wrong")
    g = generator("timing", "all", args.seed, "timing")
    speed_ok = True
    for style in ("standard", "painted"):
        reader = readers[style]
        if reader is None:
            print(f"speed: no {style} deck to time (every enrollment photo was refused)")
            speed_ok = False
            continue
        for size in ((1280, 720), SCANNER_SIZE):
            runs = timing(reader, style, size, g, args.runs)
            ms = statistics.median(runs)
            met = ms <= MS_TARGET
            speed_ok = speed_ok and met
            deck = "built-in deck" if style == "standard" else "enrolled painted deck"
            print(f"speed {size[0]}x{size[1]} {deck:22} {ms:6.2f} ms median thread CPU per two-card frame "
                  f"(runs {', '.join(f'{r:.2f}' for r in runs)}) <= {MS_TARGET:.0f} ms {pass_fail(met)}")
    head = count(select[("held-out", "held-out")])
    print(f"\nbenchmark took {time.perf_counter() - started:.0f} s")
    print(f"HEADLINE held-out styles ({', '.join(HELD_OUT_STYLES)}) on held-out tops: {100 * share(head):.1f}% of "
          f"{head['n']} photos right, {100 * share(head, 'wrong'):.2f}% named wrong, enroll refused up to {worst} "
          f"of 66 per style: {'all targets met' if headline_ok else 'targets missed'}")
    return 0 if headline_ok and speed_ok else 1


if __name__ == "__main__":
    sys.exit(main())
