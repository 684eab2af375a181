"""POST /api/score sends the engine's breakdown as built, not dumped through ScoreSchema (issue 7): it must
therefore be exactly what the schema's dump would send, for every rule set and kind of hand."""
import json
import random
from pathlib import Path

import pytest

from api.rules.schemas import ScoreSchema
from benchmarks.score_throughput import taiwan_request

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


def worked_requests() -> list[dict]:
    """The request of every worked hand of fixtures/, all three rule sets."""
    return [hand["request"] for path in sorted(FIXTURES.glob("worked_hands_*.json"))
            for hand in json.loads(path.read_text(encoding="utf-8"))["hands"]]


@pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)
def test_every_breakdown_sent_is_what_the_schema_dumps(client):
    rng = random.Random(3)
    requests = worked_requests() + [taiwan_request(rng) for _ in range(200)]
    scored = 0
    for body in requests:
        response = client.post("/api/score", json=body)
        if response.status_code == 422:  # a worked hand that is no legal win (kept to show the refusal)
            continue
        assert response.status_code == 200, (body, response.get_json())
        result = response.get_json()
        assert result == ScoreSchema().dump(result), body
        scored += 1
    assert scored > 200
    assert {"taiwan", "taiwan_zz", "shanghai"} <= {body["ruleset"] for body in requests}
