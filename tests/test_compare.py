"""``analysis.compare``, ``slashersim compare``, the policies report and the policy benchmark."""
import importlib.util
import json
from types import SimpleNamespace

from helpers import ROOT, assert_one_line_error, run_cli
from numba import njit
import numpy as np
import pytest

from slashersim.analysis.bench import policy_speed
from slashersim.analysis.compare import compare_policies, pair
from slashersim.cli import main
from slashersim.core.config import GameConfig
from slashersim.core.inputs import parse_games
from slashersim.engine import interface
from slashersim.policies import param_vector, registered
from slashersim.policies.baseline import decide as baseline
from slashersim.present.text import format_policy_speeds
from slashersim.runner import simulate


@njit
def _no_charm(decision, player, arg, st, params):
    """The baseline, except that with ``params[0] > 0`` it never uses a Lucky Charm at the
    start of an item phase."""
    if decision == interface.PHASE_START and params[0] > 0:
        return -1
    return baseline(decision, player, arg, st, params)


@pytest.fixture
def nocharm():
    """A test policy ``nocharm`` in the registry, with one named parameter ``charm_off``
    (default 1): it plays as the baseline does but for Lucky Charms, so its results correlate
    strongly with the baseline's on common random numbers."""
    with registered("nocharm", SimpleNamespace(
            name="nocharm", decide=_no_charm, default_params=np.ones(1), omniscient=False,
            param_names=("charm_off",))) as name:
        yield name


def _wins(policy, games, seed, params=None):
    records = simulate(GameConfig(), policy, games=games, seed=seed, keep_records=True,
                       params=params).records
    return (records["outcome"] == "win").to_numpy()


def _without_timing(r):
    return {**r, "policies": [{k: v for k, v in row.items() if k != "elapsed_s"}
                              for row in r["policies"]]}


def test_the_same_policy_twice_differs_by_exactly_zero():
    r = compare_policies(GameConfig(), ["baseline", "baseline"], games=2000, seed=4)
    assert [row["label"] for row in r["policies"]] == ["baseline", "baseline#2"]
    (p,) = r["pairs"]
    assert (p["a"], p["b"], p["games"]) == ("baseline", "baseline#2", 2000)
    assert p["difference"] == 0.0 and p["difference_ci"] == [0.0, 0.0]
    assert p["only_a_won"] == p["only_b_won"] == 0
    assert p["unpaired_ci"][1] - p["unpaired_ci"][0] > 0


def test_pairs_use_the_same_game_indices_and_chunking_cannot_change_results(nocharm):
    r = compare_policies(GameConfig(), ["baseline", nocharm],
                         games={"baseline": 1500, nocharm: 1000}, seed=9)
    base, off = _wins("baseline", 1500, 9), _wins(nocharm, 1000, 9, np.ones(1))
    rows = {row["label"]: row for row in r["policies"]}
    assert (rows["baseline"]["games"], rows["baseline"]["wins"]) == (1500, base.sum())
    assert (rows[nocharm]["games"], rows[nocharm]["wins"]) == (1000, off.sum())
    p = pair(r, "baseline", nocharm)
    assert p["games"] == 1000
    assert p["only_a_won"] == (base[:1000] & ~off).sum() > 0
    assert p["only_b_won"] == (off & ~base[:1000]).sum() > 0
    assert p["difference"] == (off.sum() - base[:1000].sum()) / 1000
    chunked = compare_policies(GameConfig(), ["baseline", nocharm],
                               games={"baseline": 1500, nocharm: 1000}, seed=9,
                               chunk_size=97, threads=1)
    assert _without_timing(chunked) == _without_timing(r)
    back = pair(r, nocharm, "baseline")
    assert back["difference"] == -p["difference"]
    assert back["difference_ci"] == [-p["difference_ci"][1], -p["difference_ci"][0]]


def test_paired_interval_is_narrower_than_the_unpaired_one(nocharm):
    r = compare_policies(GameConfig(), ["baseline", nocharm], games=4000, seed=2)
    (p,) = r["pairs"]
    paired = p["difference_ci"][1] - p["difference_ci"][0]
    unpaired = p["unpaired_ci"][1] - p["unpaired_ci"][0]
    assert 0 < paired < 0.5 * unpaired, (paired, unpaired)
    assert p["difference"] == pytest.approx(sum(p["difference_ci"]) / 2)


def test_policy_parameters_by_name_reach_the_policy(nocharm):
    r = compare_policies(GameConfig(), ["baseline", nocharm], games=1000, seed=3,
                         params={nocharm: {"charm_off": 0.0}})
    assert r["policies"][1]["params"] == [0.0]
    assert r["pairs"][0]["difference"] == 0.0
    with pytest.raises(ValueError, match="policy 'nocharm' has no parameter 'high'; "
                                         "expected one of: charm_off"):
        compare_policies(GameConfig(), [nocharm], games=10, params={nocharm: {"high": 1}})
    with pytest.raises(ValueError, match="parameters given for 'baseline', which is not"):
        compare_policies(GameConfig(), [nocharm], games=10, params={"baseline": {"0": 1}})


def test_two_settings_of_one_policy_are_compared_on_the_same_games():
    """``heuristic#2.NAME=VALUE`` sets only the second heuristic row: an optimiser's claim
    checked side by side against the defaults."""
    r = compare_policies(GameConfig(edition="instructions"), ["heuristic", "heuristic"],
                         games=3000, seed=3, params={"heuristic#2": {"any_time_items": 0}})
    a, b = r["policies"]
    assert (a["label"], b["label"]) == ("heuristic", "heuristic#2")
    assert a["params"][-2:] == [1.0, 0.0] and b["params"][-2:] == [0.0, 0.0]
    p = r["pairs"][0]
    assert p["only_a_won"] + p["only_b_won"] > 0
    assert p["difference_ci"][1] - p["difference_ci"][0] < \
        p["unpaired_ci"][1] - p["unpaired_ci"][0]


def test_parse_games():
    assert parse_games("500") == 500
    assert parse_games("1000,search=20") == {None: 1000, "search": 20}
    assert parse_games("a=1,b=2") == {"a": 1, "b": 2}
    for bad, needle in [("0", "at least 1"), ("x", "N or NAME=N"), ("=3", "policy name"),
                        ("a=1,a=2", "given twice")]:
        with pytest.raises(ValueError, match=needle):
            parse_games(bad)
    with pytest.raises(ValueError, match="no game count for policy 'baseline'"):
        compare_policies(GameConfig(), ["baseline", "baseline"], games={"baseline#2": 5})
    with pytest.raises(ValueError, match="games given for 'search', which is not compared"):
        compare_policies(GameConfig(), ["baseline"], games={"search": 5})


def test_compare_cli_text_and_json(capsys):
    args = ["compare", "--policies", "baseline,baseline", "--games", "600", "--seed", "1",
            "--edition", "instructions", "--health", "5"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("players baseline (novice), baseline#2 (novice); instructions edition, "
                          "health 5")
    for needle in ("win rate", "95% CI", "lost: health", "paired difference",
                   "baseline#2 - baseline", "+0.0000   [+0.0000, +0.0000]", "Hideaway"):
        assert needle in out, needle
    assert main([*args, "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert set(r) == {"policies", "pairs", "config", "rules_id", "seed"}
    assert {"label", "policy", "omniscient", "params", "games", "wins", "win_rate", "win_ci",
            "loss_health", "loss_traps", "timeout", "trap_rate_by_area",
            "rounds_by_area"} <= set(r["policies"][0])
    assert {"a", "b", "games", "difference", "difference_ci", "unpaired_ci", "only_a_won",
            "only_b_won"} <= set(r["pairs"][0])
    assert r["config"]["health"] == 5 and r["policies"][0]["games"] == 600


@pytest.mark.parametrize("args, needle", [
    (["--policies", "baseline,genius"], "unknown policy 'genius'; expected one of: baseline"),
    (["--policies", "baseline", "--policy-param", "baseline=3"],
     "policy parameter must be POLICY.NAME=VALUE, got 'baseline=3'"),
    (["--policies", "baseline", "--games", "baseline=x"], "games must be N or NAME=N"),
])
def test_compare_bad_input_is_one_line_and_exit_2(args, needle):
    assert_one_line_error(run_cli("compare", "--games", "10", *args), needle)


def _report_module():
    spec = importlib.util.spec_from_file_location("policies_report",
                                                  ROOT / "experiments" / "policies_report.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_policies_report_end_to_end(tmp_path, capsys, nocharm):
    report = _report_module()
    out = tmp_path / "results" / "policies.md"
    report.main(["--games", "200,nocharm=150", "--policies", "nocharm,baseline", "--seed", "5",
                 "--policy-param", "nocharm.charm_off=1", "--out", str(out)])
    md = out.read_text()
    for edition in ("rulebook", "instructions"):
        for health in (7, 5, 3):
            assert f"### {edition}, health {health}" in md
    assert "heuristic ≥ baseline + 0.25 | - | - | - | not checked: not run" in md
    assert "| baseline | 200 |" in md and "| nocharm | 150 |" in md
    assert "| baseline | 150 |" in md
    assert "| rulebook defaults | - | - | - | - | - | not run |" in md
    assert "## What hidden information costs" in md
    speed = md.split("## Speed in this run")[1].split("##")[0]
    assert "| baseline | 1,200 |" in speed and "| nocharm | 900 |" in speed
    assert "report written to" in capsys.readouterr().out


def test_report_targets_verdicts():
    report = _report_module()

    def result(diff, ci):
        return {"pairs": [{"a": "baseline", "b": "heuristic", "games": 100, "difference": diff,
                           "difference_ci": ci}]}
    met = report.targets_section(result(0.30, [0.27, 0.33]))
    assert "| heuristic ≥ baseline + 0.25 | 100 | +0.3000 | [+0.2700, +0.3300] | met |" in met
    assert any("**not met** (the interval reaches the target)" in line
               for line in report.targets_section(result(0.24, [0.22, 0.26])))
    assert any("met (the interval reaches below the target)" in line
               for line in report.targets_section(result(0.26, [0.24, 0.28])))


def test_policy_speed_table():
    b = policy_speed("baseline", seconds=0.05, repeats=1)
    assert b["games"] >= 1 and b["games_per_s_1_thread"] > 0 and b["target_per_core"] is None
    table = format_policy_speeds([b, {**b, "policy": "search", "target_per_core": 100,
                                      "target_met": True}])
    rows = table.split("\n\n")[0].splitlines()
    assert "baseline" in table and "target/core" in table and rows[-1].rstrip().endswith("met")
    assert "verdict: whether both rates reach it" in table


def test_policy_speed_judges_the_target_at_default_parameters_only():
    at_defaults = policy_speed("heuristic", seconds=0.05, repeats=1)
    changed = policy_speed("heuristic", seconds=0.05, repeats=1,
                           params=param_vector("heuristic", {"damage": 3}))
    assert at_defaults["target_per_core"] == 100_000 and at_defaults["target_met"] is not None
    assert changed["target_per_core"] is None and changed["target_met"] is None
    assert changed["games_per_s_1_thread"] > 0
