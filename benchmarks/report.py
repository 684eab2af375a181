"""PDF report speed: the full settlement sheet of a long evening against a plain reportlab table.

Run: ``.venv/bin/python benchmarks/report.py [--hands N] [--repeats R]``

Our side builds the report from the stored entries of an N-hand evening
(default 500; the generated evening of ``tests/reports/evenings.py``: a
substitute, voided hands, draws, full entries, recorded with
``ledger.recorder``) and renders the whole sheet: header, standings,
transfers, seat history, statistics, the running-total chart and the hands
table with wrapped Paragraph cells, striped rows and a header repeated on
every page.

The reference renders the same hand rows (the same texts) as one plain
``reportlab.platypus.Table`` with no styling: no Paragraphs, no grid, no
repeated header, only the same CJK font (without it the Chinese would not be
drawn at all, and both sides then pay the same font subsetting).

Both run in this process: one warm-up each, then R repetitions that time
ours and the reference back to back. Printed: the median of each side and
the median of the per-repetition ratios ours / reference (how many times the
plain table's time the full sheet takes); pairing keeps the ratio steady on
a busy machine.
"""
from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.platypus import SimpleDocTemplate, Table, TableStyle

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from reports import labels  # noqa: E402
from reports.build import build_report  # noqa: E402
from reports.fonts import ReportFont, report_font  # noqa: E402
from reports.model import Report  # noqa: E402
from reports.pdf import render_pdf  # noqa: E402
from tests.reports.evenings import long_evening  # noqa: E402


def full_sheet(session, entries, font: ReportFont) -> bytes:
    """What the API does for report.pdf: build the report, render every section."""
    return render_pdf(build_report(session, entries), font)


def plain_rows(report: Report) -> list[list[str]]:
    """The hands table's rows as plain strings."""
    header = ["#", "round", "dealer", "winners", "outcome", *report.participants]
    rows = [[str(hand.number), labels.round_text(hand), labels.dealer_text(hand),
             "; ".join(labels.winner_text(w) for w in hand.winners), labels.outcome_text(hand),
             *[labels.amount(hand.payments[p]) if p in hand.payments else "" for p in report.participants]]
            for hand in report.hands]
    return [header] + rows


def plain_table(rows: list[list[str]], font: ReportFont) -> bytes:
    """The reference: one unstyled Table of the same rows, in the same font."""
    buffer = io.BytesIO()
    table = Table(rows)
    table.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), font.name)]))
    SimpleDocTemplate(buffer, pagesize=A4, initialFontName=font.name).build([table])
    return buffer.getvalue()


def seconds(run) -> float:
    """Wall time of one `run()`."""
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def paired_medians(ours, reference, repeats: int) -> tuple[float, float, float]:
    """Median times of both sides and the median of their per-repetition ratios.

    The two alternate within each repetition, so a busy machine slows both alike.
    """
    ours(), reference()  # warm-up: fonts loaded, code paths hot
    pairs = [(seconds(ours), seconds(reference)) for _ in range(repeats)]
    return (statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs),
            statistics.median(p[0] / p[1] for p in pairs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    font = report_font()
    session, entries = long_evening(args.hands)
    rows = plain_rows(build_report(session, entries))
    ours, reference, ratio = paired_medians(lambda: full_sheet(session, entries, font),
                                            lambda: plain_table(rows, font), args.repeats)
    print(f"{args.hands} hands, {len(rows[0]) - 5} participants, font {font.source}, {args.repeats} repetitions")
    print(f"full settlement sheet: {ours * 1000:8.1f} ms (median)")
    print(f"plain reportlab table: {reference * 1000:8.1f} ms (median)")
    print(f"ratio ours / reference: {ratio:.2f} (median of the per-repetition ratios)")


if __name__ == "__main__":
    main()
