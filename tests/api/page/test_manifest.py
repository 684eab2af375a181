"""The web app manifest: served with its type, its icons there at their declared sizes, kept for offline use."""
import io
import re

import pytest
from PIL import Image

sqlite_only = pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)  # no database involved


def png(client, path) -> Image.Image:
    response = client.get(path)
    assert response.status_code == 200, path
    assert response.mimetype == "image/png", path
    image = Image.open(io.BytesIO(response.data))
    assert image.format == "PNG"
    return image


@sqlite_only
def test_the_manifest_is_served_as_a_manifest(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/manifest+json"
    manifest = response.get_json(force=True)
    assert manifest["short_name"] == "台帳" and "台帳" in manifest["name"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["theme_color"] == "#0f5132"
    assert manifest["background_color"] == "#f6f3ea"  # the page's paper, as the splash screen


@sqlite_only
def test_every_icon_is_a_png_of_its_declared_size_and_one_is_maskable(client):
    icons = client.get("/manifest.webmanifest").get_json(force=True)["icons"]
    for icon in icons:
        width, height = map(int, icon["sizes"].split("x"))
        assert icon["type"] == "image/png"
        assert png(client, icon["src"]).size == (width, height)
    plain = {icon["sizes"] for icon in icons if icon["purpose"] == "any"}
    assert plain == {"192x192", "512x512"}
    assert [icon["sizes"] for icon in icons if icon["purpose"] == "maskable"] == ["512x512"]


@sqlite_only
def test_the_maskable_icon_fills_its_square_and_the_plain_ones_have_a_clear_ground(client):
    maskable = png(client, "/app/icons/icon-maskable-512.png").convert("RGBA")
    assert maskable.getpixel((0, 0)) == (0x0F, 0x51, 0x32, 255)  # a launcher's mask cuts into colour, not nothing
    assert png(client, "/app/icons/icon-512.png").convert("RGBA").getpixel((0, 0))[3] == 0


@sqlite_only
def test_the_page_links_the_manifest_theme_colour_and_apple_icon(client):
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="theme-color" content="#0f5132">' in page
    apple = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', page)
    assert apple and png(client, apple.group(1)).size == (180, 180)


@sqlite_only
def test_the_service_worker_keeps_the_manifest_and_icons_for_offline_use(client):
    assets = {address.split("?")[0] for address in client.get("/app/assets.json").get_json()["assets"]}
    icons = [icon["src"] for icon in client.get("/manifest.webmanifest").get_json(force=True)["icons"]]
    for path in ["/", "/manifest.webmanifest", "/app/icons/apple-touch-icon.png", *icons]:
        assert path in assets
    worker = client.get("/sw.js").get_data(as_text=True)
    assert "url.pathname === '/manifest.webmanifest'" in worker  # served from the copy when offline
