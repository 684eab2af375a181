"""Taizhang's JSON API (Flask + flask-smorest) and its app factory ``create_app``."""
import os

from flask import Flask

from api import backup, db, docs, hands, health, house_rules, limits, reports, score, sessions, web
from api.errors import register_error_handlers
from api.extensions import API_SETTINGS, ResponseJSON, TaizhangApi

MAX_BODY_BYTES = 256 * 1024

# One flask-smorest Blueprint per resource; add yours here.
BLUEPRINTS = [health.blp, score.blp, sessions.blp, hands.blp, house_rules.blp, reports.blp, backup.blp]


def create_app(test_config=None):
    """Build the app; ``test_config`` may set ``DATABASE_URL`` or any Flask setting.

    Without ``DATABASE_URL`` in ``test_config`` the environment variable of that
    name is used, else a SQLite file in the instance folder. The database schema
    is upgraded before the app serves anything.
    """
    app = Flask(__name__, instance_relative_config=True)
    app.json = ResponseJSON(app)
    app.config.from_mapping(API_SETTINGS, **docs.DOCS_SETTINGS, MAX_CONTENT_LENGTH=MAX_BODY_BYTES)
    app.config.from_mapping(test_config or {})
    if not app.config.get("DATABASE_URL"):
        app.config["DATABASE_URL"] = os.environ.get("DATABASE_URL") or default_database_url(app)
    db.init_app(app)
    limits.init_app(app)
    register_error_handlers(app)
    app.register_blueprint(docs.assets)
    app.register_blueprint(web.page)
    register_blueprints(TaizhangApi(app))
    return app


def default_database_url(app) -> str:
    """A SQLite file in the instance folder, which is created if missing."""
    os.makedirs(app.instance_path, exist_ok=True)
    return f"sqlite:///{os.path.join(app.instance_path, 'taizhang.sqlite')}"


def register_blueprints(api) -> None:
    """Register every blueprint of ``BLUEPRINTS`` with the flask-smorest ``api``."""
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)
