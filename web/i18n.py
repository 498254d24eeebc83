"""English, French and Spanish text for the pages and the voice: picked from the browser, switchable by cookie.

One catalogue per language (web/translations). The English of a refusal lives with the code
that refuses (companion/errors.py, hardware/errors.py, web/errors.py) and is merged in here as
"refusal.<code>"; French and Spanish translate it in their files. The speaker says the same words
the pages show (phrasebook).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from companion.errors import REFUSALS as RULE_REFUSALS
from companion.moves import Island, Sight, Terrain
from hardware.errors import REFUSALS as HARDWARE_REFUSALS
from vision.cards import CardKind, card_face
from web.errors import REFUSALS as WEB_REFUSALS

LANGUAGES = ("en", "fr", "es")
DEFAULT_LANGUAGE = "en"
LANGUAGE_COOKIE = "tucana_lang"
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "es": "Español"}
# A year: the choice belongs to the phone, not to one game night.
LANGUAGE_COOKIE_MAX_AGE_S = 365 * 24 * 3600


REFUSAL_PREFIX = "refusal."
_NAMED = ((Terrain, "terrain"), (Sight, "sight"), (Island, "island"))  # engine values with a name in the catalogue


def english_refusals() -> dict[str, str]:
    """Every refusal a page may show, by its catalogue key, in the English of the code that refuses."""
    merged: dict[str, str] = {}
    for refusals in (RULE_REFUSALS, HARDWARE_REFUSALS, WEB_REFUSALS):
        merged.update({REFUSAL_PREFIX + code: _sentence(text) for code, text in refusals.items()})
    return merged


def _sentence(text: str) -> str:
    """A refusal as a page shows it: a capital first letter and a full stop."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."


@lru_cache(maxsize=len(LANGUAGES))
def catalog(language: str) -> dict[str, str]:
    """The flat key -> text table of one language (English for an unknown language).

    translations/<language>.json holds the pages' texts; a feature may bring its own in
    translations/<feature>/<language>.json. A key lives in one file only: one home per phrase.
    """
    if language not in LANGUAGES:
        language = DEFAULT_LANGUAGE
    table = merged_catalog(resources.files("web").joinpath("translations"), language)
    if language == DEFAULT_LANGUAGE:
        table.update(english_refusals())
    return table


def merged_catalog(folder: Traversable, language: str) -> dict[str, str]:
    """<folder>/<language>.json and every <folder>/<feature>/<language>.json; a repeated key is an error."""
    merged: dict[str, str] = json.loads(folder.joinpath(f"{language}.json").read_text("utf-8"))
    parts = sorted((p for p in folder.iterdir() if p.is_dir()), key=lambda p: p.name)
    for part in parts:
        extra = json.loads(part.joinpath(f"{language}.json").read_text("utf-8"))
        twice = merged.keys() & extra.keys()
        if twice:
            raise ValueError(f"translations/{part.name}/{language}.json repeats {sorted(twice)}")
        merged.update(extra)
    return merged


def translate(language: str, key: str, **params: Any) -> str:
    """The text for key in language, falling back to English, then to the key itself."""
    template = catalog(language).get(key) or catalog(DEFAULT_LANGUAGE).get(key) or key
    if not params:
        return template
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        # A translator's typo in a placeholder must not break a page at the table.
        return template


def normalise(language: str | None) -> str | None:
    """A supported language code for a cookie or flag value such as 'fr' or 'es-MX', else None."""
    if not language:
        return None
    code = language.strip().lower().replace("_", "-").split("-")[0]
    return code if code in LANGUAGES else None


def pick_language(cookie: str | None, accepted: list[tuple[str, float]], default: str | None) -> str:
    """Choose: the cookie if valid, else the browser's best accepted language, else the default."""
    chosen = normalise(cookie)
    if chosen:
        return chosen
    for code, _quality in sorted(accepted, key=lambda pair: -pair[1]):
        chosen = normalise(code)
        if chosen:
            return chosen
    return normalise(default) or DEFAULT_LANGUAGE


def name_of(language: str, value: Any) -> Any:
    """An engine value as the language names it inside a sentence (Terrain.ANY -> 'any terrain').

    Names are written capitalised in the catalogue (a card's label); inside a sentence they take
    sentence case, and sentence() capitalises whatever comes first. Other values stay as they are.
    """
    for kind, names in _NAMED:
        if isinstance(value, kind):
            name = translate(language, f"{names}.{value.value}")
            return name if kind is Island else name[:1].lower() + name[1:]
    return value


def sentence(text: str) -> str:
    """Sentence case: the first letter up ('¡desierto y agua!' -> '¡Desierto y agua!'), the rest as it is."""
    for i, char in enumerate(text):
        if char.isalpha():
            return text[:i] + char.upper() + text[i + 1:]
    return text


def card_name(language: str, card: str) -> str:
    """A card ID as the language names it: 'blue-C2' -> 'Blue bonus C #2', 'setup-07' -> 'Card 7'."""
    face = card_face(card)
    if face is None:
        return card
    if face.kind is CardKind.TERRAIN:
        return translate(language, "terrain." + card)
    if face.kind is CardKind.BLUE:
        return translate(language, "card.blue", letter=face.letter, n=face.number)
    if face.kind is CardKind.RED:
        return translate(language, "card.red", sight=name_of(language, Sight(face.sight)))
    return translate(language, "setup.card", n=face.number)


def phrasebook(language: str) -> Callable[..., str]:
    """What the speaker says, in the pages' words: phrasebook('fr')('announce.pair', a=..., b=...)."""

    def say(key: str, /, **params: Any) -> str:
        """The phrase for key in sentence case, its terrain and sight parameters named in the language."""
        return sentence(translate(language, key, **{name: name_of(language, v) for name, v in params.items()}))

    return say


def client_catalog(language: str) -> dict[str, str]:
    """Every key with English filling the gaps, for the pages' scripts."""
    merged = dict(catalog(DEFAULT_LANGUAGE))
    merged.update({k: v for k, v in catalog(language).items() if v})
    return merged
