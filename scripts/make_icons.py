"""Draw the page's icons once (a mahjong tile with 台) into api/page/static/app/icons/; the PNGs are committed.

Run from the repository, with Debian's fonts-wqy-zenhei installed:

    .venv/bin/python scripts/make_icons.py

- ``icon-192.png``, ``icon-512.png``: the tile on a transparent ground (purpose "any").
- ``icon-maskable-512.png``: the tile on a full green square, inside the middle 60 %, so that any
  mask a launcher cuts (a circle of 80 %) keeps all of it (purpose "maskable").
- ``apple-touch-icon.png``: 180 px on green; iOS rounds the corners itself and shows no transparency.
"""
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).resolve().parents[1] / "api" / "page" / "static" / "app" / "icons"
FONT = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"
GREEN = "#0f5132"  # the page's theme colour: the back of the tile
IVORY = "#f7f3e8"  # the face of the tile
SCALE = 4  # drawn 4 times larger, then scaled down: smooth edges


def tile(size: int, ground: str | None, face_share: float) -> Image.Image:
    """A tile (ivory face over a green back) with 台, `face_share` of `size` tall, on `ground` (None: clear)."""
    big = size * SCALE
    image = Image.new("RGBA", (big, big), ground or (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    height = big * face_share
    width = height * 0.78
    left, top = (big - width) / 2, (big - height) / 2
    radius = width * 0.14
    back = 0.07 * height  # the green back shows below the face, as on a real tile
    draw.rounded_rectangle((left, top, left + width, top + height), radius, fill=GREEN if ground is None else "#0a3a24")
    draw.rounded_rectangle((left, top, left + width, top + height - back), radius, fill=IVORY)
    font = ImageFont.truetype(FONT, int(width * 0.72), index=0)
    draw.text((big / 2, top + (height - back) / 2), "台", font=font, fill=GREEN, anchor="mm")
    return image.resize((size, size), Image.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        tile(size, None, 0.94).save(OUT / f"icon-{size}.png", optimize=True)
    tile(512, GREEN, 0.60).save(OUT / "icon-maskable-512.png", optimize=True)
    tile(180, GREEN, 0.80).convert("RGB").save(OUT / "apple-touch-icon.png", optimize=True)


if __name__ == "__main__":
    main()
