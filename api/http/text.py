"""What text and JSON the API takes in: no invisible characters, nothing a database or a file cannot hold.

A name is compared character by character from the moment it is recorded:
``Amy``, ``Amy`` + zero-width space, BOM + ``Amy`` and RTL override + ``Amy``
would be four players, and a lone surrogate or a NUL breaks the CSV, the
backup or PostgreSQL later. So, everywhere text enters (JSON bodies and the
``X-Client`` header; a session id in a path must match its pattern,
``api.http.paths``):

- control (Cc), format (Cf: zero-width space, BOM, direction overrides, …)
  and surrogate (Cs) characters are refused (``bad_character``);
- names are normalised (``normal_name``): NFC, so that an accent typed
  either way is one name, and trimmed.
- a name (``name_problem``, issue 27) holds no private-use, non-character
  or unassigned code point (nothing a phone can show the same way twice),
  and does not mix letters of alphabets a person confuses (Latin, Greek,
  Cyrillic, Armenian, Cherokee, Coptic: "Аmy" with a Cyrillic А is no
  "Amy"). Mixing other scripts is how names are written here ("Amy 阿美",
  "小明B") and is kept. Which script a letter is in comes from
  ``confusable_homoglyphs`` (Unicode's own Scripts.txt, which ``unicodedata``
  does not carry): its ``is_dangerous`` flags any mixture with a confusable
  letter, "小明B" and "Kim 김" included, so only its script lookup is used.
  Names that differ only in width, case or spacing are one name
  (``ledger.names``).

``check_json`` applies the first rule, and the limits on depth and numbers,
to a whole JSON body before any schema looks at it.
"""
import math
import unicodedata

from confusable_homoglyphs import categories

REFUSED_CATEGORIES = {"Cc": "control", "Cf": "format", "Cs": "surrogate"}
INT64 = 2**63  # a JSON integer must fit a signed 64-bit column: -2**63 <= n < 2**63


class BadJson(ValueError):
    """A JSON body that parses but that the API does not take; ``field`` is where."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.message = message
        self.field = field


def bad_character(text: str) -> str | None:
    """A description of the first refused character of ``text``, or None when there is none.

    >>> bad_character("阿明"), bad_character("Amy\\u200b"), bad_character("\\ud800")
    (None, 'a format character (U+200B)', 'a surrogate character (U+D800)')
    """
    if text.isprintable():  # the usual case; False for every refused character, and for some spaces
        return None
    for char in text:
        kind = REFUSED_CATEGORIES.get(unicodedata.category(char))
        if kind is not None:
            return f"a {kind} character (U+{ord(char):04X})"
    return None


# Alphabets with letters that look like one another's (UTS #39's confusables are mostly among these).
LOOK_ALIKE_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC", "ARMENIAN", "CHEROKEE", "COPTIC")


def name_problem(name: str) -> tuple[str, dict] | None:
    """What a name may not hold, as a kind (``api.http.fields.NAME_PROBLEMS`` words it) and its values; None when
    fine.

    >>> name_problem("Amy 阿美"), name_problem("Ολγα"), name_problem("小明B")
    (None, None, None)
    >>> name_problem("A\ue000my"), name_problem("Amy\ufdd0"), name_problem("Amy\U000e0fff")
    (('private_use', {'code': 'U+E000'}), ('noncharacter', {'code': 'U+FDD0'}), ('unassigned', {'code': 'U+E0FFF'}))
    >>> name_problem("\u0410my")
    ('mixed_scripts', {'scripts': 'Cyrillic, Latin'})
    """
    if not name.isascii():
        for char in name:
            problem = _code_point_problem(char)
            if problem is not None:
                return problem, {"code": f"U+{ord(char):04X}"}
        scripts = {categories.alias(char) for char in name if char.isalpha()} & set(LOOK_ALIKE_SCRIPTS)
        if len(scripts) > 1:
            return "mixed_scripts", {"scripts": ", ".join(sorted(script.title() for script in scripts))}
    return None


def _code_point_problem(char: str) -> str | None:
    code, category = ord(char), unicodedata.category(char)
    if category == "Co":
        return "private_use"
    if category == "Cn":
        noncharacter = 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE
        return "noncharacter" if noncharacter else "unassigned"
    return None


def normal_name(text: str) -> str:
    """``text`` in NFC, trimmed: the form in which names are kept and compared.

    >>> normal_name(" Ame\\u0301lie ") == "Amélie"
    True
    """
    return unicodedata.normalize("NFC", text).strip()


def check_json(body: object, max_depth: int) -> None:
    """Raise ``BadJson`` for refused characters in any text or key, deep nesting or numbers no column holds.

    Walked with a stack, not recursion: the body may be nested as deeply as the parser allowed.
    A key is checked before it becomes part of a path, so messages never repeat a refused character.
    """
    stack = [(body, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        where = path or "the body"
        if depth > max_depth:
            raise BadJson(f"{where}: JSON may nest at most {max_depth} levels deep", path)
        if isinstance(value, str):
            _check_text(value, where, path)
        elif isinstance(value, dict):
            for key, item in value.items():
                _check_text(key, f"a key of {where}", path)
                stack.append((item, f"{path}.{key}" if path else key, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{index}]", depth + 1) for index, item in enumerate(value))
        elif isinstance(value, int) and not isinstance(value, bool) and not -INT64 <= value < INT64:
            raise BadJson(f"{where}: integers must fit in 64 bits (-{INT64} to {INT64 - 1})", path)
        elif isinstance(value, float) and not math.isfinite(value):
            raise BadJson(f"{where}: {value} is not a number JSON allows", path)


def _check_text(text: str, where: str, path: str) -> None:
    problem = bad_character(text)
    if problem is not None:
        raise BadJson(f"{where} holds {problem}, which text may not contain", path)
