"""Changing a group (牌友會): its roster, evenings, payments, seasons and tokens; reading its balances.

Every change is one transaction, read here top to bottom: ``locked_group`` begins the write, reads the
group holding its row lock and checks the caller's token against it; the change is written, audited in
``audit_lines`` and committed, all or nothing. A change that touches evenings (a merge, attaching one)
takes their session locks always after the group's, and rewrites their figures (``ledger.group_evenings``).
A rename keeps the old name as an alias; evenings keep their players' names as recorded, mapped to member
ids, so answers show current names. A group's evening is started here (``start_evening``, for
``POST /api/sessions`` with ``group``), filled from the group's defaults and joined to the group.
"""
import datetime
import secrets
from collections.abc import Iterable, Mapping

from flask_smorest import abort
from sqlmodel import Session

from api.groups.figures import check_period, member_names
from api.groups.views import member_view, payment_view, season_view
from api.http.auth import ADMIN, MEMBER, Caller, group_access, new_id, new_token, token_hash, token_matches
from api.http.db import begin_write
from api.http.errors import Missing
from api.http.fields import ROW_ID_MAX
from api.http.language import say
from api.http.limits import Limits
from api.http.text import bad_character
from api.sessions.service import new_session
from ledger import group_store
from ledger.balances import Balances, EveningTotals, Payment, balances, check_turnover_of
from ledger.errors import InvalidRequest
from ledger.group_evenings import check_group_money, named_member, rewrite_figures
from ledger.names import check_unlike, same_person
from ledger.group_store import AuditLineRow, EveningPlayerRow, GroupEveningRow, GroupRow, MemberRow, PaymentRow, SeasonRow
from ledger.house_rules import check_house_rules
from ledger.recorder import Recorder
from ledger.store import EntryRow, SessionRow, as_utc

MEMBER_ID_BYTES = 8
LEVELS = ("admin", "member", "read")


def locked_group(db: Session, group_id: str, token: str, need: str) -> GroupRow:
    """Begin the write and read the group holding its row lock; 404/401/403 unless ``token`` is (still) one
    of its tokens at level ``need`` or above."""
    begin_write(db)
    group = group_store.find_group(db, group_id, lock=True)
    group_access(token, group, group_id, need)
    return group


# -- the group and its tokens ----------------------------------------------------


def create_group(db: Session, body: Mapping, who: str) -> tuple[GroupRow, dict]:
    """Create a group from a validated request and commit; it and its three tokens (shown only once)."""
    group, tokens = new_group(body["name"], body.get("defaults") or {})
    begin_write(db)
    db.add(group)
    db.flush()
    audit(db, group, "create", who, after={"name": group.name, "defaults": group.defaults})
    db.commit()
    return group, tokens


def new_group(name: str, defaults: Mapping) -> tuple[GroupRow, dict]:
    """A new group row (not yet added) and its three tokens; its defaults checked as an evening's (422 naming
    the field), so that no bad default waits to fail the group's next evening."""
    check_defaults(defaults)
    tokens = new_tokens()
    group = GroupRow(id=new_id(), name=name, defaults=dict(defaults),
                     **{f"{level}_token_hash": token_hash(tokens[f"{level}_token"]) for level in LEVELS})
    return group, tokens


def check_defaults(defaults: Mapping) -> None:
    """Check a group's defaults as an evening's would be checked when they name a rule set and stakes (422
    naming the field), so that no bad default waits to fail the group's next evening."""
    ruleset, house_rules = defaults.get("ruleset"), defaults.get("house_rules")
    if house_rules and ruleset is None:
        raise InvalidRequest("house rules belong to a rule set: name it in defaults.ruleset", "defaults.ruleset")
    if ruleset is not None and "stakes" in defaults:
        Recorder.start(ruleset, ["1", "2", "3", "4"], defaults["stakes"], defaults.get("options"), house_rules)
    elif house_rules:
        check_house_rules(ruleset, house_rules)


def edit_group(db: Session, group_id: str, caller: Caller, body: Mapping) -> GroupRow:
    """Rename the group and/or replace its defaults (admin), audited, and commit; evenings already started keep
    what they started with (API.md: Groups)."""
    group = locked_group(db, group_id, caller.token, ADMIN)
    before = {"name": group.name, "defaults": group.defaults}
    if "defaults" in body:
        check_defaults(body["defaults"])
        group.defaults = dict(body["defaults"])
    if "name" in body:
        group.name = body["name"]
    after = {"name": group.name, "defaults": group.defaults}
    if after != before:
        audit(db, group, "edit", caller.who, before=before, after=after)
    db.commit()
    return group


def new_tokens() -> dict:
    """Three fresh tokens: ``admin_token``, ``member_token``, ``read_token``."""
    return {f"{level}_token": new_token() for level in LEVELS}


def replace_tokens(db: Session, group_id: str, caller: Caller) -> dict:
    """New admin, member and read-only tokens; the old ones open nothing from now on (401)."""
    group = locked_group(db, group_id, caller.token, ADMIN)
    tokens = new_tokens()
    db.add_all(group_store.RetiredGroupTokenRow(token_hash=getattr(group, f"{level}_token_hash"), group_id=group.id)
               for level in LEVELS)
    for level in LEVELS:
        setattr(group, f"{level}_token_hash", token_hash(tokens[f"{level}_token"]))
    audit(db, group, "tokens", caller.who)
    db.commit()
    return tokens


# -- members ---------------------------------------------------------------------


def member_in_path(db: Session, group_id: str, ref: str) -> MemberRow:
    """The member a path names; ``Missing`` (404) if none. A path is no checked JSON body: a name holding what
    no name may (``%00``, which PostgreSQL refuses in a query) is no member, found without a query."""
    member = None if bad_character(ref) else group_store.find_member(db, group_id, ref)
    if member is None:
        raise Missing("no_member", member=ref)
    return member


def add_member(db: Session, group_id: str, caller: Caller, name: str, aliases: Iterable[str],
               limits: Limits) -> dict:
    """Add a member (a regular, or a guest on the spot) and commit; its view."""
    group = locked_group(db, group_id, caller.token, MEMBER)
    if group_store.count_members(db, group.id) >= limits.max_members:
        abort(422, message=say("too_many_members", maximum=limits.max_members), field="name")
    aliases = _distinct(aliases, name)
    _check_free(db, group.id, [name, *aliases])
    member = MemberRow(id=new_member_id(), group_id=group.id, name=name)
    db.add(member)
    db.flush()
    group_store.set_aliases(db, member, aliases)
    audit(db, group, "member_add", caller.who, after={"id": member.id, "name": name, "aliases": aliases})
    db.commit()
    return member_view(db, member)


def edit_member(db: Session, group_id: str, ref: str, caller: Caller, name: str | None,
                aliases: list[str] | None, limits: Limits) -> dict:
    """Rename a member and/or replace its aliases, and commit; its view. A rename keeps the old name as an
    alias (unless ``aliases`` are given, which then are all of them)."""
    group = locked_group(db, group_id, caller.token, ADMIN)
    member = member_in_path(db, group.id, ref)
    before = member_view(db, member)
    new_name = before["name"] if name is None else name
    if aliases is None:
        aliases = before["aliases"] + ([before["name"]] if new_name != before["name"] else [])
    aliases = _distinct(aliases, new_name)
    if len(aliases) > limits.max_aliases:  # a rename keeps the old name as one more
        abort(422, message=say("too_many_aliases", maximum=limits.max_aliases), field="aliases")
    _check_free(db, group.id, [new_name, *aliases], member.id)
    group_store.set_aliases(db, member, [])
    db.flush()  # the old aliases are deleted before the new ones, which may hold the same names, are written
    member.name = new_name
    group_store.set_aliases(db, member, aliases)
    after = {"id": member.id, "name": new_name, "aliases": aliases}
    if after != before:
        audit(db, group, "member_edit", caller.who, before=before, after=after)
    db.commit()
    return member_view(db, member)


def merge_members(db: Session, group_id: str, ref: str, into_ref: str, caller: Caller, limits: Limits) -> dict:
    """Merge member ``ref`` into ``into_ref`` and commit: its evenings, figures, payments and aliases (and its
    name, as an alias) become the other's; it is deleted. Audited. The surviving member's view."""
    group = locked_group(db, group_id, caller.token, ADMIN)
    duplicate = member_in_path(db, group.id, ref)
    into = named_member(db, group.id, into_ref, "into")
    if duplicate.id == into.id:
        raise InvalidRequest("into: a member cannot be merged into itself", "into")
    together = group_store.evening_of_both(db, duplicate.id, into.id)
    if together is not None:
        # Two people at one table are two people: merged, one evening would count twice and their money
        # against each other would vanish from the head-to-head.
        raise InvalidRequest(f"into: {duplicate.name} and {into.name} played at the same table "
                             f"(evening {together}): they are two people, not a duplicate", "into")
    before = {"member": member_view(db, duplicate), "into": member_view(db, into)}
    locked = [group_store.find_session_and_group(db, session_id, lock=True)[0]
              for session_id in group_store.evenings_of_member(db, duplicate.id)]
    group_store.move_member(db, duplicate.id, into.id)
    aliases = _distinct([*before["into"]["aliases"], duplicate.name, *before["member"]["aliases"]], into.name)
    if len(aliases) > limits.max_aliases:  # the two members' names and aliases together
        abort(422, message=say("too_many_aliases", maximum=limits.max_aliases), field="into")
    group_store.set_aliases(db, duplicate, [])
    db.flush()
    group_store.set_aliases(db, into, aliases)
    for session in locked:
        rewrite_figures(db, session)
    db.flush()
    group_store.delete_member(db, duplicate)
    check_group_money(db, group.id, "into", [into.id])
    audit(db, group, "merge", caller.who, before=before, after={"id": into.id, "name": into.name, "aliases": aliases})
    db.commit()
    return member_view(db, into)


def new_member_id() -> str:
    """A member's stable id: random, so that ids of two groups never meet (imports make new ones)."""
    return secrets.token_hex(MEMBER_ID_BYTES)


def _distinct(aliases: Iterable[str], name: str) -> list[str]:
    """The aliases once each, in order, without the member's own name."""
    return [alias for alias in dict.fromkeys(aliases) if alias != name]


def _check_free(db: Session, group_id: str, texts: list[str], member_id: str | None = None) -> None:
    """A member's name and aliases (``texts``, the name first) are neither another member's nor look like one
    (``ledger.names``); refused naming the first that is, as ``name`` or ``aliases[i]``.

    One lookup by key for them all (``group_store.names_like``): one each was hundreds under the write lock."""
    others = [other for owner, other in group_store.names_like(db, group_id, texts) if owner != member_id]
    for index, text in enumerate(texts):
        field = "name" if index == 0 else f"aliases[{index - 1}]"
        found = [other for other in others if same_person(text, other)]
        if text in found:
            raise InvalidRequest(f"{field}: {text!r} is already another member's name or alias in this group", field)
        check_unlike(text, found, field)


# -- evenings ----------------------------------------------------------------------


def start_evening(db: Session, body: Mapping, caller: Caller, limits: Limits) -> tuple[SessionRow, str, str]:
    """Start an evening of the group ``body["group"]`` (``POST /api/sessions``) and commit; it, its write token
    and its read-only token. The caller's token must be the group's member or admin token."""
    group = locked_group(db, body["group"], caller.token, MEMBER)
    filled, members = evening_body(db, group, body)
    session, token, read_token = new_session(filled, limits)
    db.add(session)
    db.flush()
    join_evening(db, group, session, {member.name: member.id for member in members}, limits.max_group_evenings)
    audit(db, group, "evening", caller.who, after={"session": session.id, "name": session.name})
    db.commit()
    return session, token, read_token


def evening_body(db: Session, group: GroupRow, body: Mapping) -> tuple[dict, list[MemberRow]]:
    """A ``POST /api/sessions`` body for a group evening: the group's defaults filled in, players named by
    their members' current names; and the four members."""
    defaults = group.defaults or {}
    if body.get("ruleset") is not None and body["ruleset"] != defaults.get("ruleset"):
        # Another rule set for this evening: the defaults' stakes, options and house rules are another's.
        defaults = {}
    filled = {key: body.get(key) if body.get(key) is not None else defaults.get(key)
              for key in ("ruleset", "stakes", "house_rules")}
    filled["options"] = {**(defaults.get("options") or {}), **(body.get("options") or {})}
    for key in ("ruleset", "stakes"):
        if filled[key] is None:
            raise InvalidRequest(f"{key}: give it, or set it in the group's defaults", key)
    members = [named_member(db, group.id, ref, f"players[{index}]") for index, ref in enumerate(body["players"])]
    _check_distinct_members(members, [f"players[{index}]" for index in range(len(members))])
    return {**filled, "name": body["name"], "players": [member.name for member in members]}, members


def _check_distinct_members(members: list[MemberRow], fields: list[str]) -> None:
    seen: set[str] = set()
    for member, field in zip(members, fields):
        if member.id in seen:
            raise InvalidRequest(f"{field}: {member.name} is named twice (a member sits once)", field)
        seen.add(member.id)


def join_evening(db: Session, group: GroupRow, session: SessionRow, players: Mapping[str, str],
                 max_evenings: int | None, entries: list[EntryRow] | None = None) -> None:
    """Make ``session`` an evening of the group, its players mapped to members, and write its figures;
    ``max_evenings`` refuses one past it (None for an import, bounded by its schema)."""
    if max_evenings is not None and group_store.count_evenings(db, group.id) >= max_evenings:
        abort(422, message=say("too_many_evenings", maximum=max_evenings), field="group")
    db.add(GroupEveningRow(session_id=session.id, group_id=group.id, day=as_utc(session.created_at).date()))
    db.flush()
    db.add_all(EveningPlayerRow(session_id=session.id, player=player, member_id=member)
               for player, member in players.items())
    db.flush()
    rewrite_figures(db, session, entries)


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
            members.append(named_member(db, group.id, sent[name], f"players.{name}"))
            continue
        member = group_store.member_answering_to(db, group.id, name)
        if member is None:
            raise InvalidRequest(f"players.{name}: say which member {name!r} is (no member or alias has that name)",
                                 f"players.{name}")
        members.append(member)
    _check_distinct_members(members, [f"players.{name}" for name in names])
    return {name: member.id for name, member in zip(names, members)}


def attach_evening(db: Session, group_id: str, caller: Caller, session_id: str, session_token: str,
                   players: Mapping[str, str], limits: Limits) -> tuple[SessionRow, dict[str, str]]:
    """Make an existing evening the group's, mapping its players, and commit; its own write token must come
    along (``session_token``): 404 for no such evening, 403 for another token."""
    group = locked_group(db, group_id, caller.token, MEMBER)
    session, evening_group = group_store.find_session_and_group(db, session_id, lock=True)
    if session is None:
        raise Missing("no_session", session_id=session_id)
    if not token_matches(session_token, session.token_hash):
        abort(403, message="token: this is not the evening's write token.", field="token")
    if evening_group is not None:
        raise InvalidRequest("session: this evening already belongs to a group", "session")
    mapped = map_players(db, group, session, players)
    join_evening(db, group, session, mapped, limits.max_group_evenings)
    check_group_money(db, group.id, "session", mapped.values())
    audit(db, group, "attach", caller.who, after={"session": session.id, "name": session.name, "players": mapped})
    db.commit()
    return session, mapped


def add_imported_evening(db: Session, group: GroupRow, session: SessionRow, players: Mapping[str, str],
                         who: str, limits: Limits, entries: list[EntryRow]) -> dict[str, str]:
    """Join an imported evening (written, its ``entries`` at hand) to the group, its players mapped; audited,
    not committed."""
    mapped = map_players(db, group, session, players)
    join_evening(db, group, session, mapped, limits.max_group_evenings, entries)
    check_group_money(db, group.id, "export", mapped.values())
    audit(db, group, "import", who, after={"session": session.id, "name": session.name, "players": mapped})
    return mapped


def delete_evening(db: Session, group_id: str, session_id: str, caller: Caller) -> None:
    """Delete an evening of the group (started by mistake) with everything it recorded, and commit. Audited;
    payments that named it stay, naming no evening."""
    group = locked_group(db, group_id, caller.token, ADMIN)
    if not _group_has_evening(db, group.id, session_id):
        raise Missing("no_evening", session_id=session_id)
    session, _ = group_store.find_session_and_group(db, session_id, lock=True)
    before = {"session": session.id, "name": session.name, "totals": session.totals,
              "players": group_store.evening_players(db, [session.id])[session.id]}
    db.delete(session)
    db.flush()
    audit(db, group, "delete_evening", caller.who, before=before)
    db.commit()


def _group_has_evening(db: Session, group_id: str, session_id: str) -> bool:
    evening = group_store.group_evening(db, session_id)
    return evening is not None and evening.group_id == group_id


# -- payments and seasons -----------------------------------------------------------


def record_payments(db: Session, group_id: str, caller: Caller, payments: list[Mapping], session_id: str | None,
                    prefix: str = "") -> list[dict]:
    """Record payments between members (all or none) and commit; their views. ``prefix`` names them in errors
    (``payments[0].``)."""
    group = locked_group(db, group_id, caller.token, MEMBER)
    rows = []
    # Each member and evening a batch names is looked up once: a query per payment under the write lock held
    # every table back (benchmarks/abuse.py "group-writes").
    members: dict[str, MemberRow | None] = {}
    evenings: dict[str, bool] = {}
    for index, payment in enumerate(payments):
        at = prefix.format(index=index)
        payer, payee = (_member_once(db, group.id, members, payment[side], f"{at}{side}") for side in ("from", "to"))
        if payer.id == payee.id:
            raise InvalidRequest(f"{at}to: a payment from {payer.name} to themselves", f"{at}to")
        if payment["amount"] <= 0:
            raise InvalidRequest(f"{at}amount: a payment is a positive whole amount, not {payment['amount']}",
                                 f"{at}amount")
        evening = payment.get("session", session_id)
        if evening is not None and evening not in evenings:
            evenings[evening] = _group_has_evening(db, group.id, evening)
        if evening is not None and not evenings[evening]:
            raise InvalidRequest(f"{at}session: no evening {evening!r} in this group", f"{at}session")
        rows.append(PaymentRow(group_id=group.id, from_member=payer.id, to_member=payee.id,
                               amount=payment["amount"], note=payment.get("note") or "", session_id=evening))
    db.add_all(rows)
    db.flush()
    check_group_money(db, group.id, f"{prefix.format(index=0)}amount" if len(rows) == 1 else "payments",
                      [member for row in rows for member in (row.from_member, row.to_member)])
    names = member_names(db, group.id)
    views = [payment_view(row, names) for row in rows]
    for view in views:
        audit(db, group, "payment", caller.who, after=view)
    db.commit()
    return views


def _member_once(db: Session, group_id: str, found: dict, ref: str, field: str) -> MemberRow:
    """``find_member``, remembering in ``found`` what each reference named."""
    if ref not in found:
        found[ref] = group_store.find_member(db, group_id, ref)
    if found[ref] is None:
        return named_member(db, group_id, ref, field)  # the same refusal, naming this field
    return found[ref]


def void_payment(db: Session, group_id: str, payment_id: int, caller: Caller) -> dict:
    """Void a payment (it stays, counting for nothing) and commit; its view. Voiding twice is a no-op."""
    group = locked_group(db, group_id, caller.token, MEMBER)
    payment = group_store.find_payment(db, group.id, payment_id) if payment_id <= ROW_ID_MAX else None
    if payment is None:
        raise Missing("no_payment", payment_id=payment_id)
    view = payment_view(payment, member_names(db, group.id))
    if not payment.void:
        payment.void = True
        audit(db, group, "payment_void", caller.who, before=view)
        view = {**view, "void": True}
    db.commit()
    return view


def add_season(db: Session, group_id: str, caller: Caller, name: str, first: datetime.date,
               last: datetime.date) -> dict:
    """Define a season (both days included) and commit; its view."""
    group = locked_group(db, group_id, caller.token, ADMIN)
    check_period(first, last)
    season = SeasonRow(group_id=group.id, name=name, first_day=first, last_day=last)
    db.add(season)
    db.flush()
    view = season_view(season)
    audit(db, group, "season", caller.who, after=view)
    db.commit()
    return view


# -- balances ------------------------------------------------------------------------


def group_balances(db: Session, group_id: str, round_to: int | None = None) -> tuple[Balances, list[MemberRow]]:
    """The balances of the group's members (``ledger.balances``) and the roster they are of."""
    members, evenings, payments = _money(db, group_id)
    return balances({member.id: member.name for member in members}, evenings, payments, round_to), members


def _money(db: Session, group_id: str) -> tuple[list[MemberRow], list[EveningTotals], list[Payment]]:
    """The group's roster, its evenings' totals and its payments, as ``ledger.balances`` takes them."""
    members = group_store.list_members(db, group_id)
    rows = group_store.evening_totals(db, group_id)
    players = group_store.evening_players(db, [session_id for session_id, _, _ in rows])
    evenings = [EveningTotals(session_id, name, totals, players[session_id]) for session_id, name, totals in rows]
    payments = [Payment(row.id, row.from_member, row.to_member, row.amount, row.void)
                for row in group_store.list_payments(db, group_id)]
    return members, evenings, payments


def audit(db: Session, group: GroupRow, action: str, who: str, *, before: dict | None = None,
          after: dict | None = None) -> None:
    """One line of the group's audit trail."""
    db.add(AuditLineRow(group_id=group.id, action=action, who=who, before=before, after=after))
