"""Choosing the report font: REPORT_FONT, then an installed TrueType CJK font, then the CID font."""
import logging

from reports.build import build_report
from reports.fonts import font_from_environment, report_font
from reports.pdf import render_pdf
from tests.reports import poppler
from tests.reports.evenings import friday

ZENHEI = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"
MICROHEI = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"


def pdf_fonts(font):
    """pdffonts' view of the Friday report rendered in `font`."""
    return poppler.fonts(render_pdf(build_report(*friday()), font))


def test_installed_truetype_font_is_found_and_embedded():
    font = report_font()
    assert font.embedded and font.source == f"{ZENHEI}#0"
    assert [(f["name"].split("+")[1], f["emb"]) for f in pdf_fonts(font)] == [("WenQuanYiZenHei-0", "yes")]


def test_configured_font_wins():
    font = report_font(f"{MICROHEI}#0")
    assert font.embedded and font.source == f"{MICROHEI}#0"
    assert [f["name"].split("+")[1] for f in pdf_fonts(font)] == ["WenQuanYiMicroHei-0"]


def test_report_font_from_the_environment(monkeypatch):
    monkeypatch.setenv("REPORT_FONT", MICROHEI)
    assert font_from_environment().source == f"{MICROHEI}#0"
    assert font_from_environment(f"{ZENHEI}#0").source == f"{ZENHEI}#0"  # app config first


def test_unusable_configured_font_is_logged_and_skipped(tmp_path, caplog):
    missing = str(tmp_path / "none.ttf")
    with caplog.at_level(logging.WARNING, logger="reports.fonts"):
        font = report_font(missing)
    assert font.source == f"{ZENHEI}#0"
    assert missing in caplog.text


def test_without_truetype_font_falls_back_to_cid_font_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="reports.fonts"):
        font = report_font(None, installed=())
    assert (font.name, font.embedded) == ("MSung-Light", False)
    assert "not self-contained" in caplog.text
    pdf = render_pdf(build_report(*friday()), font)
    assert [(f["name"], f["encoding"], f["emb"]) for f in poppler.fonts(pdf)] == [
        ("MSung-Light", "UniCNS-UCS2-H", "no")]
    assert "小明" in "".join(poppler.pages(pdf))  # readable wherever the reader has the font
