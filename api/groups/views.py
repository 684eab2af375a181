"""The JSON of a group's answers; members shown by their current names everywhere (a rename shows everywhere)."""
from collections.abc import Mapping

from sqlmodel import Session

from api.http.fields import utc_iso
from api.sessions.views import hands_played
from ledger import group_store
from ledger.balances import Balances
from ledger.group_store import AuditLineRow, GroupRow, MemberRow, PaymentRow, SeasonRow
from ledger.store import SessionRow


def group_view(db: Session, group: GroupRow, access: str) -> dict:
    """The group: roster (in the order members joined), evenings (open first, then newest), seasons; ``access``
    is the token's level."""
    aliases = group_store.aliases_by_member(db, group.id)
    evenings = group_store.list_evenings(db, group.id)
    players = group_store.evening_players(db, [session.id for _, session in evenings])
    ordered = sorted(evenings, key=lambda pair: utc_iso(pair[1].created_at), reverse=True)
    ordered.sort(key=lambda pair: pair[1].closed_at is not None)
    return {
        "id": group.id, "name": group.name, "defaults": group.defaults, "access": access,
        "members": [{"id": member.id, "name": member.name, "aliases": aliases.get(member.id, [])}
                    for member in group_store.list_members(db, group.id, joined=True)],
        "evenings": [evening_view(session, players[session.id]) for _, session in ordered],
        "seasons": [season_view(season) for season in group_store.list_seasons(db, group.id)],
    }


def member_view(db: Session, member: MemberRow) -> dict:
    """A member: its id, current name and aliases."""
    return {"id": member.id, "name": member.name, "aliases": group_store.member_aliases(db, member.id)}


def evening_view(session: SessionRow, players: Mapping[str, str]) -> dict:
    """An evening of the group, its players mapped to members; ``hand_count`` the hands that count, as the
    table's "16 局 played" (a voided hand left out)."""
    return {"id": session.id, "name": session.name, "ruleset": session.ruleset,
            "created_at": utc_iso(session.created_at), "closed": session.closed_at is not None,
            "hand_count": hands_played(session), "players": dict(players), "totals": session.totals}


def payment_view(payment: PaymentRow, names: Mapping[str, str]) -> dict:
    """A payment, its members by their current names (``from``, ``to``) and ids."""
    return {"id": payment.id, "from": names[payment.from_member], "to": names[payment.to_member],
            "from_member": payment.from_member, "to_member": payment.to_member, "amount": payment.amount,
            "note": payment.note, "session": payment.session_id, "at": utc_iso(payment.at),
            "void": payment.void}


def season_view(season: SeasonRow) -> dict:
    return {"id": season.id, "name": season.name, "from": season.first_day.isoformat(),
            "to": season.last_day.isoformat()}


def balances_view(balances: Balances, members: list[MemberRow]) -> dict:
    """Every member's open balance with what it rests on, and the transfers that clear them (by name and id)."""
    settlement = balances.settlement
    ids = {member.name: member.id for member in members}
    answer = {
        "balances": settlement.totals,
        "members": [{"member": member.id, "name": member.name, "balance": balances.amounts[member.id],
                     "because": balances.because[member.id]} for member in members],
        "transfers": [{**transfer.to_dict(), "from_member": ids[transfer.frm], "to_member": ids[transfer.to]}
                      for transfer in settlement.transfers],
    }
    if settlement.rounding is not None:
        answer["rounding"] = settlement.rounding.to_dict()
    if not settlement.fewest:
        answer["fewest"] = False
    return answer


def audit_view(audit: AuditLineRow) -> dict:
    return {"action": audit.action, "who": audit.who, "at": utc_iso(audit.at),
            "before": audit.before, "after": audit.after}
