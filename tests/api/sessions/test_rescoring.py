"""Full entries across a void or a correction: scored again when their table moved under them or their tiles changed.

A replay keeps a full entry's stored score when its seats, dealer and winds
are where they were when it was scored, or when what the score reads of the
table (seat flowers, wind pungs, dealer for an event) is the same at its new
one (a 1,000-hand evening replays in a few ms instead of re-scoring every
hand; benchmarks/replay.py; tests/ledger/test_table_moves.py). These tests
pin down both sides, with 台 worked by hand from RULES.md §4 and the
fixtures' worked hands (fixtures/worked_hands_taiwan.json).

taiwan, 底 100, 台 20, dealer extra 1 + 2n (RULES.md §6).
"""
from ledger import recorder
from tests.api.sessions.tables import Table, assert_matches_replay, discard

# everyday_dealer_east_pung: 東 pung (melded), 春 梅, self-drawn on a closed 7s.
EAST_PUNG = {"hand": {"concealed": "234m567m345p99s68s", "melds": [{"kind": "pung", "tiles": "111z"}],
                      "winning_tile": "7s", "flowers": "1f5f"}, "win": {"by": "self_draw"}}
# seed004_four_concealed_pungs (22 台) and seed004_five_concealed_pungs (26 台), at seat 南 in 東風東局.
FOUR_PUNGS = {"hand": {"concealed": "111p111s666z777z5z", "melds": [{"kind": "pung", "tiles": "111m"}],
                       "winning_tile": "5z"}, "win": {"by": "self_draw"}}
FIVE_PUNGS = {"hand": {"concealed": "111m111p111s666z777z5z", "winning_tile": "5z"}, "win": {"by": "self_draw"}}


def full(player, entry):
    return {"winners": [{"player": player, **entry}], "by": "self_draw"}


def test_a_void_that_moves_the_deal_scores_a_later_full_entry_at_its_new_table(app, client):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 1))
    # Hand 2: Ben deals (局 南), Amy sits 北: 自摸 1 + 風圈 (東 pung, 東 round) 1 = 2 台; her flowers 春 梅 are
    # 東's, her seat wind is 北, the 局 wind 南. Ben (dealer, streak 0) pays 100 + (2+1)×20 = 160, Cat and Dan 140.
    [second] = table.hands_ok(full("Amy", EAST_PUNG))
    assert second["scores"][0]["tai"] == 2
    assert second["payments"] == {"Amy": 440, "Ben": -160, "Cat": -140, "Dan": -140}
    assert table.void(1).status_code == 200
    # Without hand 1 Amy deals hand 2 herself in 東風東局: the worked hand's 6 台 (自摸 1 + 花牌 2 + 門風 1 +
    # 風圈 1 + 風牌 1), each of the three pays 100 + (6+1)×20 = 240.
    hand = table.get("/hands/2")
    assert hand["scores"][0]["tai"] == 6
    assert hand["payments"] == {"Amy": 720, "Ben": -240, "Cat": -240, "Dan": -240}
    assert table.totals() == {"Amy": 720, "Ben": -240, "Cat": -240, "Dan": -240}
    assert_matches_replay(app, table)


def test_a_corrected_full_entry_is_scored_again_at_the_same_table(app, client):
    table = Table(client)
    [first] = table.hands_ok(full("Ben", FOUR_PUNGS))
    assert first["scores"][0]["tai"] == 22
    # Amy deals (streak 0): she pays 100 + (26+1)×20 = 640, Cat and Dan 100 + 26×20 = 620 each.
    corrected = table.correct(1, full("Ben", FIVE_PUNGS))
    assert corrected.status_code == 200
    assert corrected.get_json()["scores"][0]["tai"] == 26
    assert corrected.get_json()["payments"] == {"Amy": -640, "Ben": 1880, "Cat": -620, "Dan": -620}
    assert_matches_replay(app, table)


def test_a_void_that_leaves_a_full_entry_at_its_table_does_not_score_it_again(app, client, monkeypatch):
    table = Table(client)
    table.hands_ok(full("Ben", FOUR_PUNGS), discard("Cat", "Dan", 2), discard("Dan", "Amy", 1))
    scored, score = [], recorder.scoring.Scorer.score  # what a replay scores every full entry with

    def counted(scorer, *args, **kwargs):
        scored.append(args)
        return score(scorer, *args, **kwargs)

    monkeypatch.setattr(recorder.scoring.Scorer, "score", counted)
    assert table.void(3).status_code == 200  # hands 1 and 2 keep their seats, dealer and winds
    assert scored == []
    assert table.get("/hands/1")["scores"][0]["tai"] == 22
    monkeypatch.undo()
    assert_matches_replay(app, table)  # a replay from scratch (every hand scored) gives the same results
