"""Short requests before a long write's pieces (``api.http.offload``, issue 39 item 6).

A request in flight is short until it works off the loop or ends, a live stream never; a long write gives
way between its pieces while any is in flight, for at most ``GIVE_WAY_S``. The loop's clock and sleep are
stood in for (the tests run without gevent): what is checked is how many turns the write waits, not time.
"""
import types

import pytest

from api.http import offload


@pytest.fixture
def loop(monkeypatch):
    """A gevent worker's loop, as far as ``offload`` sees it: a clock that moves only when it sleeps."""
    clock = types.SimpleNamespace(now=0.0, slept=[], on_sleep=lambda: None)

    def sleep(seconds):
        clock.slept.append(seconds)
        clock.now += seconds
        clock.on_sleep()

    monkeypatch.setattr(offload, "under_gevent", lambda: True)
    monkeypatch.setattr(offload, "time", types.SimpleNamespace(sleep=sleep, monotonic=lambda: clock.now))
    monkeypatch.setattr(offload, "_short", 0)
    return clock


def test_a_long_write_waits_while_a_short_request_is_in_flight(loop):
    offload._short = 1

    def the_hand_ends_on_the_third_turn():
        if len(loop.slept) == 3:
            offload._short -= 1

    loop.on_sleep = the_hand_ends_on_the_third_turn
    offload.give_way()
    assert loop.slept == [offload.PAUSE_S] * 3


def test_it_goes_on_after_give_way_s_however_many_are_in_flight(loop):
    offload._short = 5
    offload.give_way()
    turns = len(loop.slept)
    assert turns == pytest.approx(offload.GIVE_WAY_S / offload.PAUSE_S, abs=1)


def test_with_none_in_flight_a_pause_is_one_turn(loop):
    offload.pause()
    assert loop.slept == [offload.PAUSE_S]


def test_a_request_is_short_until_it_ends_or_goes_off_the_loop_and_a_stream_never(app, loop):
    with app.test_request_context("/api/health"):
        offload._begin_short()
        assert offload._short == 1
        offload._gone_long()
        offload._gone_long()  # counted down once only
        assert offload._short == 0
    with app.test_request_context(f"/api/sessions/{'ab' * 20}/events"):
        offload._begin_short()
        assert offload._short == 0
    with app.test_request_context("/api/health"):
        offload._begin_short()
        assert offload._short == 1
    assert offload._short == 0  # the request ended: the app's teardown_request counted it down
