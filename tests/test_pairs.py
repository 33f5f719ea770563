"""Mixed pairs: two players in one game, seat 0's then seat 1's (``novice+expert``).

The names are read without compiling anything (every refusal one line naming the bad value
and the allowed ones); a pair of one player is that player, by name and, compiled as a pair,
game for game; each seat's decisions are its own player's answers; and the commands, the
Python API, compare and sweeps take a pair wherever they take a player.
"""
import json

from helpers import run_cli, run_main, run_python
import numpy as np
import pandas as pd
import pytest

from slashersim import api
from slashersim.analysis import hygiene as Hy
from slashersim.analysis.sweeps import parse_spec, run_sweep
from slashersim.core.config import ConfigError, GameConfig
from slashersim.policies import (
    Pair,
    Policy,
    check_pair,
    compile_parts,
    get_policy,
    is_omniscient,
    is_pair,
    pair_name,
    param_specs,
    param_vector,
    registered,
    resolve,
    seats_of,
)
from slashersim.policies.choice import check_policy, parse_policy_list
from slashersim.present.text import player_line
from slashersim.runner import simulate
from slashersim.runner.kernels import as_function
from slashersim.runner.tables import load_table


# --- names, read without compiling -------------------------------------------------------------
@pytest.mark.parametrize("given,name", [
    ("novice+expert", "baseline+expert"),
    ("expert+novice", "expert+baseline"),
    (" casual + expert ", "heuristic+expert"),
    (("novice", "expert"), "baseline+expert"),
    (["casual", "search"], "heuristic+search"),
    ("baseline+heuristic", "baseline+heuristic"),
    ("expert+expert", "expert"),
    ("novice+baseline", "baseline"),
    (("casual", "heuristic"), "heuristic"),
    ("novice", "baseline"),
    ("nobody+expert", "nobody+expert"),       # left as given, for its check to refuse
])
def test_a_pair_resolves_side_by_side_and_one_player_is_that_player(given, name, no_play):
    assert resolve(given) == name


def test_a_pairs_parameters_are_seat_0s_then_seat_1s(no_play):
    heuristic = [p.name for p in param_specs("heuristic")]
    expert = [p.name for p in param_specs("expert")]
    names = [p.name for p in param_specs("casual+expert")]
    assert names == [f"seat0.{n}" for n in heuristic] + [f"seat1.{n}" for n in expert]
    assert [p.name for p in param_specs("novice+expert")] == [f"seat1.{n}" for n in expert]
    vec = param_vector("casual+expert", {"seat0.breach": 7, "seat1.lead_samples": "8"})
    assert vec[0] == 7 and vec[len(heuristic) + expert.index("lead_samples")] == 8
    assert np.array_equal(np.delete(vec, [0, len(heuristic) + expert.index("lead_samples")]),
                          np.delete(np.concatenate([param_vector("heuristic"),
                                                    param_vector("expert")]),
                                    [0, len(heuristic) + expert.index("lead_samples")]))
    assert not vec.flags.writeable


def test_a_pair_is_omniscient_if_either_player_is(no_play):
    assert not is_omniscient("novice+expert")
    assert is_omniscient("novice+omniscient") and is_omniscient("open_hands+casual")
    assert is_pair("novice+expert") and not is_pair("expert+expert")
    assert not is_pair("expert") and not is_pair("novice+nobody")
    assert seats_of("novice+expert") == ("baseline", "expert")
    assert seats_of("casual") == ("heuristic", "heuristic")
    assert pair_name(("a", "b")) == "a+b" and pair_name("a") == "a"


@pytest.mark.parametrize("given,needle", [
    ("novice+nobody", "unknown policy 'nobody' in seat 1 of pair 'novice+nobody'; "
                      "expected one of: baseline, exerciser"),
    ("expertt+novice", "unknown policy 'expertt' in seat 0 of pair 'expertt+novice' "
                       "(did you mean 'expert'?); expected one of:"),
    ("a+b+c", "a pair is two players, SEAT0+SEAT1, got 'a+b+c' (3 players); each one of: "
              "baseline"),
    ("novice+expert+casual", "got 'novice+expert+casual' (3 players)"),
    ("novice+", "pair 'novice+' has no player in seat 1; expected SEAT0+SEAT1"),
    ("+expert", "pair '+expert' has no player in seat 0"),
    ("+", "pair '+' has no player in seat 0"),
    (("novice", "nobody"), "unknown policy 'nobody' in seat 1 of pair 'novice+nobody'"),
])
def test_a_bad_pair_is_refused_in_one_line_naming_it_before_anything_compiles(given, needle,
                                                                               no_play):
    for check in (check_policy, param_specs, is_omniscient, get_policy, check_pair):
        with pytest.raises(ValueError) as e:
            check(given)
        assert needle in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(ValueError, match="unknown policy|a pair|no player"):
        parse_policy_list(f"expert,{pair_name(given)}")


def test_a_pairs_parameter_names_are_checked(no_play):
    with pytest.raises(ValueError, match=r"policy 'novice\+expert' has no parameter "
                                         r"'lead_samples'; expected one of: seat1.breach, "):
        param_vector("novice+expert", {"lead_samples": 8})
    with pytest.raises(ValueError, match=r"policy 'novice\+casual' has no parameter "
                                         r"'seat0.breach'; expected one of: seat1.breach"):
        param_vector("novice+casual", {"seat0.breach": 8})
    with pytest.raises(ValueError, match=r"parameter seat1.lead_samples must be an integer "
                                         r"0..256, got '0.5'"):
        param_vector("novice+expert", {"seat1.lead_samples": "0.5"})


def test_a_pair_compiles_both_players_on_the_function_pointer_kernels(no_play):
    names = [p.name for p in compile_parts(["novice+expert"])]
    assert names == ["engine", "baseline", "expert"]
    assert [p.name for p in compile_parts(["novice"])] == ["engine_baseline"]
    assert [p.name for p in compile_parts(["expert+expert"])] == ["engine", "expert"]
    assert [p.name for p in compile_parts(["casual+novice"], ("rollouts",))] == \
        ["rollouts", "heuristic", "baseline"]


def test_the_first_line_names_both_seats():
    assert player_line("baseline+expert") == \
        "novice (seat 0) + expert (seat 1) (policies baseline+expert)"
    assert player_line("expert+search") == \
        "expert (seat 0) + search (seat 1) (policies expert+search)"


# --- games: a pair of one player is that player, each seat its own player ----------------------
def _as_pair(name):
    """Registered ``name`` played through the pair wrapper, seat 0 and seat 1 both ``name``
    (what resolving ``name+name`` never builds: it is ``name``)."""
    entry = get_policy(name)
    n = len(entry.default_params)
    return Policy(f"{name}+{name}", Pair(entry.decide, entry.decide, n),
                  np.concatenate([entry.default_params] * 2), entry.omniscient,
                  tuple(f"seat{s}.{p}" for s in (0, 1) for p in entry.param_names))


@pytest.mark.parametrize("name,games", [("baseline", 400), ("heuristic", 150), ("expert", 40)])
def test_the_pair_of_one_player_plays_that_players_games_bit_for_bit(name, games):
    """The pair wrapper compiled for X+X against X alone (the baseline on its fast path): the
    same record of every game, under the rulebook and a knob-heavy configuration, so each
    seat's random stream and memory stay its own through the wrapper."""
    for config, seed in ((GameConfig(), 5), (GameConfig(edition="instructions", health=5,
                                                        item_timing="any_time",
                                                        first_aid_target="either"), 9)):
        alone = simulate(config, name, games=games, seed=seed, keep_records=True)
        with registered("twin", _as_pair(name)):
            twin = simulate(config, "twin", games=games, seed=seed, keep_records=True)
        assert alone.records.equals(twin.records)
        assert alone.summary()["outcomes"] == twin.summary()["outcomes"]


def test_each_seat_is_answered_by_its_own_player_with_its_own_parameters():
    """At decision points of novice+expert games (the expert with 4 lead samples), each
    recorded answer is the one the seat's own player gives on that state: the baseline for seat
    0, the expert with the pair's seat-1 parameters for seat 1."""
    params = param_vector("novice+expert", {"seat1.lead_samples": 4})
    points = Hy.decision_points("novice+expert", GameConfig(), 40, seed=3, params=params)
    seats = points[:, 1]
    assert (seats == 0).sum() > 50 and (seats == 1).sum() > 50
    players = (as_function(get_policy("baseline").decide), as_function(get_policy("expert").decide))
    own = (params[:0], params[0:])
    for row in points:
        decision, player, arg, answer = (int(x) for x in row[:Hy.POINT_HEADER])
        st = row[Hy.POINT_HEADER:].copy()
        assert players[player](decision, player, arg, st, own[player]) == answer


def test_a_pair_plays_the_same_games_with_numba_off():
    script = ("from slashersim.runner import simulate\n"
              "r = simulate(policy='casual+novice', games=4, seed=3, keep_records=True)\n"
              "print(r.records.to_json())\n")
    assert run_python(script, disable_jit=True) == run_python(script)


def test_the_seats_of_a_pair_play_differently():
    """Seating matters in a mixed pair and a pair differs from each of its players (the same
    games, common random numbers)."""
    wins = {p: simulate(policy=p, games=600, seed=2).wins
            for p in ("baseline", "heuristic", "baseline+heuristic", "heuristic+baseline")}
    assert len(set(wins.values())) == 4
    assert simulate(policy=("baseline", "heuristic"), games=600, seed=2).wins == \
        wins["baseline+heuristic"]


# --- the commands and the Python API ----------------------------------------------------------
def test_simulate_skill_pair_on_the_command_line():
    p = run_cli("simulate", "--skill", "novice+expert", "--games", "2000", "--seed", "3",
                "--quiet", "--json")
    assert p.returncode == 0, p.stderr
    s = json.loads(p.stdout)
    assert s["policy"] == "baseline+expert" and s["games"] == 2000
    assert set(s["policy_params"]) == {f"seat1.{q.name}" for q in param_specs("expert")}
    assert s["wins"] == api.simulate(policy=("novice", "expert"), games=2000, seed=3).wins
    p = run_cli("simulate", "--policy", "baseline+expert", "--games", "2000", "--seed", "3",
                "--quiet")
    assert p.stdout.startswith("novice (seat 0) + expert (seat 1) (policies baseline+expert); ")
    assert f"{s['win_rate']:.4f}" in p.stdout


@pytest.mark.parametrize("args,needle", [
    (("--skill", "novice+nobody"), "unknown skill level 'nobody' in seat 1 of 'novice+nobody';"
                                   " expected one of: novice, casual, expert"),
    (("--skill", "novice+baseline"), "unknown skill level 'baseline' in seat 1"),
    (("--skill", "a+b+c"), "--skill 'a+b+c' names 3 players; a pair is two"),
    (("--skill", "novice+"), "no skill level in seat 1 of 'novice+'"),
    (("--policy", "novice+nobody"), "unknown policy 'nobody' in seat 1 of pair 'novice+nobody'"),
    (("--policy", "a+b+c"), "a pair is two players, SEAT0+SEAT1, got 'a+b+c'"),
    (("--policy", "+expert"), "pair '+expert' has no player in seat 0"),
    (("--skill", "novice+expert", "--policy-param", "lead_samples=4"),
     "policy 'baseline+expert' has no parameter 'lead_samples'; expected one of: seat1.breach"),
])
def test_a_bad_pair_on_the_command_line_is_one_line_exit_2(capsys, args, needle):
    code, out, err = run_main(capsys, "simulate", *args, "--games", "10")
    assert code == 2 and out == "" and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and needle in err, err


def test_a_bad_pair_is_refused_before_anything_compiles(no_play, capsys):
    for command, needle in (
            (("simulate", "--policy", "novice+nobody", "--games", "10"), "'nobody' in seat 1"),
            (("compare", "--policies", "novice,a+b+c", "--games", "10"), "got 'a+b+c'"),
            (("luck", "killer", "--all", "--skill", "novice+", "--games", "10"),
             "no skill level in seat 1"),
            (("tune", "--target", "0.5", "--policy", "+expert", "--stages", "100"),
             "pair '+expert' has no player in seat 0")):
        code, out, err = run_main(capsys, *command)
        assert code == 2 and len(err.strip().splitlines()) == 1 and needle in err, err


def test_compare_with_a_pair_row(capsys):
    code, out, err = run_main(capsys, "compare", "--policies", "novice,novice+casual",
                              "--games", "500", "--seed", "4", "--quiet",
                              "--policy-param", "novice+casual.seat1.breach=50")
    assert code == 0, err
    assert "novice+casual (baseline+heuristic)" in out.splitlines()[0]
    pair = simulate(policy="baseline+heuristic", games=500, seed=4,
                    params=param_vector("baseline+heuristic", {"seat1.breach": 50}))
    row = next(line for line in out.splitlines() if line.strip().startswith("novice+casual "))
    assert f"{pair.wins / 500:.4f}" in row
    c = api.compare(policies=["novice", ("novice", "casual")], games=300, seed=4)
    assert [(r["label"], r["policy"]) for r in c.summary()["policies"]] == \
        [("novice", "baseline"), ("novice+casual", "baseline+heuristic")]


def test_a_sweep_with_a_pair_plays_it_like_a_player(tmp_path):
    spec = parse_spec({"sweep": {"games": 600, "seed": 8, "policies": ["novice+casual", "novice"],
                                 "policy_games": {"novice+casual": 400}, "chunk_games": 250},
                       "axes": {"health": [7, 4]}})
    assert tuple(spec.policies) == ("baseline+heuristic", "baseline")
    df = run_sweep(spec, tmp_path / "out.parquet")
    assert list(df["policy"]) == ["baseline+heuristic", "baseline"] * 2
    for row in df[df["policy"] == "baseline+heuristic"].itertuples():
        assert row.games == 400
        assert row.wins == simulate(GameConfig(health=row.health), "baseline+heuristic",
                                    games=400, seed=8).wins
    back = pd.read_parquet(tmp_path / "out.parquet")
    assert list(back["policy"]) == list(df["policy"])
    with pytest.raises(ConfigError, match="unknown policy 'nobody' in seat 1"):
        parse_spec({"sweep": {"games": 10, "policies": ["novice+nobody"]}})


def test_a_sweep_of_a_pair_resumes_and_refuses_the_seats_swapped(tmp_path):
    """A sweep's checkpoints carry the pair's name: the same pair (named by skill levels or by
    policies) resumes to the table of an uninterrupted run; the seats swapped is another spec."""
    text = {"sweep": {"games": 900, "seed": 6, "policies": ["novice+casual"],
                      "chunk_games": 300}, "axes": {"health": [7, 5]}}
    reference = run_sweep(parse_spec(text), tmp_path / "ref.parquet")
    out = tmp_path / "out.parquet"

    def crash(*args):
        if args[2] >= 900:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(parse_spec(text), out, progress=crash)
    swapped = {**text, "sweep": {**text["sweep"], "policies": ["casual+novice"]}}
    with pytest.raises(ConfigError, match="was written for a different spec"):
        run_sweep(parse_spec(swapped), out)
    by_policy = {**text, "sweep": {**text["sweep"], "policies": ["baseline+heuristic"]}}
    assert run_sweep(parse_spec(by_policy), out).equals(reference)
    prov = load_table(out).attrs["slashersim"]
    assert [p["name"] for p in prov["policies"]] == ["baseline+heuristic"]
    assert prov["policies"][0]["params"]["seat1.breach"] == 100
    assert prov["games_by_policy"] == {"baseline+heuristic": 900}
