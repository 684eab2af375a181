"""Running a competition (比賽): create it, enter and withdraw entrants, draw, start and end rounds; read it.

Every change is one transaction, read here top to bottom: ``_locked`` begins the write, reads the
competition holding its lock and checks the token; the ledger computes; the change is written, audited in
``audit_lines``, its ``revision`` moved on, and committed. A draw creates every table as an ordinary evening whose tokens
derive from the organiser's, in the draw's one transaction; ending a round closes its tables and keeps
the grace in which the hand in play may still be recorded. Standings are never stored, so a correction
at a table moves them at once.
"""
from __future__ import annotations

import datetime
from collections import OrderedDict
from collections.abc import Mapping

from flask_smorest import abort
from sqlmodel import Session

from api.competitions.access import ORGANIZER, competition_access
from api.groups import figures as group_figures
from api.groups import service as groups
from api.http.auth import MEMBER, Caller, new_id, new_token, table_tokens, token_hash
from api.http.db import begin_write, get_engine
from api.http.errors import Missing
from api.http.language import say
from api.http.offload import apart_value
from api.http.limits import Limits
from api.sessions import service as sessions
from api.sessions.views import hands_played
from ledger import competition, competition_store, group_store, ratings
from ledger.competition import Entrant, Round, Settings, TableResult
from ledger.competition_store import CompetitionRow, EntrantRow, RoundRow, TableRow
from ledger.group_store import AuditLineRow
from ledger.draw import Seating
from ledger.errors import Worded
from ledger.group_evenings import named_member
from ledger.names import check_unlike
from ledger.recorder import Recorder
from ledger.store import SessionRow, utc_now
from words import word


def _locked(db: Session, competition_id: str, token: str, need: str = ORGANIZER) -> CompetitionRow:
    begin_write(db)
    found = competition_store.find_competition(db, competition_id, lock=True)
    competition_access(token, found, competition_id, need)
    return found


def settings_of(row: CompetitionRow) -> Settings:
    saved = dict(row.settings)
    points = saved.pop("placement_points")
    return Settings(**saved, placement_points=None if points is None else tuple(points))


# -- the competition ---------------------------------------------------------------


def create_competition(db: Session, body: Mapping, caller: Caller) -> tuple[CompetitionRow, dict]:
    """Create a competition from a validated request and commit; it and its two tokens (shown only once)."""
    clock = body["round"]
    settings = Settings(rounds=body["rounds"], until=clock["until"], minutes=clock["minutes"], grace=clock["grace"],
                        placement_points=body["ranking"], seating=body["seating"], empty_seats=body["empty_seats"],
                        check_in=body["check_in"])
    recorder = Recorder.start(body["ruleset"], ["1", "2", "3", "4"], body["stakes"], body.get("options"),
                              body.get("house_rules"))
    tokens = {"organizer_token": new_token(), "read_token": new_token()}
    row = CompetitionRow(
        id=new_id(), name=body["name"], ruleset=body["ruleset"], stakes=dict(body["stakes"]),
        options=recorder.table.options, house_rules=recorder.table.house_rules,
        settings={**settings.__dict__, "placement_points": None if settings.placement_points is None
                  else list(settings.placement_points)},
        organizer_token_hash=token_hash(tokens["organizer_token"]), read_token_hash=token_hash(tokens["read_token"]))
    if settings.seating == "rating" and "group" not in body:
        raise Worded("rating_needs_group", "seating")
    if "group" in body:
        row.group_id = groups.locked_group(db, body["group"], caller.token, MEMBER).id
    else:
        begin_write(db)
    db.add(row)
    db.flush()
    _audit(db, row, "create", caller.who, after={"name": row.name, "settings": row.settings})
    db.commit()
    return row, tokens


def add_entrants(db: Session, competition_id: str, caller: Caller, names: list[str], substitute: bool,
                 limits: Limits) -> list[EntrantRow]:
    """Enter ``names`` (each once; in a group's competition, members) and commit; one entered after a draw plays
    from the next round drawn."""
    row = _locked(db, competition_id, caller.token)
    existing = competition_store.list_entrants(db, row.id)
    if len(existing) + len(names) > limits.max_entrants:
        abort(422, message=say("too_many_entrants", maximum=limits.max_entrants), field="names")
    next_round = len(competition_store.list_rounds(db, row.id)) + 1
    taken = [entrant.name for entrant in existing]
    added = []
    for index, sent in enumerate(names):
        field = f"names[{index}]"
        name, member_id = sent, None
        if row.group_id is not None:
            member = named_member(db, row.group_id, sent, field)
            name, member_id = member.name, member.id
        if name in taken:
            raise Worded("entrant_twice", field, name=name)
        check_unlike(name, taken, field)
        taken.append(name)
        added.append(EntrantRow(competition_id=row.id, number=len(taken), name=name, member_id=member_id,
                                substitute=substitute, first_round=next_round))
    db.add_all(added)
    row.revision += 1
    _audit(db, row, "entrants", caller.who, after={"names": [entrant.name for entrant in added],
                                                   "substitute": substitute, "first_round": next_round})
    db.commit()
    return added


def withdraw(db: Session, competition_id: str, caller: Caller, ref: str) -> EntrantRow:
    """Withdraw an entrant (its number or name) from every round not yet drawn, and commit; withdrawing twice
    changes nothing. What they played stays in the standings."""
    row = _locked(db, competition_id, caller.token)
    entrant = _entrant(competition_store.list_entrants(db, row.id), ref)
    if entrant.withdrawn_from is None:
        entrant.withdrawn_from = len(competition_store.list_rounds(db, row.id)) + 1
        row.revision += 1
        _audit(db, row, "withdraw", caller.who, after={"entrant": entrant.number, "name": entrant.name,
                                                       "withdrawn_from": entrant.withdrawn_from})
    db.commit()
    return entrant


def check_in(db: Session, competition_id: str, caller: Caller, ref: str, present: bool) -> EntrantRow:
    """Check an entrant in (``present``) or undo it, and commit; twice changes nothing. One who withdrew cannot
    (409): they are in no round to come."""
    row = _locked(db, competition_id, caller.token)
    entrant = _entrant(competition_store.list_entrants(db, row.id), ref)
    if present and entrant.withdrawn_from is not None:
        abort(409, message=say("entrant_withdrawn", name=entrant.name))
    if entrant.checked_in != present:
        entrant.checked_in = present
        row.revision += 1
        _audit(db, row, "check_in" if present else "check_out", caller.who,
               after={"entrant": entrant.number, "name": entrant.name})
    db.commit()
    return entrant


def _entrant(entrants: list[EntrantRow], ref: str) -> EntrantRow:
    for entrant in entrants:
        if str(entrant.number) == ref or entrant.name == ref:
            return entrant
    raise Missing("no_entrant", entrant=ref)


# -- rounds ------------------------------------------------------------------------


#: Draws computed again when the competition or one of its tables changed between the draw's read and its lock.
DRAW_ATTEMPTS = 3


def draw_round(db: Session, competition_id: str, caller: Caller, cut: int | None, seed: int | None,
               limits: Limits, lang: str) -> tuple[RoundRow, list[tuple[TableRow, SessionRow]]]:
    """Draw the next round, create its tables' evenings and commit; the round and its tables.

    The draw is computed from a read, off the loop (``api.http.offload.apart_value``), and written under the
    lock only if nothing it read has changed, else computed again: the lock is held for the writing alone."""
    for _ in range(DRAW_ATTEMPTS):
        row = competition_store.find_competition(db, competition_id)
        competition_access(caller.token, row, competition_id, ORGANIZER)
        revisions = competition_store.table_revisions(db, row.id)
        read = (row.revision, revisions)
        found = current_snapshot(row, revisions)
        _check_drawable(settings_of(row), found.rounds)
        rated = _entrant_ratings(db, row, found) if not found.rounds and settings_of(row).seating == "rating" \
            else None
        drawn = apart_value(_computed_draw, row, found, caller.token, cut, seed, limits, lang, rated)
        db.rollback()  # the read ends: its connection goes back to the pool
        row = _locked(db, competition_id, caller.token)
        if (row.revision, competition_store.table_revisions(db, row.id)) == read:
            return _write_draw(db, row, caller, limits, *drawn)
        db.rollback()
    abort(409, message=say("competition_busy"))


def _check_drawable(settings: Settings, rounds: list[RoundRow]) -> None:
    """409 while a round is open or once every round is drawn."""
    if rounds and rounds[-1].ended_at is None:
        abort(409, message=say("round_open", number=rounds[-1].number))
    if len(rounds) >= settings.rounds:
        abort(409, message=say("no_more_rounds", rounds=settings.rounds))


def _entrant_ratings(db: Session, row: CompetitionRow, read: Snapshot) -> dict[int, float]:
    """Entrant number -> its member's rating over the group's closed evenings (0.0, a fresh member's, without
    one): round 1 of ``seating`` rating is seated by it."""
    rated = ratings.rate(group_figures.games(db, row.group_id))
    fresh = ratings.Rating().rating
    return {entrant.number: rated[entrant.member_id].rating if entrant.member_id in rated else fresh
            for entrant in read.entrants}


def _computed_draw(row: CompetitionRow, read: Snapshot, token: str, cut: int | None, seed: int | None,
                   limits: Limits, lang: str, rated: dict[int, float] | None = None):
    """The round ``read`` gives and its tables' new evenings (pure: in a child process under gevent,
    ``api.http.offload.apart_value``, so that the loop keeps the interpreter); ``rated``: entrants' ratings,
    best first the order of round 1 when it is seated by rating."""
    settings, rounds = settings_of(row), read.rounds
    drawn_rounds = _rounds(rounds, read.tables)
    people = [_domain_entrant(entrant) for entrant in read.entrants]
    if rated is not None:
        ranked = sorted(rated, key=lambda number: (-rated[number], number))
    else:
        ranked = [line.entrant for line in competition.rank_entrants(people, drawn_rounds, _results(read.tables),
                                                                 settings)]
    number = len(rounds) + 1
    drawn = competition.seat_round(number, competition.new_seed() if seed is None else seed, settings, people,
                                   drawn_rounds, ranked, cut)
    names = {entrant.number: entrant for entrant in read.entrants}
    made = []
    for table in drawn.tables:
        seated = [names[n] for n in table.seats]
        body = {"name": word(lang, "api.competition_table_name", name=row.name, round=number, table=table.number),
                "ruleset": row.ruleset, "players": [entrant.name for entrant in seated], "stakes": row.stakes,
                "options": row.options, "house_rules": row.house_rules}
        session, _, _ = sessions.new_session(body, limits)
        write, read_token = table_tokens(token, session.id)
        session.token_hash, session.read_token_hash = token_hash(write), token_hash(read_token)
        session.competition_id = row.id
        made.append((TableRow(session_id=session.id, competition_id=row.id, round=number, number=table.number,
                              seats=list(table.seats)), session, {e.name: e.member_id for e in seated}))
    return number, drawn, made


def _write_draw(db: Session, row: CompetitionRow, caller: Caller, limits: Limits, number: int, drawn,
                made: list) -> tuple[RoundRow, list[tuple[TableRow, SessionRow]]]:
    """Write a computed draw, the competition's lock held, and commit."""
    group = group_store.find_group(db, row.group_id, lock=True) if row.group_id is not None else None
    for _, session, members in made:
        db.add(session)
        if group is not None:
            db.flush()  # the evening's row before the group's rows that name it
            groups.join_evening(db, group, session, members, limits.max_group_evenings)
    db.flush()  # the evenings' rows before the tables' rows that name them (nothing orders them otherwise)
    stored = RoundRow(competition_id=row.id, number=number, seed=drawn.seed, sitting_out=list(drawn.sitting_out),
                      cut=list(drawn.cut), absent=list(drawn.absent))
    db.add(stored)
    db.add_all(table for table, _, _ in made)
    row.revision += 1
    _audit(db, row, "draw", caller.who, after={"round": number, "seed": drawn.seed,
                                               "tables": [list(t.seats) for t in drawn.tables],
                                               "sitting_out": list(drawn.sitting_out), "cut": list(drawn.cut),
                                               "absent": list(drawn.absent)})
    db.commit()
    return stored, [(table, session) for table, session, _ in made]


def _open_round(db: Session, row: CompetitionRow, number: int) -> RoundRow:
    """Round ``number``, which must be the one drawn and not yet ended (404 unknown, 409 otherwise)."""
    rounds = competition_store.list_rounds(db, row.id)
    if not 1 <= number <= len(rounds):
        raise Missing("no_round", number=number)
    found = rounds[number - 1]
    if found.ended_at is not None:
        abort(409, message=say("round_ended", number=number))
    return found


def start_round(db: Session, competition_id: str, caller: Caller, number: int) -> RoundRow:
    """Start round ``number``'s clock and commit; starting it again is refused (409). Every table's evening
    records a ``round`` change in the same transaction, so that its phones show the clock at once."""
    row = _locked(db, competition_id, caller.token)
    found = _open_round(db, row, number)
    if found.started_at is not None:
        abort(409, message=say("round_started", number=number))
    minutes = settings_of(row).minutes
    found.started_at = utc_now()
    found.ends_at = None if minutes is None else found.started_at + datetime.timedelta(minutes=minutes)
    sessions.tables_round_started(db, competition_store.lock_round_sessions(db, row.id, number))
    row.revision += 1
    _audit(db, row, "start", caller.who, after={"round": number, "ends_at": str(found.ends_at)})
    db.commit()
    return found


def end_round(db: Session, competition_id: str, caller: Caller, number: int, grace: int | None) -> RoundRow:
    """End round ``number``: every table's evening is closed, in this transaction; a table may still record
    the hand it was playing for ``grace`` minutes (default: the competition's). Commit."""
    row = _locked(db, competition_id, caller.token)
    found = _open_round(db, row, number)
    found.ended_at = utc_now()
    minutes = settings_of(row).grace if grace is None else grace
    found.grace_until = found.ended_at + datetime.timedelta(minutes=minutes)
    # a group's competition: its tables are the group's evenings
    sessions.close_tables(db, competition_store.lock_round_sessions(db, row.id, number), row.group_id, caller.who)
    row.revision += 1
    _audit(db, row, "end", caller.who, after={"round": number, "grace_minutes": minutes})
    db.commit()
    return found


# -- reading -----------------------------------------------------------------------


def _domain_entrant(entrant: EntrantRow) -> Entrant:
    return Entrant(entrant.number, entrant.name, entrant.substitute, entrant.first_round, entrant.withdrawn_from,
                   entrant.checked_in)


def _rounds(rounds: list[RoundRow], tables: list[tuple[TableRow, SessionRow]]) -> list[Round]:
    by_round: dict[int, list[Seating]] = {}
    for table, _ in tables:
        by_round.setdefault(table.round, []).append(Seating(table.number, tuple(table.seats)))
    return [Round(r.number, r.seed, tuple(by_round.get(r.number, ())), tuple(r.sitting_out), tuple(r.cut),
                  tuple(r.absent or ())) for r in rounds]


def _results(tables: list[tuple[TableRow, SessionRow]]) -> list[TableResult]:
    return [_result(table, session) for table, session in tables]


def _result(table: TableRow, session: SessionRow) -> TableResult:
    """A table's net money by entrant and the hands it has played, voided ones not counted, so a table whose
    every hand was voided counts as one that played none."""
    nets = {number: session.totals.get(name, 0) for name, number in zip(session.players, table.seats)}
    return TableResult(table.round, table.number, tuple(table.seats), nets, hands_played(session))


class Snapshot:
    """A competition read whole: entrants, rounds, tables with their evenings, and what the ledger makes of them."""

    def __init__(self, db: Session, row: CompetitionRow):
        self.row = row
        self.settings = settings_of(row)
        self.entrants = competition_store.list_entrants(db, row.id)
        self.rounds = competition_store.list_rounds(db, row.id)
        self.tables = competition_store.tables_with_sessions(db, row.id)
        self._drawn: tuple[list[Entrant], list[Round]] | None = None
        self._results: dict[str, tuple[SessionRow, TableResult]] = {}  # each evening's, as last read
        self._lines: dict = {}  # each table's lines of the standings, as last made (``competition.rank_entrants``)

    def moved(self, db: Session, row: CompetitionRow, session_ids: list[str]) -> Snapshot:
        """This snapshot with the evenings ``session_ids`` read again: what the live stream reads while the
        competition's own revision has not changed."""
        fresh = competition_store.sessions_by_id(db, session_ids) if session_ids else {}
        moved = object.__new__(Snapshot)
        moved.row, moved.settings, moved.entrants, moved.rounds = row, self.settings, self.entrants, self.rounds
        moved.tables = [(table, fresh.get(session.id, session)) for table, session in self.tables]
        moved._drawn = self._drawn  # the entrants and the draws, as the ledger reads them, are unchanged too
        moved._results, moved._lines = self._results, self._lines  # those of the evenings not read again too
        return moved

    def refreshed(self, db: Session, row: CompetitionRow, session_ids: list[str]) -> Snapshot:
        """This snapshot after the competition itself changed: entrants, rounds and new tables read again; a drawn
        table's seats never change, so the others are kept."""
        fresh = competition_store.sessions_by_id(db, session_ids) if session_ids else {}
        refreshed = object.__new__(Snapshot)
        refreshed.row, refreshed.settings, refreshed._drawn = row, settings_of(row), None
        refreshed._results, refreshed._lines = {}, {}  # made again: the entrants or the rounds moved
        refreshed.entrants = competition_store.list_entrants(db, row.id)
        refreshed.rounds = competition_store.list_rounds(db, row.id)
        known = {table.round for table, _ in self.tables}
        refreshed.tables = [(table, fresh.get(session.id, session)) for table, session in self.tables]
        for found in refreshed.rounds:
            if found.number not in known:
                refreshed.tables += competition_store.tables_with_sessions(db, row.id, found.number)
        return refreshed

    def standings(self) -> list[competition.Standing]:
        if self._drawn is None:
            self._drawn = ([_domain_entrant(entrant) for entrant in self.entrants], _rounds(self.rounds, self.tables))
        people, drawn = self._drawn
        kept = {}
        for table, session in self.tables:  # (a table's result again only for an evening read again)
            found = self._results.get(session.id)
            fresh = found is None or found[0] is not session
            kept[session.id] = (session, _result(table, session)) if fresh else found
        self._results = kept
        return competition.rank_entrants(people, drawn, [result for _, result in kept.values()], self.settings,
                                     self._lines)


#: The latest snapshot of each competition read by ``current_snapshot``, by id: (its revision, its tables'
#: revisions, the snapshot), at most ``SNAPSHOTS_KEPT`` (this process's, changed on the loop only).
_snapshots: OrderedDict[str, tuple[int, dict, Snapshot]] = OrderedDict()
SNAPSHOTS_KEPT = 16


def current_snapshot(row: CompetitionRow, revisions: dict[str, int]) -> Snapshot:
    """The competition as it is now: while its own revision is the one last read, only the evenings that moved
    are read again (reading every evening of 15 rounds held the loop). On a session of its own, so that no
    request's rollback expires what is kept."""
    with Session(get_engine()) as reader:
        kept = _snapshots.get(row.id)
        if kept is None:
            snapshot = Snapshot(reader, row)
        else:
            moved = [session_id for session_id, revision in revisions.items()
                     if session_id in kept[1] and kept[1][session_id] != revision]
            snapshot = (kept[2].moved(reader, row, moved) if kept[0] == row.revision
                        else kept[2].refreshed(reader, row, moved))
    _snapshots[row.id] = (row.revision, revisions, snapshot)
    _snapshots.move_to_end(row.id)
    while len(_snapshots) > SNAPSHOTS_KEPT:
        _snapshots.popitem(last=False)
    return snapshot


def _audit(db: Session, row: CompetitionRow, action: str, who: str, *, before: dict | None = None,
           after: dict | None = None) -> None:
    db.add(AuditLineRow(competition_id=row.id, action=action, who=who, before=before, after=after))


def reopen_table(db: Session, competition_id: str, caller: Caller, session_id: str) -> SessionRow:
    """Reopen a table of the competition after its round ended, for a correction (the organiser only: its own
    link is refused), and commit; audited in the evening and the competition. Close it again with its link."""
    row = _locked(db, competition_id, caller.token)
    table = next((t for t, _ in competition_store.tables_with_sessions(db, row.id) if t.session_id == session_id),
                 None)
    if table is None:
        raise Missing("no_table", session_id=session_id)
    session, group_id = group_store.find_session_and_group(db, session_id, lock=True)
    # The competition's line first: its time is then before the evening's, as the organiser's trail lists them
    # (api.competitions.views.audit_view: by time, the competition's first when equal).
    _audit(db, row, "reopen_table", caller.who, after={"round": table.round, "table": table.number,
                                                      "session": session_id})
    sessions.reopen_locked_table(db, session, group_id, caller.who)
    row.revision += 1
    db.commit()
    return session
