"""GET /api/sessions/<id>/card.png: the settlement as a picture, in the reader's language, for either link.

The evening: Ben wins 3台 on Cat's discard (Cat pays 100 + 20×3 = 160), then Dan 1台 on Amy's
(Ben deals, not involved: Amy pays 100 + 20 = 120). Totals Ben +160, Dan +120, Amy -120, Cat -160.
"""
import io

import pytest
from PIL import Image

from tests.api.sessions.tables import Table, discard
from tests.reports import poppler


@pytest.fixture
def table(client):
    table = Table(client, name="週五 小明家")
    table.hands_ok(discard("Ben", "Cat", 3), discard("Dan", "Amy", 1))
    return table


def card(client, table, query="", **headers):
    return client.get(f"{table.path}/card.png{query}", headers={**table.headers(), **headers})


def decoded(response) -> Image.Image:
    image = Image.open(io.BytesIO(response.data))
    image.load()
    return image


def test_the_card_is_a_png_a_phone_wide(client, table):
    response = card(client, table)
    assert response.status_code == 200
    assert response.mimetype == "image/png"
    image = decoded(response)
    assert image.format == "PNG"
    assert image.width == 1080 and image.height >= 1920  # 9:16 at least: a phone screen
    assert "inline" in response.headers["Content-Disposition"]
    assert "%E9%80%B1%E4%BA%94%20%E5%B0%8F%E6%98%8E%E5%AE%B6%20" in response.headers["Content-Disposition"]  # 週五 小明家


def test_the_read_only_link_and_a_token_in_the_query_open_it_too(client, table):
    read = client.get(f"{table.path}/card.png", headers={"Authorization": f"Bearer {table.created['read_token']}"})
    assert read.status_code == 200 and decoded(read).width == 1080
    in_query = client.get(f"{table.path}/card.png?token={table.created['read_token']}")
    assert in_query.status_code == 200 and in_query.data == read.data


def test_no_token_or_another_sessions_token_opens_nothing(client, table):
    assert client.get(f"{table.path}/card.png").status_code == 401
    other = Table(client)
    wrong = client.get(f"{table.path}/card.png", headers=other.headers())
    assert wrong.status_code == 403
    assert client.get(f"{table.path}/card.png?token={other.token}").status_code == 403


def test_the_language_comes_from_lang_else_accept_language_else_traditional(client, table):
    pictures = {lang: card(client, table, f"?lang={lang}").data for lang in ("zh-Hant", "zh-Hans", "en")}
    assert len(set(pictures.values())) == 3
    assert card(client, table).data == pictures["zh-Hant"]
    assert card(client, table, **{"Accept-Language": "zh-CN,zh;q=0.9"}).data == pictures["zh-Hans"]
    assert card(client, table, **{"Accept-Language": "zh-TW"}).data == pictures["zh-Hant"]
    assert card(client, table, **{"Accept-Language": "fr, en-GB;q=0.8"}).data == pictures["en"]
    assert card(client, table, "?lang=zh", **{"Accept-Language": "en"}).data == pictures["zh-Hant"]


def test_round_to_changes_the_picture_as_it_changes_the_settlement(client, table):
    assert card(client, table, "?round_to=100").data != card(client, table).data


@pytest.mark.parametrize("query, field", [("?lang=fr", "lang"), ("?lang=zh-CN", "lang"), ("?round_to=0", "round_to")])
def test_a_bad_lang_or_round_to_is_refused(client, table, query, field):
    response = card(client, table, query)
    assert response.status_code == 422
    assert field in response.get_json()["message"]


def test_the_pdf_follows_accept_language_too(client, table):
    def sheet(**headers):
        response = client.get(f"{table.path}/report.pdf", headers={**table.headers(), **headers})
        assert response.status_code == 200 and "Accept-Language" in response.headers["Vary"]
        return "\n".join(poppler.pages(response.data))

    simplified = sheet(**{"Accept-Language": "zh-CN"})
    assert "结算表" in simplified and "Cat 点炮" in simplified
    assert "結算表" in sheet() and "Cat 放槍" in sheet()
    assert "Cat 放槍" in sheet(**{"Accept-Language": "en"})  # the table's words stay Chinese in English
