"""A competition's standings as CSV (UTF-8 with a byte order mark, as every CSV of Taizhang).

One row per entrant in rank order. Its headers are the API's field names (``GET …/standings``), in no
language: `rank`, `entrant`, `name`, `points` (exact: `7/3`, as `points_exact`), `net`, `withdrawn`
(1 or 0), then for each round drawn `round_<n>_table` (empty: sat out or not drawn), `round_<n>_wind`,
`round_<n>_net`, `round_<n>_points` (exact). Text a spreadsheet would run as a formula is made inert
(``reports.csv.inert``).
"""
from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping

from reports.csv import inert

COLUMNS = ("rank", "entrant", "name", "points", "net", "withdrawn")
PER_ROUND = ("table", "wind", "net", "points")


def standings_csv(rows: Iterable[Mapping], rounds: int) -> bytes:
    """The standings (rows as ``GET …/standings`` gives them) over ``rounds`` rounds drawn.

    >>> row = {"rank": 1, "entrant": 3, "name": "=Amy", "points_exact": "7/3", "net": 100, "withdrawn": False,
    ...        "rounds": [{"round": 1, "table": 2, "wind": "S", "net": 100, "points_exact": "7/3"}]}
    >>> standings_csv([row], 1).decode("utf-8-sig").splitlines()
    ['rank,entrant,name,points,net,withdrawn,round_1_table,round_1_wind,round_1_net,round_1_points', "1,3,'=Amy,7/3,100,0,2,S,100,7/3"]
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*COLUMNS, *(f"round_{n}_{what}" for n in range(1, rounds + 1) for what in PER_ROUND)])
    for row in rows:
        by_round = {line["round"]: line for line in row["rounds"]}
        cells = [row["rank"], row["entrant"], row["name"], row["points_exact"], row["net"], int(row["withdrawn"])]
        for number in range(1, rounds + 1):
            line = by_round.get(number)
            if line is None or line.get("table") is None:
                cells += ["", "", "", ""]
            else:
                cells += [line["table"], line["wind"], line["net"], line["points_exact"]]
        writer.writerow([inert(cell) for cell in cells])
    return buffer.getvalue().encode("utf-8-sig")
