"""Settle: standings, the fewest transfers, the PDF sheet and the hands CSV downloaded with the token."""
import subprocess

from playwright.sync_api import expect

from tests.e2e.steps import api_get, expect_totals, quick_win, screenshot, start_evening, to_table
from tests.e2e.test_many_phones import LIVE_MS
from tests.e2e.test_what_a_table_sees import discard, new_evening, open_on, post_hands

# Hand 1: Ben 3 台 on Cat's discard (Amy deals): Cat pays 100 + 20 × 3 = 160.
# Hand 2 (Ben deals, streak 0): Dan self-draws 1 台: Amy and Cat pay 100 + 20 = 120,
# Ben pays 100 + 20 × (1 + 1) = 140.
TOTALS = {"Amy": -120, "Ben": 20, "Cat": -280, "Dan": 380}


def play_two_hands(phone):
    session = start_evening(phone, name="Friday 週五")
    to_table(phone)
    quick_win(phone, "Ben", "Cat", 3)
    expect_totals(phone, ["0", "+160", "-160", "0"])
    quick_win(phone, "Dan", None, 1)
    expect_totals(phone, ["-120", "+20", "-280", "+380"])
    return session


def test_settlement_lists_standings_and_transfers(phone, api):
    session = play_two_hands(phone)
    phone.get_by_test_id("nav-settle").click()
    rows = phone.get_by_test_id("standings").locator("tr")
    expect(rows).to_have_text(["1Dan+380", "2Ben+20", "3Amy-120", "4Cat-280"])
    transfers = phone.get_by_test_id("transfers").locator("li")
    # No two players' totals cancel (-120 + 20, -280 + 20, ... are never 0), so three transfers is the fewest.
    expect(transfers).to_have_count(3)
    screenshot(phone, "40-settle")
    balance = dict.fromkeys(TOTALS, 0)
    for transfer in transfers.all():
        payer, payee = transfer.get_attribute("data-from"), transfer.get_attribute("data-to")
        amount = int(transfer.get_attribute("data-amount"))
        expect(transfer).to_have_text(f"{payer} → {payee} {amount}")
        balance[payer] -= amount
        balance[payee] += amount
    assert balance == TOTALS
    assert api_get(api, session, "/settlement")["totals"] == TOTALS


def test_download_the_pdf_sheet_and_the_csv(phone, tmp_path):
    play_two_hands(phone)
    phone.get_by_test_id("nav-settle").click()
    expect(phone.get_by_test_id("standings")).to_be_visible()
    with phone.expect_download() as pdf_download:
        phone.get_by_test_id("download-pdf").click()
    pdf = pdf_download.value
    assert pdf.suggested_filename.endswith(".pdf")
    assert pdf.suggested_filename.startswith("Friday 週五")
    path = tmp_path / "sheet.pdf"
    pdf.save_as(path)
    assert path.read_bytes().startswith(b"%PDF")
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout
    for player, total in TOTALS.items():
        assert player in text
        assert f"{total:+d}".replace("+", "") in text.replace("+", "")
    with phone.expect_download() as csv_download:
        phone.get_by_test_id("download-csv").click()
    csv_path = tmp_path / "hands.csv"
    csv_download.value.save_as(csv_path)
    assert csv_download.value.suggested_filename.endswith(".csv")
    csv_text = csv_path.read_text(encoding="utf-8-sig")
    assert "Dan" in csv_text and "-160" in csv_text


def test_rounding_to_the_smallest_note(phone, api):
    session = play_two_hands(phone)
    phone.get_by_test_id("nav-settle").click()
    phone.get_by_test_id("round-to").fill("100")
    phone.get_by_test_id("round-apply").click()
    expect(phone.get_by_test_id("rounding")).to_be_visible()
    rounded = api_get(api, session, "/settlement?round_to=100")
    expected = [f"{rank}{player}{total:+d}".replace("+0", "0") for rank, (player, total) in
                enumerate(sorted(rounded["totals"].items(), key=lambda item: -item[1]), start=1)]
    expect(phone.get_by_test_id("standings").locator("tr")).to_have_text(expected)
    assert all(total % 100 == 0 for total in rounded["totals"].values())


def test_a_rounding_typed_but_not_applied_outlives_a_hand_from_another_phone(new_phone, api):
    session = new_evening(api)
    page = new_phone().new_page()
    open_on(page, session)
    page.get_by_test_id("nav-settle").click()
    page.get_by_test_id("round-to").fill("50")
    # Ben wins 3 台 on Cat's discard, dealer Amy not in it: Cat pays 100 + 20 × 3 = 160.
    post_hands(api, session, discard("Ben", "Cat", 3))
    expect(page.get_by_test_id("transfers")).to_contain_text("160", timeout=LIVE_MS)
    expect(page.get_by_test_id("round-to")).to_have_value("50")
    expect(page.get_by_test_id("round-to")).to_be_focused()


def test_a_hand_from_another_phone_leaves_the_figures_on_screen_until_the_new_ones_are_read(new_phone, api):
    """Settle is drawn again for another phone's hand; while it reads the new settlement (held here, as a slow
    Wi-Fi would), the standings and the chart on screen stay rather than blinking out."""
    session = new_evening(api)
    post_hands(api, session, discard("Ben", "Cat", 3))  # Cat pays 100 + 20 × 3 = 160
    page = new_phone().new_page()
    open_on(page, session)
    page.get_by_test_id("nav-settle").click()
    expect(page.get_by_test_id("standings")).to_contain_text("+160")
    held = []
    page.route("**/api/sessions/*/settlement*", lambda route: route.continue_() if held else held.append(route))
    post_hands(api, session, discard("Dan", "Amy", 1))  # Ben deals now: Amy pays 100 + 20 = 120, no dealer extra
    while not held:  # the stream brought the hand; Settle asks for the settlement again
        page.wait_for_timeout(20)
    expect(page.get_by_test_id("standings")).to_contain_text("+160")
    expect(page.get_by_test_id("running-chart")).to_be_visible()
    held[0].continue_()
    expect(page.get_by_test_id("standings")).to_contain_text("+120")
    expect(page.get_by_test_id("running-chart").locator(".chart-series")).to_have_count(4)
