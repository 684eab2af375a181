"""At most 16 participants (issue 15, item 1): the seat change that would make an evening unsettleable is refused.

Settlement finds the exact fewest transfers for at most 16 people with a
non-zero total; a table therefore lets at most 16 different people sit in
one evening. Who sat before may always come back.
"""
import pytest

from ledger.entries import HandEntry, SeatChange, Winner
from ledger.errors import InvalidRequest
from ledger.recorder import Event, Recorder
from ledger.settlement import settle
from ledger.table import MAX_PARTICIPANTS, Table

PLAYERS = ["Amy", "Ben", "Cat", "Dan"]
STAKES = {"base": 100, "per_tai": 20}


def table_with_guests(guests: int, **limits) -> Table:
    """Amy, Ben, Cat and Dan, then ``guests`` newcomers in seat 3, one after another."""
    table = Table.start("taiwan", PLAYERS, STAKES, {}, **limits)
    for number in range(1, guests + 1):
        table.apply(SeatChange(3, f"Guest {number}"))
    return table


def test_the_limit_is_sixteen():
    assert MAX_PARTICIPANTS == 16


def test_the_seventeenth_is_refused_and_the_table_is_unchanged():
    table = table_with_guests(12)
    state, totals = table.state, dict(table.totals)
    with pytest.raises(InvalidRequest, match="at most 16 participants") as refused:
        table.apply(SeatChange(2, "Guest 13"))
    assert refused.value.field == "player"
    assert (table.state, table.totals) == (state, totals)


def test_who_played_before_comes_back_at_the_limit():
    table = table_with_guests(12)
    table.apply(SeatChange(3, "Dan"))
    table.apply(SeatChange(0, "Guest 5"))  # Amy's seat: Guest 5 sat before, in seat 3
    assert len(table.totals) == 16


def test_an_evening_at_the_limit_can_be_settled():
    table = table_with_guests(0)
    for number in range(1, 13):  # each guest sits in seat 3 and wins 1 台 off Amy's discard
        table.apply(SeatChange(3, f"Guest {number}"))
        table.apply(HandEntry(winners=(Winner(f"Guest {number}", 1),), by="discard", discarder="Amy"))
    assert len(table.totals) == 16
    transfers = settle(table.totals).to_dict()["transfers"]
    assert {transfer["from"] for transfer in transfers} == {"Amy"}  # Amy paid every hand
    assert len(transfers) == 12


def test_a_lower_limit_is_kept_through_a_resume_and_a_replay():
    table = table_with_guests(1, max_participants=5)
    with pytest.raises(InvalidRequest, match="at most 5 participants"):
        table.apply(SeatChange(3, "Guest 2"))
    recorder = Recorder.resume("taiwan", PLAYERS, STAKES, {}, table.state.to_dict(), table.totals, max_participants=5)
    with pytest.raises(InvalidRequest, match="at most 5 participants"):
        recorder.record("seat", {"seat": 3, "player": "Guest 2"})
    events = [Event("seat", {"seat": 3, "player": f"Guest {number}"}) for number in (1, 2)]
    with pytest.raises(InvalidRequest, match="seat change: a session has at most 5 participants"):
        Recorder.replay("taiwan", PLAYERS, STAKES, {}, events, max_participants=5)
