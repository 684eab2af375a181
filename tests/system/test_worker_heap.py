"""Each gunicorn worker exempts the app it loaded from garbage collection (``api.gunicorn_config``).

A full collection of a worker looked at every object of the loaded app (≈ 120,000) each time, ≈ 55 ms
in whichever request triggered it. Frozen, those objects are skipped; objects made by requests are
still collected.
"""
import re
import subprocess
import sys
import textwrap
import time

from tests.system.server import START_TIMEOUT_S, ProductionServer

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


def test_each_worker_of_the_production_server_freezes_the_app_it_loaded(tmp_path):
    server = ProductionServer(f"sqlite:///{tmp_path / 'taizhang.sqlite'}", tmp_path / "gunicorn.log",
                              workers=2).start()
    try:
        assert server.call("GET", "/api/health")[0] == 200
        deadline = time.monotonic() + START_TIMEOUT_S  # the other worker may still be loading the app
        while len(frozen_counts(server)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        server.stop()
    counts = frozen_counts(server)
    assert len(counts) == 2 and min(counts) > 50_000, server.log()


def frozen_counts(server) -> list[int]:
    return [int(count) for count in re.findall(r"Froze (\d+) objects of the loaded app", server.log())]
