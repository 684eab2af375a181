"""When two names are one person (同名): names compared as a person reads them, not code point by code point.

"Amy", "AMY", "amy", "Ａｍｙ" (full-width) and "A my" (an em space) are one
person to anyone at the table, so they are one name here: two names match
when their keys (``name_key``) are equal: NFKC (full-width and compatibility
forms folded, an em space becoming a space), case folding (Unicode's, so ß
matches SS), NFKC again (as Unicode's NFKC_Casefold does) and white space
left out. A second player of an evening, a seat change bringing a newcomer,
or a member's name or alias that matches another name, without being it, is
refused naming the name it matches (``LookAlike``): the table most likely
meant that person, and two entries would split their money.

Names are kept as they were typed (NFC, trimmed: ``api.http.text``); only the
comparison folds. Look-alikes across scripts ("Аmy" with a Cyrillic А) are
kept out where names enter (``api.http.text.name_problem``), since no
folding makes А and A one letter.
"""
import unicodedata
from collections.abc import Iterable

from ledger.errors import InvalidRequest


def name_key(name: str) -> str:
    """What a name is compared by.

    >>> {name_key(name) for name in ["Amy", "AMY", "amy", "Ａｍｙ", "A\\u2003my", " A m y "]}
    {'amy'}
    >>> name_key("Straße") == name_key("STRASSE"), name_key("阿美") == name_key("阿美")
    (True, True)
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "".join(folded.split())


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
    """
    key = name_key(name)
    for other in others:
        if other != name and name_key(other) == key:
            raise LookAlike(name, other, field)
