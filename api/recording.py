"""Recording a session (記帳): create it, append hands and seat changes, void and correct hands.

Every change is one transaction on the request's database session, begun
by the view's ``SecuredBlueprint.secured`` as a write holding the session's
lock (``store.lock_session``), which checked the token against the locked
row. Here the change is applied through the ledger, written through the ORM
and committed: everything or nothing.

- ``append``: a hand or a seat change goes on the end of the evening. The
  recorder resumes from the stored state and totals (no replay); the entry
  gets the next position and, for a hand, the next hand number. With an
  ``Idempotency-Key`` a retry returns the first answer, even if the table
  has moved on since; the same key with another body is a 422. (A unique
  constraint on the key keeps a second entry out whatever happens.)
- ``change_house_rules``: new house rules for the evening; once it has hands,
  a correction of all of them (replayed, re-scored, audited).
- ``void_hand`` / ``correct_hand``: the hand keeps its number; the audit trail
  records who changed what; then every entry is replayed from the start
  (``replay``), re-scoring full entries whose winds or dealer moved, and the
  stored results, state and totals are rewritten.
- ``close`` / ``reopen``: while closed, every other change is refused (409).
- ``replace_tokens``: new write and read-only tokens, the old ones retired.

A change of an evening that belongs to a group also rewrites its
``evening_figures`` (``api.group_figures.rewrite_figures``) in the same
transaction, so a group's standings never see an evening half changed.

Every change moves the session's ``revision`` on by one (the ORM's
``version_id_col``) and leaves a ``ChangeRow`` at that revision, in the same
transaction: what the live-update stream sends (``api.events``) and what a
stale ``If-Match`` is answered with (412, ``Stale``). A change may name the
revision it was made against (``expected``); a retry with a used
``Idempotency-Key`` is answered before that is looked at.

The ``*_view`` functions give the JSON the endpoints return.
"""
import datetime
import hashlib
import json
from collections.abc import Mapping

from sqlalchemy import update
from sqlmodel import Session

from api.auth import current_group_id, new_session_id, new_token, token_hash
from api.config import limit
from api.db import begin_write
from api.errors import Closed, Stale
from api.group_figures import rewrite_figures
from ledger import store
from ledger.errors import InvalidRequest
from ledger.explain import explain_hand
from ledger.profile import check_house_rules
from ledger.recorder import Event, Recorder
from ledger.store import HAND, AuditRow, ChangeRow, EntryRow, SessionRow, utc_now


class NotFound(LookupError):
    """The hand asked for does not exist in the session."""


def create_session(db: Session, body: Mapping) -> tuple[SessionRow, str, str]:
    """Create a session from a validated request; returns it, its write token and its read-only token.

    The tokens are shown only once.
    """
    session, token, read_token = new_session(body)
    begin_write(db)
    db.add(session)
    db.commit()
    return session, token, read_token


def new_session(body: Mapping) -> tuple[SessionRow, str, str]:
    """A new session row from a validated request (not yet added), its write token and its read-only token."""
    recorder = Recorder.start(body["ruleset"], body["players"], body["stakes"], body.get("options"),
                              body.get("house_rules"), max_participants=limit("MAX_PARTICIPANTS"))
    token, read_token = new_token(), new_token()
    session = SessionRow(
        id=new_session_id(), name=body["name"], ruleset=body["ruleset"], players=list(body["players"]),
        stakes=dict(body["stakes"]), options=recorder.table.options, house_rules=recorder.table.house_rules,
        token_hash=token_hash(token), read_token_hash=token_hash(read_token), state=recorder.state.to_dict(),
        totals=recorder.totals,
    )
    return session, token, read_token


def check_change(db: Session, session: SessionRow, expected: int | None) -> None:
    """Refuse to change a closed evening (``Closed``) or one past the ``expected`` revision (``Stale``)."""
    if session.closed_at is not None:
        raise Closed("This evening is closed: reopen it to change it.")
    _check_revision(db, session, expected)


def _check_revision(db: Session, session: SessionRow, expected: int | None) -> None:
    """``Stale`` with what changed since, if the change was made against another revision than the session's."""
    if expected is not None and expected != session.revision:
        # A revision the session has not reached yet (a client's mistake) has no changes since it.
        since = store.changes_after(db, session.id, expected) if expected < session.revision else []
        raise Stale(session.revision, _changed_entries(db, session, since))


def append(db: Session, session: SessionRow, kind: str, body: Mapping, *, key: str | None, client: str,
           expected: int | None = None) -> dict:
    """Record a hand or a seat change (``kind``) at the end of the evening and commit; its view.

    ``session`` was read holding its lock, in ``db``'s transaction.
    """
    digest = _checked_digest(kind, body, key)
    earlier = _earlier_response(db, session.id, key, digest)
    if earlier is not None:
        return earlier
    check_change(db, session, expected)
    if kind == HAND and session.hand_count >= limit("MAX_HANDS"):
        raise InvalidRequest(f"An evening holds at most {limit('MAX_HANDS')} hands: start a new evening.", "hands")
    recorder = Recorder.resume(session.ruleset, session.players, session.stakes, session.options,
                               session.state, session.totals, session.house_rules,
                               max_participants=limit("MAX_PARTICIPANTS"))
    result = recorder.record(kind, body)
    now = utc_now()
    entry = EntryRow(session_id=session.id, position=session.entry_count + 1, kind=kind,
                     number=session.hand_count + 1 if kind == HAND else None, body=dict(body), result=result,
                     idempotency_key=key, request_hash=digest, client=client, created_at=now, updated_at=now)
    view = entry_view(entry, session)
    if key is not None:
        entry.response = view
    session.entry_count += 1
    session.hand_count += 1 if kind == HAND else 0
    _save_state(session, recorder, now)
    db.add(entry)
    _commit_change(db, session, kind, entry, view)
    return view


def void_hand(db: Session, session: SessionRow, number: int, who: str, expected: int | None = None) -> dict:
    """Void (作廢) hand ``number``: it stays, marked, and counts for nothing. Voiding twice is a no-op.

    ``session`` was read holding its lock, in ``db``'s transaction.
    """
    check_change(db, session, expected)
    entries = store.list_entries(db, session.id)
    hand = _hand(entries, number)
    if not hand.void:
        _audit(db, hand, "void", who, after=None)
        hand.void = True
        _rebuild(session, entries)
        _commit_change(db, session, "void", hand)
    return hand_view(hand, session)


def correct_hand(db: Session, session: SessionRow, number: int, body: Mapping, who: str,
                 expected: int | None = None) -> dict:
    """Replace hand ``number``'s body (更正); a voided hand is restored with it.

    Sending the body the hand already has changes nothing. ``session`` was
    read holding its lock, in ``db``'s transaction.
    """
    check_change(db, session, expected)
    entries = store.list_entries(db, session.id)
    hand = _hand(entries, number)
    if hand.void or hand.body != body:
        _audit(db, hand, "restore" if hand.void else "correct", who, after=dict(body))
        hand.body = dict(body)
        hand.void = False
        _rebuild(session, entries, changed=hand)
        _commit_change(db, session, "correct", hand)
    return hand_view(hand, session)


def change_house_rules(db: Session, session: SessionRow, house_rules: Mapping, who: str,
                       expected: int | None = None) -> None:
    """Give the evening new house rules (checked by ``ledger.profile``) and commit.

    Before the first hand this is still setting the evening up. Once hands are
    recorded it is a correction of the whole evening: every hand is replayed
    and scored afresh under the new rules (a hand they make impossible is a
    422 naming it, and nothing changes), and the audit trail keeps the rules
    before and after (``action`` ``house_rules``, no hand number). Like every
    change it is refused on a closed evening or against a stale ``If-Match``,
    and is one revision of the session. Sending the rules it has changes nothing.
    """
    after = check_house_rules(session.ruleset, house_rules, session.options)  # a bad body is 422 first, as by a schema
    check_change(db, session, expected)
    before = session.house_rules or {}
    if after == before:
        return
    entries = store.list_entries(db, session.id)  # before the change: its query would flush it (two revisions)
    session.house_rules = after
    _rebuild(session, entries, keep_scores=False)
    if session.hand_count:
        db.add(AuditRow(session_id=session.id, action="house_rules", who=who, before=before, after=after))
    _commit_change(db, session, "house_rules")


def close(db: Session, session: SessionRow, who: str, expected: int | None = None) -> None:
    """Close the evening (結束): every later change is refused until it is reopened. Closing twice is a no-op."""
    if session.closed_at is not None:
        return
    check_change(db, session, expected)
    session.closed_at = session.updated_at = utc_now()
    db.add(AuditRow(session_id=session.id, action="close", who=who))
    _commit_change(db, session, "close")


def reopen(db: Session, session: SessionRow, who: str, expected: int | None = None) -> None:
    """Reopen a closed evening. Reopening an open one is a no-op."""
    if session.closed_at is None:
        return
    _check_revision(db, session, expected)
    session.closed_at = None
    session.updated_at = utc_now()
    db.add(AuditRow(session_id=session.id, action="reopen", who=who))
    _commit_change(db, session, "reopen")


def replace_tokens(db: Session, session: SessionRow) -> tuple[str, str]:
    """New write and read-only tokens for the session; the old ones are retired (401 from now on).

    Not a change to the evening: the revision stays (a Core UPDATE, past the ORM's version counter).
    """
    token, read_token = new_token(), new_token()
    retired = [hash_ for hash_ in (session.token_hash, session.read_token_hash) if hash_ is not None]
    db.add_all(store.RetiredTokenRow(token_hash=hash_, session_id=session.id) for hash_ in retired)
    db.execute(update(SessionRow).where(SessionRow.id == session.id)
               .values(token_hash=token_hash(token), read_token_hash=token_hash(read_token)))
    db.commit()
    return token, read_token


def replay(session: SessionRow, entries: list[EntryRow], *, keep_scores: bool = False,
           changed: EntryRow | None = None) -> tuple[Recorder, list[dict]]:
    """Replay the session's entries from the start: the recorder at the end and each entry's result.

    With ``keep_scores``, a full entry whose table (seats, dealer, winds) is
    where it was keeps its stored score instead of being scored again, unless
    it is ``changed`` (its body was just replaced); without, everything is
    computed afresh.
    """
    events = [Event(entry.kind, entry.body, entry.void, entry.number,
                    entry.result if keep_scores and entry is not changed else None) for entry in entries]
    return Recorder.replay(session.ruleset, session.players, session.stakes, session.options, events,
                           session.house_rules, max_participants=limit("MAX_PARTICIPANTS"))


def request_digest(kind: str, body: Mapping) -> str:
    """A SHA-256 of the request (its kind and canonical JSON), to recognise a retry.

    >>> request_digest("hand", {"a": 1, "b": 2}) == request_digest("hand", {"b": 2, "a": 1})
    True
    """
    text = json.dumps([kind, body], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _checked_digest(kind: str, body: Mapping, key: str | None) -> str | None:
    """The request's digest if it has an ``Idempotency-Key`` (422 for a key too long or empty), else None."""
    if key is None:
        return None
    if not key or len(key) > store.KEY_LENGTH:
        raise InvalidRequest(f"Idempotency-Key must be 1 to {store.KEY_LENGTH} characters", "Idempotency-Key")
    return request_digest(kind, body)


def _earlier_response(db: Session, session_id: str, key: str | None, digest: str | None) -> dict | None:
    """The first response to this request if its ``key`` was used before (422 if for another request).

    A statement of its own, after the lock. Folded into the locking read (a
    round trip fewer), a retry racing its first attempt on PostgreSQL missed
    the entry that attempt had just committed: at READ COMMITTED a
    ``SELECT … FOR UPDATE`` that waited for the lock reads the locked row
    again, and the rows joined to it as they were before it waited. The
    entry's unique key then refused the second one with a 500
    (``tests/api/test_concurrency.py``, the retry racing its first attempt).
    """
    if key is None:
        return None
    earlier = store.find_keyed_entry(db, session_id, key)
    if earlier is None:
        return None
    if earlier.request_hash != digest:
        what = f"hand {earlier.number}" if earlier.kind == HAND else "a seat change"
        raise InvalidRequest(f"Idempotency-Key {key!r} was already used for a different request "
                             f"({what}); send a new key with a new entry", "Idempotency-Key")
    return earlier.response


def _hand(entries: list[EntryRow], number: int) -> EntryRow:
    for entry in entries:
        if entry.kind == HAND and entry.number == number:
            return entry
    raise NotFound(f"No hand {number} in this session.")


def _commit_change(db: Session, session: SessionRow, kind: str, entry: EntryRow | None = None,
                   view: dict | None = None) -> None:
    """Write the change (the session's new revision, and what live updates send of it) and commit."""
    db.flush()  # the session's UPDATE: its revision is now the change's
    if entry is not None and view is None:
        view = entry_view(entry, session)
    data = {"revision": session.revision, "kind": kind, "entry": view, "state": session_state(session),
            "totals": session.totals}
    db.add(ChangeRow(session_id=session.id, revision=session.revision, kind=kind,
                     entry_id=None if entry is None else entry.id, data=data))
    rewrite_figures(db, session, current_group_id())
    db.commit()


def _changed_entries(db: Session, session: SessionRow, changes: list[ChangeRow]) -> list[dict]:
    """The entries these changes made or changed, each once, as they are now (hands as ``GET …/hands`` shows them)."""
    ids = list(dict.fromkeys(change.entry_id for change in changes if change.entry_id is not None))
    entries = {entry.id: entry for entry in store.find_entries(db, ids)}
    return [entry_view(entries[entry_id], session) for entry_id in ids]


def _audit(db: Session, hand: EntryRow, action: str, who: str, *, after: dict | None) -> None:
    db.add(AuditRow(session_id=hand.session_id, entry_id=hand.id, number=hand.number, action=action,
                    who=who, before=hand.body, after=after))


def _rebuild(session: SessionRow, entries: list[EntryRow], changed: EntryRow | None = None, *,
             keep_scores: bool = True) -> None:
    recorder, results = replay(session, entries, keep_scores=keep_scores, changed=changed)
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


# -- views ----------------------------------------------------------------------


def timestamp(moment: datetime.datetime) -> str:
    """ISO 8601 in UTC; SQLite hands back naive datetimes, which are UTC.

    >>> timestamp(datetime.datetime(2026, 11, 29, 20, 5))
    '2026-11-29T20:05:00+00:00'
    """
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment.astimezone(datetime.timezone.utc).isoformat()


def entry_view(entry: EntryRow, session: SessionRow) -> dict:
    """The JSON of a hand or a seat change."""
    return hand_view(entry, session) if entry.kind == HAND else seat_view(entry)


def hand_view(entry: EntryRow, session: SessionRow) -> dict:
    """A hand as the hand endpoints return it; ``lines`` explain its payments (``ledger.explain``)."""
    result = entry.result
    return {
        "number": entry.number, "void": entry.void, "body": entry.body,
        **{key: result[key] for key in ("dealer", "streak", "round_wind", "hand_wind", "jiang", "wasteland",
                                         "payments", "scores")},
        "lines": explain_hand(session.ruleset, session.stakes, session.options, entry.body, result,
                              session.house_rules),
        "state": result["after"], "client": entry.client,
        "created_at": timestamp(entry.created_at), "updated_at": timestamp(entry.updated_at),
    }


def seat_view(entry: EntryRow) -> dict:
    """A seat change (替補) as ``POST /seats`` and the session return it."""
    result = entry.result
    return {"seat": result["seat"], "player": result["player"], "replaces": result["replaces"],
            "hands_played": result["before"]["hands_played"], "state": result["after"],
            "client": entry.client, "created_at": timestamp(entry.created_at)}


def session_state(session: SessionRow) -> dict:
    """The table's state now, and whether the evening is closed (since when)."""
    closed_at = session.closed_at
    return {**session.state, "closed": closed_at is not None,
            "closed_at": None if closed_at is None else timestamp(closed_at)}


def session_view(session: SessionRow, seat_changes: list[EntryRow], access: str = "write") -> dict:
    """A session with its state, totals and seat changes; ``access`` says what the request's token may do."""
    return {
        "id": session.id, "name": session.name, "ruleset": session.ruleset, "players": session.players,
        "stakes": session.stakes, "options": session.options, "house_rules": session.house_rules or {},
        "state": session_state(session),
        "totals": session.totals, "seat_changes": [seat_view(entry) for entry in seat_changes],
        "next_hand": session.hand_count + 1, "created_at": timestamp(session.created_at),
        "revision": session.revision, "access": access,
    }


def audit_view(audit: AuditRow) -> dict:
    """One line of the audit trail (closing and reopening name no hand: ``number`` and ``before`` are null)."""
    return {"number": audit.number, "action": audit.action, "who": audit.who, "at": timestamp(audit.at),
            "before": audit.before, "after": audit.after}
