"""PostgreSQL tells every listening server of a change as it commits (issue 28): ``LISTEN taizhang_live``.

Triggers, PostgreSQL only (SQLite's watchers poll): a row in ``changes`` notifies ``c <session>
<revision>``, an evening's or a group's tokens replaced ``k <session>`` / ``g <group>``. ``pg_notify`` in a
trigger is delivered only if the transaction commits, in commit order, and costs the writer no round
trip (``tests/system/test_live_updates.py``).
"""
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

# Written out whole (no SQL is built by formatting, tests/api/http/test_security.py); the channel is
# api.http.live.CHANNEL, "taizhang_live".
CREATE = [
    """CREATE FUNCTION taizhang_live_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        PERFORM pg_notify('taizhang_live', 'c ' || NEW.session_id || ' ' || NEW.revision);
    RETURN NULL; END $$""",
    """CREATE FUNCTION taizhang_live_session_keys() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF NEW.token_hash IS DISTINCT FROM OLD.token_hash
            OR NEW.read_token_hash IS DISTINCT FROM OLD.read_token_hash THEN
            PERFORM pg_notify('taizhang_live', 'k ' || NEW.id);
        END IF;
    RETURN NULL; END $$""",
    """CREATE FUNCTION taizhang_live_group_keys() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF NEW.admin_token_hash IS DISTINCT FROM OLD.admin_token_hash
            OR NEW.member_token_hash IS DISTINCT FROM OLD.member_token_hash
            OR NEW.read_token_hash IS DISTINCT FROM OLD.read_token_hash THEN
            PERFORM pg_notify('taizhang_live', 'g ' || NEW.id);
        END IF;
    RETURN NULL; END $$""",
    "CREATE TRIGGER taizhang_live_change AFTER INSERT ON changes FOR EACH ROW EXECUTE FUNCTION taizhang_live_change()",
    "CREATE TRIGGER taizhang_live_session_keys AFTER UPDATE OF token_hash, read_token_hash ON sessions "
    "FOR EACH ROW EXECUTE FUNCTION taizhang_live_session_keys()",
    "CREATE TRIGGER taizhang_live_group_keys AFTER UPDATE OF admin_token_hash, member_token_hash, read_token_hash "
    "ON groups FOR EACH ROW EXECUTE FUNCTION taizhang_live_group_keys()",
]
DROP = [
    "DROP TRIGGER taizhang_live_change ON changes",
    "DROP TRIGGER taizhang_live_session_keys ON sessions",
    "DROP TRIGGER taizhang_live_group_keys ON groups",
    "DROP FUNCTION taizhang_live_change()",
    "DROP FUNCTION taizhang_live_session_keys()",
    "DROP FUNCTION taizhang_live_group_keys()",
]


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for statement in CREATE:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for statement in DROP:
        op.execute(statement)
