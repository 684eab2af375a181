"""Scoring throughput: ledger.rules.score against the `mahjong` riichi calculator.

Run: ``.venv/bin/python benchmarks/score_throughput.py [--hands N] [--repeats R]``

Each named mix scores a batch of hands through ``ledger.rules.score``: the
worked hands of ``fixtures/worked_hands_*.json`` of its rule sets plus random
legal hands from a fixed seed. The reference scores random valid 14-tile
riichi hands with ``HandCalculator.estimate_hand_value`` in the same process.
Every repetition uses a fresh batch of random hands (seeded from the
repetition number), so neither side's caches see the same hand twice; one
warm-up round runs first. Rounds interleave the mixes and the reference, so
each round's ratio (our rate / the reference rate) is taken under the same
machine load; the median rates and the median ratio are reported (target
≥ 1.0 for 17-tile Taiwanese hands).

Our side starts from the request notation (strings, as the API receives
them); the reference starts from its own input (136-tile ids, converted before
timing), so parsing is counted against us only.

To add a mix (e.g. Shanghai 14-tile hands), add a :class:`Mix` to the list
:func:`mixes` returns: its name, rule sets (their worked-hand fixtures join
the batch), a generator of legal winning requests and ``score_request``.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mahjong.constants import EAST, NORTH, SOUTH, WEST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.tile import TilesConverter

from ledger import tiles
from ledger.errors import LedgerError
from ledger.rules import score

ROOT = Path(__file__).resolve().parent.parent

WIND_LETTERS = "ESWN"
ALL_KINDS = range(34)
FLOWER_CODES = [f"{n}f" for n in range(1, 9)]
CONTEXT_FIELDS = ("seat_wind", "round_wind", "hand_wind", "dealer", "options")


# ---- a random legal shape: sets + pair -------------------------------------------
def random_sets(rng: random.Random, n_sets: int, kinds: dict[str, float],
                pool: Sequence[int] = ALL_KINDS) -> tuple[list[tuple[str, int]], int]:
    """``n_sets`` sets (kind, first tile) and a pair tile from ``pool``, never more than four copies of a tile."""
    held: Counter = Counter()
    sets = []
    while len(sets) < n_sets:
        kind = rng.choices(list(kinds), weights=list(kinds.values()))[0]
        first = _random_first(rng, kind, pool)
        needed = _tiles_of(kind, first)
        if all(held[t] + n <= 4 for t, n in Counter(needed).items()):
            held.update(needed)
            sets.append((kind, first))
    pair = rng.choice([t for t in pool if held[t] <= 2])
    return sets, pair


def _random_first(rng: random.Random, kind: str, pool: Sequence[int]) -> int:
    if kind == "chow":
        return rng.choice([t for t in pool if tiles.is_suited(t) and tiles.number(t) <= 7])
    return rng.choice(pool)


def _tiles_of(kind: str, first: int) -> list[int]:
    if kind == "chow":
        return [first, first + 1, first + 2]
    return [first] * (4 if kind == "kong" else 3)


# ---- Taiwanese 17-tile requests ------------------------------------------------------
def taiwan_request(rng: random.Random) -> dict:
    """A legal 17-tile winning request for taiwan or taiwan_zz, in compact or list notation."""
    sets, pair = random_sets(rng, 5, {"chow": 0.55, "pung": 0.3, "kong": 0.15})
    melds, hidden, winning = _meld_some(rng, sets, pair)
    ruleset = rng.choice(["taiwan", "taiwan_zz"])
    seat = rng.choice(WIND_LETTERS)
    return {
        "ruleset": ruleset,
        "hand": {"concealed": _notation(rng, hidden), "melds": melds, "winning_tile": tiles.code(winning),
                 "flowers": "".join(rng.sample(FLOWER_CODES, rng.choice([0, 0, 1, 1, 2, 3, 4])))},
        "win": _taiwan_win(rng),
        "seat_wind": seat, "round_wind": rng.choice(WIND_LETTERS), "hand_wind": rng.choice(WIND_LETTERS),
        "options": {"see_flower_see_word": rng.random() < 0.5} if ruleset == "taiwan_zz" else {},
    }


def _meld_some(rng: random.Random, sets: list[tuple[str, int]], pair: int) -> tuple[list[dict], list[int], int]:
    """Kongs and about 30 % of the other sets melded; the winning tile taken from the concealed rest."""
    melds, hidden = [], [pair, pair]
    for kind, first in sets:
        if kind == "kong" or rng.random() < 0.3:
            meld = {"kind": kind, "tiles": _notation(rng, _tiles_of(kind, first))}
            if kind == "kong" and rng.random() < 0.5:
                meld["concealed"] = True
            melds.append(meld)
        else:
            hidden += _tiles_of(kind, first)
    winning = hidden.pop(rng.randrange(len(hidden)))
    return melds, hidden, winning


def _taiwan_win(rng: random.Random) -> dict:
    by = rng.choices(["discard", "self_draw", "robbing_kong"], weights=[6, 4, 1])[0]
    return {"by": by, "after_kong": by == "self_draw" and rng.random() < 0.1,
            "last_tile": rng.random() < 0.05, "declared_ready": rng.random() < 0.15}


# ---- Shanghai 14-tile requests -------------------------------------------------------------
def shanghai_request(rng: random.Random) -> dict:
    """A legal 14-tile win that qualifies under shanghai (so never a 垃圾胡): 碰碰胡 over any
    tiles, or one suit with honours half the time (清一色 / 混一色; 清碰, 混碰, 字一色 come out of both)."""
    if rng.random() < 0.5:
        sets, pair = random_sets(rng, 4, {"pung": 0.8, "kong": 0.2})
    else:
        start = rng.randrange(3) * 9
        pool = tuple(range(start, start + 9)) + (tuple(range(27, 34)) if rng.random() < 0.5 else ())
        sets, pair = random_sets(rng, 4, {"chow": 0.55, "pung": 0.3, "kong": 0.15}, pool)
    melds, hidden, winning = _meld_some(rng, sets, pair)
    by = rng.choices(["discard", "self_draw", "robbing_kong"], weights=[6, 4, 1])[0]
    return {
        "ruleset": "shanghai",
        "hand": {"concealed": _notation(rng, hidden), "melds": melds, "winning_tile": tiles.code(winning),
                 "flowers": "".join(rng.sample(FLOWER_CODES, rng.choice([0, 0, 1, 1, 2, 3, 4])))},
        "win": {"by": by, "after_kong": by == "self_draw" and rng.random() < 0.1},
        "seat_wind": rng.choice(WIND_LETTERS),
    }


def _notation(rng: random.Random, group: list[int]):
    shuffled = rng.sample(group, len(group))
    return tiles.codes(shuffled) if rng.random() < 0.2 else tiles.to_compact(shuffled)


def score_request(request: dict):
    """The whole breakdown /api/score answers with, waits included (the engine works them out on demand)."""
    context = {k: request[k] for k in CONTEXT_FIELDS if k in request}
    result = score(request["ruleset"], request.get("hand"), request.get("win"), **context)
    result.waits  # noqa: B018 - the response needs them, so they are timed too
    return result


# ---- the riichi reference: 14-tile hands for mahjong.HandCalculator -------------------
@dataclass(frozen=True)
class RiichiHand:
    tiles: list[int]
    win_tile: int
    config: HandConfig


def riichi_hand(rng: random.Random) -> RiichiHand:
    """A closed 14-tile hand with riichi declared, so every hand has a yaku and is valid."""
    sets, pair = random_sets(rng, 4, {"chow": 0.6, "pung": 0.4})
    kinds = [pair, pair] + [t for kind, first in sets for t in _tiles_of(kind, first)]
    tiles136 = TilesConverter.one_line_string_to_136_array(tiles.to_compact(kinds))
    win34 = rng.choice(kinds)
    winds = [EAST, SOUTH, WEST, NORTH]
    config = HandConfig(is_tsumo=rng.random() < 0.4, is_riichi=True,
                        player_wind=rng.choice(winds), round_wind=rng.choice(winds[:2]))
    return RiichiHand(tiles136, TilesConverter.find_34_tile_in_136_array(win34, tiles136), config)


def riichi_score(calculator: HandCalculator):
    def run(hand: RiichiHand):
        result = calculator.estimate_hand_value(hand.tiles, hand.win_tile, config=hand.config)
        if result.error:
            raise ValueError(f"reference hand rejected: {result.error}")
        return result
    return run


# ---- mixes -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Mix:
    """A named batch of hands: fixtures of ``rulesets`` plus ``random_hands`` from ``make``."""

    name: str
    rulesets: tuple[str, ...]
    make: Callable[[random.Random], object]
    run: Callable[[object], object]
    fixtures: tuple = ()

    def batch(self, seed: int, size: int) -> list:
        rng = random.Random(seed)
        return list(self.fixtures) + [self.make(rng) for _ in range(size)]


def fixture_requests(rulesets: tuple[str, ...]) -> tuple[dict, ...]:
    """Requests of the worked-hand fixtures for ``rulesets`` that score (rejections are left out)."""
    found = []
    for path in sorted((ROOT / "fixtures").glob("worked_hands_*.json")):
        for entry in json.loads(path.read_text(encoding="utf-8")).get("hands", []):
            request = entry.get("request") or {}
            if request.get("ruleset") in rulesets and _scores(request):
                found.append(request)
    return tuple(found)


def _scores(request: dict) -> bool:
    try:
        score_request(request)
    except LedgerError:
        return False
    return True


def mixes() -> list[Mix]:
    taiwanese = ("taiwan", "taiwan_zz")
    return [Mix("taiwan 17-tile", taiwanese, taiwan_request, score_request, fixture_requests(taiwanese)),
            Mix("shanghai 14-tile", ("shanghai",), shanghai_request, score_request,
                fixture_requests(("shanghai",)))]


def reference() -> Mix:
    return Mix("riichi 14-tile (mahjong)", (), riichi_hand, riichi_score(HandCalculator()))


# ---- timing ------------------------------------------------------------------------------
def rate(mix: Mix, seed: int, size: int) -> float:
    """Hands per second for one batch; building the batch is not timed."""
    batch = mix.batch(seed, size)
    run = mix.run
    start = time.perf_counter()
    for item in batch:
        run(item)
    return len(batch) / (time.perf_counter() - start)


def measure(candidates: list[Mix], size: int, repeats: int) -> dict[str, list[float]]:
    """Interleaved repetitions (each mix once per round), after one warm-up round (seed 0)."""
    rates: dict[str, list[float]] = {m.name: [] for m in candidates}
    for round_number in range(repeats + 1):
        for mix in candidates:
            measured = rate(mix, seed=round_number, size=size)
            if round_number:
                rates[mix.name].append(measured)
    return rates


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="random hands per repetition and mix")
    parser.add_argument("--repeats", type=int, default=7, help="timed repetitions (after one warm-up)")
    args = parser.parse_args(argv)
    ours, theirs = mixes(), reference()
    rates = measure(ours + [theirs], args.hands, args.repeats)
    medians = {name: statistics.median(values) for name, values in rates.items()}
    for mix in ours + [theirs]:
        spread = f"{min(rates[mix.name]):,.0f}–{max(rates[mix.name]):,.0f}"
        print(f"{mix.name:28} {len(mix.fixtures):3} fixtures + {args.hands} random hands × {args.repeats}: "
              f"median {medians[mix.name]:,.0f} hands/s (range {spread})")
    for mix in ours:
        paired = [a / b for a, b in zip(rates[mix.name], rates[theirs.name])]
        print(f"ratio {mix.name} / {theirs.name}: {statistics.median(paired):.2f} "
              f"(median of the {len(paired)} per-round ratios, range {min(paired):.2f}–{max(paired):.2f}; "
              "target ≥ 1.0)")


if __name__ == "__main__":
    main()
