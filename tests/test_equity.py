"""Luck and cost with the future unknown (the equity view): every game's luck and costs add up
to its outcome, the replays never leave the game, a position's play-outs are the luck
kernels' own, the estimates agree with long runs, and the kernel is the same compiled and in
Python. Play-out counts are tiny: accuracy is the benchmark's business."""
import json

import numpy as np
import pytest

from slashersim import GameConfig
from slashersim.analysis import equity as E
from slashersim.analysis import why as Y
from slashersim.core import rules

SEED = 11


@pytest.fixture(scope="module")
def games():
    return [E.game_moments(GameConfig(), "expert", SEED, g) for g in range(3)]


def test_every_game_s_luck_and_costs_add_up_to_its_outcome(games):
    for g in games:
        t = E.game_equity(g, choose=4, estimate=8, seed=1)
        assert E.check_sums(t), f"game {g.game}"
        assert t.attrs["astray"] == 0
        assert t.iloc[-1]["after"] == g.won
        assert set(t.loc[t["event"] == "luck", "kind"]) <= set(E.KINDS)
        d = t[t["event"] == "decision"]
        assert len(d) > 10 and (d["cost"][d["answer"] == d["best"]] == 0).all()
        totals = E.game_totals(t)
        luck = sum(totals[f"luck_{k}"] for k in E.KINDS)
        assert totals["start"] + luck - totals["cost"] == pytest.approx(totals["won"], abs=1e-9)


def test_a_broken_chain_is_caught(games):
    t = E.game_equity(games[0], choose=2, estimate=4, seed=1)
    t.loc[3, "luck"] += 0.25
    assert not E.check_sums(t)


def test_the_points_follow_the_game(games):
    """Each round has its start (or the game's), its area card, then its decisions; a
    decision's script replays the decisions since its position, its answers are legal and
    the play phase's decisions redraw the partner's unplayed cards only."""
    g = games[0]
    points, rec = E.game_points(g)
    assert points[0].kind == "start" and points[1].kind == "area"
    for p in points:
        if p.kind != "decision":
            continue
        assert p.given in p.answers and len(p.answers) > 1
        partner, cand, hidden, played = p.view
        st = g.states[p.moment]
        if partner >= 0:
            hand = int(st[E.L.S_HAND + partner])
            assert hand & ~cand == 0, "the partner's true cards are among the candidates"
            assert bin(cand).count("1") - hidden == bin(hand).count("1")
            assert played & hand == 0


def test_a_position_s_play_outs_are_the_luck_kernels_own():
    """With no decision to try, a point's play-outs (through the scripted player, on the
    function-pointer kernel) are exactly those of the luck kernels' own loop (the baseline's
    compiled-in fast path) from the same position and streams."""
    from slashersim.runner import prepare
    g = E.game_moments(GameConfig(), "baseline", SEED, 1)
    points, rec = E.game_points(g)
    chance = [p for p in points if p.kind in ("start", "phase")][:4]
    out = E.point_rollouts(E.Player("baseline"), rec, chance, [()] * len(chance), 16, 5)
    player = prepare("baseline")
    player.compile("rollouts")
    assert player.kernels.compiled_in is not None, "the baseline's own fast path"
    for j, p in enumerate(chance):
        ref = np.empty(16, dtype=np.int8)
        player.kernels.rollouts(np.ascontiguousarray(rec.snaps[p.base]), player.params,
                                np.ascontiguousarray(p.known), 5, 0, ref)
        assert np.array_equal(out[j, 0], ref)


def test_an_estimate_agrees_with_a_long_run(games):
    """The frequency of 1,024 other play-outs of a decision lies within the 95 % interval of
    its estimate on 64 (fixed streams: the check is deterministic)."""
    from slashersim.core.stats import wilson_interval
    g = games[2]
    points, rec = E.game_points(g)
    p = [q for q in points if q.kind == "decision"][5]
    player = E.Player("expert", None)
    short = E.point_rollouts(player, rec, [p], [(p.given,)], 64, 3)[0, 0]
    long = E.point_rollouts(player, rec, [p], [(p.given,)], 1024, 4)[0, 0]
    lo, hi = wilson_interval(int((short == rules.WIN).sum()), 64)
    assert lo <= (long == rules.WIN).mean() <= hi


KERNEL = """
import numpy as np
from slashersim import GameConfig
from slashersim.analysis import equity as E
g = E.game_moments(GameConfig(), "baseline", 5, 1)
points, rec = E.game_points(g)
pick = [points[0], points[1]] + [p for p in points if p.kind == "decision"][:2]
out = E.point_rollouts(E.Player("baseline", None), rec, pick,
                  [() if p.kind != "decision" else p.answers for p in pick], 2, 9)
print(out.tolist())
"""


def test_the_play_outs_are_the_same_compiled_and_in_python():
    from helpers import run_python
    compiled = run_python(KERNEL)
    assert compiled == run_python(KERNEL, disable_jit=True)


def test_why_adds_luck_and_costs_whose_shares_add_up():
    r = Y.why(GameConfig(), policy="expert", games=6, seed=SEED, workers=1, budget=200,
              equity={"choose": 2, "estimate": 4})
    t = r.table
    luck = sum(t[f"luck_{k}"] for k in E.KINDS)
    assert np.allclose(t["start"] + luck - t["cost"], (t["outcome"] == "win").astype(float))
    s = r.luck_and_costs()
    assert s["share"].sum() == pytest.approx(1.0)
    summary = r.summary()
    assert summary["equity"]["astray"] == 0 and len(summary["equity"]["sources"]) == 8
    from slashersim.present.text import format_why
    assert "luck and play (the future unknown)" in format_why(summary)
    r.where = f"outcome == '{t['outcome'].iloc[0]}'"    # all ended the same: no variance
    s = r.summary()
    json.dumps(s, allow_nan=False)
    assert all(x["share"] is None for x in s["equity"]["sources"])
    assert "shares: none, every game asked about ended the same way" in format_why(s)


def test_the_api_s_default_play_outs_are_the_analysis_own():
    from slashersim.api import calls
    assert calls.WHY_PLAYOUTS == E.ESTIMATE and E.choose_for(E.ESTIMATE) == E.CHOOSE


@pytest.mark.parametrize("argv, word", [
    (["why", "--equity", "--playouts", "0"], "--playouts"),
    (["why", "--playouts", "8"], "--playouts 8 counts the play-outs of --equity"),
])
def test_the_command_refuses_bad_play_out_counts(capsys, argv, word):
    from helpers import run_main
    code, out, err = run_main(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and word in err


def test_the_answer_does_not_depend_on_the_threads(games):
    import numba
    g = games[0]
    many = E.game_equity(g, choose=2, estimate=6, seed=2)
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        one = E.game_equity(g, choose=2, estimate=6, seed=2)
    finally:
        numba.set_num_threads(before)
    assert many.equals(one)
