"""Recording an evening (記帳): start it, append hands and seat changes, void and correct hands, and more.

Every change is one transaction, read here top to bottom: ``_locked`` begins the write, reads the session
holding its lock and checks the caller's token against the locked row (new links may have been issued
since the route checked); the ledger applies the change; ``_commit_change`` commits: all or nothing.
Appending resumes from the stored state (no replay); a void or correction replays every entry. A
group's evening rewrites its ``evening_figures`` in the same transaction, so standings never see it
half changed. Every change moves ``revision`` on by one and leaves a ``ChangeRow`` at it: what the live
stream sends and a stale ``If-Match`` is answered with (412). A retry with a used ``Idempotency-Key``
gets the first answer before the revision is looked at; a unique constraint backs the key up.
"""
import datetime
import hashlib
import json
from collections.abc import Mapping
from types import SimpleNamespace

from flask_smorest import abort
from sqlmodel import Session

from api.http.auth import ORGANIZER, OWNER, WRITE, Caller, evening_access, new_id, new_token, table_tokens, \
    token_hash, token_matches
from api.http.db import begin_write
from api.http.errors import Closed, Missing, Stale
from api.http.language import say
from api.http.limits import Limits
from api.http.live import Change, keep_for_streams
from api.sessions.views import entry_view, hand_view, house_rules_view, session_state, session_view
from ledger import competition_store, group_store, store
from ledger.entries import HAND, RULES, SEAT
from ledger.errors import InvalidRequest
from ledger.group_evenings import check_group_money, rewrite_figures, seat_member
from ledger.explain import explain_hand
from ledger.house_rules import check_house_rules
from ledger.recorder import Event, Recorder
from ledger.store import AuditRow, EntryRow, SessionRow, as_utc, opening_rules, utc_now


def create_session(db: Session, body: Mapping, limits: Limits) -> tuple[SessionRow, str, str]:
    """Start an evening of no group from a validated request and commit; it, its write token and its read-only
    token (shown only once). A group's evening is the group's to start (``api.groups.service.start_evening``)."""
    session, token, read_token = new_session(body, limits)
    begin_write(db)
    db.add(session)
    db.commit()
    return session, token, read_token


def new_session(body: Mapping, limits: Limits) -> tuple[SessionRow, str, str]:
    """A new session row from a validated request (not yet added), its write token and its read-only token."""
    recorder = Recorder.start(body["ruleset"], body["players"], body["stakes"], body.get("options"),
                              body.get("house_rules"), max_participants=limits.max_participants)
    token, read_token = new_token(), new_token()
    session = SessionRow(
        id=new_id(), name=body["name"], ruleset=body["ruleset"], players=list(body["players"]),
        stakes=dict(body["stakes"]), options=recorder.table.options, house_rules=recorder.table.house_rules,
        token_hash=token_hash(token), read_token_hash=token_hash(read_token), state=recorder.state.to_dict(),
        totals=recorder.totals,
    )
    return session, token, read_token


def record_hand(db: Session, session_id: str, body: Mapping, caller: Caller, limits: Limits) -> dict:
    """Record a finished hand at the end of the evening and commit; its view."""
    session, group_id, caller = _locked(db, session_id, caller)
    return _append(db, session, group_id, HAND, body, caller, limits)


def seat_player(db: Session, session_id: str, body: dict, caller: Caller, limits: Limits) -> dict:
    """From the next hand on, ``body["player"]`` sits in ``body["seat"]``: a seat change, recorded at the end
    of the evening and committed; its view.

    In a group's evening the player is a member (its id or current name,
    ``ledger.group_evenings.seat_member``), recorded by its current name.
    """
    session, group_id, caller = _locked(db, session_id, caller, OWNER)
    if group_id is not None:
        body = {**body, "player": seat_member(db, session.id, group_id, body["player"])}
    return _append(db, session, group_id, SEAT, body, caller, limits)


def change_house_rules_from_next_hand(db: Session, session_id: str, body: object, caller: Caller,
                                     limits: Limits) -> dict:
    """From the next hand on the table plays under the house rules ``body`` (RULES.md §8); its view.

    An entry at the end of the evening with an audit line: the hands before keep their rules, and the first
    such change keeps the opening rules (``opening_house_rules``, where a replay starts)."""
    if not isinstance(body, dict):
        raise InvalidRequest("the body must be the house rules, an object ({} for none)", "house_rules")
    session, group_id, caller = _locked(db, session_id, caller, OWNER)
    check_house_rules(session.ruleset, body, session.options)  # a bad body is 422 first, as for PUT
    return _append(db, session, group_id, RULES, body, caller, limits)


def _append(db: Session, session: SessionRow, group_id: str | None, kind: str, body: Mapping, caller: Caller,
            limits: Limits) -> dict:
    """Record a hand, a seat change or a change of the house rules (``kind``) at the end of the evening, its lock
    held, and commit."""
    digest = _checked_digest(kind, body, caller.key)
    earlier = _earlier_response(caller, digest)
    if earlier is not None:
        db.commit()  # nothing to write: the lock goes
        return earlier
    after_round = _check_change(db, session, caller, hand=kind == HAND)
    if kind == HAND and session.hand_count >= limits.max_hands:
        raise InvalidRequest(f"An evening holds at most {limits.max_hands} hands: start a new evening.", "hands")
    if kind == RULES and session.entry_count - session.hand_count >= limits.max_hands:
        raise InvalidRequest(f"An evening holds at most {limits.max_hands} seat changes and changes of its house "
                             "rules: start a new evening.", "house_rules")
    recorder = Recorder.resume(session.ruleset, session.players, session.stakes, session.options,
                               session.state, session.totals, session.house_rules,
                               max_participants=limits.max_participants, hands_entered=session.hand_count)
    result = recorder.record(kind, body)
    if kind == RULES:  # the document as checked is what the entry keeps (and what a replay reads)
        body = result["house_rules"]
        if session.opening_house_rules is None:
            session.opening_house_rules = session.house_rules or {}
        session.house_rules = result["house_rules"]
    now = utc_now()
    entry = EntryRow(session_id=session.id, position=session.entry_count + 1, kind=kind,
                     number=session.hand_count + 1 if kind == HAND else None, body=dict(body), result=result,
                     idempotency_key=caller.key, request_hash=digest, client=caller.who, created_at=now,
                     updated_at=now)
    view = entry_view(entry, session)
    answer = recorded_view(view, session, recorder) if kind == HAND else view
    if caller.key is not None:
        entry.response = answer
    session.entry_count += 1
    session.hand_count += 1 if kind == HAND else 0
    _save_state(session, recorder, now)
    _record_change(db, session, group_id, "house_rules" if kind == RULES else kind, entry, view)  # entry.id now
    if kind == RULES:
        db.add(AuditRow(session_id=session.id, entry_id=entry.id, action="house_rules_from", who=caller.who,
                        role=caller.role, before=result["before"], after=result["house_rules"]))
    elif kind == HAND and after_round:  # a hand at a competition's table after its round ended moves the standings
        db.add(AuditRow(session_id=session.id, entry_id=entry.id, number=entry.number, action="hand", who=caller.who,
                        role=caller.role, after=dict(body)))
    db.commit()
    return answer


def recorded_view(view: dict, session: SessionRow, recorder: Recorder) -> dict:
    """A hand as ``POST …/hands`` answers it, with the evening's ``revision`` and ``totals`` after it, so a tap
    on Record paints the new totals in one round trip (``benchmarks/page_load.py``)."""
    return {**view, "revision": session.revision + 1, "totals": dict(recorder.totals)}


def void_hand(db: Session, session_id: str, number: int, caller: Caller, limits: Limits) -> dict:
    """Void (作廢) hand ``number``: it stays, marked, and counts for nothing. Voiding twice is a no-op."""
    session, group_id, caller = _locked(db, session_id, caller)
    _check_change(db, session, caller)
    entries = store.list_entries(db, session.id)
    hand = _hand(entries, number)
    if hand.void:
        db.commit()  # nothing to write: the lock goes
        return hand_view(hand, session)
    _audit(db, hand, "void", caller, after=None)
    hand.void = True
    _rebuild(session, entries, limits)
    _commit_change(db, session, group_id, "void", hand)
    return hand_view(hand, session)


def correct_hand(db: Session, session_id: str, number: int, body: Mapping, caller: Caller, limits: Limits) -> dict:
    """Replace hand ``number``'s body (更正), restoring a voided hand; the same body changes nothing."""
    session, group_id, caller = _locked(db, session_id, caller)
    _check_change(db, session, caller)
    entries = store.list_entries(db, session.id)
    hand = _hand(entries, number)
    if not hand.void and hand.body == body:
        db.commit()  # nothing to write: the lock goes
        return hand_view(hand, session)
    _audit(db, hand, "restore" if hand.void else "correct", caller, after=dict(body))
    hand.body = dict(body)
    hand.void = False
    _rebuild(session, entries, limits, changed=hand)
    _commit_change(db, session, group_id, "correct", hand)
    return hand_view(hand, session)


def change_house_rules(db: Session, session_id: str, house_rules: object, caller: Caller, limits: Limits) -> dict:
    """Give the whole evening new house rules and commit; the session's view, with ``replaced``.

    Once hands are recorded this is a correction of the whole evening: every hand replayed under them (one
    they make impossible is a 422 naming it), every mid-evening change voided with an audit line, and one
    audit line for the whole. Sending the rules it started with, never changed, changes nothing."""
    if not isinstance(house_rules, dict):
        raise InvalidRequest("the body must be the house rules, an object ({} for none)", "house_rules")
    session, group_id, caller = _locked(db, session_id, caller, OWNER)
    after = check_house_rules(session.ruleset, house_rules, session.options)  # a bad body is 422 first
    _check_change(db, session, caller)
    before = opening_rules(session)
    entries = store.list_entries(db, session.id)  # before the change: its query would flush it (two revisions)
    replaced = [entry for entry in entries if entry.kind == RULES and not entry.void]
    if after != before or replaced:
        now = utc_now()
        for change in replaced:
            change.void, change.updated_at = True, now
        session.house_rules, session.opening_house_rules = after, None
        _rebuild(session, entries, limits, keep_scores=False)
        if session.hand_count or replaced:
            db.add(AuditRow(session_id=session.id, action="house_rules", who=caller.who, role=caller.role,
                            before=before, after=after))
        db.add_all(AuditRow(session_id=session.id, entry_id=change.id, action="house_rules_replaced",
                            who=caller.who, role=caller.role, before=change.result["house_rules"], after=after)
                   for change in replaced)
        _commit_change(db, session, group_id, "house_rules")
    return {**_ended_with_view(db, session, group_id, caller),
            "replaced": [house_rules_view(change) for change in replaced]}


def close(db: Session, session_id: str, caller: Caller) -> dict:
    """Close the evening (結束): every later change is refused until it is reopened. Closing twice is a no-op."""
    session, group_id, caller = _locked(db, session_id, caller, OWNER)
    if session.closed_at is None:
        _check_change(db, session, caller)
        session.closed_at = session.updated_at = utc_now()
        db.add(AuditRow(session_id=session.id, action="close", who=caller.who, role=caller.role))
        _commit_change(db, session, group_id, "close")
    return _ended_with_view(db, session, group_id, caller)


def reopen(db: Session, session_id: str, caller: Caller) -> dict:
    """Reopen a closed evening (a no-op on an open one). A competition's table only by its organiser, so that
    a table cannot play on past its round's end."""
    session, group_id, caller = _locked(db, session_id, caller, OWNER)
    if session.closed_at is not None:
        _check_revision(db, session, caller.expected)
        session.closed_at = None
        session.updated_at = utc_now()
        db.add(AuditRow(session_id=session.id, action="reopen", who=caller.who, role=caller.role))
        _commit_change(db, session, group_id, "reopen")
    return _ended_with_view(db, session, group_id, caller)


def close_tables(db: Session, sessions: list[SessionRow], group_id: str | None, who: str) -> None:
    """Close evenings, their locks held, in the transaction of a competition's round ending, not committed (as
    ``close``: a revision, an audit line, a live event each); an evening closed already stays as it is."""
    closing = [session for session in sessions if session.closed_at is None]
    now = utc_now()
    if group_id is not None:
        for session in closing:
            session.closed_at = session.updated_at = now
    else:
        store.move_sessions(db, closing, closed_at=now, updated_at=now)
    db.add_all(AuditRow(session_id=session.id, action="close", who=who, role=ORGANIZER) for session in closing)
    _record_changes(db, closing, group_id, "close")


def tables_round_started(db: Session, sessions: list[SessionRow]) -> None:
    """A competition's tables learn their round's clock started: a ``round`` change each, in the competition's
    transaction. Sent on each evening's own stream, which its phones follow already, not the competition's."""
    store.move_sessions(db, sessions, updated_at=utc_now())
    _record_changes(db, sessions, None, "round")  # nothing of the group's money moved


def reopen_locked_table(db: Session, session: SessionRow, group_id: str | None, who: str) -> None:
    """Reopen a competition's table for the organiser (a correction after its round ended), its lock held, in
    the competition's transaction, not committed; an open evening stays as it is."""
    if session.closed_at is not None:
        session.closed_at = None
        session.updated_at = utc_now()
        db.add(AuditRow(session_id=session.id, action="reopen", who=who, role=ORGANIZER))
        _record_change(db, session, group_id, "reopen")


def replace_tokens(db: Session, session_id: str, caller: Caller) -> tuple[str, str]:
    """New write and read-only tokens for the session; the old ones are retired (401 from now on).

    Not a change to the evening: the revision stays (``store.set_tokens``, past the ORM's version counter).
    A competition's table gets them from its organiser only (``OWNER``), derived from the organiser's token
    (``api.http.auth.table_tokens``) with one more renewal, so that its links are still shown.
    """
    session, _, caller = _locked(db, session_id, caller, OWNER)
    token, read_token = new_token(), new_token()
    table = None if caller.at is None else competition_store.find_table(db, session.id)
    if table is not None:
        table.links += 1
        token, read_token = table_tokens(caller.token, session.id, table.links)
    retired = [hash_ for hash_ in (session.token_hash, session.read_token_hash) if hash_ is not None]
    db.add_all(store.RetiredTokenRow(token_hash=hash_, session_id=session.id) for hash_ in retired)
    store.set_tokens(db, session.id, token_hash(token), token_hash(read_token))
    db.commit()
    return token, read_token


# -- previews: worked out by the code that records, never written ------------------------


def preview_hand(session: SessionRow, body: Mapping, limits: Limits) -> dict:
    """The hand ``body`` would be if recorded now (number, dealer, payments, lines), and the totals after it."""
    recorder = Recorder.resume(session.ruleset, session.players, session.stakes, session.options,
                               session.state, session.totals, session.house_rules,
                               max_participants=limits.max_participants)
    result = recorder.record(HAND, body)
    return {"number": session.hand_count + 1,
            **{key: result[key] for key in ("dealer", "streak", "round_wind", "hand_wind", "wasteland",
                                             "payments", "scores")},
            "lines": explain_hand(session.ruleset, session.stakes, session.options, body, result,
                                  session.house_rules),
            "state": result["after"], "totals": recorder.totals}


def preview_change(db: Session, session: SessionRow, number: int, body: Mapping | None, limits: Limits) -> dict:
    """What voiding hand ``number`` (``body`` None) or giving it ``body`` would change: every hand whose dealer,
    streak, values or payments move, before and after (the hand itself first), and the totals before and after."""
    stored = store.list_entries(db, session.id)
    entries = [SimpleNamespace(kind=e.kind, body=e.body, void=e.void, number=e.number, result=e.result)
               for e in stored]
    target = next((e for e in entries if e.kind == HAND and e.number == number), None)
    if target is None:
        raise Missing("no_hand", number=number)
    action = "void" if body is None else ("restore" if target.void else "correct")
    if body is None:
        target.void = True
    else:
        target.body, target.void = body, False
    recorder, results = replay_entries(session, entries, limits, keep_scores=True, changed=target)
    changes = []
    for old, new, result in zip(stored, entries, results):
        if new.kind == HAND:
            before, after = _side(old.void, old.result), _side(new.void, result)
            if before != after:
                changes.append({"number": new.number, "before": before, "after": after})
    changes.sort(key=lambda item: item["number"] != number)
    return {"number": number, "action": action, "changes": changes, "totals_before": session.totals,
            "totals_after": recorder.totals}


def preview_house_rules(db: Session, session: SessionRow, house_rules: object, limits: Limits) -> dict:
    """What ``PUT …/house_rules`` would change: hands moved (before and after), totals, the mid-evening changes
    it would replace; its 422s are ``PUT``'s."""
    if not isinstance(house_rules, dict):
        raise InvalidRequest("the body must be the house rules, an object ({} for none)", "house_rules")
    after = check_house_rules(session.ruleset, house_rules, session.options)
    stored = store.list_entries(db, session.id)
    entries = [SimpleNamespace(kind=e.kind, body=e.body, void=e.void or e.kind == RULES, number=e.number,
                               result=e.result) for e in stored]
    recorder, results = replay_entries(session, entries, limits, opening=after)
    changes = []
    for old, new, result in zip(stored, entries, results):
        if new.kind == HAND:
            before, corrected = _side(old.void, old.result), _side(new.void, result)
            if before != corrected:
                changes.append({"number": new.number, "before": before, "after": corrected})
    return {"house_rules": after, "changes": changes, "totals_before": session.totals,
            "totals_after": recorder.totals,
            "replaces": [house_rules_view(e) for e in stored if e.kind == RULES and not e.void]}


def _side(void: bool, result: dict) -> dict:
    """What a table compares of one hand: void, dealer, streak, each winner's value, payments."""
    return {"void": void, "dealer": result["dealer"], "streak": result["streak"],
            "values": [score.get("tai", score.get("points")) for score in result["scores"]],
            "payments": result["payments"]}


def replay_entries(session: SessionRow, entries: list, limits: Limits, *, keep_scores: bool = False,
                   changed=None, opening: dict | None = None) -> tuple[Recorder, list[dict]]:
    """Replay the stored entries from the start under the opening house rules (``opening`` for a preview).

    With ``keep_scores`` a full entry whose table is where it was keeps its stored score, unless it is
    ``changed`` (its body was just replaced)."""
    events = [Event(entry.kind, entry.body, entry.void, entry.number,
                    entry.result if keep_scores and entry is not changed else None) for entry in entries]
    return Recorder.replay(session.ruleset, session.players, session.stakes, session.options, events,
                           opening_rules(session) if opening is None else opening,
                           max_participants=limits.max_participants)


def request_digest(kind: str, body: Mapping) -> str:
    """A SHA-256 of the request (its kind and canonical JSON), to recognise a retry.

    >>> request_digest("hand", {"a": 1, "b": 2}) == request_digest("hand", {"b": 2, "a": 1})
    True
    """
    text = json.dumps([kind, body], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# -- the transaction ------------------------------------------------------------------


def _locked(db: Session, session_id: str, caller: Caller, need: str = WRITE) -> tuple[SessionRow, str | None, Caller]:
    """Begin the write, read the session and its group's id holding its lock; 404/401/403 unless the caller's
    token is (still) a writing one (``need``: ``OWNER``). The caller, and at a table its audit role."""
    begin_write(db)
    session, group_id, earlier = group_store.lock_evening(db, session_id, caller.key)
    level = evening_access(db, session_id, caller.token, session, group_id, need)
    at = None if session.competition_id is None else competition_store.table_place(db, session.id)
    role = None
    if at is not None and level == ORGANIZER:
        role = ORGANIZER
    elif at is not None and token_matches(caller.token, session.token_hash):
        role = f"table {at.number} of round {at.round}"
    return session, group_id, caller._replace(level=level, role=role, at=at, earlier=earlier)


def _check_change(db: Session, session: SessionRow, caller: Caller, hand: bool = False) -> bool:
    """Refuse a closed evening (``Closed``) or a stale revision (``Stale``); whether the change comes at a
    competition's table after its round ended (a ``hand`` may, within the grace: ``_table_after_round``)."""
    after_round = caller.at is not None and caller.at.ended_at is not None
    if after_round:
        _table_after_round(db, session, caller, caller.at, hand)
    elif session.closed_at is not None:
        if caller.at is not None and caller.level != ORGANIZER:  # a table's own link cannot reopen it
            raise Closed("closed_table")
        raise Closed("closed")
    _check_revision(db, session, caller.expected)
    return after_round


def _table_after_round(db: Session, session: SessionRow, caller: Caller, at: competition_store.TablePlace,
                       hand: bool) -> None:
    """At a table whose round ended: only the hand in play, within the grace, until the next round is drawn
    (whose draw took the standings as final); 409 otherwise."""
    grace = at.grace_until is not None and utc_now() <= as_utc(at.grace_until)
    if session.closed_at is not None:
        grace = grace and hand and not competition_store.hand_recorded_since(db, session.id, as_utc(at.ended_at))
    elif caller.level == ORGANIZER:
        return
    if grace and competition_store.later_round_drawn(db, at.competition_id, at.round):
        abort(409, message=say("next_round_drawn", number=at.round, next=at.round + 1))
    if not grace:
        if session.closed_at is not None:
            raise Closed("round_ended_table")
        abort(409, message=say("round_over_table", number=at.round))


def _check_revision(db: Session, session: SessionRow, expected: int | None) -> None:
    """``Stale`` with what changed since, if the change was made against another revision than the session's."""
    if expected is not None and expected != session.revision:
        # A revision the session has not reached yet (a client's mistake) has no changes since it.
        since = store.changes_after(db, session.id, expected) if expected < session.revision else []
        raise Stale(session.revision, _changed_entries(db, session, since))


def _commit_change(db: Session, session: SessionRow, group_id: str | None, kind: str,
                   entry: EntryRow | None = None, view: dict | None = None) -> None:
    """Write the change (the session's new revision, and what live updates send of it) and commit."""
    _record_change(db, session, group_id, kind, entry, view)
    db.commit()


def _record_change(db: Session, session: SessionRow, group_id: str | None, kind: str,
                   entry: EntryRow | None = None, view: dict | None = None) -> None:
    """Write the change (the session's new revision, and what live updates send of it) and a new ``entry`` (one
    not added to ``db``, given its id here), not committed."""
    db.flush()  # the session's UPDATE: its revision is now the change's
    if entry is not None and view is None:
        view = entry_view(entry, session)
    data = {"revision": session.revision, "kind": kind, "entry": view, "state": session_state(session),
            "totals": session.totals}
    if entry is not None and entry.id is None:
        store.add_entry_and_change(db, entry, session.revision, kind, data)
    else:
        store.add_change(db, session.id, session.revision, kind, None if entry is None else entry.id, data)
    keep_for_streams(db, Change(session.id, session.revision, kind, data))
    if group_id is not None:
        rewrite_figures(db, session)
        if kind != SEAT:  # the evening's totals moved: so did its members' money in the group
            check_group_money(db, group_id, kind, evening=session.id)


def _record_changes(db: Session, sessions: list[SessionRow], group_id: str | None, kind: str) -> None:
    """``_record_change`` of a round's evenings at once, in one flush: a flush per evening walks every evening
    the transaction holds."""
    if group_id is not None:
        for session in sessions:  # a group's figures and money, evening by evening
            _record_change(db, session, group_id, kind)
        return
    db.flush()  # the audits; the sessions' revisions are the changes' already (store.move_sessions)
    changes = [Change(session.id, session.revision, kind, {
        "revision": session.revision, "kind": kind, "entry": None, "state": session_state(session),
        "totals": session.totals}) for session in sessions]
    store.add_changes(db, [(change.session_id, change.revision, kind, change.data) for change in changes])
    for change in changes:
        keep_for_streams(db, change)


def _ended_with_view(db: Session, session: SessionRow, group_id: str | None, caller: Caller) -> dict:
    """The session's view, as a change answers, its write ended (a no-op commits nothing)."""
    if db.in_transaction():
        db.commit()
    return session_view(session, store.list_side_entries(db, session), caller.level or WRITE, group_id)


def _checked_digest(kind: str, body: Mapping, key: str | None) -> str | None:
    """The request's digest if it has an ``Idempotency-Key`` (422 for a key too long or empty), else None."""
    if key is None:
        return None
    if not key or len(key) > store.KEY_LENGTH:
        raise InvalidRequest(f"Idempotency-Key must be 1 to {store.KEY_LENGTH} characters", "Idempotency-Key")
    return request_digest(kind, body)


def _earlier_response(caller: Caller, digest: str | None) -> dict | None:
    """The first response to this request if its key was used before (422 if for another request): the entry
    read with the lock (``group_store.lock_evening``)."""
    earlier, key = caller.earlier, caller.key
    if earlier is None:
        return None
    if earlier.request_hash != digest:
        what = {HAND: f"hand {earlier.number}", SEAT: "a seat change"}.get(earlier.kind, "a change of house rules")
        raise InvalidRequest(f"Idempotency-Key {key!r} was already used for a different request "
                             f"({what}); send a new key with a new entry", "Idempotency-Key")
    return earlier.response


def _hand(entries: list[EntryRow], number: int) -> EntryRow:
    for entry in entries:
        if entry.kind == HAND and entry.number == number:
            return entry
    raise Missing("no_hand", number=number)


def _changed_entries(db: Session, session: SessionRow, changes: list[store.ChangeRow]) -> list[dict]:
    """The entries these changes made or changed, each once, as they are now (hands as ``GET …/hands`` shows them)."""
    ids = list(dict.fromkeys(change.entry_id for change in changes if change.entry_id is not None))
    entries = {entry.id: entry for entry in store.find_entries(db, ids)}
    return [entry_view(entries[entry_id], session) for entry_id in ids]


def _audit(db: Session, hand: EntryRow, action: str, caller: Caller, *, after: dict | None) -> None:
    db.add(AuditRow(session_id=hand.session_id, entry_id=hand.id, number=hand.number, action=action,
                    who=caller.who, role=caller.role, before=hand.body, after=after))


def _rebuild(session: SessionRow, entries: list[EntryRow], limits: Limits, changed: EntryRow | None = None, *,
             keep_scores: bool = True) -> None:
    recorder, results = replay_entries(session, entries, limits, keep_scores=keep_scores, changed=changed)
    now = utc_now()
    for entry, result in zip(entries, results):
        if entry.result != result:
            entry.result = result
            entry.updated_at = now
    _save_state(session, recorder, now)


def _save_state(session: SessionRow, recorder: Recorder, now: datetime.datetime) -> None:
    session.state = recorder.state.to_dict()
    session.totals = recorder.totals
    session.updated_at = now
