"""A change's notification carries the change itself when it fits (issue 28): ``d <session> <revision> <kind>
<data>``.

Migration 0010's trigger notified ``c <session id> <revision>``, and every other process that follows the
evening then read the change through its pool, whose connections the recording requests hold too: at 1,000
live tables on PostgreSQL shown on B p99 was 7.5 × the floor's (``benchmarks/README.md``, "Live tables against
the floor"). Now the notification holds the change's kind and its stored JSON (``changes.data``, the text as
written: a ``json`` column), and a process hands it to its streams without a read
(``api.http.live.Watcher._heard``). PostgreSQL refuses a payload of 8,000 bytes or more; a change that large
(a correction of an evening of long hands) is notified as before, ``c <session> <revision>``, and read
(``tests/api/sessions/test_live_notify.py``).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-04
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
