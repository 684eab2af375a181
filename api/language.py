"""The reader's language (繁體中文, 简体中文 or English), from the request's ``Accept-Language``.

The PDF and the picture default to 繁體中文 (the tables Taizhang was made
for); error messages default to English, as the API always spoke.
``reports.words.language_of_tag`` says which tag is which language.
"""
from flask import request

from reports.words import language_from_accept


def request_language(default: str) -> str:
    """The most wanted language of ``Accept-Language`` that Taizhang speaks, else ``default``."""
    return language_from_accept((tag for tag, _ in request.accept_languages), default)
