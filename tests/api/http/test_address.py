"""``GET /api/address``: the addresses share links are built from (issue 26), from the settings or the environment."""
import pytest

from api import create_app
from api.http import db

sqlite_only = pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)  # settings only


@sqlite_only
def test_neither_address_is_known_without_settings(client):
    response = client.get("/api/address")
    assert response.status_code == 200
    assert response.get_json() == {"public_url": None, "network_url": None}


@sqlite_only
def test_the_settings_are_answered_without_a_trailing_slash(make_app):
    app = make_app(PUBLIC_URL="https://taizhang.example.org/", NETWORK_URL="http://192.168.1.23:5000")
    assert app.test_client().get("/api/address").get_json() == {
        "public_url": "https://taizhang.example.org", "network_url": "http://192.168.1.23:5000"}


@sqlite_only
def test_the_environment_sets_them(database_url, monkeypatch):
    monkeypatch.setenv("TAIZHANG_PUBLIC_URL", "https://mahjong.club.example/taizhang")
    app = create_app({"TESTING": True, "DATABASE_URL": database_url})
    try:
        assert app.test_client().get("/api/address").get_json()["public_url"] == "https://mahjong.club.example/taizhang"
    finally:
        db.dispose(app)


@sqlite_only
@pytest.mark.parametrize("value", ["taizhang.example.org", "ftp://taizhang.example.org", "https://", "https://x.org/?a=1"])
def test_an_address_no_link_could_carry_stops_the_start_naming_the_setting(database_url, value):
    with pytest.raises(ValueError, match="TAIZHANG_PUBLIC_URL"):
        create_app({"TESTING": True, "DATABASE_URL": database_url, "PUBLIC_URL": value})


@sqlite_only
def test_the_openapi_document_describes_it(client):
    operation = client.get("/api/openapi.json").get_json()["paths"]["/api/address"]["get"]
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert "security" not in operation or operation["security"] == []
    assert schema["$ref"].endswith("/Address")
