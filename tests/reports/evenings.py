"""Evenings for the report tests: a small one worked by hand, and a long generated one.

Both are recorded with `ledger.recorder.Recorder`, as the API records them,
into rows shaped like `ledger.store.SessionRow` / `EntryRow`.

`friday()` is a taiwan evening (底 100, 台 20, dealer bonus on) with two
substitutions and a return, a voided hand, a draw, full-entry and
quick-entry wins. Seats 0-3 start as Amy, Ben, 小明, Dan; Amy deals first.

  #1  Ben wins 3台 on 小明's discard (full entry 門清 1 + 平胡 2); dealer Amy
      not involved: 小明 pays 100 + 20×3 = 160. Ben deals next (streak 0).
  #2  Ben (dealer, streak 0) self-draws 2台 (quick): each pays
      100 + 20×(2 + 1) = 160, Ben +480. Ben keeps the deal (streak 1).
  #3  entered as Dan 5台 on Amy's discard, then voided: no payments.
      seat 2: 小明 leaves, Eve sits down.
  #4  Dan wins 1台 on Eve's discard; dealer Ben not involved: Eve pays 120.
      Eve (seat 2) deals next, streak 0.
      seat 0: Amy leaves, 阿美 sits down; seat 1: Ben leaves, 小明 returns.
  #5  Eve (dealer, streak 0) wins 5台 on 阿美's discard (full entry 三元台 1 +
      混一色 4): 阿美 pays 100 + 20×(5 + 1) = 220. Eve keeps the deal (streak 1).
  #6  draw (流局, exhausted): Eve keeps the deal (streak 2).
  #7  小明 self-draws 3台 (quick); dealer Eve at streak 2, extra 1 + 2×2 = 5:
      阿美 and Dan pay 100 + 20×3 = 160 each, Eve pays 100 + 20×(3 + 5) = 260;
      小明 +580.

Totals: Amy -160; Ben 160 + 480 = 640; 小明 -160 - 160 + 580 = 260;
Dan -160 + 120 - 160 = -200; Eve -120 + 220 - 260 = -160; 阿美 -220 - 160 = -380.
"""
from __future__ import annotations

import datetime
import json
import random
from types import SimpleNamespace

from ledger.recorder import Event, Recorder
from ledger.table import table_options

PLAYERS = ["Amy", "Ben", "小明", "Dan"]
STAKES = {"base": 100, "per_tai": 20}
FRIDAY_TOTALS = {"Amy": -160, "Ben": 640, "小明": 260, "Dan": -200, "Eve": -160, "阿美": -380}
PATTERN_NAMES = ("門清", "平胡", "三元台", "混一色")
ALL_CHOWS = {"concealed": "123m456m789p234s56s55p", "winning_tile": "7s"}
"""門清 1 + 平胡 2 on a discard (API.md's example), whatever the winds."""
HALF_FLUSH = {"concealed": "345p567p999p777z2p", "melds": [{"kind": "chow", "tiles": "123p"}], "winning_tile": "2p"}
"""混一色 4 + 三元台 1 (中 pung) on a discard; an exposed chow, so no 門清; no wind pungs."""


def session(name: str = "週五麻將 Friday", players=PLAYERS, ruleset: str = "taiwan", stakes=STAKES,
            options=None) -> SimpleNamespace:
    """A stored session's fields (`ledger.store.SessionRow`)."""
    return SimpleNamespace(name=name, created_at=datetime.datetime(2024, 5, 3, 12, 30), ruleset=ruleset,
                           players=list(players), stakes=dict(stakes),
                           options={"dealer_bonus": True, "multiple_winners": False, "max_tai": None,
                                    **(options or {})})


def record(session: SimpleNamespace, events: list[tuple]) -> list[SimpleNamespace]:
    """Stored entries (`ledger.store.EntryRow` fields) of `events`: ("hand", body[, void]) or ("seat", body)."""
    numbered, number = [], 0
    for kind, body, *void in events:
        number += kind == "hand"
        numbered.append(Event(kind, body, bool(void and void[0]), number if kind == "hand" else None))
    _, results = Recorder.replay(session.ruleset, session.players, session.stakes, session.options, numbered,
                                 getattr(session, "house_rules", None))
    return [SimpleNamespace(kind=e.kind, number=e.number, void=e.void, body=e.body, result=r)
            for e, r in zip(numbered, results)]


def full_win(player: str, hand: dict) -> dict:
    return {"player": player, "hand": hand, "win": {"by": "discard"}}


def friday_events() -> list[tuple]:
    return [
        ("hand", {"winners": [full_win("Ben", ALL_CHOWS)], "by": "discard", "discarder": "小明"}),
        ("hand", {"winners": [{"player": "Ben", "tai": 2}], "by": "self_draw"}),
        ("hand", {"winners": [{"player": "Dan", "tai": 5}], "by": "discard", "discarder": "Amy"}, True),
        ("seat", {"seat": 2, "player": "Eve"}),
        ("hand", {"winners": [{"player": "Dan", "tai": 1}], "by": "discard", "discarder": "Eve"}),
        ("seat", {"seat": 0, "player": "阿美"}),
        ("seat", {"seat": 1, "player": "小明"}),
        ("hand", {"winners": [full_win("Eve", HALF_FLUSH)], "by": "discard", "discarder": "阿美"}),
        ("hand", {"draw": True, "reason": "exhausted"}),
        ("hand", {"winners": [{"player": "小明", "tai": 3}], "by": "self_draw"}),
    ]


def friday() -> tuple[SimpleNamespace, list[SimpleNamespace]]:
    """The evening of the module docstring: the session and its stored entries."""
    evening = session()
    return evening, record(evening, friday_events())


def long_evening(hands: int, seed: int = 7) -> tuple[SimpleNamespace, list[SimpleNamespace]]:
    """`hands` generated hands (every 50th voided, every 7th a draw, every 3rd a full entry),
    with 林小姐 sitting in for Dan from hand 200 to 349."""
    rng = random.Random(seed)
    seats = list(PLAYERS)
    events: list[tuple] = []
    for number in range(1, hands + 1):
        if number in (200, 350):
            seats[3] = "林小姐" if number == 200 else "Dan"
            events.append(("seat", {"seat": 3, "player": seats[3]}))
        events.append(("hand", _generated_hand(number, seats, rng), number % 50 == 0))
    evening = session(name="長夜 Long night")
    return evening, record(evening, events)


def _generated_hand(number: int, seats: list[str], rng: random.Random) -> dict:
    if number % 7 == 0:
        return {"draw": True}
    winner, discarder = rng.sample(seats, 2)
    if number % 3 == 0:
        return {"winners": [full_win(winner, ALL_CHOWS)], "by": "discard", "discarder": discarder}
    if rng.random() < 0.3:
        return {"winners": [{"player": winner, "tai": rng.randint(0, 10)}], "by": "self_draw"}
    return {"winners": [{"player": winner, "tai": rng.randint(0, 10)}], "by": "discard", "discarder": discarder}


def fixture_evening(path) -> tuple[dict, SimpleNamespace, list[SimpleNamespace]]:
    """A `fixtures/evening_*.json` evening: the fixture, the session, its entries (rejected events left out)."""
    evening = json.loads(path.read_text(encoding="utf-8"))
    stored = session(evening["name"], evening["players"], evening["ruleset"], evening["stakes"])
    stored.options = table_options(evening["ruleset"], evening["options"])
    stored.house_rules = evening.get("house_rules")
    kinds = {"hand": "hand", "seat": "seat", "house_rules": "rules"}
    events = [next((kind, e[key]) for key, kind in kinds.items() if key in e)
              for e in evening["events"] if not e.get("reject")]
    return evening, stored, record(stored, events)
