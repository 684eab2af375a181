"""The plan of benchmarks/groups.py: a group that the server can record, mixed as the issue asks; built for real.

Each planned evening is replayed through `ledger.recorder.Recorder` (what the
server does with the same bodies), so the benchmark never stops on a refused
hand; the mix is counted from the plan.
"""
import datetime

from benchmarks.groups import MEMBERS, SEASON_WEEKS, Client, build, measure, plan
from ledger.recorder import Event, Recorder
from tests.system.server import ProductionServer

STAKES = {"taiwan": {"base": 50, "per_tai": 10}, "shanghai": {"base": 10}}


def test_every_planned_evening_records_and_its_voids_name_its_hands():
    group = plan(evenings=30, hands=20, payments=40)
    for evening in group.evenings:
        hands = [body for kind, body in evening.events if kind == "hand"]
        assert len(hands) == 20 and set(evening.voids) <= set(range(1, 21))
        events, number = [], 0
        for kind, body in evening.events:
            number += kind == "hand"
            events.append(Event(kind, body, kind == "hand" and number in evening.voids, number))
        Recorder.replay(evening.ruleset, evening.players, STAKES[evening.ruleset], {}, events)


def test_the_mix_has_quick_and_full_entries_voids_substitutes_and_shanghai():
    group = plan(evenings=30, hands=20, payments=40)
    winners = [w for e in group.evenings for kind, body in e.events if kind == "hand" for w in body.get("winners", [])]
    full = sum("hand" in w for w in winners)
    assert 0 < full < len(winners)
    assert sum(len(e.voids) for e in group.evenings) > 0
    assert [i for i, e in enumerate(group.evenings) if any(kind == "seat" for kind, _ in e.events)] == [0, 10, 20]
    assert [i for i, e in enumerate(group.evenings) if e.ruleset == "shanghai"] == [4, 9, 14, 19, 24, 29]


def test_evenings_are_a_week_apart_and_the_season_holds_the_last_52():
    group = plan(evenings=100, hands=2, payments=0)
    assert group.evenings[1].day - group.evenings[0].day == datetime.timedelta(weeks=1)
    start, end = (datetime.date.fromisoformat(group.season[key]) for key in ("from", "to"))
    assert sum(start <= e.day <= end for e in group.evenings) == SEASON_WEEKS


def test_payments_are_between_two_members_and_name_planned_evenings():
    group = plan(evenings=10, hands=2, payments=300)
    assert len(group.payments) == 300
    for payment in group.payments:
        assert payment["from"] != payment["to"] and {payment["from"], payment["to"]} <= set(MEMBERS)
        assert payment["amount"] > 0
    assert {p["session"] for p in group.payments if "session" in p} <= set(range(10))


def test_the_same_seed_plans_the_same_group():
    assert plan(5, 20, 10) == plan(5, 20, 10)


def test_the_benchmark_builds_its_group_through_the_server_and_times_every_request(tmp_path):
    """At toy size on SQLite: the group the plan describes is the one the server ends up with."""
    group = plan(evenings=SEASON_WEEKS + 4, hands=2, payments=4)  # the season leaves the first four out
    url = f"sqlite:///{tmp_path / 'groups.sqlite'}"
    server = ProductionServer(url, tmp_path / "gunicorn.log", workers=1,  # one app loaded: what is built is checked
                              env={"TAIZHANG_RATELIMIT_ENABLED": "false"}).start()
    try:
        client = Client(server.port)
        built = build(client, url, group)
        read = built.tokens["read_token"]
        everyone = [{*e.players, *(body["player"] for kind, body in e.events if kind == "seat")} for e in group.evenings]
        standings = client.json("GET", f"/api/groups/{built.group}/standings", token=read)["standings"]
        assert sum(row["evenings"] for row in standings) == sum(len(names) for names in everyone)
        start, end = (datetime.date.fromisoformat(group.season[key]) for key in ("from", "to"))
        season = client.json("GET", f"/api/groups/{built.group}/standings?season={built.season}", token=read)
        in_season = [names for names, e in zip(everyone, group.evenings) if start <= e.day <= end]
        assert len(in_season) == SEASON_WEEKS
        assert sum(row["evenings"] for row in season["standings"]) == sum(len(names) for names in in_season)
        rated = client.json("GET", f"/api/groups/{built.group}/ratings", token=read)["ratings"]
        # every evening closed: each is a game of those who sat a hand that counts (a void may leave one out)
        assert 0.9 * sum(len(names) for names in everyone) < sum(row["games"] for row in rated) <= sum(
            len(names) for names in everyone)
        times = measure(client, built, repeats=4)
        assert {name: len(values) for name, values in times.items()} == {
            "standings (all time)": 4, "standings (season)": 4, "ratings (all time)": 4, "ratings (season)": 4,
            "close an evening": 4, "member page": 4, "balances": 4, "group PDF": 1, "evening state (reference)": 4}
    finally:
        server.stop()
