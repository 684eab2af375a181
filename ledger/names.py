"""When two names are one person (同名): names compared as a person reads them, not code point by code point.

"Amy", "AMY", "Ａｍｙ" and "A my" (an em space) are one person to anyone at the table: names match when
their keys (``name_key``: NFKC_Casefold, white space left out) or their confusable skeletons
(``look_key``, UTS #39: "ΑΜΥ" in Greek) are equal. A name that matches another without being it is
refused naming that one (``LookAlike``): the table most likely meant that person, and two entries would
split their money. Names are kept as typed (``api.http.text``); only the comparison folds.
"""
import collections
import functools
import json
import unicodedata
from collections.abc import Iterable
from importlib.resources import files

from ledger.errors import InvalidRequest


@functools.lru_cache(maxsize=65536)  # a draw or an import compares each name with hundreds of others
def name_key(name: str) -> str:
    """What a name is compared by.

    >>> {name_key(name) for name in ["Amy", "AMY", "amy", "Ａｍｙ", "A\\u2003my", " A m y "]}
    {'amy'}
    >>> name_key("Straße") == name_key("STRASSE"), name_key("阿美") == name_key("阿美")
    (True, True)
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "".join(folded.split())


BIDI_MARKS = str.maketrans("", "", "\u200e\u200f")  # around right-to-left text in the data's lines


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character -> its prototype, from ``confusable_homoglyphs``' UTS #39 data, kept both ways:
    a class is a star whose prototype is the longer text or the one several point to."""
    data = json.loads((files("confusable_homoglyphs") / "confusables.json").read_text(encoding="utf-8"))
    neighbours = collections.defaultdict(set)
    for text, lookalikes in data.items():
        for lookalike in lookalikes:
            one, other = text.translate(BIDI_MARKS), lookalike["c"].translate(BIDI_MARKS)
            if one != other:
                neighbours[one].add(other)
                neighbours[other].add(one)
    prototypes = {}
    for text, around in neighbours.items():
        if len(text) > 1 or len(around) > 1:
            continue  # a prototype
        (other,) = around
        lone_pair = len(other) == 1 and len(neighbours[other]) == 1
        prototypes[text] = min(text, other) if lone_pair else other
    # A prototype may hold, once decomposed, a look-alike of another class ("ǆ" → "dž"): mapped until it holds
    # none, so that the skeleton of a skeleton is itself.
    return {char: _settled(prototype, prototypes) for char, prototype in prototypes.items()}


def _settled(text: str, prototypes: dict[str, str]) -> str:
    for _ in range(8):
        mapped = _mapped(text, prototypes)
        if mapped == text:
            break
        text = mapped
    return text


def _mapped(text: str, prototypes: dict[str, str]) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(prototypes.get(char, char) for char in decomposed))


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character by its prototype, NFD again.

    >>> skeleton("Сосо") == skeleton("Coco"), skeleton("ΑΜΥ") == skeleton("AMY"), skeleton("m") == skeleton("rn")
    (True, True, True)
    """
    return _mapped(text, _prototypes())


@functools.lru_cache(maxsize=65536)
def look_key(name: str) -> str:
    """What a name looks like: the skeleton of its key in capitals, whose Greek and Cyrillic letters look more
    like Latin than small ones do.

    >>> {look_key(name) for name in ["Amy", "ΑΜΥ", "АМУ", "аму"]}, look_key("Сосо") == look_key("Coco")
    ({'AMY'}, True)
    """
    return skeleton(name_key(name).upper())


def same_person(name: str, other: str) -> bool:
    """Whether two names are taken for one person: the same key, or the same look."""
    return name_key(name) == name_key(other) or look_key(name) == look_key(other)


class LookAlike(InvalidRequest):
    """``name`` matches ``existing`` (another name already there) without being it; ``field`` is where."""

    def __init__(self, name: str, existing: str, field: str):
        super().__init__(f"{name!r} looks like {existing!r}, already a name here: use that one, or a name "
                         f"that cannot be taken for it", field)
        self.name = name
        self.existing = existing


def check_unlike(name: str, others: Iterable[str], field: str) -> None:
    """Raise ``LookAlike`` if ``name`` matches one of ``others`` without being it.

    >>> check_unlike("Ben", ["Amy", "Ben"], "player")
    >>> check_unlike("ＡＭＹ", ["Amy", "Ben"], "player")
    Traceback (most recent call last):
    ...
    ledger.names.LookAlike: 'ＡＭＹ' looks like 'Amy', already a name here: use that one, or a name that cannot be taken for it
    >>> check_unlike("Вen", ["Amy", "Ben"], "player")
    Traceback (most recent call last):
    ...
    ledger.names.LookAlike: 'Вen' looks like 'Ben', already a name here: use that one, or a name that cannot be taken for it
    """
    for other in others:
        if other != name and same_person(name, other):
            raise LookAlike(name, other, field)
