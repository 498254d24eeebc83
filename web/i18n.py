"""English, French and Spanish text for the pages: picked from the browser, switchable by cookie."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

LANGUAGES = ("en", "fr", "es")
DEFAULT_LANGUAGE = "en"
LANGUAGE_COOKIE = "tucana_lang"
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "es": "Español"}
# A year: the choice belongs to the phone, not to one game night.
LANGUAGE_COOKIE_MAX_AGE_S = 365 * 24 * 3600


@lru_cache(maxsize=len(LANGUAGES))
def catalog(language: str) -> dict[str, str]:
    """The flat key -> text table of one language (English for an unknown language).

    translations/<language>.json holds the pages' texts; a feature may bring its own in
    translations/<feature>/<language>.json. A key lives in one file only: one home per phrase.
    """
    if language not in LANGUAGES:
        language = DEFAULT_LANGUAGE
    return merged_catalog(resources.files("web").joinpath("translations"), language)


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


def client_catalog(language: str) -> dict[str, str]:
    """Every key with English filling the gaps, for the pages' scripts."""
    merged = dict(catalog(DEFAULT_LANGUAGE))
    merged.update({k: v for k, v in catalog(language).items() if v})
    return merged
