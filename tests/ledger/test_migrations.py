"""Alembic migrations: a database made at revision 0001 keeps its hands through every later revision.

A session recorded at 0001 (one hand: Ben 3 台 on Cat's discard, Amy dealing
at streak 0 and not involved: Cat pays 100 + 20 × 3 = 160; then the hand
voided and restored) is upgraded to head and read back through the API; the
schema at head is exactly what ``ledger.store`` declares. Both on SQLite and
PostgreSQL (the ``empty_database_url`` fixture).
"""
import datetime
import hashlib
import sys

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from api import create_app
from api.http import db
from ledger.store import metadata
from tests.api.sessions.tables import OPEN

FIRST = "0001"
TOKEN = "a-token-made-before-the-upgrade"
SESSION_ID = "session-made-at-revision-0001-urlsafe-43-ch"  # ids then: secrets.token_urlsafe(32), 43 characters
PLAYERS = ["Amy", "Ben", "Cat", "Dan"]
HAND = {"winners": [{"player": "Ben", "tai": 3}], "by": "discard", "discarder": "Cat"}
BEFORE = {"dealer": "Amy", "streak": 0, "round_wind": "E", "hand_wind": "E", "hands_played": 0,
          "wasteland": 0, "seats": PLAYERS, "jiang": 1}
AFTER = {**BEFORE, "dealer": "Ben", "hand_wind": "S", "hands_played": 1}
PAYMENTS = {"Amy": 0, "Ben": 160, "Cat": -160, "Dan": 0}
WHEN = datetime.datetime(2026, 11, 27, 21, 30, tzinfo=datetime.timezone.utc)


def alembic_config():
    config = Config()
    config.set_main_option("script_location", db.MIGRATIONS)
    return config


def migrate(url, action, revision):
    """Run ``alembic upgrade/downgrade revision`` on the database at ``url``."""
    engine = db.make_engine(url, foreign_keys=False, poolclass=sa.pool.NullPool)
    config = alembic_config()
    try:
        with engine.connect() as connection:
            config.attributes["connection"] = connection
            getattr(command, action)(config, revision)
    finally:
        engine.dispose()


def insert_first_revision_rows(url):
    """One session with one hand and one audit line, as revision 0001 stores them."""
    engine = db.make_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.begin() as connection:
            tables = sa.MetaData()
            tables.reflect(connection, only=["sessions", "entries", "audits"])
            connection.execute(tables.tables["sessions"].insert(), [{
                "id": SESSION_ID, "name": "Before the upgrade", "ruleset": "taiwan", "players": PLAYERS,
                "stakes": {"base": 100, "per_tai": 20},
                "options": {"dealer_bonus": True, "multiple_winners": False, "max_tai": None},
                "token_hash": hashlib.sha256(TOKEN.encode()).hexdigest(), "state": AFTER, "totals": PAYMENTS,
                "entry_count": 1, "hand_count": 1, "created_at": WHEN, "updated_at": WHEN}])
            entry = connection.execute(tables.tables["entries"].insert().values(
                session_id=SESSION_ID, position=1, kind="hand", number=1, body=HAND, void=False,
                result={"dealer": "Amy", "streak": 0, "round_wind": "E", "hand_wind": "E", "jiang": 1,
                        "wasteland": 0, "payments": PAYMENTS, "scores": [{"player": "Ben", "tai": 3, "score": None}],
                        "before": BEFORE, "after": AFTER},
                created_at=WHEN, updated_at=WHEN))
            connection.execute(tables.tables["audits"].insert().values(
                session_id=SESSION_ID, entry_id=entry.inserted_primary_key[0], number=1, action="void", who="Amy",
                at=WHEN, before=HAND, after=sa.null()))
    finally:
        engine.dispose()


def current_revision(url):
    engine = db.make_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()


def test_a_database_at_the_first_revision_keeps_its_hands_after_upgrading(empty_database_url):
    migrate(empty_database_url, "upgrade", FIRST)
    insert_first_revision_rows(empty_database_url)
    app = create_app({"TESTING": True, "DATABASE_URL": empty_database_url})  # upgrades to head on start
    try:
        head = ScriptDirectory.from_config(alembic_config()).get_current_head()
        assert head != FIRST
        assert current_revision(empty_database_url) == head
        client = app.test_client()
        auth = {"Authorization": f"Bearer {TOKEN}"}
        session = client.get(f"/api/sessions/{SESSION_ID}", headers=auth).get_json()
        # An evening made before closing existed is open (revision 0004): its state says so.
        assert (session["name"], session["totals"], session["state"]) == ("Before the upgrade", PAYMENTS,
                                                                          {**AFTER, **OPEN})
        assert session["house_rules"] == {}  # made before house rules existed (revision 0005): none
        hands = client.get(f"/api/sessions/{SESSION_ID}/hands", headers=auth).get_json()
        assert [(h["number"], h["body"], h["payments"], h["client"]) for h in hands] == [
            (1, HAND, PAYMENTS, "unknown")]
        assert hands[0]["created_at"] == "2026-11-27T21:30:00+00:00"
        audit = client.get(f"/api/sessions/{SESSION_ID}/audit", headers=auth).get_json()
        assert [(a["number"], a["action"], a["who"]) for a in audit] == [(1, "void", "Amy")]
        # The upgraded session goes on: Ben deals hand 2 and self-draws 1 台 at streak 0 (extra 1):
        # each pays 100 + 20 × 2 = 140.
        second = client.post(f"/api/sessions/{SESSION_ID}/hands", headers={**auth, "X-Client": "Ben"},
                             json={"winners": [{"player": "Ben", "tai": 1}], "by": "self_draw"})
        assert second.status_code == 201
        assert (second.get_json()["number"], second.get_json()["client"]) == (2, "Ben")
        totals = client.get(f"/api/sessions/{SESSION_ID}", headers=auth).get_json()["totals"]
        assert totals == {"Amy": -140, "Ben": 580, "Cat": -300, "Dan": -140}
    finally:
        db.dispose(app)


def test_the_schema_at_head_is_exactly_the_models(empty_database_url):
    migrate(empty_database_url, "upgrade", "head")
    engine = db.make_engine(empty_database_url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            assert compare_metadata(context, metadata) == []
    finally:
        engine.dispose()


def test_downgrading_to_the_first_revision_and_back_keeps_the_rows(empty_database_url):
    migrate(empty_database_url, "upgrade", FIRST)
    insert_first_revision_rows(empty_database_url)
    migrate(empty_database_url, "upgrade", "head")
    migrate(empty_database_url, "downgrade", FIRST)
    migrate(empty_database_url, "upgrade", "head")
    engine = db.make_engine(empty_database_url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as connection:
            rows = connection.execute(sa.text("SELECT number, client FROM entries")).all()
    finally:
        engine.dispose()
    assert [tuple(row) for row in rows] == [(1, "unknown")]


def test_a_competitions_tables_drawn_before_0012_know_their_competition(empty_database_url):
    """Revision 0012 fills ``sessions.competition_id`` from ``competition_tables``: the evening made at 0001, made
    a table of a competition at 0011, reads its round after the upgrade (nobody checked in, nobody absent)."""
    migrate(empty_database_url, "upgrade", FIRST)
    insert_first_revision_rows(empty_database_url)
    migrate(empty_database_url, "upgrade", "0011")
    engine = db.make_engine(empty_database_url, poolclass=sa.pool.NullPool)
    try:
        with engine.begin() as connection:
            tables = sa.MetaData()
            tables.reflect(connection, only=["competitions", "competition_entrants", "competition_rounds",
                                             "competition_tables"])
            settings = {"rounds": 2, "until": "jiang", "minutes": 90, "grace": 5, "placement_points": [4, 2, 1, 0],
                        "seating": "swiss", "empty_seats": "sit_out"}
            connection.execute(tables.tables["competitions"].insert(), [{
                "id": "cup", "name": "Old cup", "ruleset": "taiwan", "stakes": {"base": 100, "per_tai": 20},
                "options": {}, "settings": settings, "organizer_token_hash": "x" * 64, "read_token_hash": "y" * 64,
                "revision": 2, "created_at": WHEN}])
            connection.execute(tables.tables["competition_entrants"].insert(), [
                {"competition_id": "cup", "number": n, "name": name, "substitute": False, "first_round": 1,
                 "created_at": WHEN} for n, name in enumerate(PLAYERS, 1)])
            connection.execute(tables.tables["competition_rounds"].insert(), [{
                "competition_id": "cup", "number": 1, "seed": 7, "sitting_out": [], "cut": [], "drawn_at": WHEN}])
            connection.execute(tables.tables["competition_tables"].insert(), [{
                "session_id": SESSION_ID, "competition_id": "cup", "round": 1, "number": 1, "seats": [1, 2, 3, 4]}])
    finally:
        engine.dispose()
    app = create_app({"TESTING": True, "DATABASE_URL": empty_database_url})  # upgrades to head on start
    try:
        shown = app.test_client().get(f"/api/sessions/{SESSION_ID}",
                                      headers={"Authorization": f"Bearer {TOKEN}"}).get_json()
        assert (shown["competition"]["competition"], shown["competition"]["name"], shown["competition"]["round"],
                shown["competition"]["table"], shown["competition"]["started_at"]) == ("cup", "Old cup", 1, 1, None)
        engine = db.get_engine(app)
        with engine.connect() as connection:
            assert connection.execute(sa.text("SELECT checked_in FROM competition_entrants")).scalars().all() == [
                False] * 4
            assert [row[0] in ([], "[]") for row in connection.execute(
                sa.text("SELECT absent FROM competition_rounds"))] == [True]
    finally:
        db.dispose(app)


def test_members_made_before_0016_are_found_by_their_look(empty_database_url):
    """Revision 0016 computes ``look_key`` for the members and aliases already there: a Greek "ΑΜΥ" added after
    the upgrade is refused naming the member "Amy" made before it, a Cyrillic "Сосо" naming the alias "Coco"."""
    migrate(empty_database_url, "upgrade", "0013")
    admin, club = "admin-token-made-before-0016", "c1" * 20  # a group id: 40 hex digits
    engine = db.make_engine(empty_database_url, poolclass=sa.pool.NullPool)
    try:
        with engine.begin() as connection:
            tables = sa.MetaData()
            tables.reflect(connection, only=["groups", "group_members", "member_aliases"])
            connection.execute(tables.tables["groups"].insert(), [{
                "id": club, "name": "Old club", "defaults": {}, "created_at": WHEN,
                "admin_token_hash": hashlib.sha256(admin.encode()).hexdigest(), "member_token_hash": "m" * 64,
                "read_token_hash": "r" * 64}])
            connection.execute(tables.tables["group_members"].insert(), [{
                "id": "m1", "group_id": club, "name": "Amy", "name_key": "amy", "created_at": WHEN}])
            connection.execute(tables.tables["member_aliases"].insert(), [{
                "group_id": club, "member_id": "m1", "alias": "Coco", "name_key": "coco"}])
    finally:
        engine.dispose()
    app = create_app({"TESTING": True, "DATABASE_URL": empty_database_url})  # upgrades to head on start
    try:
        client = app.test_client()
        for name, existing in (("ΑΜΥ", "Amy"), ("Сосо", "Coco")):
            refused = client.post(f"/api/groups/{club}/members", json={"name": name},
                                  headers={"Authorization": f"Bearer {admin}"})
            assert refused.status_code == 422, refused.get_json()
            assert f"looks like {existing!r}" in refused.get_json()["message"]
        with db.get_engine(app).connect() as connection:
            assert connection.execute(sa.text("SELECT look_key FROM group_members")).scalars().all() == ["AMY"]
            assert connection.execute(sa.text("SELECT look_key FROM member_aliases")).scalars().all() == ["COCO"]
    finally:
        db.dispose(app)


def test_the_newest_revision_told_by_the_file_names_is_alembics_head():
    assert db.newest_revision() == ScriptDirectory.from_config(alembic_config()).get_current_head()


def test_a_database_at_head_is_opened_without_alembic_and_one_behind_is_upgraded(empty_database_url, monkeypatch):
    db.upgrade_database(empty_database_url)
    migrate(empty_database_url, "downgrade", "-1")
    with monkeypatch.context() as patched:
        patched.setitem(sys.modules, "alembic", None)  # importing Alembic now fails
        with pytest.raises(ImportError):
            db.upgrade_database(empty_database_url)  # one migration behind: Alembic is needed
    db.upgrade_database(empty_database_url)
    assert current_revision(empty_database_url) == db.newest_revision()
    monkeypatch.setitem(sys.modules, "alembic", None)
    db.upgrade_database(empty_database_url)  # at head: one read, and no Alembic


def test_figures_stored_before_0017_count_the_longest_streak_as_the_table_does(empty_database_url):
    """A group evening: Ben's 詐胡 with Amy dealing at 連0, then Amy wins the hand played again on Cat's
    discard (still 連0). Stored before 0017, Amy's figures said 2 hands in a row (連1); 0017 makes it 1 + 連0,
    as the standings then say: 0. Ben, Cat and Dan never dealt: 0 stored, null in the standings."""
    app = create_app({"TESTING": True, "DATABASE_URL": empty_database_url})  # at head
    try:
        client = app.test_client()
        group = client.post("/api/groups", json={"name": "Club", "defaults": {
            "ruleset": "taiwan", "stakes": {"base": 100, "per_tai": 20}}}).get_json()
        admin = {"Authorization": f"Bearer {group['admin_token']}"}
        for name in PLAYERS:
            assert client.post(f"/api/groups/{group['id']}/members", json={"name": name}, headers=admin).status_code == 201
        evening = client.post("/api/sessions", json={"group": group["id"], "name": "Friday", "players": PLAYERS},
                              headers=admin).get_json()
        for body in ({"false_win": "Ben"}, {"winners": [{"player": "Amy", "tai": 1}], "by": "discard",
                                            "discarder": "Cat"}):
            assert client.post(f"/api/sessions/{evening['id']}/hands", json=body,
                               headers={"Authorization": f"Bearer {evening['token']}"}).status_code == 201
        members = {m["name"]: m["id"] for m in client.get(f"/api/groups/{group['id']}", headers=admin).get_json()["members"]}
    finally:
        db.dispose(app)
    engine = db.make_engine(empty_database_url, poolclass=sa.pool.NullPool)
    figures = sa.table("evening_figures", sa.column("member_id"), sa.column("figures", sa.JSON()))
    try:
        with engine.begin() as connection:  # the count stored before: the 詐胡 and its replay, 2 hands
            stored = connection.execute(sa.select(figures.c.figures).where(figures.c.member_id == members["Amy"])).scalar_one()
            assert stored["longest_dealer_streak"] == 1
            connection.execute(figures.update().where(figures.c.member_id == members["Amy"])
                               .values(figures={**stored, "longest_dealer_streak": 2}))
    finally:
        engine.dispose()
    migrate(empty_database_url, "downgrade", "0016")
    migrate(empty_database_url, "upgrade", "head")
    engine = db.make_engine(empty_database_url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as connection:
            after = dict(connection.execute(sa.select(figures.c.member_id, figures.c.figures)).all())
    finally:
        engine.dispose()
    assert {name: after[member]["longest_dealer_streak"] for name, member in members.items()} == {
        "Amy": 1, "Ben": 0, "Cat": 0, "Dan": 0}
    app = create_app({"TESTING": True, "DATABASE_URL": empty_database_url})
    try:
        standings = app.test_client().get(f"/api/groups/{group['id']}/standings",
                                          headers={"Authorization": f"Bearer {group['read_token']}"}).get_json()
        assert {row["name"]: row["longest_dealer_streak"] for row in standings["standings"]} == {
            "Amy": 0, "Ben": None, "Cat": None, "Dan": None}
    finally:
        db.dispose(app)


def test_group_and_competition_audits_moved_to_one_table_by_0018_and_back(empty_database_url):
    """Revision 0018 moves ``group_audits`` and ``competition_audits`` into ``audit_lines``, each trail in its
    order: a group made (``create``), Amy added, the competition made, Amy and Ben entered, Ben added to the
    group; both trails read the same at 0017 and after the upgrade, and a downgrade moves them back."""
    app = create_app({"TESTING": True, "DATABASE_URL": empty_database_url})  # at head
    try:
        client = app.test_client()
        group = client.post("/api/groups", json={"name": "Club"}).get_json()
        admin = {"Authorization": f"Bearer {group['admin_token']}"}
        assert client.post(f"/api/groups/{group['id']}/members", json={"name": "Amy"}, headers=admin).status_code == 201
        cup = client.post("/api/competitions", json={
            "name": "Cup", "ruleset": "taiwan", "stakes": {"base": 100, "per_tai": 20}, "rounds": 1,
            "round": {"minutes": 90, "until": "jiang", "grace": 5}, "seating": "random"}).get_json()
        organiser = {"Authorization": f"Bearer {cup['organizer_token']}"}
        assert client.post(f"/api/competitions/{cup['id']}/entrants", json={"names": ["Amy", "Ben"]},
                           headers=organiser).status_code == 201
        assert client.post(f"/api/groups/{group['id']}/members", json={"name": "Ben"}, headers=admin).status_code == 201

        def trails():
            group_trail = client.get(f"/api/groups/{group['id']}/audit", headers=admin).get_json()["audit"]
            cup_trail = client.get(f"/api/competitions/{cup['id']}/audit", headers=organiser).get_json()
            return ([(line["action"], (line["after"] or {}).get("name")) for line in group_trail],
                    [line["action"] for line in cup_trail])

        at_head = trails()
    finally:
        db.dispose(app)
    assert at_head[0] == [("create", "Club"), ("member_add", "Amy"), ("member_add", "Ben")]
    assert at_head[1] == ["create", "entrants"]
    migrate(empty_database_url, "downgrade", "0017")
    engine = db.make_engine(empty_database_url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as connection:
            assert connection.execute(sa.text("SELECT action FROM group_audits ORDER BY id")).scalars().all() == [
                "create", "member_add", "member_add"]
            assert connection.execute(sa.text("SELECT action FROM competition_audits ORDER BY id")).scalars().all() \
                == ["create", "entrants"]
            assert "audit_lines" not in sa.inspect(connection).get_table_names()
    finally:
        engine.dispose()
    app = create_app({"TESTING": True, "DATABASE_URL": empty_database_url})  # upgrades to head on start
    try:
        client = app.test_client()
        assert trails() == at_head
    finally:
        db.dispose(app)
