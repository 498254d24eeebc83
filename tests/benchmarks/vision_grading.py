"""Grading card readings against a photo set's truth, the way score.py does, and the figures by
family, table top and card size that bench_vision.py prints."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tests.benchmarks.vision_sets import SETUP_SMALL

VERDICTS = ("correct", "wrong", "refused", "missed")
SIZE_BINS = (("small <0.22", 0.22), ("mid 0.22-0.32", 0.32), ("large >=0.32", 9.9))  # score.py's bins

# Issue 9's "Done when", on the held-out style and tops.
TERRAIN_TARGET = 0.995  # terrain cards, alone or in pairs: share of photos right
BONUS_TARGET = 0.99  # blue and red bonus cards
SETUP_TARGET = 0.99  # set-up cards at least SETUP_SMALL of the frame height
WRONG_TARGET = 0.002  # share of all photos with a wrong name
ENROLL_REFUSED_TARGET = 1  # clear enrollment photos refused, of 66
MS_TARGET = 15.0  # per 1280x720 two-card frame, one core


def verdict(labels: Iterable[str | None], named: Iterable[str | None], found: int) -> str:
    """score.py's verdict on one photo: correct, wrong (a name that is not there), refused (every
    card found, some not named) or missed (fewer outlines than cards)."""
    expected = Counter(x for x in labels if x is not None)
    got = Counter(x for x in named if x is not None)
    if got == expected:
        return "correct"
    if got - expected:
        return "wrong"
    return "refused" if found >= sum(expected.values()) else "missed"


@dataclass(frozen=True)
class Graded:
    """One graded photo."""

    style: str
    tops: str  # the group: tuning or held-out
    top: str
    family: str
    height: float  # the smallest card's height share (1.0 when no card)
    verdict: str

    @property
    def size(self) -> str:
        """The card-size bin."""
        return next(name for name, limit in SIZE_BINS if self.height < limit) if self.height < 1 else "no card"


def count(rows: Iterable[Graded]) -> Counter:
    """Verdicts of these rows, with 'n' for their number."""
    c: Counter = Counter()
    for r in rows:
        c[r.verdict] += 1
        c["n"] += 1
    return c


def share(c: Counter, key: str = "correct") -> float:
    """The share of key among the counted photos (0 of 0 counts as 0)."""
    return c[key] / c["n"] if c["n"] else 0.0


def cell(c: Counter) -> str:
    """'right/of (wrong w, refused r, missed m)' for a table of figures."""
    return f"{c['correct']}/{c['n']} ({c['wrong']} wrong, {c['refused']} refused, {c['missed']} missed)"


def breakdown(rows: list[Graded], key: Callable[[Graded], str]) -> str:
    """One line: the verdicts grouped by key."""
    groups: dict[str, list[Graded]] = {}
    for r in rows:
        groups.setdefault(key(r), []).append(r)
    return "; ".join(f"{k} {cell(count(v))}" for k, v in sorted(groups.items()))


def family_figures(rows: list[Graded]) -> dict[str, Counter]:
    """Counts by family, set-up split at SETUP_SMALL of the frame height."""
    out = {}
    for fam in ("terrain", "pairs", "blue", "red", "rejects"):
        out[fam] = count(r for r in rows if r.family == fam)
    out["setup>=30%"] = count(r for r in rows if r.family == "setup" and r.height >= SETUP_SMALL)
    out["setup<30%"] = count(r for r in rows if r.family == "setup" and r.height < SETUP_SMALL)
    return out


def targets(rows: list[Graded], enroll_refused: int | None) -> list[tuple[str, str, bool]]:
    """(what, figure, met) for each of issue 9's targets on these rows."""
    fam = family_figures(rows)
    terrain = fam["terrain"] + fam["pairs"]
    bonus = fam["blue"] + fam["red"]
    setup_wrong = fam["setup>=30%"]["wrong"] + fam["setup<30%"]["wrong"]
    wrong = share(count(rows), "wrong")
    out = [
        ("terrain+pairs right", f"{100 * share(terrain):.1f}% >= {100 * TERRAIN_TARGET:.1f}%", share(terrain) >= TERRAIN_TARGET),
        ("bonus right", f"{100 * share(bonus):.1f}% >= {100 * BONUS_TARGET:.0f}%", share(bonus) >= BONUS_TARGET),
        ("set-up >=30% right", f"{100 * share(fam['setup>=30%']):.1f}% >= {100 * SETUP_TARGET:.0f}%",
         share(fam["setup>=30%"]) >= SETUP_TARGET),
        ("set-up named wrong", f"{setup_wrong} == 0", setup_wrong == 0),
        ("photos named wrong", f"{100 * wrong:.2f}% <= {100 * WRONG_TARGET:.1f}%", wrong <= WRONG_TARGET),
    ]
    if enroll_refused is not None:
        out.append(("enroll photos refused", f"{enroll_refused} <= {ENROLL_REFUSED_TARGET} per style",
                    enroll_refused <= ENROLL_REFUSED_TARGET))
    return out


def pass_fail(met: bool) -> str:
    """PASS or FAIL."""
    return "PASS" if met else "FAIL"
