"""A competition's reports through the HTTP API: ``tables.pdf``, ``report.pdf`` and ``standings.png``.

Read back as a reader would: the PDFs' text with pdftotext, the cards' QR codes with zbarimg (poppler's
pdftoppm draws the page), the picture's size with Pillow.

Worked by hand (as tests/api/competitions/test_competitions.py; Taiwanese 100 底 / 20 per 台, quick entry,
the dealer 東 not involved): eight entrants, two tables of round 1. At table 1 南 wins 3 台 on 西's discard:
100 + 20 × 3 = 160 from 西. Placement points 4/2/1/0 by net money: 南 +160 takes 4; 東 and 北, level at 0,
share places 2-3, (2 + 1) / 2 = 3/2 each; 西 -160 takes 0. Table 2 has no hand: it does not count, its four
have 0 points and 0 net. Standings: 1 南 4 +160; 2 東 and 2 北 3/2 0 (equal: one rank, listed by number); 4
the four of table 2, 0 points, 0 net; 8 西 0 -160. The competition has 2 rounds: after round 1 ends the sheet
says 1 of 2 rounds ended.

The picture shows at most 20 ranks (``reports.competition.CARD_ROWS``): its title band is 72 + 88 + 3 × 57
+ 36 = 367 px, then 56 + 67 px to the first row, 84 px a row, 84 px for the line saying how many more, and
72 px margins top and bottom: 20 rows and the line make 367 + 123 + 20 × 84 + 84 + 144 = 2398 px; 8 rows
make 1306 px, so the phone-screen least, 1920.
"""
import io
import subprocess
import tempfile
from pathlib import Path

import pytest
from PIL import Image

from tests.api.competitions.test_competitions import NAMES, ZH_HANS, ZH_HANT, entered
from tests.api.sessions.tables import discard
from tests.reports.poppler import pages

def played(client, names=NAMES[:8], **changes):
    """The competition worked in the module's docstring, round 1 ended; the cup and its round's answer."""
    cup = entered(client, names, **changes)
    drawn = cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    cup.ok(cup.post("/rounds/1/start"))
    table = drawn["tables"][0]
    east, south, west, north = table["seats"]
    hand = client.post(f"/api/sessions/{table['session']}/hands", json=discard(south, west, 3),
                       headers={"Authorization": f"Bearer {table['token']}"})
    assert hand.status_code == 201
    return cup, drawn


def pdf_of(response) -> bytes:
    assert response.status_code == 200, response.get_json()
    assert response.headers["Content-Type"] == "application/pdf"
    return response.data


def qr_links(pdf: bytes) -> list[str]:
    """Every QR code's text, page by page (each page drawn at 100 dpi and read by zbarimg)."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "cards.pdf"
        source.write_bytes(pdf)
        subprocess.run(["pdftoppm", "-r", "100", "-png", str(source), str(Path(folder) / "page")], check=True)
        found = []
        for page in sorted(Path(folder).glob("page*.png")):
            read = subprocess.run(["zbarimg", "--quiet", "--raw", str(page)], capture_output=True, text=True,
                                  check=True)
            found += read.stdout.splitlines()
        return found


def test_the_table_cards_carry_seats_winds_the_end_and_each_tables_scoring_link(client):
    cup, drawn = played(client)
    shown = cup.ok(cup.get(level="organizer"))
    ends_at = shown["drawn"][0]["ends_at"]  # the start + 90 minutes, in UTC: "…T12:34:56Z"
    hour, minute = int(ends_at[11:13]), int(ends_at[14:16])
    taipei = f"{(hour + 8) % 24:02d}:{minute:02d}"  # Asia/Taipei is UTC+8, no summer time
    cards = pdf_of(client.get(f"{cup.path}/tables.pdf?round=1&tz=Asia/Taipei&lang=en",
                              headers=cup.headers("organizer")))
    text = pages(cards)
    assert len(text) == 2  # one page per table
    for page, table in zip(text, drawn["tables"]):
        assert f"Table {table['table']}" in page
        assert "Spring cup · round 1" in page
        assert f"This round ends at {taipei}" in page
        lines = [" ".join(line.split()) for line in page.splitlines()]
        for wind, name in zip("東南西北", table["seats"]):
            assert f"{wind} {name}" in lines
    tables = {t["session"]: t for t in shown["drawn"][0]["tables"]}
    links = [f"http://localhost/#s={t['session']}&t={t['token']}&r={t['read_token']}"
             for t in (tables[table["session"]] for table in drawn["tables"])]
    assert qr_links(cards) == links


def test_the_cards_speak_the_readers_language_and_say_no_end_before_the_clock(client):
    cup = entered(client, NAMES[:8])
    cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    hant = pages(pdf_of(client.get(f"{cup.path}/tables.pdf", headers=cup.headers("organizer", ZH_HANT))))
    assert "第1桌" in hant[0].replace(" ", "") and "Spring cup · 第 1 輪" in hant[0] and "結束" not in hant[0]
    hans = pages(pdf_of(client.get(f"{cup.path}/tables.pdf?token={cup.tokens['organizer']}&lang=zh-Hans",
                                   base_url=ON_THE_WIFI)))
    assert "用手机扫这个二维码" in hans[1] and "第2桌" in hans[1].replace(" ", "")
    # the page number in the reader's language too (繁 said "page 1")
    assert "第1頁" in hant[0].replace(" ", "") and "第2页" in hans[1].replace(" ", "")
    english = pages(pdf_of(client.get(f"{cup.path}/tables.pdf?lang=en", headers=cup.headers("organizer"))))
    assert "page 2" in english[1]


ON_THE_WIFI = "http://192.168.1.23:5000"


@pytest.mark.parametrize("origin", ["http://localhost", "http://127.0.0.1:5000"])
def test_cards_whose_links_only_this_computer_opens_say_so_in_the_readers_language(client, origin):
    """Opened on loopback with no network address known, the QR codes point there: every card says no phone
    opens it, instead of asking the table to scan it; at the Wi-Fi address, the cards ask as before."""
    cup = entered(client, NAMES[:8])
    cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    for lang, said in (("en", f"This QR code opens {origin}, which only the server's own computer can open"),
                       ("zh-Hant", f"這個 QR 碼開的是 {origin}，只有伺服器那台電腦打得開"),
                       ("zh-Hans", f"这个二维码打开的是 {origin}，只有服务器那台电脑能打开")):
        cards = pages(pdf_of(client.get(f"{cup.path}/tables.pdf?lang={lang}", headers=cup.headers("organizer"),
                                        base_url=origin)))
        for card in cards:
            text = " ".join(card.split())
            assert said.replace(" ", "") in text.replace(" ", ""), (lang, text)
            assert "Scan this QR code" not in text and "用手机扫" not in text and "用手機掃" not in text
    wifi = pages(pdf_of(client.get(f"{cup.path}/tables.pdf?lang=en", headers=cup.headers("organizer"),
                                   base_url=ON_THE_WIFI)))
    assert all("only the server's own computer" not in card and "Scan this QR code" in card for card in wifi)


def test_cards_opened_on_loopback_carry_the_network_address_the_server_knows(make_app):
    client = make_app(NETWORK_URL="http://192.168.1.23:5000").test_client()
    cup = entered(client, NAMES[:4])
    drawn = cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    table = drawn["tables"][0]
    cards = pdf_of(client.get(f"{cup.path}/tables.pdf?lang=en", headers=cup.headers("organizer"),
                              base_url="http://127.0.0.1:5000"))
    assert "only the server's own computer" not in pages(cards)[0]
    assert qr_links(cards) == [f"http://192.168.1.23:5000/#s={table['session']}&t={table['token']}"
                               f"&r={table['read_token']}"]


def test_the_cards_use_the_public_address_when_one_is_set(make_app):
    client = make_app(PUBLIC_URL="https://taizhang.example.org").test_client()
    cup = entered(client, NAMES[:4])
    drawn = cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    table = drawn["tables"][0]
    cards = pdf_of(client.get(f"{cup.path}/tables.pdf", headers=cup.headers("organizer")))
    assert qr_links(cards) == [f"https://taizhang.example.org/#s={table['session']}&t={table['token']}"
                               f"&r={table['read_token']}"]


def test_every_refusal_of_the_cards_is_json_in_the_readers_language(client):
    cup = entered(client, NAMES[:8])
    none_yet = client.get(f"{cup.path}/tables.pdf", headers=cup.headers("organizer", ZH_HANT))
    assert none_yet.status_code == 409
    assert none_yet.get_json()["message"] == "這個比賽還沒有抽過任何一輪：先抽籤，才有桌卡。"
    cup.ok(cup.post("/rounds", {"seed": 3}), 201)
    assert client.get(f"{cup.path}/tables.pdf").status_code == 401
    wrong = client.get(f"{cup.path}/tables.pdf?token=not-its-token", headers=ZH_HANT)
    assert wrong.status_code == 403 and wrong.get_json()["message"] == "這個憑證打不開這個比賽：請向主辦人要連結。"
    read = client.get(f"{cup.path}/tables.pdf?token={cup.tokens['read']}", headers=ZH_HANS)
    assert read.status_code == 403
    assert read.get_json()["message"] == "桌卡上印着各桌记账的链接：只有主办人的链接能打印。"
    organizer = cup.headers("organizer")
    not_drawn = client.get(f"{cup.path}/tables.pdf?round=2", headers=organizer)  # the competition has 2 rounds
    assert not_drawn.status_code == 409
    assert not_drawn.get_json()["message"] == "Round 2 is not drawn yet: the rounds drawn go up to 1."
    unknown = client.get(f"{cup.path}/tables.pdf?round=3", headers={**organizer, **ZH_HANT})
    assert unknown.status_code == 404 and unknown.get_json()["message"] == "這個比賽沒有第 3 輪。"
    for query in ("round=0", "round=two", "round=99999999999999999999", "tz=Mars/Base", "lang=fr", "colour=red"):
        refused = client.get(f"{cup.path}/tables.pdf?{query}", headers={**organizer, **ZH_HANT})
        assert refused.status_code == 422, query
        assert refused.get_json()["message"].startswith("請求無效："), query
    assert client.get("/api/competitions/" + "0" * 40 + "/tables.pdf", headers=organizer).status_code == 404


def test_the_results_sheet_ranks_with_points_net_and_every_round(client):
    cup, drawn = played(client)
    cup.ok(cup.post("/rounds/1/end"))
    east, south, west, north = drawn["tables"][0]["seats"]
    sheet = pages(pdf_of(client.get(f"{cup.path}/report.pdf?lang=en", headers=cup.headers("read"))))
    text = "\n".join(sheet)
    assert "Spring cup · 比賽成績表 results sheet" in text
    assert "Standings so far: 1 of 2 rounds ended" in text
    assert "equal points are broken by net money; equal in both share a rank" in " ".join(text.split())
    rows = {line.split()[1]: line.split() for line in text.splitlines()
            if len(line.split()) > 2 and line.split()[0].isdigit() and line.split()[1] in NAMES}
    # rank, name, points, net, round, table, wind, three opponents, net, points
    first = drawn["tables"][0]["seats"]
    assert rows[south] == ["1", south, "4", "+160", "1", "1", "南", f"{east},", f"{west},", north, "+160", "4"]
    # 3/2 as a decimal (the sheet shows at most two places)
    assert rows[east][:4] == ["2", east, "1.5", "0"] and rows[north][:4] == ["2", north, "1.5", "0"]
    assert rows[east][-2:] == ["0", "1.5"]
    assert rows[west] == ["8", west, "0", "-160", "1", "1", "西", f"{east},", f"{south},", north, "-160", "0"]
    for name in drawn["tables"][1]["seats"]:
        assert rows[name][:4] == ["4", name, "0", "0"] and rows[name][-2:] == ["not", "played"]
    assert set(rows) == set(NAMES[:8]) and set(first) | set(drawn["tables"][1]["seats"]) == set(NAMES[:8])


def test_the_sheet_is_final_once_every_round_has_ended_and_speaks_chinese(client):
    cup, _ = played(client, rounds=1)
    cup.ok(cup.post("/rounds/1/end"))
    hans = "\n".join(pages(pdf_of(client.get(f"{cup.path}/report.pdf", headers=cup.headers("read", ZH_HANS)))))
    assert "定案：1 轮全部结束" in hans and "同分比净输赢" in hans
    net = entered(client, NAMES[:4], ranking="net")
    hant = "\n".join(pages(pdf_of(client.get(f"{net.path}/report.pdf?token={net.tokens['read']}&lang=zh-Hant"))))
    assert "排名方式：各輪淨輸贏相加" in hant and "目前成績：0/2 輪已結束" in hant


def test_the_standings_picture_in_every_language_shows_twenty_ranks_at_most(client):
    cup, _ = played(client)
    pictures = {}
    for lang in ("zh-Hant", "zh-Hans", "en"):
        response = client.get(f"{cup.path}/standings.png?lang={lang}&token={cup.tokens['read']}")
        assert response.status_code == 200 and response.headers["Content-Type"] == "image/png"
        assert "standings" in response.headers["Content-Disposition"]
        image = Image.open(io.BytesIO(response.data))
        assert image.size == (1080, 1920)
        pictures[lang] = response.data
    assert len(set(pictures.values())) == 3
    crowd = entered(client, [f"Player {n}" for n in range(1, 25)])
    crowd.ok(crowd.post("/rounds", {"seed": 1}), 201)
    tall = Image.open(io.BytesIO(client.get(f"{crowd.path}/standings.png", headers=crowd.headers("read")).data))
    assert tall.size == (1080, 2398)


@pytest.mark.parametrize("suffix", ["/report.pdf", "/standings.png"])
def test_the_sheet_and_picture_need_a_token_of_the_competition_and_a_known_lang(client, suffix):
    cup = entered(client, NAMES[:4])
    assert client.get(cup.path + suffix).status_code == 401
    wrong = client.get(f"{cup.path}{suffix}?token=not-its-token", headers=ZH_HANS)
    assert wrong.status_code == 403 and wrong.get_json()["message"] == "这个凭证打不开这个比赛：请向主办人要链接。"
    refused = client.get(f"{cup.path}{suffix}?lang=fr", headers=cup.headers("read"))
    assert refused.status_code == 422 and "lang" in str(refused.get_json())


HOSTILE = ["W" * 40, "王" * 40, "<b>Amy</b> & <i>", "</para><font name='x'>", "小明🀄", "مريم & Zoe\u0308", "%s {0} {name}",
           "O'Brien \"Ozzy\""]


def test_names_that_could_break_a_pdf_or_a_picture_are_drawn(client):
    cup = entered(client, HOSTILE, name="<b>Cup</b> " + "盃" * 150)
    drawn = cup.ok(cup.post("/rounds", {"seed": 5}), 201)
    table = drawn["tables"][0]
    east, south, west, north = table["seats"]
    client.post(f"/api/sessions/{table['session']}/hands", json=discard(south, west, 3),
                headers={"Authorization": f"Bearer {table['token']}"})
    for suffix in ("/tables.pdf", "/report.pdf", "/standings.png"):
        for lang in ("zh-Hant", "zh-Hans", "en"):
            response = client.get(f"{cup.path}{suffix}?lang={lang}", headers=cup.headers("organizer"))
            assert response.status_code == 200, (suffix, lang, response.data[:300])
    sheet = "\n".join(pages(client.get(f"{cup.path}/report.pdf", headers=cup.headers("read")).data))
    assert "<b>Amy</b> & <i>" in sheet and "O'Brien \"Ozzy\"" in sheet
    cards = "\n".join(pages(client.get(f"{cup.path}/tables.pdf", headers=cup.headers("organizer")).data))
    assert "<b>Amy</b> & <i>" in cards
