"""PostgreSQL tells every listening server of a change as it commits (issue 28): ``LISTEN taizhang_live``.

Three triggers, PostgreSQL only (SQLite has no NOTIFY; there the servers'
watchers poll, ``api.sessions.live``):

- a row inserted into ``changes`` (every change of an evening writes one in
  its own transaction) notifies ``c <session id> <revision>``;
- an evening's tokens replaced (``sessions.token_hash`` or ``read_token_hash``
  updated) notifies ``k <session id>``;
- a group's tokens replaced notifies ``g <group id>``.

``pg_notify`` in a trigger is delivered when, and only if, the transaction
commits, in commit order, and costs the writer no round trip: the change's
own INSERT carries it. A server's watcher holds one connection that listens
and wakes the streams of that evening at once instead of at its next poll
(``tests/system/test_live_updates.py``).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-12
"""
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

CHANNEL = "taizhang_live"

FUNCTIONS = {
    "taizhang_live_change": f"PERFORM pg_notify('{CHANNEL}', 'c ' || NEW.session_id || ' ' || NEW.revision);",
    "taizhang_live_session_keys": f"""IF NEW.token_hash IS DISTINCT FROM OLD.token_hash
        OR NEW.read_token_hash IS DISTINCT FROM OLD.read_token_hash THEN
        PERFORM pg_notify('{CHANNEL}', 'k ' || NEW.id);
    END IF;""",
    "taizhang_live_group_keys": f"""IF NEW.admin_token_hash IS DISTINCT FROM OLD.admin_token_hash
        OR NEW.member_token_hash IS DISTINCT FROM OLD.member_token_hash
        OR NEW.read_token_hash IS DISTINCT FROM OLD.read_token_hash THEN
        PERFORM pg_notify('{CHANNEL}', 'g ' || NEW.id);
    END IF;""",
}
TRIGGERS = {  # trigger: (table, event, function)
    "taizhang_live_change": ("changes", "AFTER INSERT", "taizhang_live_change"),
    "taizhang_live_session_keys": ("sessions", "AFTER UPDATE OF token_hash, read_token_hash",
                                   "taizhang_live_session_keys"),
    "taizhang_live_group_keys": ("groups", "AFTER UPDATE OF admin_token_hash, member_token_hash, read_token_hash",
                                 "taizhang_live_group_keys"),
}


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for name, body in FUNCTIONS.items():
        op.execute(f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN {body} RETURN NULL; END $$")
    for name, (table, event, function) in TRIGGERS.items():
        op.execute(f"CREATE TRIGGER {name} {event} ON {table} FOR EACH ROW EXECUTE FUNCTION {function}()")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for name, (table, _, _) in TRIGGERS.items():
        op.execute(f"DROP TRIGGER {name} ON {table}")
    for name in FUNCTIONS:
        op.execute(f"DROP FUNCTION {name}()")
