"""Frames in, card readings out: numpy and OpenCV only, nothing else of the project.

Public API (stable; the scanner in hardware/ builds on it):

    from vision.reader import CardReader, CardReading, FrameReading
    reader = CardReader(deck)          # deck=None: the built-in deck
    reading = reader.read(frame_bgr)   # HxWx3 uint8 BGR (picamera2 "RGB888" is BGR in memory)
    reading.cards      # tuple[CardReading]: card (ID or None = refused), confidence 0..1,
                       #   corners ((x, y) x4, clockwise from the card's top-left), letters
                       #   (set-up cards: ten letters clockwise from the red letter, else None)
    reading.named      # sorted card IDs read with confidence (multiset)
    reading.clean      # every outline named and nothing else (a hand) in view
    reading.clutter    # something that is not a card is in view

    from vision.voter import Voter, CardAppeared, CardRemoved, left_to_right
    voter = Voter()                    # STABLE_FRAMES clean frames in a row must agree (a hand
                                       # starts the count over); the scanner's is Voter(3)
    events = voter.feed(reading)       # [] most of the time; voter.cards is the stable table,
                                       # listed left to right as the cards lie
    voter.settled                      # the last stable_frames frames were clean and showed it
    left_to_right(reading.cards)       # the readings by outline centre, leftmost first

    from vision.deck import Deck, builtin_deck, render_deck
    builtin_deck()                     # every card ID in our own art (cached; nothing on disk)
    Deck([(card_id, image_bgr), ...])  # any reference images, several per card allowed

    from vision.reader import find_card   # corners of the largest card in a frame (enrolment)
    from vision.store import load_deck, enroll, read_image   # deck folders: manifest.json + images
    from vision.cards import CARD_IDS, setup_letters, blue_points   # contract-2 card IDs
    from vision.render import render_card, render_back, STANDARD, WOODCUT

    from vision.simulator import random_scene, simulate_frame, Scene, Conditions
    scene = random_scene(faces, rng, labels=ids)   # rng: numpy Generator or random.Random
    frame = scene.render(rng)          # a new frame of the same table (fresh noise, JPEG)
    scene.with_hand(rng)               # the same table with a hand over it
    simulate_frame(faces, rng, labels=ids) -> SimulatedFrame(image, placements)
    pair_up(placements, reading.cards) -> (pairs, extras)   # grade readings against the truth
    from vision.props import Background, render_background, foreign_card, random_back

Simulated photos for measuring the reader on what it was not tuned on (issue 9):

    from vision.art import card_face, card_back, BackKind, STYLE_NAMES
    card_face("painted", "blue-C2", px_per_mm)   # styles: standard, woodcut (vision.render),
    card_back("flat", BackKind.RED)              #   painted, flat, dusk (own code paths, own fonts)
    from vision.art.others import other_card     # other games' cards (never to be named)
    from vision.tables import TableTop, render_top, TUNING_TOPS, HELD_OUT_TOPS
    from vision.photo import take_photo, Thing, PhotoConditions, ENROLL_CONDITIONS
    photo = take_photo([Thing(face, "desert", "desert"), ...], rng, pair=True)
    photo.image, photo.jpeg, photo.seen            # frame, the camera's JPEG bytes, truth per card
    photo.truth("pair")                            # its truth.json entry (vision-dev's format)
    # vision.optics: lamp, glare, white balance, defocus, motion, Bayer noise, sharpening, JPEG

    .venv/bin/python tests/benchmarks/make_vision_set.py --style painted --tables held-out \
        --seed 100 --out DIR                       # a set in vision-dev's format, then:
    python3 /work/shared/vision-dev/score.py --data DIR --criteria families -- .venv/bin/tucana cards
    .venv/bin/python tests/benchmarks/bench_vision.py   # leave-one-style-out figures, speed
Tune on styles standard/woodcut, TUNING_TOPS and seeds 100-199; painted/flat on HELD_OUT_TOPS with
the bench's held-out seed are only measured (tests/benchmarks/vision_sets.py holds the split).

Tunable thresholds are named constants with their unit and reason at the top of detect.py,
table_colour.py and blobs.py (outlines), deck.py and twins.py (matching) and judge.py (when to name a card).

Errors: bad frames and bad images raise ValueError (the CLI turns them into exit code 2);
a bad deck folder raises vision.store.DeckFolderError (a ValueError).
"""

import os

# The reader's matrix products are small (a deck's few hundred vectors): one BLAS thread does each
# in well under a millisecond, while OpenBLAS's worker threads spin and stall for tens of
# milliseconds on a busy Pi or a shared machine. Only takes effect when vision is imported before
# numpy (as the `tucana` command does through web); an explicit setting is left alone.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

# A read allocates and frees a few dozen frame-sized arrays (0.2-3 MB each). glibc's malloc hands
# such blocks back to the kernel when freed (mapped on their own above its threshold, or trimmed off
# the heap's top), so every new one costs a page fault per 4 KiB: ~1700 a detection, a quarter of its
# time (25 -> 19 ms on a shared 2-core machine). Kept on the heap and not trimmed, the pages are
# reused; the process keeps its peak heap (tens of MB). glibc only (Linux, Raspberry Pi OS);
# elsewhere malloc is left as it is.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt's parameter numbers (malloc.h)
HEAP_TRIM_BYTES = 256 << 20  # free heap top kept before glibc gives any back: above a read's peak
HEAP_MMAP_BYTES = 16 << 20  # blocks mapped on their own from this size: glibc's most on 32-bit ARM, above a frame


def _keep_heap() -> None:
    """Ask glibc to keep freed blocks for reuse instead of returning their pages to the kernel."""
    import ctypes

    try:
        libc = ctypes.CDLL(None)
        libc.mallopt(_M_TRIM_THRESHOLD, HEAP_TRIM_BYTES)
        libc.mallopt(_M_MMAP_THRESHOLD, HEAP_MMAP_BYTES)
    except (OSError, AttributeError, TypeError):  # not glibc (macOS, musl without mallopt): nothing to tune
        pass


_keep_heap()
