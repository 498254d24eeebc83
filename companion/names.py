"""Player names: one normal form, a length cap, and the look-alike test that keeps players apart.

A name is what the table reads on every screen and hears from the speaker, so two players must
not look (or sound) the same: `Mary`, `Mary` + a zero-width space and `Mar` + Cyrillic `у` are
one name here. Cleaning is silent (NFC, invisible characters dropped, spaces collapsed); a name
that is empty afterwards, too long, or not valid Unicode text is refused.
"""

from __future__ import annotations

import unicodedata

from companion.errors import LogFormatError

NAME_MAX_CHARS = 24  # fits a column of a phone's score table; eight of them keep a message small

# Drawn as nothing (or as a blank) although Unicode files them as letters, marks or symbols:
# Hangul fillers, the combining grapheme joiner, Khmer inherent vowels, Mongolian and Unicode
# variation selectors, the Braille blank. Format (Cf) and control (Cc) characters go by category.
_BLANK_LOOKING = frozenset(
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0]
    + list(range(0x180B, 0x1810))
    + list(range(0xFE00, 0xFE10))
    + list(range(0xE0100, 0xE01F0))
)
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})

# Letters of other scripts drawn like a Latin letter (a small part of Unicode TR39's confusables,
# the ones a keyboard or a prankster types), and the digits drawn like letters.
_LOOKALIKES = str.maketrans({
    # Cyrillic
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "Х": "X", "У": "Y", "Ѕ": "S", "І": "l", "Ј": "J", "Ԁ": "D", "Ԍ": "G", "Һ": "h",
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j",
    "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "һ": "h", "ь": "b",
    # Greek
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "l", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "α": "a", "ν": "v", "ι": "i",
    "κ": "k", "ρ": "p", "υ": "u", "χ": "x",
    # Armenian and Latin look-alikes
    "օ": "o", "ո": "n", "ս": "u", "հ": "h", "ı": "i", "ɡ": "g", "ǀ": "l",
    # Upper-case I and the digits drawn like letters in a phone's sans-serif font
    "I": "l", "1": "l", "|": "l", "0": "O",
})


def clean_name(raw: object) -> str:
    """The name in its one normal form; refuses what is not a usable name (LogFormatError)."""
    if not isinstance(raw, str):
        raise LogFormatError(f"a player name is text, not {raw!r}")
    if any(0xD800 <= ord(c) <= 0xDFFF for c in raw):
        raise LogFormatError("a player name must be valid Unicode text (it holds a lone surrogate)")
    text = unicodedata.normalize("NFC", raw)
    kept = []
    for char in text:
        if char.isspace():
            kept.append(" ")
        elif ord(char) not in _BLANK_LOOKING and unicodedata.category(char) not in _DROPPED_CATEGORIES:
            kept.append(char)
    name = " ".join("".join(kept).split())
    if not name:
        raise LogFormatError("a player name needs at least one visible character")
    if len(name) > NAME_MAX_CHARS:
        raise LogFormatError(f"a player name has at most {NAME_MAX_CHARS} characters, not {len(name)}")
    return name


def lookalike_key(name: str) -> str:
    """Equal for names a player could not tell apart on a screen or from the speaker."""
    text = unicodedata.normalize("NFKD", name)  # fullwidth and styled letters become plain ones
    text = "".join(c for c in text if not unicodedata.combining(c))  # speech reads José as Jose
    text = text.translate(_LOOKALIKES).replace("rn", "m").replace(" ", "")
    return text.casefold()


def clean_players(raw: list[object]) -> tuple[str, ...]:
    """Every name cleaned; two names that are the same or look the same are refused."""
    names = tuple(clean_name(name) for name in raw)
    seen: dict[str, str] = {}
    for name in names:
        key = lookalike_key(name)
        if key in seen:
            if seen[key] == name:
                raise LogFormatError(f"player names must be unique: {name!r} is there twice")
            raise LogFormatError(
                f"{name!r} looks the same as {seen[key]!r}: give each player a name the table can tell apart"
            )
        seen[key] = name
    return names
