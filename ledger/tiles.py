"""Tiles and their notation (牌).

A tile is a small integer (0–8 萬, 9–17 筒, 18–26 條, 27–33 東南西北白發中, 34–41 flowers), so a hand
is a count vector the decomposer walks quickly. Input may be compact (``"123m456p11z"``), a list, or
Chinese names, mixed freely; output is always the compact form.

>>> to_compact(parse("東 五萬 3筒 7條 梅 中"))
'5m3p7s17z5f'
>>> to_compact(parse(["1m", "1m", "九萬", "11z"]))
'119m11z'
>>> names(parse("1z5f"))
['東', '梅']
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from ledger.errors import InvalidHand

SUITS = "mpsz"
SUIT_NAMES = {"m": "萬", "p": "筒", "s": "條"}
HONOR_NAMES = "東南西北白發中"
FLOWER_NAMES = "春夏秋冬梅蘭菊竹"

KINDS = 34  # suited and honour tile kinds; flowers are outside the count vector
EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)
FLOWER_BASE = 34
FLOWERS = tuple(range(FLOWER_BASE, FLOWER_BASE + 8))
WIND_LETTERS = "ESWN"

_NUMERALS = {c: i + 1 for i, c in enumerate("一二三四五六七八九")}
_NUMERALS.update({"兩": 2, "两": 2})
_SUIT_WORDS = {"萬": "m", "万": "m", "筒": "p", "餅": "p", "饼": "p",
               "條": "s", "条": "s", "索": "s"}
_HONOR_WORDS = {
    "東風": 27, "南風": 28, "西風": 29, "北風": 30, "東": 27, "南": 28, "西": 29,
    "北": 30, "东": 27, "白板": 31, "白皮": 31, "白": 31, "發財": 32, "發": 32,
    "发": 32, "紅中": 33, "红中": 33, "中": 33,
}
_FLOWER_WORDS = {c: FLOWER_BASE + i for i, c in enumerate(FLOWER_NAMES)}
_FLOWER_WORDS.update({"兰": FLOWER_BASE + 5})


def is_flower(tile: int) -> bool:
    return tile >= FLOWER_BASE


def is_honor(tile: int) -> bool:
    return 27 <= tile < FLOWER_BASE


def is_suited(tile: int) -> bool:
    return tile < 27


def suit(tile: int) -> str:
    """``"m"``, ``"p"``, ``"s"``, ``"z"`` or ``"f"``."""
    return "f" if is_flower(tile) else SUITS[tile // 9]


def number(tile: int) -> int:
    """1–9 for suited tiles, 1–7 for honours, 1–8 for flowers."""
    return tile - FLOWER_BASE + 1 if is_flower(tile) else tile % 9 + 1


def is_terminal(tile: int) -> bool:
    return is_suited(tile) and number(tile) in (1, 9)



def wind_tile(letter: str) -> int:
    """The honour tile of a context wind ``E``/``S``/``W``/``N``."""
    return WINDS[WIND_LETTERS.index(letter)]


def flower_wind(flower: int) -> int:
    """The seat wind a flower belongs to (R7): 春/梅 東, 夏/蘭 南, 秋/菊 西, 冬/竹 北."""
    return WINDS[(flower - FLOWER_BASE) % 4]


def code(tile: int) -> str:
    """One tile as a compact string, e.g. ``"5p"``."""
    return _CODES[tile]


def name(tile: int) -> str:
    """The Chinese name: ``五萬``, ``3筒`` style is accepted on input, output uses numerals."""
    if is_flower(tile):
        return FLOWER_NAMES[tile - FLOWER_BASE]
    if is_honor(tile):
        return HONOR_NAMES[tile - 27]
    return "一二三四五六七八九"[tile % 9] + SUIT_NAMES[suit(tile)]


def names(tiles: Iterable[int]) -> list[str]:
    return [name(t) for t in tiles]


def to_compact(tiles: Iterable[int]) -> str:
    """Canonical compact form: sorted, digits grouped before their suit letter."""
    out: list[str] = []
    current = ""
    for tile in sorted(tiles):
        letter = suit(tile)
        if letter != current and current:
            out.append(current)
        current = letter
        out.append(str(number(tile)))
    if current:
        out.append(current)
    return "".join(out)


def codes(tiles: Iterable[int]) -> list[str]:
    return [_CODES[t] for t in tiles]


_CODES = tuple(f"{number(t)}{suit(t)}" for t in range(FLOWER_BASE + len(FLOWERS)))
_BY_CODE = {text: tile for tile, text in enumerate(_CODES)}


def parse(text: str | Sequence[str] | None, field: str = "tiles") -> list[int]:
    """Parse any accepted notation into a list of tiles (order kept); raises :class:`InvalidHand` naming ``field``.

    >>> parse("19m")
    [0, 8]
    >>> parse("0m")
    Traceback (most recent call last):
    ...
    ledger.errors.InvalidHand: tiles: unknown tile '0m'
    """
    if text is None:
        return []
    if isinstance(text, str):
        return _parse_text(text, field)
    if not isinstance(text, (list, tuple)):
        raise InvalidHand(f"{field}: expected a string or a list of tiles", field)
    try:
        return [_BY_CODE[item] for item in text]  # the usual list: one code per tile, "5p"
    except (KeyError, TypeError):
        pass  # names, groups like "123m", or no tile at all: parsed (or refused) as one text
    for item in text:
        if not isinstance(item, str):
            raise InvalidHand(f"{field}: unknown tile {item!r}", field)
    return _parse_text(" ".join(text), field)


def parse_sorted(text: str | Sequence[str] | None, field: str = "tiles") -> tuple[int, ...]:
    """:func:`parse`, sorted: the form a hand keeps (cached for strings, as notations recur).

    >>> parse_sorted("91m")
    (0, 8)
    """
    if isinstance(text, str):
        try:
            return _parse_sorted_cached(text)
        except InvalidHand:
            pass  # parse() says it with the field's name
    return tuple(sorted(parse(text, field)))


@lru_cache(maxsize=1 << 14)
def _parse_sorted_cached(text: str) -> tuple[int, ...]:
    return tuple(sorted(_parse_string(text)))


def _parse_text(text: str, field: str) -> list[int]:
    try:
        return list(_parse_cached(text))
    except InvalidHand as error:
        if field == error.field:
            raise
        raise InvalidHand(error.message.replace(f"{error.field}:", f"{field}:", 1), field) from None


def _parse_string(text: str) -> tuple[int, ...]:
    """Parse one string (field ``tiles``)."""
    groups = _COMPACT_GROUP.findall(text)
    # Valid groups that, put back together, are the whole text: the usual string, compact
    # and without spaces, needs no second pass of a regex to say it is valid.
    if "".join(groups) == text or _COMPACT.fullmatch(text):
        found: list[int] = []
        for group in groups:
            found += _group_tiles(group)
        return tuple(found)
    return tuple(_parse_slowly(text, "tiles"))


@lru_cache(maxsize=1 << 12)
def _group_tiles(group: str) -> tuple[int, ...]:
    """The tiles of one compact group such as ``"159m"``, cached: new strings are made of groups met again and
    again, and real hands' groups are a few thousand at most.

    >>> _group_tiles("159m"), _group_tiles("17z")
    ((0, 4, 8), (27, 33))
    """
    base = _FIRST_OF[group[-1]]
    # "159m" -> bytes 49, 53, 57 -> tiles 0, 4, 8: one addition per digit
    return tuple([base + d for d in group[:-1].encode()])


#: Cached, as the same notations recur hand after hand (a lone winning tile above all).
_parse_cached = lru_cache(maxsize=1 << 14)(_parse_string)


def _from_code(num: int, letter: str, field: str) -> int:
    limits = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}
    if not 1 <= num <= limits[letter]:
        raise InvalidHand(f"{field}: unknown tile '{num}{letter}'", field)
    if letter == "f":
        return FLOWER_BASE + num - 1
    return SUITS.index(letter) * 9 + num - 1


#: Compact groups of valid codes only (8z, 9f … go the slow way, which names them).
_COMPACT = re.compile(r"(?:(?:[1-9]+[mps]|[1-7]+z|[1-8]+f) ?)+")
#: The tile a digit's character code stands for, less that code: ``_FIRST_OF["p"] + ord("1")`` is 1p.
_FIRST_OF = {letter: _from_code(1, letter, "tiles") - ord("1") for letter in "mpszf"}
#: One valid compact group; the groups of a text :data:`_COMPACT` matches (spaces between groups: a list joined).
_COMPACT_GROUP = re.compile(r"[1-9]+[mps]|[1-7]+z|[1-8]+f")


def _parse_slowly(text: str, field: str) -> list[int]:
    tiles: list[int] = []
    digits: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace() or ch in ",，":
            i += 1
        elif ch in "0123456789":
            digits.append(ch)
            i += 1
        elif ch in "mpszf":
            if not digits:
                raise InvalidHand(f"{field}: suit letter {ch!r} has no numbers before it", field)
            tiles.extend(_from_code(int(d), ch, field) for d in digits)
            digits = []
            i += 1
        else:
            if digits and ch in _SUIT_WORDS:
                tiles.extend(_from_code(int(d), _SUIT_WORDS[ch], field) for d in digits)
                digits = []
                i += 1
                continue
            if digits:
                raise InvalidHand(f"{field}: numbers {''.join(digits)!r} have no suit", field)
            tile, i = _chinese_at(text, i, field)
            tiles.append(tile)
    if digits:
        raise InvalidHand(f"{field}: numbers {''.join(digits)!r} have no suit", field)
    return tiles


def _chinese_at(text: str, i: int, field: str) -> tuple[int, int]:
    for word, tile in _HONOR_WORDS.items():  # longest words are listed first per tile
        if text.startswith(word, i):
            return tile, i + len(word)
    ch = text[i]
    if ch in _FLOWER_WORDS:
        return _FLOWER_WORDS[ch], i + 1
    if ch in _NUMERALS and i + 1 < len(text) and text[i + 1] in _SUIT_WORDS:
        return _from_code(_NUMERALS[ch], _SUIT_WORDS[text[i + 1]], field), i + 2
    raise InvalidHand(f"{field}: unknown tile {text[i:i + 2]!r}", field)
