"""What text and JSON the API takes in: no invisible characters, nothing a database or a file cannot hold.

A name is compared character by character once recorded: ``Amy`` and ``Amy`` + a zero-width space would
be two players, and a lone surrogate or NUL breaks the CSV, the backup or PostgreSQL later. So control,
format and surrogate characters are refused everywhere text enters; names are kept in NFC, trimmed; and
a name holds no private-use or unassigned code point and mixes no confusable alphabets ("Аmy" with a
Cyrillic А), while "Amy 阿美" is kept. ``confusable_homoglyphs`` gives the scripts (its ``is_dangerous``
would flag "小明B" too).
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
    """What a name may not hold, as a kind (``api.http.fields.NAME_PROBLEMS`` words it) and its values; None if fine.

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
    """Raise ``BadJson`` for refused characters, deep nesting or numbers no column holds, walked with a stack
    (the body may nest as deep as the parser allowed); a key is checked before it joins a path."""
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
