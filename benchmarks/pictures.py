"""What the running-total chart costs the pictures: the card with and without it, and chart.png.

Run: ``.venv/bin/python benchmarks/pictures.py [--hands N] [--repeats R]``

The evening is the generated one of ``tests/reports/evenings.py`` (N hands,
default 200: a substitute, voided hands, draws), its report built once. Timed
back to back in each repetition (A, B, C, A, B, C, ...):

- the card (card.png's work after the report: ``reports.card.render_card``)
  with its chart, drawn by reportlab and rendered by renderPM;
- the same card without the chart (the floor: title, totals, transfers);
- the chart picture alone (chart.png's work: ``reports.chart.evening_picture``).

Printed: each side's median, and the per-repetition ratios to the floor, their
median with the lowest and highest (the spread).
"""
from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import seconds  # noqa: E402
from reports.build import build_report  # noqa: E402
from reports.card import render_card, session_card  # noqa: E402
from reports.chart import evening_picture  # noqa: E402
from reports.fonts import report_font  # noqa: E402
from tests.reports.evenings import long_evening  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for option, default in (("--hands", 200), ("--repeats", 15)):
        parser.add_argument(option, type=int, default=default)
    args = parser.parse_args()
    font = report_font()
    report = build_report(*long_evening(args.hands))
    card = session_card(report, "en")
    floor = dataclasses.replace(card, chart_heading=None, series=())
    sides = {"card with its chart": lambda: render_card(card, font),
             "card without a chart (floor)": lambda: render_card(floor, font),
             "chart.png": lambda: evening_picture(report, "en", font)}
    for run in sides.values():  # warm-up: fonts loaded, code paths hot
        run()
    times = {name: [] for name in sides}
    for _ in range(args.repeats):
        for name, run in sides.items():
            times[name].append(seconds(run))
    print(f"{args.hands} hands, {len(report.participants)} participants, font {font.source}, "
          f"{args.repeats} repetitions interleaved")
    base = times["card without a chart (floor)"]
    for name, measured in times.items():
        ratios = [ours / floor for ours, floor in zip(measured, base)]
        print(f"{name:30} {statistics.median(measured) * 1000:7.1f} ms  / floor {statistics.median(ratios):.2f} "
              f"({min(ratios):.2f}-{max(ratios):.2f})")


if __name__ == "__main__":
    main()
