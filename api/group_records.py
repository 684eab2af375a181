"""Recording a group (牌友會): its roster, evenings, payments, seasons and tokens; balances and views.

As in ``api.recording``, every change is one transaction: the view took the
group's row lock (``api.auth.authorized_group(lock=True)``, in a transaction
begun by ``begin_write``), the change is written through the ORM, audited in
``group_audits`` and committed, everything or nothing. A change that touches
evenings (a merge, attaching one) also takes their session locks, always
after the group's, and rewrites their figures (``api.group_figures``).

Members are named by id or current name (``find_member``). A rename keeps
the old name as an alias; the evenings keep their players' names as
recorded, mapped to member ids (``evening_players``), and every answer
shows members by their current names. A merge moves everything of the
duplicate (evening mappings, figures, payments, aliases and its name as an
alias) to the member it is merged into, then deletes it.

Balances: a member's balance is the sum of their evening totals, plus the
payments they made, minus the payments they received (voided ones count for
nothing); they sum to zero, and ``ledger.settlement.settle`` gives the
fewest transfers that clear them.
"""
import datetime
import secrets
from collections.abc import Iterable, Mapping

from sqlalchemy import delete, update
from sqlmodel import Session, select

from api import recording
from api.auth import new_session_id, new_token, token_hash
from api.db import begin_write
from api.group_figures import check_period, rewrite_figures
from ledger import group_store, store
from ledger.errors import InvalidRequest
from ledger.group_store import (
    AliasRow,
    EveningFiguresRow,
    EveningPlayerRow,
    GroupAuditRow,
    GroupEveningRow,
    GroupRow,
    MemberRow,
    PaymentRow,
    SeasonRow,
)
from ledger.profile import check_house_rules
from ledger.recorder import Recorder
from ledger.settlement import settle
from ledger.store import SessionRow

MEMBER_ID_BYTES = 8


class NotFound(LookupError):
    """A member, payment or evening named in the path that the group does not have (404)."""


# -- the group and its tokens ----------------------------------------------------


def create_group(db: Session, body: Mapping, who: str) -> tuple[GroupRow, dict]:
    """Create a group from a validated request; returns it and its three tokens (shown only once)."""
    group, tokens = new_group(body["name"], body.get("defaults") or {})
    begin_write(db)
    db.add(group)
    db.flush()
    audit(db, group, "create", who, after={"name": group.name, "defaults": group.defaults})
    db.commit()
    return group, tokens


def new_group(name: str, defaults: Mapping) -> tuple[GroupRow, dict]:
    """A new group row (not yet added) and its three tokens; created or imported, its defaults are checked
    as an evening's would be when they name a rule set and stakes (422 naming the field), so that no bad
    default waits to fail the group's next evening."""
    ruleset, house_rules = defaults.get("ruleset"), defaults.get("house_rules")
    if house_rules and ruleset is None:
        raise InvalidRequest("house rules belong to a rule set: name it in defaults.ruleset", "defaults.ruleset")
    if ruleset is not None and "stakes" in defaults:
        Recorder.start(ruleset, ["1", "2", "3", "4"], defaults["stakes"], defaults.get("options"), house_rules)
    elif house_rules:
        check_house_rules(ruleset, house_rules)
    tokens = new_tokens()
    group = GroupRow(id=new_session_id(), name=name, defaults=dict(defaults),
                     **{f"{level}_token_hash": token_hash(token) for level, token in _levels(tokens)})
    return group, tokens


def new_tokens() -> dict:
    """Three fresh tokens: ``admin_token``, ``member_token``, ``read_token``."""
    return {f"{level}_token": new_token() for level in ("admin", "member", "read")}


def _levels(tokens: Mapping) -> list[tuple[str, str]]:
    return [(level, tokens[f"{level}_token"]) for level in ("admin", "member", "read")]


def replace_tokens(db: Session, group: GroupRow, who: str) -> dict:
    """New admin, member and read-only tokens; the old ones open nothing from now on (401)."""
    tokens = new_tokens()
    for level, token in _levels(tokens):
        setattr(group, f"{level}_token_hash", token_hash(token))
    audit(db, group, "tokens", who)
    db.commit()
    return tokens


# -- members ---------------------------------------------------------------------


def find_member(db: Session, group_id: str, ref: str, field: str) -> MemberRow:
    """The member ``ref`` names (its id, else its current name); ``InvalidRequest`` naming ``field`` if none."""
    member = _member(db, group_id, ref)
    if member is None:
        raise InvalidRequest(f"{field}: no member {ref!r} in this group (give a member's id or current name)", field)
    return member


def member_in_path(db: Session, group_id: str, ref: str) -> MemberRow:
    """The member a path names; ``NotFound`` (404) if none."""
    member = _member(db, group_id, ref)
    if member is None:
        raise NotFound(f"No member {ref!r} in this group.")
    return member


def _member(db: Session, group_id: str, ref: str) -> MemberRow | None:
    member = db.get(MemberRow, ref)
    if member is not None and member.group_id == group_id:
        return member
    return db.exec(select(MemberRow).where(MemberRow.group_id == group_id, MemberRow.name == ref)).first()


def add_member(db: Session, group: GroupRow, name: str, aliases: Iterable[str], who: str) -> MemberRow:
    """Add a member (a regular, or a guest on the spot) and commit."""
    aliases = _distinct(aliases, name)
    for index, text in enumerate([name, *aliases]):
        _check_free(db, group.id, text, "name" if index == 0 else f"aliases[{index - 1}]")
    member = MemberRow(id=new_member_id(), group_id=group.id, name=name)
    db.add(member)
    db.flush()
    group_store.set_aliases(db, member, aliases)
    audit(db, group, "member_add", who, after={"id": member.id, "name": name, "aliases": aliases})
    db.commit()
    return member


def edit_member(db: Session, group: GroupRow, member: MemberRow, name: str | None, aliases: list[str] | None,
                who: str) -> MemberRow:
    """Rename a member and/or replace its aliases, and commit. A rename keeps the old name as an alias
    (unless ``aliases`` are given, which then are all of them)."""
    before = member_view(db, member)
    new_name = before["name"] if name is None else name
    if aliases is None:
        aliases = before["aliases"] + ([before["name"]] if new_name != before["name"] else [])
    aliases = _distinct(aliases, new_name)
    for index, text in enumerate([new_name, *aliases]):
        _check_free(db, group.id, text, "name" if index == 0 else f"aliases[{index - 1}]", member.id)
    group_store.set_aliases(db, member, [])
    db.flush()  # the old aliases are deleted before the new ones, which may hold the same names, are written
    member.name = new_name
    group_store.set_aliases(db, member, aliases)
    after = {"id": member.id, "name": new_name, "aliases": aliases}
    if after != before:
        audit(db, group, "member_edit", who, before=before, after=after)
    db.commit()
    return member


def merge_members(db: Session, group: GroupRow, duplicate: MemberRow, into: MemberRow, who: str) -> MemberRow:
    """Merge ``duplicate`` into ``into`` and commit: its evenings, figures, payments and aliases (and its name,
    as an alias) become ``into``'s; ``duplicate`` is deleted. Audited."""
    if duplicate.id == into.id:
        raise InvalidRequest("into: a member cannot be merged into itself", "into")
    together = db.exec(select(EveningPlayerRow.session_id).where(EveningPlayerRow.member_id == duplicate.id)
                       .intersect(select(EveningPlayerRow.session_id)
                                  .where(EveningPlayerRow.member_id == into.id))).scalars().first()
    if together is not None:
        # Two people at one table are two people: merged, one evening would count twice and their money
        # against each other would vanish from the head-to-head.
        raise InvalidRequest(f"into: {duplicate.name} and {into.name} played at the same table "
                             f"(evening {together}): they are two people, not a duplicate", "into")
    before = {"member": member_view(db, duplicate), "into": member_view(db, into)}
    sessions = list(db.exec(select(EveningPlayerRow.session_id).distinct()
                            .where(EveningPlayerRow.member_id == duplicate.id)))
    locked = [store.lock_session(db, session_id) for session_id in sorted(sessions)]
    db.exec(update(EveningPlayerRow).where(EveningPlayerRow.member_id == duplicate.id).values(member_id=into.id))
    db.exec(update(PaymentRow).where(PaymentRow.from_member == duplicate.id).values(from_member=into.id))
    db.exec(update(PaymentRow).where(PaymentRow.to_member == duplicate.id).values(to_member=into.id))
    aliases = _distinct([*before["into"]["aliases"], duplicate.name, *before["member"]["aliases"]], into.name)
    group_store.set_aliases(db, duplicate, [])
    db.flush()
    group_store.set_aliases(db, into, aliases)
    for session in locked:
        rewrite_figures(db, session, group.id)
    db.flush()
    db.exec(delete(EveningFiguresRow).where(EveningFiguresRow.member_id == duplicate.id))
    db.delete(duplicate)
    audit(db, group, "merge", who, before=before, after={"id": into.id, "name": into.name, "aliases": aliases})
    db.commit()
    return into


def new_member_id() -> str:
    """A member's stable id: random, so that ids of two groups never meet (imports make new ones)."""
    return secrets.token_hex(MEMBER_ID_BYTES)


def _distinct(aliases: Iterable[str], name: str) -> list[str]:
    """The aliases once each, in order, without the member's own name."""
    return [alias for alias in dict.fromkeys(aliases) if alias != name]


def _check_free(db: Session, group_id: str, text: str, field: str, member_id: str | None = None) -> None:
    """``text`` is neither another member's name nor another member's alias (a name finds one member)."""
    named = db.exec(select(MemberRow).where(MemberRow.group_id == group_id, MemberRow.name == text)).first()
    alias = group_store.find_alias(db, group_id, text)
    owner = named.id if named is not None else alias.member_id if alias is not None else None
    if owner is not None and owner != member_id:
        raise InvalidRequest(f"{field}: {text!r} is already another member's name or alias in this group", field)


# -- evenings ----------------------------------------------------------------------


def evening_body(db: Session, group: GroupRow, body: Mapping) -> tuple[dict, list[MemberRow]]:
    """A ``POST /api/sessions`` body for a group evening: the group's defaults filled in, players named by
    their members' current names; and the four members."""
    defaults = group.defaults or {}
    filled = {key: body.get(key) if body.get(key) is not None else defaults.get(key)
              for key in ("ruleset", "stakes", "house_rules")}
    filled["options"] = {**(defaults.get("options") or {}), **(body.get("options") or {})}
    for key in ("ruleset", "stakes"):
        if filled[key] is None:
            raise InvalidRequest(f"{key}: give it, or set it in the group's defaults", key)
    members = [find_member(db, group.id, ref, f"players[{index}]") for index, ref in enumerate(body["players"])]
    _check_distinct_members(members, [f"players[{index}]" for index in range(len(members))])
    return {**filled, "name": body["name"], "players": [member.name for member in members]}, members


def _check_distinct_members(members: list[MemberRow], fields: list[str]) -> None:
    seen: set[str] = set()
    for member, field in zip(members, fields):
        if member.id in seen:
            raise InvalidRequest(f"{field}: {member.name} is named twice (a member sits once)", field)
        seen.add(member.id)


def create_evening(db: Session, group: GroupRow, body: Mapping, who: str) -> tuple[SessionRow, str, str]:
    """Start an evening of the group (the body as ``evening_body`` made it) and commit."""
    filled, members = evening_body(db, group, body)
    session, token, read_token = recording.new_session(filled)
    db.add(session)
    db.flush()
    join_evening(db, group, session, {member.name: member.id for member in members})
    audit(db, group, "evening", who, after={"session": session.id, "name": session.name})
    db.commit()
    return session, token, read_token


def join_evening(db: Session, group: GroupRow, session: SessionRow, players: Mapping[str, str]) -> None:
    """Make ``session`` an evening of the group, its player names mapped to members, and write its figures."""
    db.add(GroupEveningRow(session_id=session.id, group_id=group.id, day=evening_day(session)))
    db.flush()
    db.add_all(EveningPlayerRow(session_id=session.id, player=player, member_id=member)
               for player, member in players.items())
    db.flush()
    rewrite_figures(db, session, group.id)


def evening_day(session: SessionRow) -> datetime.date:
    """The day an evening counts for in periods: the date (UTC) it was started."""
    moment = session.created_at
    if moment.tzinfo is None:  # SQLite hands back naive datetimes, which are UTC
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment.astimezone(datetime.timezone.utc).date()


def player_names(session: SessionRow) -> list[str]:
    """Everyone who sat at the evening: its first four and every substitute (its totals' names)."""
    return list(dict.fromkeys([*session.players, *session.totals]))


def map_players(db: Session, group: GroupRow, session: SessionRow, sent: Mapping[str, str]) -> dict[str, str]:
    """Player name -> member id for every player of the evening: as ``sent``, else the member (or alias)
    of that name; ``InvalidRequest`` naming ``players.<name>`` for a player no member answers to."""
    names = player_names(session)
    for name in sent:
        if name not in names:
            raise InvalidRequest(f"players.{name}: no player {name!r} in this evening ({', '.join(names)})",
                                 f"players.{name}")
    members = []
    for name in names:
        if name in sent:
            members.append(find_member(db, group.id, sent[name], f"players.{name}"))
            continue
        member = _member(db, group.id, name)
        alias = None if member is not None else group_store.find_alias(db, group.id, name)
        if member is None and alias is None:
            raise InvalidRequest(f"players.{name}: say which member {name!r} is (no member or alias has that name)",
                                 f"players.{name}")
        members.append(member or db.get(MemberRow, alias.member_id))
    _check_distinct_members(members, [f"players.{name}" for name in names])
    return {name: member.id for name, member in zip(names, members)}


def attach_evening(db: Session, group: GroupRow, session: SessionRow, players: Mapping[str, str],
                   who: str) -> SessionRow:
    """Make an existing evening (its lock held) one of the group's, mapping its players, and commit."""
    if group_store.group_evening(db, session.id) is not None:
        raise InvalidRequest("session: this evening already belongs to a group", "session")
    mapped = map_players(db, group, session, players)
    join_evening(db, group, session, mapped)
    audit(db, group, "attach", who, after={"session": session.id, "name": session.name, "players": mapped})
    db.commit()
    return session


def add_imported_evening(db: Session, group: GroupRow, session: SessionRow, players: Mapping[str, str],
                         who: str) -> dict[str, str]:
    """Join an imported evening (added, not committed) to the group, its players mapped; audited, not committed."""
    mapped = map_players(db, group, session, players)
    join_evening(db, group, session, mapped)
    audit(db, group, "import", who, after={"session": session.id, "name": session.name, "players": mapped})
    return mapped


def delete_evening(db: Session, group: GroupRow, session_id: str, who: str) -> None:
    """Delete an evening of the group (started by mistake) with everything it recorded, and commit. Audited;
    payments that named it stay, naming no evening."""
    if not _group_has_evening(db, group.id, session_id):
        raise NotFound(f"No evening {session_id!r} in this group.")
    session = store.lock_session(db, session_id)
    before = {"session": session.id, "name": session.name, "totals": session.totals,
              "players": group_store.evening_players(db, [session.id])[session.id]}
    db.delete(session)
    db.flush()
    audit(db, group, "delete_evening", who, before=before)
    db.commit()


def seat_member(db: Session, session: SessionRow, body: dict) -> None:
    """In a group evening, a substitute is a member: ``body["player"]`` becomes the member's current name and
    the name is mapped to them (``InvalidRequest`` naming ``player`` for no member). Nothing for other evenings."""
    group = group_store.group_of_session(db, session.id)
    if group is None:
        return
    member = find_member(db, group.id, body["player"], "player")
    players = group_store.evening_players(db, [session.id])[session.id]
    known = players.get(member.name)
    if known is not None and known != member.id:
        raise InvalidRequest(f"player: this evening already has a player named {member.name!r} (another member)",
                             "player")
    body["player"] = member.name
    if known is None:
        db.add(EveningPlayerRow(session_id=session.id, player=member.name, member_id=member.id))


# -- payments and seasons -----------------------------------------------------------


def record_payments(db: Session, group: GroupRow, payments: list[Mapping], session_id: str | None, who: str,
                    prefix: str = "") -> list[PaymentRow]:
    """Record payments between members (all or none) and commit. ``prefix`` names them in errors
    (``payments[0].``)."""
    rows = []
    for index, payment in enumerate(payments):
        at = prefix.format(index=index)
        payer = find_member(db, group.id, payment["from"], f"{at}from")
        payee = find_member(db, group.id, payment["to"], f"{at}to")
        if payer.id == payee.id:
            raise InvalidRequest(f"{at}to: a payment from {payer.name} to themselves", f"{at}to")
        if payment["amount"] <= 0:
            raise InvalidRequest(f"{at}amount: a payment is a positive whole amount, not {payment['amount']}",
                                 f"{at}amount")
        evening = payment.get("session", session_id)
        if evening is not None and not _group_has_evening(db, group.id, evening):
            raise InvalidRequest(f"{at}session: no evening {evening!r} in this group", f"{at}session")
        rows.append(PaymentRow(group_id=group.id, from_member=payer.id, to_member=payee.id,
                               amount=payment["amount"], note=payment.get("note") or "", session_id=evening))
    db.add_all(rows)
    db.flush()
    names = member_names(db, group.id)
    for row in rows:
        audit(db, group, "payment", who, after=payment_view(row, names))
    db.commit()
    return rows


def _group_has_evening(db: Session, group_id: str, session_id: str) -> bool:
    evening = group_store.group_evening(db, session_id)
    return evening is not None and evening.group_id == group_id


def void_payment(db: Session, group: GroupRow, payment_id: int, who: str) -> PaymentRow:
    """Void a payment (it stays, counting for nothing) and commit; voiding twice is a no-op."""
    payment = db.get(PaymentRow, payment_id)
    if payment is None or payment.group_id != group.id:
        raise NotFound(f"No payment {payment_id} in this group.")
    if not payment.void:
        payment.void = True
        audit(db, group, "payment_void", who, before=payment_view(payment, member_names(db, group.id)))
        db.commit()
    return payment


def add_season(db: Session, group: GroupRow, name: str, first: datetime.date, last: datetime.date,
               who: str) -> SeasonRow:
    """Define a season (both days included) and commit."""
    check_period(first, last)
    season = SeasonRow(group_id=group.id, name=name, first_day=first, last_day=last)
    db.add(season)
    db.flush()
    audit(db, group, "season", who, after=season_view(season))
    db.commit()
    return season


# -- balances ------------------------------------------------------------------------


def balances(db: Session, group_id: str, round_to: int | None = None) -> dict:
    """Every member's open balance with the evenings and payments behind it, and the fewest transfers that
    clear them all (``ledger.settlement.settle``, rounded to ``round_to`` when asked)."""
    members = group_store.list_members(db, group_id)
    names = {member.id: member.name for member in members}
    amounts = {member.id: 0 for member in members}
    because: dict[str, list[dict]] = {member.id: [] for member in members}
    for session_id, name, totals, by_member in _evening_totals(db, group_id):
        for member, amount in by_member.items():
            amounts[member] += amount
            because[member].append({"session": session_id, "name": name, "amount": amount})
    for payment in group_store.list_payments(db, group_id):
        if payment.void:
            continue
        for member, amount in ((payment.from_member, payment.amount), (payment.to_member, -payment.amount)):
            amounts[member] += amount
            because[member].append({"payment": payment.id, "amount": amount})
    settlement = settle({names[member]: amount for member, amount in amounts.items()}, round_to)
    ids = {name: member for member, name in names.items()}
    answer = {
        "balances": settlement.totals,
        "members": [{"member": member.id, "name": member.name, "balance": amounts[member.id],
                     "because": because[member.id]} for member in members],
        "transfers": [{**transfer.to_dict(), "from_member": ids[transfer.frm], "to_member": ids[transfer.to]}
                      for transfer in settlement.transfers],
    }
    if settlement.rounding is not None:
        answer["rounding"] = settlement.rounding.to_dict()
    if not settlement.fewest:
        answer["fewest"] = False
    return answer


def _evening_totals(db: Session, group_id: str):
    """``(session id, name, totals, totals by member)`` of every evening of the group, oldest first."""
    query = (select(SessionRow.id, SessionRow.name, SessionRow.totals)
             .join(GroupEveningRow, GroupEveningRow.session_id == SessionRow.id)
             .where(GroupEveningRow.group_id == group_id).order_by(SessionRow.created_at, SessionRow.id))
    evenings = list(db.exec(query))
    players = group_store.evening_players(db, [evening[0] for evening in evenings])
    for session_id, name, totals in evenings:
        by_member: dict[str, int] = {}
        for player, amount in totals.items():
            member = players[session_id][player]
            by_member[member] = by_member.get(member, 0) + amount
        yield session_id, name, totals, by_member


# -- views ---------------------------------------------------------------------------


def member_names(db: Session, group_id: str) -> dict[str, str]:
    """Member id -> current name."""
    return {member.id: member.name for member in group_store.list_members(db, group_id)}


def member_view(db: Session, member: MemberRow) -> dict:
    aliases = db.exec(select(AliasRow.alias).where(AliasRow.member_id == member.id).order_by(AliasRow.alias))
    return {"id": member.id, "name": member.name, "aliases": list(aliases)}


def payment_view(payment: PaymentRow, names: Mapping[str, str]) -> dict:
    """A payment, its members by their current names (``from``, ``to``) and ids."""
    return {"id": payment.id, "from": names[payment.from_member], "to": names[payment.to_member],
            "from_member": payment.from_member, "to_member": payment.to_member, "amount": payment.amount,
            "note": payment.note, "session": payment.session_id, "at": recording.timestamp(payment.at),
            "void": payment.void}


def season_view(season: SeasonRow) -> dict:
    return {"id": season.id, "name": season.name, "from": season.first_day.isoformat(),
            "to": season.last_day.isoformat()}


def group_view(db: Session, group: GroupRow, access: str) -> dict:
    """The group: roster, evenings (open first, then newest), seasons; ``access`` is the token's level."""
    aliases = group_store.aliases_by_member(db, group.id)
    evenings = group_store.list_evenings(db, group.id)
    players = group_store.evening_players(db, [session.id for _, session in evenings])
    ordered = sorted(evenings, key=lambda pair: recording.timestamp(pair[1].created_at), reverse=True)
    ordered.sort(key=lambda pair: pair[1].closed_at is not None)
    return {
        "id": group.id, "name": group.name, "defaults": group.defaults, "access": access,
        "members": [{"id": member.id, "name": member.name, "aliases": aliases.get(member.id, [])}
                    for member in group_store.list_members(db, group.id)],
        "evenings": [evening_view(session, players[session.id]) for _, session in ordered],
        "seasons": [season_view(season) for season in group_store.list_seasons(db, group.id)],
    }


def evening_view(session: SessionRow, players: Mapping[str, str]) -> dict:
    return {"id": session.id, "name": session.name, "ruleset": session.ruleset,
            "created_at": recording.timestamp(session.created_at), "closed": session.closed_at is not None,
            "hand_count": session.hand_count, "players": dict(players), "totals": session.totals}


def audit_view(audit: GroupAuditRow) -> dict:
    return {"action": audit.action, "who": audit.who, "at": recording.timestamp(audit.at),
            "before": audit.before, "after": audit.after}


def audit(db: Session, group: GroupRow, action: str, who: str, *, before: dict | None = None,
           after: dict | None = None) -> None:
    """One line of the group's audit trail."""
    db.add(GroupAuditRow(group_id=group.id, action=action, who=who, before=before, after=after))
