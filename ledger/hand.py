"""A winning hand (和牌), its validation, its readings (sets + pair, R1) and its waits (R4).

The concealed tiles come *without* the winning tile; the melds may hold a concealed kong (暗槓).

>>> hand = Hand.build("123m456m789p234s56s55p", [], "7s")
>>> [tiles.code(t) for t in hand.waits()]
['1s', '4s', '7s']
>>> [r.wait for r in hand.readings("discard")]
['two_sided']
"""
from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import NamedTuple

from ledger import tiles
from ledger.errors import InvalidHand

MELD_SIZES = {"chow": 3, "pung": 3, "kong": 4}
_HONORS = frozenset(range(tiles.EAST, tiles.KINDS))
_MANZU, _PINZU, _SOUZU = (frozenset(range(start, start + 9)) for start in (0, 9, 18))
#: The suit letters present, by whether each of m, p, s is: three set questions instead of one per tile kind.
_SUITS_PRESENT = {(m, p, s): frozenset(letter for letter, present in zip("mps", (m, p, s)) if present)
                  for m in (False, True) for p in (False, True) for s in (False, True)}
_SIZES = {"pung": 3, "kong": 4, "pair": 2}


class Group(NamedTuple):
    """One set (chow / pung / kong) or the pair of a reading; ``concealed`` counts as 暗 (R2). A named tuple:
    readings make many of these."""

    kind: str
    first: int
    melded: bool = False
    concealed: bool = True

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == "chow":
            return (self.first, self.first + 1, self.first + 2)
        return (self.first,) * _SIZES[self.kind]

    @property
    def is_pung(self) -> bool:
        """Pung or kong (刻子 or 槓子)."""
        return self.kind in ("pung", "kong")


class Reading(NamedTuple):
    """Sets + pair, and ``wait``: ``two_sided``, ``edge``, ``closed``, ``single`` (on the pair) or ``dual_pung``."""

    sets: tuple[Group, ...]
    pair: Group
    wait: str


class Hand:
    """A validated winning hand and the facts every pattern asks about, worked out once; immutable."""

    __slots__ = ("concealed", "melds", "winning_tile", "flowers", "all_tiles", "kinds", "suits",
                 "has_honor", "is_concealed", "_held", "_waits")

    def __init__(self, concealed: tuple[int, ...], melds: tuple[Group, ...], winning_tile: int,
                 flowers: tuple[int, ...]):
        self.concealed, self.melds, self.winning_tile, self.flowers = concealed, melds, winning_tile, flowers
        held = concealed + (winning_tile,)
        #: 門清 (R3): no chow, pung or exposed kong in ``melds``; concealed kongs allowed.
        self.is_concealed = True
        for meld in melds:  # one plain loop: a hand has a meld or two, and this runs for every hand
            held += _tiles_of(meld)
            if not (meld.kind == "kong" and meld.concealed):
                self.is_concealed = False
        #: Every tile of the hand (kongs with four), flowers excluded.
        self.all_tiles = held
        #: The tile kinds present, and the suits (m, p, s) among them.
        self.kinds = frozenset(held)
        self.suits = _SUITS_PRESENT[not _MANZU.isdisjoint(self.kinds), not _PINZU.isdisjoint(self.kinds),
                                    not _SOUZU.isdisjoint(self.kinds)]
        self.has_honor = not _HONORS.isdisjoint(self.kinds)
        self._held: tuple[int, ...] | None = None
        self._waits: tuple[int, ...] | None = None

    def __repr__(self) -> str:
        return (f"Hand({tiles.to_compact(self.concealed)!r} + {tiles.code(self.winning_tile)!r}, "
                f"melds={[tiles.to_compact(m.tiles) for m in self.melds]}, "
                f"flowers={tiles.to_compact(self.flowers)!r})")

    @classmethod
    def build(cls, concealed, melds: Sequence[Mapping] | None, winning_tile,
              flowers=None, size: int = 17) -> Hand:
        """Parse and validate; ``size`` is 17 (Taiwan) or 14 (Shanghai)."""
        hidden = tiles.parse_sorted(concealed, "hand.concealed")
        won = tiles.parse_sorted(winning_tile, "hand.winning_tile")  # a cached tuple (one tile: nothing to sort)
        if len(won) != 1:
            raise InvalidHand(f"hand.winning_tile: expected exactly one tile, got {len(won)}",
                              "hand.winning_tile")
        if not isinstance(melds or [], (list, tuple)):
            raise InvalidHand("hand.melds: expected a list of melds", "hand.melds")
        parsed_melds = tuple([_meld(m, i) for i, m in enumerate(melds)]) if melds else ()
        if (hidden and hidden[-1] >= tiles.FLOWER_BASE) or won[0] >= tiles.FLOWER_BASE:  # sorted: flowers last
            _no_flowers(hidden, "hand.concealed")
            _no_flowers(won, "hand.winning_tile")
        hand = cls(hidden, parsed_melds, won[0], flower_tiles(flowers))
        hand._check_copies()
        hand._check_count(size)
        return hand

    # ---- validation -------------------------------------------------------
    def _check_copies(self) -> None:
        """At most four copies of each tile: counted from the concealed tiles' counts, which the readings use too."""
        counts = list(self._held_counts())
        for tile in self.all_tiles[len(self.concealed):]:  # the winning tile, then the melds' tiles
            counts[tile] += 1
        if max(counts) <= 4:
            return
        for tile, n in enumerate(counts):
            if n > 4:
                raise InvalidHand(f"hand: {n} copies of {tiles.code(tile)} ({tiles.name(tile)}); "
                                  "there are only four", "hand")

    def _check_count(self, size: int) -> None:
        counted = len(self.concealed) + 3 * len(self.melds) + 1
        if counted != size:
            raise InvalidHand(
                f"hand: wrong tile count: {len(self.concealed)} concealed + 3 × {len(self.melds)} "
                f"melds + 1 winning tile = {counted}, expected {size}", "hand")

    # ---- views --------------------------------------------------------------
    def readings(self, by: str) -> list[Reading]:
        """Every split into sets + pair, once per place the winning tile can take (R1, R2)."""
        out: list[Reading] = []
        held, won = self._held_counts(), self.winning_tile
        for pair, split in _decompositions(held[:won] + (held[won] + 1,) + held[won + 1:]):
            out.extend(_place_winning(split, pair, self.melds, won, by))
        return out

    def waits(self) -> tuple[int, ...]:
        """Tile kinds that complete the hand before the win (R4), fourth copies excluded; worked out on first use,
        as only 獨聽 looks at them."""
        if self._waits is None:
            # held before the win: every tile of the hand but the winning one
            every, won = self.all_tiles, self.winning_tile
            self._waits = tuple([t for t in _complete_with(self._held_counts()) if every.count(t) - (t == won) < 4])
        return self._waits

    def _held_counts(self) -> tuple[int, ...]:
        """The count vector of the concealed tiles, made once: the readings and the waits both start from it."""
        if self._held is None:
            self._held = _counts(self.concealed)
        return self._held


@cache
def _tiles_of(group: Group) -> tuple[int, ...]:
    """``group.tiles``, worked out once per group: a few hundred exist, and every hand lists its melds' tiles."""
    return group.tiles


def flower_tiles(flowers) -> tuple[int, ...]:
    """Parse the ``flowers`` field (sorted): flowers only, each at most once."""
    if type(flowers) is str:  # the usual form, asked first
        return _flowers_of_text(flowers) if flowers else ()
    if flowers in (None, [], ()):
        return ()
    return _flowers_of(tiles.parse_sorted(flowers, "hand.flowers"))


@lru_cache(maxsize=1 << 12)
def _flowers_of_text(text: str) -> tuple[int, ...]:
    """:func:`flower_tiles` of a string: few flower strings recur, so each is checked once."""
    return _flowers_of(tiles.parse_sorted(text, "hand.flowers"))


def _flowers_of(parsed: tuple[int, ...]) -> tuple[int, ...]:
    for t in parsed:
        if not tiles.is_flower(t):
            raise InvalidHand(f"hand.flowers: {tiles.code(t)} ({tiles.name(t)}) is not a flower",
                              "hand.flowers")
    if len(set(parsed)) == len(parsed):
        return parsed
    for t, n in Counter(parsed).items():
        if n > 1:
            raise InvalidHand(f"hand.flowers: flower {tiles.name(t)} appears {n} times; "
                              "there is only one", "hand.flowers")
    return parsed


def _no_flowers(group: Sequence[int], field: str) -> None:
    for t in group:
        if tiles.is_flower(t):
            raise InvalidHand(f"{field}: flower {tiles.name(t)} belongs in hand.flowers", field)


def _meld(raw: Mapping, index: int) -> Group:
    if type(raw) is dict:  # the usual meld, as JSON gives it: one cached lookup
        kind, text, concealed = raw.get("kind"), raw.get("tiles"), raw.get("concealed", False)
        if type(kind) is str and type(text) is str and type(concealed) is bool:
            found = _meld_of_text(kind, text, concealed)
            if found is not None:
                return found
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise InvalidHand(f"hand.melds[{index}]: expected an object with kind and tiles", f"hand.melds[{index}]")
    kind = raw.get("kind")
    if type(kind) is not str or kind not in MELD_SIZES:
        raise InvalidHand(f"hand.melds[{index}].kind: must be chow, pung or kong, not {kind!r}",
                          f"hand.melds[{index}]")
    text = raw.get("tiles")
    try:
        parsed = tiles.parse_sorted(text)
    except InvalidHand:
        tiles.parse(text, f"hand.melds[{index}].tiles")  # the same refusal, naming the field
        raise
    problem = _meld_problem(kind, parsed, bool(raw.get("concealed", False)))
    if type(problem) is str:
        field = f"hand.melds[{index}]"
        raise InvalidHand(f"{field}{problem}", field + ".tiles" if problem.startswith(".tiles") else field)
    return problem


@lru_cache(maxsize=1 << 10)
def _meld_of_text(kind: str, text: str, concealed: bool) -> Group | None:
    """The meld a valid ``kind`` + ``text`` make; ``None`` when something is wrong (``_meld`` says what)."""
    if kind not in MELD_SIZES:
        return None
    try:
        found = _meld_problem(kind, tiles.parse_sorted(text), concealed)
    except InvalidHand:
        return None
    return found if type(found) is Group else None


@lru_cache(maxsize=1 << 10)
def _meld_problem(kind: str, parsed: tuple[int, ...], concealed: bool) -> Group | str:
    """The meld as a :class:`Group`, or what is wrong with it (to follow the field name)."""
    if parsed and parsed[-1] >= tiles.FLOWER_BASE:
        flower = next(t for t in parsed if tiles.is_flower(t))
        return f".tiles: flower {tiles.name(flower)} belongs in hand.flowers"
    if concealed and kind != "kong":
        return ": only a kong can be concealed"
    if len(parsed) != MELD_SIZES[kind]:
        shown = tiles.to_compact(parsed) or "nothing"
        return f": a {kind} has {MELD_SIZES[kind]} tiles, got {shown}"
    first = parsed[0]
    if kind == "chow":
        ok = tiles.is_suited(first) and tiles.number(first) <= 7 and parsed == (first, first + 1, first + 2)
    else:
        ok = len(set(parsed)) == 1
    if not ok:
        return f": {tiles.to_compact(parsed)} is not a {kind}"
    return Group(kind, first, melded=True, concealed=concealed)


def _counts(group) -> tuple[int, ...]:
    counts = [0] * tiles.KINDS
    for t in group:
        counts[t] += 1
    return tuple(counts)


#: The blocks a hand splits into: the three suits (chows allowed) and the honours (no chows).
#: A set never spans two blocks, and block shapes recur far more often than whole hands.
BLOCKS = ((0, 9, True), (9, 18, True), (18, 27, True), (tiles.EAST, tiles.KINDS, False))

Split = tuple[tuple[str, int], ...]


@lru_cache(maxsize=1 << 16)
def _set_splits(counts: tuple[int, ...], suited: bool = True) -> tuple[Split, ...]:
    """Every way to cover one block's ``counts`` exactly with pungs (and chows if ``suited``), each once."""
    i = next((k for k, n in enumerate(counts) if n), None)
    if i is None:
        return ((),)
    found: list[Split] = []
    if counts[i] >= 3:
        rest = list(counts)
        rest[i] -= 3
        found += [(("pung", i),) + s for s in _set_splits(tuple(rest), suited)]
    if suited and i + 2 < len(counts) and counts[i + 1] and counts[i + 2]:
        rest = list(counts)
        for k in (i, i + 1, i + 2):
            rest[k] -= 1
        found += [(("chow", i),) + s for s in _set_splits(tuple(rest), suited)]
    return tuple(found)


def _decompositions(counts: tuple[int, ...]) -> list[tuple[int, tuple[Group, ...]]]:
    """``(pair, sets)`` for every split of ``counts``: the products of its blocks' splits with exactly one pair."""
    combined: list[tuple[int | None, tuple[Group, ...]]] = [(None, ())]
    for start, end, suited in BLOCKS:
        block = counts[start:end]
        if not any(block):
            continue
        options = _block_splits(block, start, suited)
        if not options:
            return []
        if len(options) == 1 and len(combined) == 1:
            # The usual step: one way so far and one way to split this block, so no list to merge into.
            (pair, sets), (block_pair, block_sets) = combined[0], options[0]
            if block_pair is not None and pair is not None:
                return []  # a second pair: no split of the hand
            combined = [(pair if block_pair is None else block_pair, sets + block_sets)]
            continue
        merged = []  # plain loops over the few ways left
        for pair, sets in combined:
            for block_pair, block_sets in options:
                if block_pair is None:
                    merged.append((pair, sets + block_sets))
                elif pair is None:
                    merged.append((block_pair, sets + block_sets))
        combined = merged
    return [(pair, sets) for pair, sets in combined if pair is not None]


_EMPTY_BLOCK = ((None, ()),)


@lru_cache(maxsize=1 << 15)
def _block_splits(block: tuple[int, ...], start: int, suited: bool):
    """``(pair or None, sets)``: splits of one block (tiles numbered from ``start``) into sets and at most one pair."""
    if not any(block):
        return _EMPTY_BLOCK
    found = []
    for pair, rest in _pair_choices(block):
        found += [(None if pair is None else start + pair,
                   tuple(Group(kind, start + i) for kind, i in split))
                  for split in _set_splits(rest, suited)]
    return tuple(found)


def _pair_choices(block: tuple[int, ...]):
    """``(pair position or None, the rest)``: no pair when the count allows only sets."""
    if sum(block) % 3 == 0:
        return [(None, block)]
    return [(p, block[:p] + (n - 2,) + block[p + 1:]) for p, n in enumerate(block) if n >= 2]


def _complete_with(counts: tuple[int, ...]) -> tuple[int, ...]:
    """Tile kinds whose addition makes ``counts`` sets + pair: a tile changes only its own block, so the other
    blocks must already be complete.

    >>> [tiles.code(t) for t in _complete_with(_counts(tiles.parse("23456s55p")))]
    ['1s', '4s', '7s']
    """
    blocks = (counts[:9], counts[9:18], counts[18:27], counts[tiles.EAST:])
    shapes = (_SUIT_SHAPES.get(blocks[0]), _SUIT_SHAPES.get(blocks[1]), _SUIT_SHAPES.get(blocks[2]),
              _HONOUR_SHAPES.get(blocks[3]))
    broken = shapes.count(None)
    if broken > 1:  # one tile mends one block at most
        return ()
    pairs = shapes.count(1)
    found: tuple[int, ...] = ()
    for block, (start, _, _), old in zip(blocks, BLOCKS, shapes):
        if broken and old is not None:
            continue
        others = pairs - (old == 1)  # the pairs of the other blocks: the hand needs exactly one
        if others <= 1:
            found += _completions(block, start)[1 - others]
    return found


def _suit_shapes() -> dict[tuple[int, ...], int]:
    """Every count vector of one suit that is sets (0) or sets + a pair (1), up to 5 sets, built once at import,
    so :func:`_shape` of a suit is one lookup."""
    sets = [(i, i, i) for i in range(9)] + [(i, i + 1, i + 2) for i in range(7)]
    found: dict[tuple[int, ...], int] = {}

    def add_sets(counts: list[int], first: int, placed: int) -> None:
        found[tuple(counts)] = 0
        if placed == 5:
            return
        for k in range(first, len(sets)):
            for t in sets[k]:
                counts[t] += 1
            if max(counts) <= 4:
                add_sets(counts, k, placed + 1)
            for t in sets[k]:
                counts[t] -= 1

    add_sets([0] * 9, 0, 0)
    for block in list(found):
        for p, n in enumerate(block):
            if n <= 2:
                found[block[:p] + (n + 2,) + block[p + 1:]] = 1
    return found


_SUIT_SHAPES = _suit_shapes()


def _shape(block: tuple[int, ...], suited: bool) -> int | None:
    """0 if the block is sets, 1 if sets + a pair, None if neither; honours make no chows.

    >>> _shape((1, 1, 1, 0, 0, 0, 0, 2, 0), True), _shape((3, 0, 0, 0, 0, 2, 0), False), _shape((1, 1), False)
    (1, 1, None)
    """
    return (_SUIT_SHAPES if suited else _HONOUR_SHAPES).get(block)


#: The honour blocks that are pungs (3) and at most one pair (2): 0 without the pair, 1 with it.
#: A lookup like :data:`_SUIT_SHAPES`, as every hand's waits ask it of its honours.
_HONOUR_SHAPES = {block: block.count(2) for block in itertools.product((0, 2, 3), repeat=tiles.KINDS - tiles.EAST)
                  if block.count(2) <= 1}


@lru_cache(maxsize=1 << 16)
def _completions(block: tuple[int, ...], start: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The tiles (not a fifth copy) that make the block sets only, and sets + a pair, numbered as the hand does."""
    found: tuple[list[int], list[int]] = ([], [])
    shapes = _SUIT_SHAPES if start < tiles.EAST else _HONOUR_SHAPES  # :func:`_shape`, looked up here directly
    counts = list(block)
    for i, n in enumerate(block):
        if n < 4:
            counts[i] = n + 1  # one tile more of kind i, put back below
            shape = shapes.get(tuple(counts))
            counts[i] = n
            if shape is not None:
                found[shape].append(start + i)
    return tuple(found[0]), tuple(found[1])


def _place_winning(hidden: tuple[Group, ...], pair: int, melded, win: int, by: str) -> list[Reading]:
    on_discard = by != "self_draw"
    readings = []
    eyes = _PAIRS[pair]
    if pair == win:
        readings.append(Reading(hidden + melded, eyes, "single"))
    for index, group in enumerate(hidden):
        first = group.first
        if (win != first if group.kind == "pung" else not first <= win <= first + 2) or group in hidden[:index]:
            continue
        if group.kind == "pung":
            placed = _EXPOSED_PUNGS[first] if on_discard else group  # R2: a pung completed by a discard is not 暗
            wait = "dual_pung"
        else:
            placed, wait = group, _chow_wait(group.first, win)
        sets = hidden[:index] + (placed,) + hidden[index + 1:] + melded
        readings.append(Reading(sets, eyes, wait))
    return readings


#: The pair of each tile, and the pung of each tile completed by a discard: made once, as every reading needs one.
_PAIRS = tuple(Group("pair", tile) for tile in range(tiles.KINDS))
_EXPOSED_PUNGS = tuple(Group("pung", tile, concealed=False) for tile in range(tiles.KINDS))


def _chow_wait(first: int, win: int) -> str:
    position = win - first
    if position == 1:
        return "closed"
    if (position == 2 and tiles.number(first) == 1) or (position == 0 and tiles.number(first) == 7):
        return "edge"
    return "two_sided"
