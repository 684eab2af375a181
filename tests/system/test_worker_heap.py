"""Each gunicorn worker exempts the app it loaded from garbage collection (``api.gunicorn_config``).

A full collection of a worker looked at every object of the loaded app (≈ 120,000) each time, ≈ 55 ms
in whichever request triggered it. Frozen, those objects are skipped; objects made by requests are
still collected. That each worker of the production server froze the app it loaded is checked on
the two-worker server of tests/system/test_rate_limits.py (a server's start is seconds of CPU).
"""
import subprocess
import sys
import textwrap

# In a process of its own: frozen objects are never collected, and this test process builds many apps.
FREEZE_A_LOADED_APP = textwrap.dedent("""
    import gc, os, sys, tempfile, time
    os.environ["DATABASE_URL"] = "sqlite:///" + os.path.join(tempfile.mkdtemp(), "heap.sqlite")
    from api import create_app
    from api.gunicorn_config import freeze_loaded_app
    app = create_app()
    gc.collect()
    started = time.perf_counter(); gc.collect(); before = time.perf_counter() - started
    frozen = freeze_loaded_app()
    started = time.perf_counter(); gc.collect(); after = time.perf_counter() - started
    made_later = [[] for _ in range(1000)]
    for item in made_later:
        item.append(item)  # a cycle: only the collector frees it
    del made_later, item
    print(frozen, before, after, gc.collect())
""")


def test_a_frozen_app_costs_a_full_collection_nothing_and_later_garbage_is_still_collected():
    result = subprocess.run([sys.executable, "-c", FREEZE_A_LOADED_APP], capture_output=True, text=True, check=True)
    frozen, before, after, collected = result.stdout.split()
    assert int(frozen) > 50_000  # the app, its modules and tables
    assert float(after) < float(before) / 10
    assert int(collected) >= 1000  # the thousand cycles made after the freeze
