"""The rule sets: ``POST /api/score`` (score one hand, stateless) and ``GET /api/rulesets``."""
from flask import jsonify
from flask.views import MethodView

from api.http.extensions import Blueprint
from api.http.language import in_reader_script
from api.rules.schemas import RuleSetSchema, ScoreRequestSchema, ScoreSchema
from api.rules.views import rulesets_view
from ledger import house_rules, rules, scoring

blp = Blueprint("score", __name__, url_prefix="/api", description="Score a hand; list the rule sets")


def score_request(body: dict) -> scoring.Score:
    """Score a validated request body; the ledger raises on anything illegal."""
    if body["house_rules"] is None:
        return rules.score(body["ruleset"], body["hand"], body["win"], seat_wind=body["seat_wind"],
                           round_wind=body["round_wind"], hand_wind=body["hand_wind"],
                           dealer=body["dealer"], options=body["options"])
    scorer = house_rules.scorer(body["ruleset"], body["options"], body["house_rules"])
    return scorer.score(body["hand"], body["win"], seat_wind=body["seat_wind"], round_wind=body["round_wind"],
                        hand_wind=body["hand_wind"], dealer=body["dealer"])


@blp.route("/score")
class Score(MethodView):
    @blp.arguments(ScoreRequestSchema())
    @blp.response(200, ScoreSchema)
    @blp.alt_response(422, description="Not a legal win: the message says why")
    def post(self, body):
        """Count the 台 (or 花/勒) of one winning hand, with its breakdown."""
        # Sent as built: the engine's breakdown has ScoreSchema's shape already (tests compare it with
        # the schema's dump); dumping it again is a share of every request (benchmarks/api_throughput.py).
        return jsonify(in_reader_script(score_request(body).to_dict(), body["ruleset"]))


@blp.route("/rulesets")
class RuleSets(MethodView):
    @blp.response(200, RuleSetSchema(many=True))
    def get(self):
        """Every rule set: its patterns (id, name, value), options (defaults), what house rules may change."""
        return rulesets_view()
