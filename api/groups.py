"""Groups (牌友會): a roster, its evenings, payments, balances, standings and seasons (API.md: Groups).

- ``POST /api/groups``: create; the answer holds the three tokens, once.
- ``GET /api/groups/<id>``: roster, evenings (open first), seasons; any token.
- ``…/members`` (member token: a guest on the spot), ``PATCH …/members/<m>``
  and ``…/members/<m>/merge`` (admin), ``GET …/members/<m>``: a member's page.
- ``…/sessions``: attach an evening (member token and the evening's write
  token); ``DELETE …/sessions/<session>`` (admin). Exports and imports:
  ``api.group_backup``; reports: ``api.group_reports``. New evenings: ``POST /api/sessions``
  with ``"group"``.
- ``…/payments`` (member token to record or void), ``…/balances``,
  ``…/standings``, ``…/seasons`` (admin), ``…/audit``, ``…/tokens`` (admin).

Every request carries one of the group's tokens (``api.auth.authorized_group``):
none or one that is not the group's is a 401, a lower level than the endpoint
needs a 403. A change takes the group's row lock and is one transaction
(``api.group_records``).
"""
import functools

from flask import g, request
from flask.views import MethodView
from flask_smorest import abort

from api import group_figures, group_records
from api.auth import (
    ADMIN,
    MEMBER,
    READ,
    SecuredBlueprint,
    authorized_group,
    client_label,
    current_access,
    token_matches,
)
from api.db import get_session
from api.errors import JsonErrorSchema
from api.group_schemas import (
    AttachSchema,
    BalancesQuerySchema,
    BalancesSchema,
    EveningSchema,
    GroupAuditListSchema,
    GroupCreatedSchema,
    GroupCreateSchema,
    GroupSchema,
    GroupTokensSchema,
    MemberCreateSchema,
    MemberEditSchema,
    MemberPageSchema,
    MemberSchema,
    MergeSchema,
    PaymentAnswerSchema,
    PaymentListSchema,
    PaymentSchema,
    PaymentsPostSchema,
    SeasonCreateSchema,
    SeasonSchema,
    StandingsQuerySchema,
    StandingsSchema,
)
from api.session_schemas import CLIENT_HEADER
from ledger import group_store, store

ERRORS = {401: "No bearer token, or one that is none of the group's (or was replaced)",
          403: "A token of the group below the level this needs (read < member < admin)",
          404: "Unknown group (or member, payment, evening of it)"}
TOKEN_QUERY = {"in": "query", "name": "token", "required": False, "schema": {"type": "string"},
               "description": "The bearer token, for downloads opened as links"}


def current_group() -> group_store.GroupRow:
    """The group of a ``GroupBlueprint.group_token`` view, its token checked."""
    return g.group


class GroupBlueprint(SecuredBlueprint):
    """A Blueprint of ``/api/groups/<group_id>…`` whose operations need one of the group's tokens."""

    def group_token(self, need: str = READ, *, changes: bool | None = None, in_query: bool = False):
        """Check the group's token (level ``need`` or above) before anything else, and document it.

        A view that changes something (by default any method but GET) holds the
        group's lock in a write transaction (``authorized_group(lock=True)``);
        ``group_records.NotFound`` becomes a 404. ``in_query``: the token may
        come as ``?token=`` (downloads).
        """

        def decorate(function):
            changing = function.__name__.upper() != "GET" if changes is None else changes

            @functools.wraps(function)
            def checked(*args, **kwargs):
                g.group = authorized_group(kwargs["group_id"], need, lock=changing, in_query=in_query)
                try:
                    return function(*args, **kwargs)
                except group_records.NotFound as missing:
                    abort(404, message=str(missing))

            parameters = ([CLIENT_HEADER] if changing else []) + ([TOKEN_QUERY] if in_query else [])
            documented = self.doc(security=[{"bearerAuth": []}], parameters=parameters)(checked)
            for status, description in ERRORS.items():
                documented = self.alt_response(status, schema=JsonErrorSchema, description=description)(documented)
            return documented

        return decorate


blp = GroupBlueprint("groups", __name__, url_prefix="/api/groups",
                     description="Groups: roster, evenings, payments, balances, standings, seasons")
group_token = blp.group_token


@blp.route("")
class Groups(MethodView):
    @blp.arguments(GroupCreateSchema())
    @blp.response(201, GroupCreatedSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="Bad name or defaults")
    @blp.doc(parameters=[CLIENT_HEADER])
    def post(self, body):
        """Create a group; the answer holds its admin, member and read-only tokens (shown only this once)."""
        group, tokens = group_records.create_group(get_session(), body, client_label())
        return {"id": group.id, "name": group.name, "defaults": group.defaults, **tokens}


@blp.route("/<session_id:group_id>")
class Group(MethodView):
    @group_token()
    @blp.response(200, GroupSchema)
    def get(self, group_id):
        """The group: its members, its evenings (open first, then newest), its seasons, the token's access."""
        return group_records.group_view(get_session(), current_group(), current_access())


@blp.route("/<session_id:group_id>/members")
class Members(MethodView):
    @group_token(MEMBER)
    @blp.arguments(MemberCreateSchema())
    @blp.response(201, MemberSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="A name or alias another member has")
    def post(self, body, group_id):
        """Add a member (a regular, or a guest on the spot). Audited."""
        db = get_session()
        member = group_records.add_member(db, current_group(), body["name"], body["aliases"], client_label())
        return group_records.member_view(db, member)


@blp.route("/<session_id:group_id>/members/<member>")
class Member(MethodView):
    @group_token()
    @blp.response(200, MemberPageSchema)
    def get(self, group_id, member):
        """A member's lifetime page: figures overall and by rule set, patterns, net-money series, head-to-head."""
        db = get_session()
        found = group_records.member_in_path(db, group_id, member)
        return group_figures.member_page_view(db, group_id, found)

    @group_token(ADMIN)
    @blp.arguments(MemberEditSchema())
    @blp.response(200, MemberSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="A name or alias another member has")
    def patch(self, body, group_id, member):
        """Rename a member (history shows the new name; the old one stays as an alias) or set its aliases."""
        db = get_session()
        found = group_records.member_in_path(db, group_id, member)
        group_records.edit_member(db, current_group(), found, body.get("name"), body.get("aliases"), client_label())
        return group_records.member_view(db, found)


@blp.route("/<session_id:group_id>/members/<member>/merge")
class Merge(MethodView):
    @group_token(ADMIN)
    @blp.arguments(MergeSchema())
    @blp.response(200, MemberSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="Unknown member, or a member merged into itself")
    def post(self, body, group_id, member):
        """Merge a duplicate into ``into``: every evening, figure, payment and alias moves; audited."""
        db = get_session()
        duplicate = group_records.member_in_path(db, group_id, member)
        into = group_records.find_member(db, group_id, body["into"], "into")
        group_records.merge_members(db, current_group(), duplicate, into, client_label())
        return group_records.member_view(db, into)


@blp.route("/<session_id:group_id>/sessions")
class Evenings(MethodView):
    @group_token(MEMBER)
    @blp.arguments(AttachSchema())
    @blp.response(201, EveningSchema)
    @blp.alt_response(422, schema=JsonErrorSchema,
                      description="An evening of a group already, or a player no member answers to")
    def post(self, body, group_id):
        """Attach an existing evening: its write token and each player name's member."""
        db = get_session()
        session = store.lock_session(db, body["session"])
        if session is None:
            abort(404, message=f"No session {body['session']!r}.")
        if not _is_write_token(body["token"], session):
            abort(403, message="token: this is not the evening's write token.", field="token")
        group_records.attach_evening(db, current_group(), session, body["players"], client_label())
        return group_records.evening_view(session, group_store.evening_players(db, [session.id])[session.id])


def _is_write_token(token: str, session: store.SessionRow) -> bool:
    return token_matches(token, session.token_hash)


@blp.route("/<session_id:group_id>/sessions/<session_id:session_id>")
class Evening(MethodView):
    @group_token(ADMIN)
    @blp.response(204)
    def delete(self, group_id, session_id):
        """Delete a wrongly created evening of the group, with everything recorded in it. Audited."""
        group_records.delete_evening(get_session(), current_group(), session_id, client_label())


@blp.route("/<session_id:group_id>/payments")
class Payments(MethodView):
    @group_token()
    @blp.response(200, PaymentListSchema)
    def get(self, group_id):
        """Every payment, voided ones included, oldest first; members by their current names."""
        db = get_session()
        names = group_records.member_names(db, group_id)
        return {"payments": [group_records.payment_view(payment, names)
                             for payment in group_store.list_payments(db, group_id)]}

    @group_token(MEMBER)
    @blp.arguments(PaymentsPostSchema())
    @blp.response(201, PaymentAnswerSchema)
    @blp.alt_response(422, schema=JsonErrorSchema,
                      description="Unknown member, a payment to oneself, an amount not above 0, an unknown evening")
    def post(self, body, group_id):
        """Record a payment (from, to, amount), or several at once (``payments``), in one transaction."""
        db = get_session()
        single = "payments" not in body
        rows = group_records.record_payments(db, current_group(), [body] if single else body["payments"],
                                             body["session"], client_label(), "" if single else "payments[{index}].")
        names = group_records.member_names(db, group_id)
        views = [group_records.payment_view(row, names) for row in rows]
        return views[0] if single else {"payments": views}


@blp.route("/<session_id:group_id>/payments/<int:payment_id>")
class Payment(MethodView):
    @group_token(MEMBER)
    @blp.response(200, PaymentSchema)
    def delete(self, group_id, payment_id):
        """Void a payment: it stays, counting for nothing. Audited."""
        db = get_session()
        payment = group_records.void_payment(db, current_group(), payment_id, client_label())
        return group_records.payment_view(payment, group_records.member_names(db, group_id))


@blp.route("/<session_id:group_id>/balances")
class Balances(MethodView):
    @group_token()
    @blp.arguments(BalancesQuerySchema, location="query")
    @blp.response(200, BalancesSchema)
    def get(self, query, group_id):
        """Each member's open balance (evenings + payments made − received), what it rests on, and the fewest
        transfers that clear them all."""
        return group_records.balances(get_session(), group_id, query.get("round_to"))


@blp.route("/<session_id:group_id>/standings")
class Standings(MethodView):
    @group_token()
    @blp.arguments(StandingsQuerySchema, location="query")
    @blp.response(200, StandingsSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="from after to, or an unknown season")
    def get(self, query, group_id):
        """Members ranked over a period (all time, a season, from–to): money, hands, wins, rates, biggest hand."""
        db = get_session()
        first, last = group_figures.period(db, group_id, query)
        return {"from": first and first.isoformat(), "to": last and last.isoformat(),
                "standings": group_figures.standings_view(db, group_id, first, last, query["min_evenings"])}


@blp.route("/<session_id:group_id>/seasons")
class Seasons(MethodView):
    @group_token(ADMIN)
    @blp.arguments(SeasonCreateSchema())
    @blp.response(201, SeasonSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="from after to")
    def post(self, body, group_id):
        """Define a season: a named period (both days included)."""
        season = group_records.add_season(get_session(), current_group(), body["name"], body["from"], body["to"],
                                          client_label())
        return group_records.season_view(season)


@blp.route("/<session_id:group_id>/audit")
class Audit(MethodView):
    @group_token()
    @blp.response(200, GroupAuditListSchema)
    def get(self, group_id):
        """Who changed the roster, payments, seasons, evenings or tokens of the group, when, before and after."""
        audits = group_store.list_audits(get_session(), group_id)
        return {"audit": [group_records.audit_view(audit) for audit in audits]}


@blp.route("/<session_id:group_id>/tokens")
class Tokens(MethodView):
    @group_token(ADMIN)
    @blp.response(201, GroupTokensSchema)
    def post(self, group_id):
        """New admin, member and read-only tokens (a link leaked); the old ones answer 401. Shown once."""
        return group_records.replace_tokens(get_session(), current_group(), client_label())
