"""``api.http.rendered.Rendered``: one rendering per key however many ask at once, the least recently used
dropped past the capacity, a failed rendering kept by nobody."""
import threading

import pytest

from api.http.rendered import Rendered


def test_requests_for_a_key_being_rendered_wait_for_that_one_rendering():
    kept = Rendered(1000)
    started, release = threading.Event(), threading.Event()
    calls = []

    def render(text):
        calls.append(text)
        started.set()
        release.wait(10)
        return text.encode()

    answers = []
    first = threading.Thread(target=lambda: answers.append(kept.get("k", lambda: ("one",), render)))
    first.start()
    started.wait(10)
    others = [threading.Thread(target=lambda: answers.append(kept.get("k", lambda: ("two",), render)))
              for _ in range(3)]
    for thread in others:
        thread.start()
    release.set()
    for thread in [first, *others]:
        thread.join(10)
    assert calls == ["one"] and answers == [b"one"] * 4 and kept.renders == 1


def test_the_least_recently_used_are_dropped_past_the_capacity():
    kept = Rendered(10)
    for key in "abc":
        kept.get(key, lambda key=key: (key * 4,), str.encode)  # 4 bytes each: c drops a
    kept.get("b", lambda: ("new",), str.encode)  # kept: b is now the most recently used
    kept.get("d", lambda: ("dddd",), str.encode)  # drops c, the least recently used
    assert kept.get("b", lambda: ("x",), str.encode) == b"bbbb"
    assert kept.get("a", lambda: ("aaaa",), str.encode) == b"aaaa" and kept.renders == 5
    assert kept.size <= 10
    assert kept.get("big", lambda: ("z" * 11,), str.encode) == b"z" * 11  # too big to keep: given, not kept
    assert kept.get("big", lambda: ("y" * 11,), str.encode) == b"y" * 11


def test_a_failed_rendering_is_kept_by_nobody_and_tried_again():
    kept = Rendered(100)

    def fail():
        raise ValueError("no font")

    with pytest.raises(ValueError):
        kept.get("k", lambda: (), fail)
    assert kept.get("k", lambda: ("ok",), str.encode) == b"ok" and kept.renders == 1
