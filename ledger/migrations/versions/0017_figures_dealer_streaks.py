"""The stored figures' longest dealer streak, counted again as the table counts it (issue 40, item 3).

1 + the highest 連n a member dealt at (a 詐胡 replays at the same n; a substitute deals on at the seat's
streak), recomputed here from the stored entries. A downgrade leaves them: the older count cannot be
told from the rows any better.
"""
import sqlalchemy as sa
from alembic import op

from ledger.figures import dealer_streaks

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

ENTRIES = sa.table("entries", sa.column("session_id"), sa.column("position"), sa.column("kind"),
                   sa.column("void"), sa.column("result", sa.JSON()))
PLAYERS = sa.table("evening_players", sa.column("session_id"), sa.column("player"), sa.column("member_id"))
FIGURES = sa.table("evening_figures", sa.column("session_id"), sa.column("member_id"),
                   sa.column("figures", sa.JSON()))


def upgrade() -> None:
    connection = op.get_bind()
    sessions = connection.execute(sa.select(FIGURES.c.session_id).distinct()).scalars().all()
    for session_id in sessions:
        entries = connection.execute(
            sa.select(ENTRIES.c.kind, ENTRIES.c.void, ENTRIES.c.result)
            .where(ENTRIES.c.session_id == session_id).order_by(ENTRIES.c.position)).mappings().all()
        members = dict(connection.execute(sa.select(PLAYERS.c.player, PLAYERS.c.member_id)
                                          .where(PLAYERS.c.session_id == session_id)).all())
        by_member: dict[str, int] = {}
        for player, streak in dealer_streaks(entries).items():
            member = members.get(player)
            if member is not None:
                by_member[member] = max(by_member.get(member, 0), streak)
        rows = connection.execute(sa.select(FIGURES.c.member_id, FIGURES.c.figures)
                                  .where(FIGURES.c.session_id == session_id)).all()
        for member, figures in rows:
            streak = by_member.get(member, 0)
            if figures.get("longest_dealer_streak") != streak:
                connection.execute(FIGURES.update()
                                   .where(FIGURES.c.session_id == session_id, FIGURES.c.member_id == member)
                                   .values(figures={**figures, "longest_dealer_streak": streak}))


def downgrade() -> None:
    pass
