"""Write a photo set in the format of /work/shared/vision-dev, for score.py to grade any reader.

Run: .venv/bin/python tests/benchmarks/make_vision_set.py --style painted --tables held-out \
         --seed 20261122 --out /tmp/painted-set [--photos 200]
then: python3 /work/shared/vision-dev/score.py --data /tmp/painted-set --criteria families \
         -- .venv/bin/tucana cards

Writes OUT/enroll/<card id>/1.jpg, 2.jpg (clear photos of one card), OUT/test/tNNN.jpg,
OUT/labels.json ({"t001.jpg": ["desert", "water"]}, null for a back or another game's card) and
OUT/truth.json (corners, table, tilt, blur, motion, glare, JPEG quality, frame and card height of
every photo). Styles: standard, woodcut (tuning), painted, flat (held out); tables: tuning,
held-out or all (vision.tables). Seeds 100-199 are for tuning; the benchmark's held-out seed
(vision_sets.HELD_OUT_SEED) is only for measuring. JPEGs are the camera's own bytes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.vision_sets import TOP_GROUPS, TUNING_SEEDS, enrollment, exam_photos  # noqa: E402
from vision.art import STYLE_NAMES  # noqa: E402
from vision.cards import CARD_IDS  # noqa: E402


def write_set(out: Path, style: str, tables: str, seed: int, photos: int,
              cards: Sequence[str] = CARD_IDS) -> dict[str, int]:
    """Write the set into out (which must be empty or absent); returns counts by kind. cards: the
    cards to enroll (every card by default; the test photos show any card)."""
    if out.exists() and any(out.iterdir()):
        raise ValueError(f"{out} is not empty")
    truth: dict[str, dict] = {}
    labels: dict[str, list] = {}
    kinds: dict[str, int] = {}
    for card, shots in enrollment(style, tables, seed, cards):
        folder = out / "enroll" / card
        folder.mkdir(parents=True)
        for i, shot in enumerate(shots, 1):
            (folder / f"{i}.jpg").write_bytes(shot.photo.jpeg)
            truth[f"enroll/{card}/{i}.jpg"] = shot.truth()
            kinds["enroll"] = kinds.get("enroll", 0) + 1
    (out / "test").mkdir()
    for i, shot in enumerate(exam_photos(style, tables, seed, photos), 1):
        name = f"t{i:03d}.jpg"
        (out / "test" / name).write_bytes(shot.photo.jpeg)
        labels[name] = shot.labels
        truth[f"test/{name}"] = shot.truth()
        kinds[shot.kind] = kinds.get(shot.kind, 0) + 1
    (out / "labels.json").write_text(json.dumps(labels, indent=1) + "\n")
    (out / "truth.json").write_text(json.dumps(truth, indent=1) + "\n")
    return kinds


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and write the set."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--style", choices=STYLE_NAMES, required=True)
    parser.add_argument("--tables", choices=sorted(TOP_GROUPS), default="held-out")
    parser.add_argument("--seed", type=int, default=TUNING_SEEDS.start)
    parser.add_argument("--photos", type=int, default=200, help="test photos (enrollment: 2 per card besides)")
    parser.add_argument("--cards", default=",".join(CARD_IDS), help="comma-separated card IDs to enroll")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        cards = [c for c in args.cards.split(",") if c]
        unknown = [c for c in cards if c not in CARD_IDS]
        if unknown:
            raise ValueError(f"unknown card IDs: {', '.join(unknown)}")
        kinds = write_set(args.out, args.style, args.tables, args.seed, args.photos, cards)
    except ValueError as exc:
        print(f"make_vision_set: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}: " + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
