"""Taizhang's JSON API (Flask + flask-smorest) and its app factory ``create_app``.

A folder per resource (``sessions``, ``groups``, ``competitions``, ``rules``, ``page``) with its routes,
``schemas``, ``service`` (every change: begin, lock, commit) and ``views``; ``http`` holds what they
share. The blueprints are imported inside ``create_app``, so importing a service does not load the app.
"""
import os

from flask import Flask

MAX_BODY_BYTES = 256 * 1024


def create_app(test_config=None):
    """Build the app; ``test_config`` may set ``DATABASE_URL`` or any Flask setting, and wins over the
    environment's ``TAIZHANG_<SETTING>`` (read as JSON where it parses). Without a ``DATABASE_URL``, a SQLite
    file in the instance folder. The schema is upgraded before the app serves anything."""
    from api.http import (address, compression, db, deadline, docs, limits, offload, paths, ratelimits, rendered,
                          security, unavailable)
    from api.http.errors import register_error_handlers
    from api.http.extensions import API_SETTINGS, ResponseJSON, TaizhangApi
    from api.http.fields import configured_limits
    from api.guide.routes import guide
    from api.page.routes import page
    from api.http import live
    from api.sessions import kept
    from api.sessions.stream_gate import StreamGate

    app = Flask(__name__, instance_relative_config=True)
    app.json = ResponseJSON(app)
    app.config.from_mapping(API_SETTINGS, **docs.DOCS_SETTINGS, MAX_CONTENT_LENGTH=MAX_BODY_BYTES)
    app.config.from_prefixed_env("TAIZHANG")  # e.g. TAIZHANG_RATE_LIMIT_SCORE="240 per minute"
    app.config.from_mapping(test_config or {})
    compression.init_app(app)  # first: Flask runs after_request hooks last-registered first, so it runs last
    limits.init_app(app)
    offload.init_app(app)
    rendered.init_app(app)
    address.init_app(app)
    if not app.config.get("DATABASE_URL"):
        app.config["DATABASE_URL"] = os.environ.get("DATABASE_URL") or default_database_url(app)
    db.init_app(app)
    live.init_app(app)
    kept.init_app(app)
    paths.init_app(app)
    security.init_app(app)
    register_error_handlers(app)
    unavailable.init_app(app)
    app.register_blueprint(docs.assets)
    app.register_blueprint(page)
    app.register_blueprint(guide)
    api = TaizhangApi(app)
    api.ma_plugin.converter.add_attribute_function(configured_limits(app))
    paths.init_api(api)
    for blueprint in blueprints():
        api.register_blueprint(blueprint)
    from api.groups.service import start_evening
    from api.sessions.routes import GROUP_EVENINGS
    app.extensions[GROUP_EVENINGS] = start_evening
    app.wsgi_app = StreamGate(app.wsgi_app, app)  # inside ProxyFix (ratelimits): it sees the client's address
    ratelimits.init_app(app)
    deadline.init_app(app)
    return app


def blueprints() -> list:
    """One flask-smorest Blueprint per module of routes; add yours here."""
    from api.competitions import events as competition_events
    from api.competitions import reports as competition_reports
    from api.competitions import routes as competitions
    from api.groups import backup as group_backup
    from api.groups import reports as group_reports
    from api.groups import routes as groups
    from api.http import address, health
    from api.rules import routes as rules
    from api.sessions import backup, events, hands, house_rules, previews, reports
    from api.sessions import routes as sessions

    return [health.blp, address.blp, rules.blp, sessions.blp, hands.blp, events.blp, previews.blp, house_rules.blp, reports.blp,
            backup.blp, groups.blp, group_backup.blp, group_reports.blp, competitions.blp,
            competition_events.blp, competition_reports.blp]


def default_database_url(app) -> str:
    """A SQLite file in the instance folder, which is created if missing."""
    os.makedirs(app.instance_path, exist_ok=True)
    return f"sqlite:///{os.path.join(app.instance_path, 'taizhang.sqlite')}"
