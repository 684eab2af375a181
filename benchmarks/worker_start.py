"""The CPU a server worker spends starting: importing and building the app, before its first request.

Run: ``.venv/bin/python benchmarks/worker_start.py [--rounds 7]``

Every gunicorn worker pays it (``make serve`` starts one per core, a restart all of them again), and so does
each server the system tests start. Each start runs in a fresh Python process as a gevent worker begins:
gevent's patching, ``api.gunicorn_config``, then ``create_app()`` on a migrated SQLite file. The floor, in
processes of its own interleaved with the app's, is the same patching and the libraries any such app
imports (Flask, SQLAlchemy, SQLModel, marshmallow, flask-smorest) and nothing of Taizhang's. Printed: each
side's median CPU seconds (``time.process_time``) with the range, and the ratio of the medians. Compared
commit against commit, a worktree of each.
"""
from __future__ import annotations

import argparse
import pathlib
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
PATCH = "import time; t = time.process_time(); import gevent.monkey; gevent.monkey.patch_all(); "
SIDES = {
    "app": PATCH + ("import sys, api.gunicorn_config; from api import create_app; "
                    "create_app({'DATABASE_URL': sys.argv[1]}); print(time.process_time() - t)"),
    "floor": PATCH + "import flask, sqlalchemy, sqlmodel, marshmallow, flask_smorest; print(time.process_time() - t)",
}


def start(side: str, url: str) -> float:
    """The CPU seconds of one fresh process starting ``side``."""
    done = subprocess.run([sys.executable, "-c", SIDES[side], url], cwd=ROOT, capture_output=True, text=True,
                          check=True)
    return float(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/taizhang.sqlite"
        start("app", url)  # migrates the file, and leaves the bytecode written
        start("floor", url)
        times: dict[str, list[float]] = {side: [] for side in SIDES}
        for _ in range(rounds):
            for side in SIDES:  # interleaved: app, floor, app, floor, ...
                times[side].append(start(side, url))
    for side, seconds in times.items():
        print(f"{side:5}: median {statistics.median(seconds):.3f} s CPU ({min(seconds):.3f}–{max(seconds):.3f})")
    print(f"app ÷ floor: {statistics.median(times['app']) / statistics.median(times['floor']):.2f}")


if __name__ == "__main__":
    main()
