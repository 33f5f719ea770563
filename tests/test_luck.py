"""``analysis.luck.killer_position_effects`` and ``slashersim luck killer``."""
import json
import math

from helpers import assert_one_line_error, run_cli
import numpy as np
import pytest

from slashersim.analysis.luck import first_fact_effects, killer_position_effects
from slashersim.cli import main
from slashersim.core import rules
from slashersim.core.config import ConfigError, GameConfig
from slashersim.core.stats import mean_interval
from slashersim.runner import simulate

RULEBOOK = GameConfig()
POSITIONS = range(1, RULEBOOK.killer_positions + 1)


@pytest.fixture(scope="module")
def effects():
    return killer_position_effects(RULEBOOK, games=4000, seed=11)


@pytest.mark.parametrize("edition", ["rulebook", "instructions"])
def test_forced_position_puts_the_killer_there(edition):
    config = GameConfig(edition=edition)
    for k in range(1, config.killer_positions + 1):
        records = simulate(config.replace(killer_position=k), games=300, seed=3,
                           keep_records=True).records
        assert (records["killer_start"] == k).all()


def test_forcing_the_position_leaves_the_rest_of_the_game_alone():
    plain = simulate(RULEBOOK, games=2000, seed=5, keep_records=True).records
    for k in POSITIONS:
        forced = simulate(RULEBOOK.replace(killer_position=k), games=2000, seed=5,
                          keep_records=True).records
        for column in ("first_area", "first_trump", "first_yellows_0", "first_yellows_1"):
            assert np.array_equal(forced[column].to_numpy(), plain[column].to_numpy()), column
        same = plain["killer_start"].to_numpy() == k
        assert np.array_equal(forced["outcome"].to_numpy()[same],
                              plain["outcome"].to_numpy()[same])


def test_win_rates_agree_with_the_unconditioned_run(effects):
    by_start = simulate(RULEBOOK, games=28_000, seed=11).win_rate_by_killer_start()
    assert set(effects["positions"]) == set(by_start) == {str(k) for k in POSITIONS}
    for k, p in effects["positions"].items():
        n, rate = by_start[k]
        assert p["games"] == 4000
        se = math.sqrt(p["win_rate"] * (1 - p["win_rate"]) / p["games"]
                       + rate * (1 - rate) / n)
        assert abs(p["win_rate"] - rate) < 4.5 * se, (k, p["win_rate"], rate)


def test_effects_are_deviations_from_the_average(effects):
    positions = effects["positions"].values()
    rates = [p["win_rate"] for p in positions]
    assert effects["average"] == pytest.approx(sum(rates) / len(rates), abs=1e-15)
    assert abs(sum(p["effect"] for p in positions)) < 1e-12
    for p in positions:
        assert p["effect"] == pytest.approx(p["win_rate"] - effects["average"], abs=1e-12)
        lo, hi = p["effect_ci"]
        assert lo < p["effect"] < hi
        wlo, whi = p["win_ci"]
        assert wlo <= p["win_rate"] <= whi
    # paired differences: the effect interval is much narrower than the win-rate interval
    p = effects["positions"]["1"]
    assert p["effect_ci"][1] - p["effect_ci"][0] < p["win_ci"][1] - p["win_ci"][0]


def test_one_position_plays_only_it_and_the_game_as_dealt(effects):
    # the average it is compared with is the same games as dealt (the Killer at a position
    # the deck drew, each equally likely): win_3(g) - win(g), paired
    one = killer_position_effects(RULEBOOK, games=4000, seed=11, positions=[3])
    assert list(one["positions"]) == ["3"]
    p = one["positions"]["3"]
    assert (p["games"], p["win_rate"], p["win_ci"]) == \
        tuple(effects["positions"]["3"][k] for k in ("games", "win_rate", "win_ci"))
    won = {k: (simulate(c, games=4000, seed=11, keep_records=True).records["outcome"] == "win")
           .to_numpy().astype(int) for k, c in (("3", RULEBOOK.replace(killer_position=3)),
                                                ("dealt", RULEBOOK))}
    d = won["3"] - won["dealt"]
    assert one["average"] == won["dealt"].mean()
    effect, ci = mean_interval(int(d.sum()), int((d * d).sum()), 4000)
    assert p["effect"] == pytest.approx(effect, abs=1e-15)
    assert p["effect_ci"] == pytest.approx(ci, abs=1e-12)


def test_chunking_does_not_change_the_result():
    default = killer_position_effects(RULEBOOK, games=3000, seed=2)
    small = killer_position_effects(RULEBOOK, games=3000, seed=2, chunk_size=700)
    assert small == default


@pytest.mark.parametrize("position", [0, 8, True, "3"])
def test_bad_position_is_refused(position):
    with pytest.raises(ConfigError, match="killer position must be 1..7"):
        killer_position_effects(RULEBOOK, games=10, positions=[position])


def test_cli_json_has_the_documented_keys(capsys):
    assert main(["luck", "killer", "--all", "--games", "500", "--json", "--skill", "novice"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert set(r) == {"positions", "average", "invariant_violations", "config", "rules_id",
                      "policy", "seed"}
    assert r["invariant_violations"] == 0
    assert list(r["positions"]) == [str(k) for k in POSITIONS]
    for p in r["positions"].values():
        assert set(p) == {"games", "win_rate", "win_ci", "effect", "effect_ci"}
        assert p["games"] == 500 and len(p["win_ci"]) == 2 and len(p["effect_ci"]) == 2
    assert r["policy"] == "baseline" and r["seed"] == 0
    assert r["config"]["edition"] == "rulebook" and r["config"]["killer_position"] is None


def test_cli_one_position_and_options(capsys):
    assert main(["luck", "killer", "--position", "12", "--games", "300", "--json",
                 "--edition", "instructions", "--health", "5", "--seed", "4",
                 "--threads", "1"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert list(r["positions"]) == ["12"]
    assert (r["config"]["edition"], r["config"]["health"], r["seed"]) == ("instructions", 5, 4)
    assert main(["luck", "killer", "--position", "2", "--games", "300"]) == 0
    out = capsys.readouterr().out
    assert "300 games per position" in out and "effect" in out
    assert "average over positions 1..7 (the same games as dealt" in out


@pytest.mark.parametrize("args, needle", [
    (["--position", "9"], "slashersim: error: killer position must be 1..7, got 9"),
    (["--position", "13", "--edition", "instructions", "--no-cursed-object"],
     "killer position must be 1..12, got 13"),
    (["--position", "0"], "killer position must be 1..7, got 0"),
    (["--position", "14", "--edition", "instructions"], "killer position must be 1..13, got 14"),
    (["--all", "--health", "0"], "health must be 1..7, got 0"),
    (["--all", "--position", "2"], "not allowed with argument"),
    ([], "one of the arguments --position --all is required"),
])
def test_cli_bad_input_is_one_line_and_exit_2(args, needle):
    assert_one_line_error(run_cli("luck", "killer", *args), needle)


# --- first area and first trump ------------------------------------------------------------


@pytest.mark.parametrize("edition, area", [("rulebook", "woodland"),
                                           ("instructions", "hideaway")])
def test_forced_first_area_is_generated_and_the_rest_unchanged(edition, area):
    base = simulate(GameConfig(edition=edition), games=2000, seed=4, keep_records=True).records
    forced = simulate(GameConfig(edition=edition, first_area=area), games=2000, seed=4,
                      keep_records=True).records
    assert (forced["first_area"] == rules.AREA_NAMES.index(area)).all()
    for col in ("killer_start", "first_trump", "first_yellows_0"):
        assert forced[col].equals(base[col])


def test_forced_first_trump_is_generated_and_the_rest_unchanged():
    base = simulate(GameConfig(), games=2000, seed=4, keep_records=True).records
    forced = simulate(GameConfig(first_trump="red"), games=2000, seed=4,
                      keep_records=True).records
    assert (forced["first_trump"] == rules.RED).all()
    for col in ("killer_start", "first_area"):
        assert forced[col].equals(base[col])


@pytest.mark.parametrize("fact, column", [("area", "first_area"), ("trump", "first_trump")])
def test_fact_effects_agree_with_unconditioned_runs(fact, column):
    r = first_fact_effects(fact, games=4000, seed=2)
    names = rules.AREA_NAMES if fact == "area" else rules.SUIT_NAMES
    rec = simulate(GameConfig(), games=24_000, seed=99, keep_records=True).records
    for value, row in r["values"].items():
        group = rec[rec[column] == names.index(value)]
        p1, n1 = row["win_rate"], row["games"]
        p2, n2 = (group["outcome"] == "win").mean(), len(group)
        se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
        assert abs(p1 - p2) < 4.5 * se, (value, p1, p2)
    assert abs(sum(v["effect"] for v in r["values"].values())) < 1e-12


def test_fact_values_are_checked():
    with pytest.raises(ConfigError, match="first area must be one of: tent_site, lodge, woodland"):
        first_fact_effects("area", games=10, values=["cabins"])
    with pytest.raises(ConfigError, match="unknown first area 'cabins'"):
        GameConfig(first_area="cabins")
    with pytest.raises(ConfigError, match="unknown first trump 'blue'"):
        GameConfig(first_trump="blue")


def test_cli_luck_area_and_trump(capsys):
    assert main(["luck", "trump", "--all", "--games", "300", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert list(r["values"]) == list(rules.SUIT_NAMES)
    assert main(["luck", "area", "--value", "lodge", "--games", "300", "--json"]) == 0
    assert list(json.loads(capsys.readouterr().out)["values"]) == ["lodge"]
    assert_one_line_error(run_cli("luck", "area", "--value", "cabins", "--games", "10"),
                          "first area must be one of: tent_site, lodge, woodland")


# --- first-deal yellows ----------------------------------------------------------------------
from slashersim.analysis.luck import yellow_weights  # noqa: E402
from slashersim.core import layout as L  # noqa: E402
from slashersim.engine import deal, rng  # noqa: E402


def first_two_deals(config, games, seed=8):
    """Hands of rounds 1 and 2 and round 1's trump card of ``games`` games, from the engine."""
    out = []
    for g in range(games):
        st = L.new_state(config.to_array())
        rng.seed_streams(st, seed, g, 0, 0)
        deal.setup_game(st)
        deal.start_round(st)
        r1 = (int(st[L.S_HAND]), int(st[L.S_HAND + 1]), int(st[L.S_TRUMP_CARD]))
        deal.start_round(st)
        out.append((r1, (int(st[L.S_HAND]), int(st[L.S_HAND + 1]))))
    return out


def yellows(mask):
    return bin(mask & int(rules.SUIT_MASK[rules.YELLOW])).count("1")


def test_forced_yellows_are_dealt_exactly_and_the_rest_is_uniform():
    n = 1500
    plain = first_two_deals(GameConfig(), n)
    forced = first_two_deals(GameConfig(first_yellows=(2, None)), n)
    assert all(yellows(r1[0]) == 2 for r1, _ in forced)
    # later deals are untouched (the deal stream is left as it was)
    assert [r2 for _, r2 in forced] == [r2 for _, r2 in plain]
    # every card equally likely in player 0's hand within its suit class: yellows 2/5, others 6/15
    for card in range(20):
        share = sum((r1[0] >> card) & 1 for r1, _ in forced) / n
        assert abs(share - 0.4) < 0.05, (card, share)
    # the partner's yellows: the other 3 fall uniformly on the 12 other places
    counts = np.bincount([yellows(r1[1]) for r1, _ in forced], minlength=4) / n
    expected = [math.comb(8, k) * math.comb(4, 3 - k) / math.comb(12, 3) for k in range(4)]
    assert np.allclose(counts, expected, atol=0.04), counts
    both = first_two_deals(GameConfig(first_yellows=(1, 1)), n)
    assert all((yellows(r1[0]), yellows(r1[1])) == (1, 1) for r1, _ in both)
    assert abs(sum(r1[2] // 5 == rules.YELLOW for r1, _ in both) / n - 0.75) < 0.05


def test_forced_yellows_leave_the_rest_of_the_game_alone():
    base = simulate(GameConfig(), games=2000, seed=4, keep_records=True).records
    forced = simulate(GameConfig(first_yellows=(None, 0)), games=2000, seed=4,
                      keep_records=True).records
    assert (forced["first_yellows_1"] == 0).all()
    for col in ("killer_start", "first_area"):
        assert forced[col].equals(base[col])


def test_yellow_effects_are_weighted_and_agree_with_unconditioned_runs():
    r = first_fact_effects("yellows", games=3000, seed=2)
    assert list(r["values"]) == [str(y) for y in range(6)] and r["player"] == 0
    w = yellow_weights()
    assert sum(w.values()) == math.comb(20, 8)
    rates = {k: v["win_rate"] for k, v in r["values"].items()}
    assert r["average"] == pytest.approx(sum(w[k] * rates[k] for k in w) / sum(w.values()))
    assert abs(sum(w[k] * v["effect"] for k, v in r["values"].items())) < 1e-9
    rec = simulate(GameConfig(), games=30_000, seed=99, keep_records=True).records
    whole = (rec["outcome"] == "win").mean()
    assert abs(r["average"] - whole) < 4.5 * math.sqrt(whole * (1 - whole) / 3000)
    for value, row in r["values"].items():
        group = rec[rec["first_yellows_0"] == int(value)]
        if len(group) < 300:
            continue
        p1, p2 = row["win_rate"], (group["outcome"] == "win").mean()
        se = math.sqrt(p1 * (1 - p1) / 3000 + p2 * (1 - p2) / len(group))
        assert abs(p1 - p2) < 4.5 * se, (value, p1, p2)


@pytest.mark.parametrize("value, message", [
    ((0, 0), "leaves 5 yellows for the 4-card trump deck"),
    ((3, 3), "deals more than the 5 yellow cards"),
    ((6, None), "first yellows must be 0..5, got 6"),
    ((1,), "first_yellows must list 2 counts"),
])
def test_bad_first_yellows_are_refused(value, message):
    with pytest.raises(ConfigError, match=message):
        GameConfig(first_yellows=value)


def test_cli_luck_yellows(capsys):
    assert main(["luck", "yellows", "--value", "3", "--player", "1", "--games", "300",
                 "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert list(r["values"]) == ["3"] and r["player"] == 1
    assert r["config"]["first_yellows"] is None
    assert main(["luck", "yellows", "--all", "--games", "200"]) == 0
    assert "P0 yellows" in capsys.readouterr().out
    assert main(["luck", "yellows", "--value", "7", "--games", "10"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["slashersim: error: first yellows must be one of: 0, 1, 2, 3, 4, 5, got '7'"]
    with pytest.raises(ConfigError, match="cannot both be set"):
        GameConfig(first_yellows=(1, None), first_trump="red")
