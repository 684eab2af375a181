"""The front door (issue 41): a README short enough to read in two minutes, and a guide whose pictures exist.

The guide's pictures are taken by ``make docs`` (tests/e2e/test_guide_pictures.py); a page that names one not
taken, or a picture no page names, fails here without a browser.
"""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "guide"
LANGUAGES = ("en", "zh-Hant", "zh-Hans")
TOPICS = ("index", "evening", "group", "house-rules", "competition")
PICTURE = re.compile(r"!\[[^\]]*\]\(\.\./pictures/([^)]+)\)")
ANCHOR = re.compile(r'<a id="([a-z-]+)"></a>')


def test_the_readme_is_at_most_150_lines():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 150


def test_the_readme_says_first_how_to_start_it_and_points_at_the_docs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = "\n".join(readme.splitlines()[:30])
    assert "make run" in first and "make test" in first
    for target in ("docs/guide", "docs/server.md", "docs/rules.md", "docs/development.md",
                   "benchmarks/README.md", "CHANGELOG.md"):
        assert f"({target}" in readme, target
        assert (ROOT / target.split("#")[0]).exists(), target


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_topic_is_written_in_each_language_with_the_same_sections(lang):
    for topic in TOPICS:
        page = (GUIDE / lang / f"{topic}.md").read_text(encoding="utf-8")
        english = (GUIDE / "en" / f"{topic}.md").read_text(encoding="utf-8")
        assert ANCHOR.findall(page) == ANCHOR.findall(english), (lang, topic)


def test_every_picture_a_page_names_exists_and_every_picture_is_named():
    named = {name for page in GUIDE.glob("*/*.md") for name in PICTURE.findall(page.read_text(encoding="utf-8"))}
    taken = {path.name for path in (GUIDE / "pictures").glob("*.png")}
    assert named - taken == set(), "named in the guide, not taken (make docs)"
    assert taken - named == set(), "taken, named by no page"


def test_each_language_shows_its_own_pictures():
    for page in GUIDE.glob("*/*.md"):
        lang = page.parent.name
        for name in PICTURE.findall(page.read_text(encoding="utf-8")):
            assert name.endswith(f"-{lang}.png"), (page, name)


def test_the_pictures_are_phone_wide_and_light():
    from PIL import Image

    for path in (GUIDE / "pictures").glob("*.png"):
        with Image.open(path) as image:
            assert image.width == 390, path
        assert path.stat().st_size < 80_000, path
