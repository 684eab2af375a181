"""The ratings always equal a replay of the stored evenings in order (hypothesis, through the API).

Random evenings of six members with hands, voids, corrections and
substitutes; some closed, some left open; one started before the others
but joined to the group only at the end (an evening entered late: it is
replayed first, as its day and start come first). The reference replays
the closed evenings in the order they started, each a game of those who sat
a hand that counts, ranked by the evening's stored totals, through
openskill's ``rate`` directly.
"""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from tests.api.groups.groups import Club
from tests.api.sessions.tables import discard, self_draw, session_body
from tests.fuzzing import examples

NAMES = ["Amy", "Ben", "Cat", "Dan", "Eve", "Fay"]

ops = st.lists(st.one_of(
    st.tuples(st.just("hand"), st.integers(0, 3), st.integers(0, 3), st.integers(1, 4)),
    st.tuples(st.just("void"), st.integers(0, 5)),
    st.tuples(st.just("correct"), st.integers(0, 5), st.integers(0, 3), st.integers(1, 6)),
    st.tuples(st.just("seat"), st.integers(0, 3), st.integers(0, 1))), min_size=1, max_size=6)
evening = st.tuples(st.permutations(NAMES), ops, st.booleans())


def body(seats, winner, offset, tai):
    """A self-draw (offset 0) or a discard by the player ``offset`` seats on."""
    return self_draw(seats[winner], tai) if offset == 0 else discard(seats[winner], seats[(winner + offset) % 4], tai)


def play(client, path, headers, order, steps) -> set[str]:
    """One evening's steps through the API; who sat a hand that still counts."""
    seats, bench, sat = list(order[:4]), list(order[4:]), {}
    for step in steps:
        if step[0] == "hand":
            assert client.post(f"{path}/hands", json=body(seats, *step[1:]), headers=headers).status_code == 201
            sat[len(sat) + 1] = set(seats)
        elif step[0] == "seat":
            seat, sub = step[1], step[2]
            assert client.post(f"{path}/seats", json={"seat": seat, "player": bench[sub]},
                               headers=headers).status_code == 201
            seats[seat], bench[sub] = bench[sub], seats[seat]
        elif sat:
            number = step[1] % len(sat) + 1
            if step[0] == "void":
                client.delete(f"{path}/hands/{number}", headers=headers)  # a hand voided already: 409, nothing
                sat[number] = set()
            else:  # the same seats, another winner and value
                players = sorted(sat[number]) if sat[number] else None
                if players:
                    assert client.put(f"{path}/hands/{number}", json=body(players, step[2], 1, step[3]),
                                      headers=headers).status_code == 200
    return set().union(*sat.values())


def reference(games) -> dict[str, tuple[float, float, int]]:
    """name -> (μ, σ, games): openskill's ``rate`` over ``games`` (each ``{name: net}``) in order."""
    model, found = PlackettLuce(), {}
    for nets in games:
        if len(nets) < 2:
            continue
        names = list(nets)
        ranks = [1 + sum(other > nets[name] for other in nets.values()) for name in names]
        teams = [[found[name][0] if name in found else model.rating()] for name in names]
        for name, [after] in zip(names, model.rate(teams, ranks=ranks)):
            found[name] = (after, found[name][1] + 1 if name in found else 1)
    return {name: (rating.mu, rating.sigma, count) for name, (rating, count) in found.items()}


@settings(max_examples=examples(bounded=3, deep=8), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(late=evening, played=st.lists(evening, min_size=2, max_size=3))
def test_the_ratings_equal_a_replay_of_the_stored_closed_evenings_in_order(client, late, played):
    club = Club.with_members(client, NAMES)
    member, admin = club.headers("member"), club.headers("admin")
    early = client.post("/api/sessions", json=session_body(players=late[0][:4], name="late")).get_json()
    early_path, early_headers = f"/api/sessions/{early['id']}", {"Authorization": f"Bearer {early['token']}"}
    evenings = [(early_path, play(client, early_path, early_headers, *late[:2]), late[2])]
    for order, steps, closed in played:
        path = f"/api/sessions/{club.evening(list(order[:4])).id}"
        evenings.append((path, play(client, path, member, order, steps), closed))
        if closed:
            assert client.post(f"{path}/close", headers=admin).status_code == 200
    before = club.get_ok("/ratings")["ratings"]
    assert client.post(f"{club.path}/sessions", json={"session": early["id"], "token": early["token"]},
                       headers=member).status_code == 201
    if late[2]:
        assert client.post(f"{early_path}/close", headers=admin).status_code == 200
    games = [{name: client.get(path, headers=member).get_json()["totals"][name] for name in sat}
             for path, sat, closed in evenings if closed]
    expected = reference(games)
    rated = club.get_ok("/ratings")["ratings"]
    assert {row["name"]: row["games"] for row in rated} == {name: count for name, (_, _, count) in expected.items()}
    for row in rated:
        mu, sigma, _ = expected[row["name"]]
        assert (row["mu"], row["sigma"]) == (pytest.approx(mu, abs=1e-9), pytest.approx(sigma, abs=1e-9))
        assert row["rating"] == pytest.approx(mu - 3 * sigma, abs=0.005 + 1e-9)
    if not late[2]:
        assert rated == before  # an open evening joined late changes nothing
