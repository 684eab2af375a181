"""Groups (牌友會): a roster, its evenings, payments, balances, standings and seasons (API.md: Groups).

Every request carries one of the group's tokens (``api.http.auth.GroupBlueprint``): none, or one not the
group's, is a 401; a lower level than the endpoint needs a 403. A change takes the group's row lock and is
one transaction (``api.groups.service``).
"""
from flask.views import MethodView

from api.groups import figures, service
from api.groups.schemas import (AttachSchema, BalancesQuerySchema, BalancesSchema, EveningSchema,
                                GroupAuditListSchema, GroupCreatedSchema, GroupCreateSchema, GroupEditSchema, GroupSchema,
                                GroupTokensSchema, MemberCreateSchema, MemberEditSchema, MemberPageSchema,
                                MemberSchema, MergeSchema, PaymentAnswerSchema, PaymentListSchema, PaymentSchema,
                                PaymentsPostSchema, PeriodQuerySchema, RatingsSchema, SeasonCreateSchema, SeasonSchema, StandingsQuerySchema,
                                StandingsSchema)
from api.groups.views import audit_view, balances_view, evening_view, group_view, payment_view
from api.http.auth import (ADMIN, CLIENT_HEADER, MEMBER, GroupBlueprint, caller, client_label, current_access,
                           current_group)
from api.http.db import get_db
from api.http.errors import JsonErrorSchema
from api.http.limits import limits
from ledger import group_store

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
        group, tokens = service.create_group(get_db(), body, client_label())
        return {"id": group.id, "name": group.name, "defaults": group.defaults, **tokens}


@blp.route("/<group_id:group_id>")
class Group(MethodView):
    @group_token()
    @blp.response(200, GroupSchema)
    def get(self, group_id):
        """The group: its members, its evenings (open first, then newest), its seasons, the token's access."""
        return group_view(get_db(), current_group(), current_access())

    @group_token(ADMIN)
    @blp.arguments(GroupEditSchema())
    @blp.response(200, GroupSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="Bad name or defaults")
    def patch(self, body, group_id):
        """Rename the group or replace its defaults (admin token); evenings already started keep theirs."""
        db = get_db()
        group = service.edit_group(db, group_id, caller(), body)
        return group_view(db, group, current_access())


@blp.route("/<group_id:group_id>/members")
class Members(MethodView):
    @group_token(MEMBER)
    @blp.arguments(MemberCreateSchema())
    @blp.response(201, MemberSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="A name or alias another member has")
    def post(self, body, group_id):
        """Add a member (a regular, or a guest on the spot). Audited."""
        return service.add_member(get_db(), group_id, caller(), body["name"], body["aliases"], limits())


@blp.route("/<group_id:group_id>/members/<member>")
class Member(MethodView):
    @group_token()
    @blp.response(200, MemberPageSchema)
    def get(self, group_id, member):
        """A member's lifetime page: figures overall and by rule set, patterns, net-money series, head-to-head."""
        db = get_db()
        return figures.member_page_view(db, group_id, service.member_in_path(db, group_id, member))

    @group_token(ADMIN)
    @blp.arguments(MemberEditSchema())
    @blp.response(200, MemberSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="A name or alias another member has")
    def patch(self, body, group_id, member):
        """Rename a member (history shows the new name; the old one stays as an alias) or set its aliases."""
        return service.edit_member(get_db(), group_id, member, caller(), body.get("name"), body.get("aliases"),
                                   limits())


@blp.route("/<group_id:group_id>/members/<member>/merge")
class Merge(MethodView):
    @group_token(ADMIN)
    @blp.arguments(MergeSchema())
    @blp.response(200, MemberSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="Unknown member, or a member merged into itself")
    def post(self, body, group_id, member):
        """Merge a duplicate into ``into``: every evening, figure, payment and alias moves; audited."""
        return service.merge_members(get_db(), group_id, member, body["into"], caller(), limits())


@blp.route("/<group_id:group_id>/sessions")
class Evenings(MethodView):
    @group_token(MEMBER)
    @blp.arguments(AttachSchema())
    @blp.response(201, EveningSchema)
    @blp.alt_response(422, schema=JsonErrorSchema,
                      description="An evening of a group already, or a player no member answers to")
    def post(self, body, group_id):
        """Attach an existing evening: its write token and each player name's member."""
        session, players = service.attach_evening(get_db(), group_id, caller(), body["session"], body["token"],
                                                  body["players"], limits())
        return evening_view(session, players)


@blp.route("/<group_id:group_id>/sessions/<session_id:session_id>")
class Evening(MethodView):
    @group_token(ADMIN)
    @blp.response(204)
    def delete(self, group_id, session_id):
        """Delete a wrongly created evening of the group, with everything recorded in it. Audited."""
        service.delete_evening(get_db(), group_id, session_id, caller())


@blp.route("/<group_id:group_id>/payments")
class Payments(MethodView):
    @group_token()
    @blp.response(200, PaymentListSchema)
    def get(self, group_id):
        """Every payment, voided ones included, oldest first; members by their current names."""
        db = get_db()
        names = figures.member_names(db, group_id)
        return {"payments": [payment_view(payment, names) for payment in group_store.list_payments(db, group_id)]}

    @group_token(MEMBER)
    @blp.arguments(PaymentsPostSchema())
    @blp.response(201, PaymentAnswerSchema)
    @blp.alt_response(422, schema=JsonErrorSchema,
                      description="Unknown member, a payment to oneself, an amount not above 0, an unknown evening")
    def post(self, body, group_id):
        """Record a payment (from, to, amount), or several at once (``payments``), in one transaction."""
        single = "payments" not in body
        views = service.record_payments(get_db(), group_id, caller(), [body] if single else body["payments"],
                                        body["session"], "" if single else "payments[{index}].")
        return views[0] if single else {"payments": views}


@blp.route("/<group_id:group_id>/payments/<int:payment_id>")
class Payment(MethodView):
    @group_token(MEMBER)
    @blp.response(200, PaymentSchema)
    def delete(self, group_id, payment_id):
        """Void a payment: it stays, counting for nothing. Audited."""
        return service.void_payment(get_db(), group_id, payment_id, caller())


@blp.route("/<group_id:group_id>/balances")
class Balances(MethodView):
    @group_token()
    @blp.arguments(BalancesQuerySchema, location="query")
    @blp.response(200, BalancesSchema)
    def get(self, query, group_id):
        """Each member's open balance (evenings + payments made − received), what it rests on, and the fewest
        transfers that clear them all."""
        return balances_view(*service.group_balances(get_db(), group_id, query.get("round_to")))


def period_read(query_schema, answer_schema, refused: str):
    """What a read of the group's figures over a period declares: the group's token, the period, the answer, 422."""

    def decorate(view):
        view = blp.alt_response(422, schema=JsonErrorSchema, description=refused)(view)
        view = blp.response(200, answer_schema)(view)
        view = blp.arguments(query_schema, location="query")(view)
        return group_token()(view)

    return decorate


@blp.route("/<group_id:group_id>/standings")
class Standings(MethodView):
    @period_read(StandingsQuerySchema, StandingsSchema, "from after to, or an unknown season")
    def get(self, query, group_id):
        """Members ranked over a period (all time, a season, from–to): money, hands, wins, rates, biggest hand."""
        db = get_db()
        first, last = figures.period(db, group_id, query)
        return {"from": first and first.isoformat(), "to": last and last.isoformat(),
                "standings": figures.standings_view(db, group_id, first, last, query["min_evenings"])}


@blp.route("/<group_id:group_id>/ratings")
class Ratings(MethodView):
    @period_read(PeriodQuerySchema, RatingsSchema, "A bad date, from after to, or an unknown season")
    def get(self, query, group_id):
        """Members rated (Plackett–Luce) over the closed evenings of a period, each starting fresh; best first."""
        db = get_db()
        return figures.ratings_view(db, group_id, *figures.period(db, group_id, query))


@blp.route("/<group_id:group_id>/seasons")
class Seasons(MethodView):
    @group_token(ADMIN)
    @blp.arguments(SeasonCreateSchema())
    @blp.response(201, SeasonSchema)
    @blp.alt_response(422, schema=JsonErrorSchema, description="from after to")
    def post(self, body, group_id):
        """Define a season: a named period (both days included)."""
        return service.add_season(get_db(), group_id, caller(), body["name"], body["from"], body["to"])


@blp.route("/<group_id:group_id>/audit")
class Audit(MethodView):
    @group_token()
    @blp.response(200, GroupAuditListSchema)
    def get(self, group_id):
        """Who changed the roster, payments, seasons, evenings or tokens of the group, when, before and after."""
        return {"audit": [audit_view(audit) for audit in group_store.list_audits(get_db(), group_id)]}


@blp.route("/<group_id:group_id>/tokens")
class Tokens(MethodView):
    @group_token(ADMIN)
    @blp.response(201, GroupTokensSchema)
    def post(self, group_id):
        """New admin, member and read-only tokens (a link leaked); the old ones answer 401. Shown once."""
        return service.replace_tokens(get_db(), group_id, caller())
