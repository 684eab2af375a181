"""The guide for players and organisers at ``/guide`` and ``/guide/<topic>``, in the reader's language.

The pages are docs/guide's Markdown (one file per language and topic, the same files a reader of the repository
sees), rendered once per process by markdown-it-py; their pictures are served from docs/guide/pictures, so a
phone on a club's Wi-Fi reads the guide with no internet. The language: ``?lang=`` (the page's help link sends
its own), else ``Accept-Language``, else English, as the page chooses.
"""
import html
from functools import cache
from pathlib import Path

from flask import Blueprint, abort, make_response, request, send_from_directory
from flask_smorest import abort as refuse
from markdown_it import MarkdownIt
from PIL import Image

from api.http.files import LanguageQuerySchema
from api.http.language import request_language
from words import ENGLISH, LANGUAGES, language, word

GUIDE = Path(__file__).parent / "pages"  # docs/guide, linked (pyproject: the wheel holds the files)
TOPICS = ("index", "evening", "group", "house-rules", "competition")
guide = Blueprint("guide", __name__, static_folder="static", static_url_path="/guide/static")
# Our own Markdown, so its HTML (the sections' anchors) is kept; nothing here runs a script.
POLICY = ("default-src 'none'; img-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'; "
          "frame-ancestors 'none'")


@guide.get("/guide")
@guide.get("/guide/<topic>")
def page(topic: str = "index"):
    """One topic of the guide as an HTML page; an unknown topic is a 404, an unknown ``lang`` a 422."""
    problems = LanguageQuerySchema().validate({"lang": request.args["lang"]} if "lang" in request.args else {})
    if problems:
        refuse(422, errors={"query": problems})
    if topic not in TOPICS:
        abort(404)
    lang = language(request.args["lang"]) if "lang" in request.args else request_language(ENGLISH)
    response = make_response(guide_page(topic, lang))
    response.headers["Content-Type"] = "text/html; charset=utf-8"
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Accept-Language")
    response.add_etag()
    return response.make_conditional(request)


@guide.get("/guide/pictures/<name>")
def guide_picture(name: str):
    if not name.endswith(".png"):
        abort(404)
    return send_from_directory(GUIDE / "pictures", name, max_age=3600)


@cache
def guide_page(topic: str, lang: str) -> bytes:
    """The page of `topic` in `lang`: the guide's bar (the page, the languages, the topics) and its Markdown."""
    tokens = markdown().parse((GUIDE / lang / f"{topic}.md").read_text(encoding="utf-8"))
    for token in tokens:
        for child in [token, *(token.children or [])]:
            if child.type == "image":  # its size given, so the section a help link opens stays where it scrolled
                name = child.attrGet("src").removeprefix("../pictures/")
                child.attrSet("src", f"/guide/pictures/{name}")
                with Image.open(GUIDE / "pictures" / name) as picture:
                    child.attrSet("width", str(picture.width))
                    child.attrSet("height", str(picture.height))
            elif child.type == "link_open":
                child.attrSet("href", served_link(child.attrGet("href"), lang))
    body = markdown().renderer.render(tokens, markdown().options, {})
    languages = " ".join(
        f'<a href="/guide{"" if topic == "index" else "/" + topic}?lang={other}" lang="{other}"'
        f'{" aria-current=page" if other == lang else ""}>{html.escape(word(other, "page.language_name"))}</a>'
        for other in LANGUAGES)
    topics = " ".join(
        f'<a href="/guide{"" if name == "index" else "/" + name}?lang={lang}"'
        f'{" aria-current=page" if name == topic else ""}>{html.escape(title(name, lang))}</a>' for name in TOPICS)
    return (f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{html.escape(title(topic, lang))} · 台帳</title>'
            '<link rel="stylesheet" href="/guide/static/guide.css"></head><body>'
            f'<header class="bar"><a class="home" href="/">台帳</a>'
            f'<nav class="languages" aria-label="{html.escape(word(lang, "guide.languages"))}">{languages}</nav>'
            f'</header><nav class="topics" aria-label="{html.escape(word(lang, "guide.topics"))}">{topics}</nav>'
            f'<main>{body}</main></body></html>').encode()


def served_link(href: str, lang: str) -> str:
    """A link between the guide's Markdown files as the server serves it.

    >>> served_link("group.md#balances", "en")
    '/guide/group?lang=en#balances'
    >>> served_link("index.md", "zh-Hant")
    '/guide?lang=zh-Hant'
    """
    page, _, section = href.partition("#")
    if not page.endswith(".md") or "/" in page:
        return href
    name = page.removesuffix(".md")
    return f'/guide{"" if name == "index" else "/" + name}?lang={lang}{"#" + section if section else ""}'


def title(topic: str, lang: str) -> str:
    """The topic's first heading."""
    return (GUIDE / lang / f"{topic}.md").read_text(encoding="utf-8").split("\n", 1)[0].lstrip("# ").strip()


@cache
def markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": True}).enable("table")
