"""A change's notification carries the change itself when it fits (issue 28): ``d <session> <revision> <kind>
<data>``, so other processes hand it to their streams without a read through a busy pool
(``benchmarks/club_night.py --live --floor``). A payload of 8,000 bytes or more, which PostgreSQL refuses,
is notified as before, ``c <session> <revision>`` (``tests/api/sessions/test_live_notify.py``).
"""
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

# Written out whole (no SQL is built by formatting, tests/api/http/test_security.py); the channel is
# api.http.live.CHANNEL, "taizhang_live", the limit api.http.live.NOTIFY_BYTES, 8,000.
CARRYING = """CREATE OR REPLACE FUNCTION taizhang_live_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    carried text := 'd ' || NEW.session_id || ' ' || NEW.revision || ' ' || NEW.kind || ' ' || NEW.data::text;
BEGIN
    IF octet_length(carried) < 8000 THEN
        PERFORM pg_notify('taizhang_live', carried);
    ELSE
        PERFORM pg_notify('taizhang_live', 'c ' || NEW.session_id || ' ' || NEW.revision);
    END IF;
RETURN NULL; END $$"""

NAMING = """CREATE OR REPLACE FUNCTION taizhang_live_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        PERFORM pg_notify('taizhang_live', 'c ' || NEW.session_id || ' ' || NEW.revision);
    RETURN NULL; END $$"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(CARRYING)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(NAMING)
