"""The ``slashersim`` command line."""
import json

from helpers import assert_one_line_error, run_cli
import pytest

from slashersim.cli import main

KEYS = {"games", "wins", "win_rate", "win_ci", "loss_health", "loss_traps", "timeout",
        "mean_rounds", "mean_damage", "mean_items_kept", "mean_killer_draws", "trap_rate_by_area",
        "rounds_by_area", "win_rate_by_killer_start", "item_stats", "invariant_violations",
        "config", "policy", "policy_params", "seed", "elapsed_s"}
#: the counts beside the rates
COUNT_KEYS = {"outcomes", "rounds", "damage", "traps_by_area", "rounds_hist", "losses"}


def _json(capsys, *args):
    assert main(["simulate", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_simulate_json_has_the_documented_keys(capsys):
    s = _json(capsys, "--games", "3000", "--seed", "5", "--skill", "novice")
    assert KEYS <= s.keys()
    assert s["games"] == 3000 and s["seed"] == 5 and s["policy"] == "baseline"
    lo, hi = s["win_ci"]
    assert lo <= s["win_rate"] <= hi
    assert abs(s["win_rate"] + s["loss_health"] + s["loss_traps"] + s["timeout"] - 1) < 1e-12
    assert set(s["trap_rate_by_area"]) == {"tent_site", "lodge", "lakeside", "hideaway", "cabins",
                                           "woodland", "fire_pit"}
    assert s["trap_rate_by_area"]["hideaway"] is None and s["rounds_by_area"]["hideaway"] == 0
    assert sum(n for n, _ in s["win_rate_by_killer_start"].values()) == 3000
    assert s["config"]["edition"] == "rulebook" and s["config"]["hideaway"] is False


def test_simulate_json_has_the_counts_beside_the_rates(capsys):
    """Every rate of ``simulate --json`` is a count over a count that the object also holds."""
    s = _json(capsys, "--games", "3000", "--seed", "5")
    assert (KEYS | COUNT_KEYS) <= s.keys()
    out = s["outcomes"]
    assert set(out) == {"win", "loss_health", "loss_traps", "timeout"}
    assert sum(out.values()) == s["games"] == sum(s["rounds_hist"]) == 3000
    assert out["win"] == s["wins"] and s["win_rate"] == out["win"] / 3000
    for name in ("loss_health", "loss_traps", "timeout"):
        assert s[name] == out[name] / 3000
    assert s["mean_rounds"] == s["rounds"] / 3000
    assert s["rounds"] == sum(r * n for r, n in enumerate(s["rounds_hist"]))
    assert s["mean_damage"] == s["damage"] / 3000
    for area, rate in s["trap_rate_by_area"].items():
        played = s["rounds_by_area"][area]
        assert rate == (s["traps_by_area"][area] / played if played else None)


def test_simulate_options_reach_the_config(capsys):
    s = _json(capsys, "--games", "500", "--edition", "instructions", "--health", "5",
              "--no-cursed-object", "--escapes-needed", "3", "--traps", "2", "--threads", "1")
    c = s["config"]
    assert (c["edition"], c["health"], c["cursed_object"], c["escapes_needed"], c["traps"]) == \
        ("instructions", 5, False, 3, 2)
    assert c["hideaway"] is True
    assert s["rounds_by_area"]["hideaway"] > 0
    s = _json(capsys, "--games", "500", "--edition", "instructions", "--no-hideaway")
    assert s["rounds_by_area"]["hideaway"] == 0
    s = _json(capsys, "--games", "500", "--hideaway")
    assert s["rounds_by_area"]["hideaway"] > 0


def test_simulate_human_output(capsys):
    assert main(["simulate", "--games", "1000"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "95% CI" in out and "trap was set off" in out
    assert "rounds per game" in out


@pytest.mark.parametrize("args, needle", [
    (["--health", "0"], "health must be 1..7, got 0"),
    (["--health", "8"], "health must be 1..7, got 8"),
    (["--edition", "deluxe"], "invalid choice: 'deluxe'"),
    (["--policy", "genius"], "unknown policy 'genius'; expected one of: baseline"),
    (["--escapes-needed", "6"], "escapes_needed must be 1..5, got 6"),
    (["--traps", "0"], "traps must be 1..4, got 0"),
    (["--games", "0"], "games must be at least 1, got 0"),
    (["--games", "many"], "games must be an integer, got 'many'"),
])
def test_bad_input_is_one_line_and_exit_2(args, needle):
    assert_one_line_error(run_cli("simulate", *args), needle)


@pytest.mark.parametrize("argv", [
    ["compare", "--policies", "baseline,baseline", "--games", "300"],
    ["luck", "trump", "--all", "--games", "300"],
    ["luck", "killer", "--all", "--games", "200"],
])
def test_png_figures_fit_a_page(capsys, tmp_path, argv):
    """``compare --png`` and ``luck ... --png`` draw their intervals into a PNG within 2400 px
    a side and 3:1, titled with the games behind it."""
    from PIL import Image
    out = tmp_path / "fig.png"
    assert main([*argv, "--png", str(out), "--quiet"]) == 0
    capsys.readouterr()
    with Image.open(out) as im:
        w, h = im.size
    assert max(w, h) <= 2400 and max(w, h) / min(w, h) <= 3


@pytest.mark.parametrize("command", [["compare", "--policies", "baseline"],
                                     ["luck", "killer", "--all"],
                                     ["luck", "yellows", "--value", "2"]])
def test_png_refusals_come_before_playing(tmp_path, command):
    assert_one_line_error(run_cli(*command, "--png", str(tmp_path / "no" / "x.png")),
                          "--png")
