"""Taizhang's JSON API (Flask + flask-smorest) and its app factory ``create_app``."""
import os

from flask import Flask

from api import (backup, config, db, deadline, docs, events, group_backup, group_reports, groups, hands, health,
                 house_rules, limits, preview, ratelimits, reports, score, session_requests, sessions, unavailable, web)
from api.errors import register_error_handlers
from api.extensions import API_SETTINGS, ResponseJSON, TaizhangApi
from api.schemas import configured_limits

MAX_BODY_BYTES = 256 * 1024

# One flask-smorest Blueprint per resource; add yours here.
BLUEPRINTS = [health.blp, score.blp, sessions.blp, hands.blp, events.blp, preview.blp, house_rules.blp, reports.blp,
              backup.blp, groups.blp, group_backup.blp, group_reports.blp]


def create_app(test_config=None):
    """Build the app; ``test_config`` may set ``DATABASE_URL`` or any Flask setting.

    Settings may also come from the environment as ``TAIZHANG_<SETTING>``
    (Flask's ``from_prefixed_env``: values are read as JSON where they parse,
    e.g. ``TAIZHANG_RATELIMIT_ENABLED=false``); ``test_config`` wins over both.

    Without ``DATABASE_URL`` in ``test_config`` the environment variable of that
    name is used, else a SQLite file in the instance folder. The database schema
    is upgraded before the app serves anything.
    """
    app = Flask(__name__, instance_relative_config=True)
    app.json = ResponseJSON(app)
    app.config.from_mapping(API_SETTINGS, **docs.DOCS_SETTINGS, MAX_CONTENT_LENGTH=MAX_BODY_BYTES)
    app.config.from_prefixed_env("TAIZHANG")  # e.g. TAIZHANG_RATE_LIMIT_SCORE="240 per minute"
    app.config.from_mapping(test_config or {})
    config.init_app(app)
    if not app.config.get("DATABASE_URL"):
        app.config["DATABASE_URL"] = os.environ.get("DATABASE_URL") or default_database_url(app)
    db.init_app(app)
    events.init_app(app)
    limits.init_app(app)
    session_requests.init_app(app)
    register_error_handlers(app)
    unavailable.init_app(app)
    app.register_blueprint(docs.assets)
    app.register_blueprint(web.page)
    api = TaizhangApi(app)
    api.ma_plugin.converter.add_attribute_function(configured_limits(app))
    session_requests.init_api(api)
    register_blueprints(api)
    ratelimits.init_app(app)
    deadline.init_app(app)
    return app


def default_database_url(app) -> str:
    """A SQLite file in the instance folder, which is created if missing."""
    os.makedirs(app.instance_path, exist_ok=True)
    return f"sqlite:///{os.path.join(app.instance_path, 'taizhang.sqlite')}"


def register_blueprints(api) -> None:
    """Register every blueprint of ``BLUEPRINTS`` with the flask-smorest ``api``."""
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)
