"""The public Python API (slashersim.api, exported lazily by the package): the same games as
the runner and the analyses, knob keywords, refusals, and the DataFrames of the results."""
import json
import math

from helpers import run_python
import numpy as np
import pandas as pd
import pytest

import slashersim
from slashersim import api
from slashersim.analysis.compare import compare_policies
from slashersim.analysis.luck import killer_position_effects
from slashersim.core.config import ConfigError, GameConfig
from slashersim.runner import SimulationResult
from slashersim.runner import simulate as run_simulate
from slashersim.runner.tables import TABLE_COLUMNS


def test_import_compiles_nothing_and_exports_lazily():
    out = run_python(
        "import sys, json\n"
        "import slashersim\n"
        "before = sorted(m for m in sys.modules if m.startswith('slashersim'))\n"
        "slashersim.GameConfig\n"
        "after = sorted(m for m in sys.modules if m.startswith('slashersim'))\n"
        "import slashersim.analysis.sweeps\n"
        "print(json.dumps({'before': before, 'after': after,\n"
        "    'api': 'slashersim.api' in sys.modules,\n"
        "    'sweep_is_function': slashersim.sweep.__module__ == 'slashersim.api',\n"
        "    'names': [n for n in slashersim.__all__ if n not in dir(slashersim)]}))\n")
    r = json.loads(out)
    assert r["before"] == ["slashersim"]
    assert "slashersim.engine.game" not in r["after"] and "slashersim.runner" not in r["after"]
    assert not r["api"] and r["names"] == []
    assert r["sweep_is_function"]


def test_the_package_exports_the_api():
    assert slashersim.simulate is slashersim.api.simulate
    assert slashersim.compare is api.compare and slashersim.luck is api.luck
    assert slashersim.sweep is api.sweep and slashersim.GameConfig is GameConfig
    assert {"simulate", "compare", "sweep", "luck", "GameConfig"} <= set(dir(slashersim))
    assert {"simulate", "compare", "sweep", "luck", "GameConfig"} <= set(slashersim.__all__)
    from slashersim.analysis.sweeps import run_sweep
    assert callable(run_sweep) and slashersim.sweep is api.sweep
    with pytest.raises(AttributeError, match="no attribute 'simulat'"):
        slashersim.simulat  # noqa: B018 (the attribute access is the test)


def test_simulate_plays_the_runners_games():
    r = api.simulate(GameConfig(health=5), policy="baseline", games=1500, seed=11)
    ref = run_simulate(GameConfig(health=5), "baseline", games=1500, seed=11)
    assert isinstance(r, api.Simulation) and isinstance(r, SimulationResult)
    assert np.array_equal(r.counts, ref.counts)
    assert (r.games, r.wins, r.win_ci) == (ref.games, ref.wins, ref.win_ci)
    s, t = r.summary(), ref.summary()
    s.pop("elapsed_s"), t.pop("elapsed_s")
    assert s == t
    assert "win rate" in repr(r) and repr(r).startswith("novice player (policy baseline); ")
    assert "1,500 games, seed 11" in repr(r)


def test_knob_keywords_are_game_config_fields():
    a = api.simulate(health=4, hideaway=True, edition="instructions", games=600, seed=5)
    config = GameConfig(edition="instructions", health=4, hideaway=True)
    assert a.config == config
    assert np.array_equal(a.counts, run_simulate(config, "expert", games=600, seed=5).counts)
    # knobs apply on top of a config
    b = api.simulate(GameConfig(health=3, traps=2), health=6, games=200)
    assert b.config == GameConfig(health=6, traps=2)
    # a difficulty preset, with an explicit knob winning over it
    from slashersim.core.presets import preset_knobs
    c = api.simulate(difficulty="hard", traps=4, games=200)
    assert c.config == GameConfig(**{**preset_knobs("hard"), "traps": 4})


@pytest.mark.parametrize("call", [api.simulate, api.compare, api.luck])
def test_an_unknown_knob_is_refused_by_name(call):
    with pytest.raises(ConfigError) as e:
        call(helth=5, games=10)
    message = str(e.value)
    assert "unknown knob 'helth'" in message and "did you mean 'health'" in message
    assert "expected one of: difficulty, edition, health" in message and "\n" not in message
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("kwargs, needle", [
    ({"health": 9}, "health must be 1..7, got 9"),
    ({"policy": "genius"}, "unknown policy 'genius'"),
    ({"games": 0}, "games must be at least 1, got 0"),
    ({"seed": -1}, "seed must be an integer 0 <= seed < 2**63"),
    ({"threads": 10_000}, "threads must be 1.."),
    ({"policy": "heuristic", "params": {"breach": -1}}, "parameter breach must be"),
    ({"policy": "baseline", "params": {"samples": 2}}, "has no parameter 'samples'"),
])
def test_bad_input_is_refused_before_anything_plays(kwargs, needle, monkeypatch):
    import slashersim.runner as runner
    monkeypatch.setattr(runner, "simulate", lambda *a, **k: pytest.fail("played"))
    with pytest.raises(ValueError) as e:
        api.simulate(**kwargs)
    assert needle in str(e.value)


def test_skill_levels_name_policies():
    r = api.simulate(policy="casual", games=300, seed=2)
    assert r.policy == "heuristic"
    assert np.array_equal(r.counts, run_simulate(policy="heuristic", games=300, seed=2).counts)


def test_a_policy_that_is_not_a_name_is_passed_through(monkeypatch):
    seen = {}
    real = api.calls.run_simulation

    def spy(config, policy, **kwargs):
        seen["policy"], seen["params"] = policy, kwargs["params"]
        return real(config, "baseline", games=kwargs["games"], seed=kwargs["seed"])
    monkeypatch.setattr(api.calls, "run_simulation", spy)
    player, params = object(), {"anything": 1}
    api.simulate(policy=player, params=params, games=50)
    assert seen["policy"] is player and seen["params"] is params


def test_simulate_to_frame_is_one_tidy_row():
    r = api.simulate(health=5, games=2000, seed=3, records=True)
    df = r.to_frame()
    assert len(df) == 1
    assert list(df.columns[:8]) == ["edition", "health", "hideaway", "cursed_object",
                                    "escapes_needed", "traps", "policy", "seed"]
    assert set(TABLE_COLUMNS) - {"cell"} <= set(df.columns)
    assert "trap_rate_lodge" in df.columns
    row = df.iloc[0]
    assert row["health"] == 5 and not row["hideaway"]
    assert row["games"] == 2000 and row["wins"] == r.wins and row["win_rate"] == r.win_rate
    assert row["win_ci_low"] <= row["win_rate"] <= row["win_ci_high"]
    assert (row["win_ci_low"], row["win_ci_high"]) == pytest.approx(r.win_ci)
    assert sum(row[k] for k in ("wins", "loss_health", "loss_traps", "timeout")) == 2000
    assert isinstance(r.records, pd.DataFrame) and len(r.records) == 2000
    assert (r.records["outcome"] == "win").sum() == r.wins
    # a knob set away from the edition's value gets a column; runs concatenate
    other = api.simulate(traps=2, games=200).to_frame()
    assert other.iloc[0]["traps"] == 2
    both = pd.concat([df, other], ignore_index=True)
    assert list(both["health"]) == [5, 7]


def test_compare_is_compare_policies_with_frames():
    c = api.compare(policies=("novice", "casual", "baseline"), games=800, seed=4, health=6)
    ref = compare_policies(GameConfig(health=6), ("novice", "casual", "baseline"),
                           games=800, seed=4)
    strip = lambda r: [{k: v for k, v in row.items() if k != "elapsed_s"}  # noqa: E731
                       for row in r["policies"]]
    assert strip(c.summary()) == strip(ref) and c.summary()["pairs"] == ref["pairs"]
    policies = c.policies
    assert list(policies["label"]) == ["novice", "casual", "baseline"]
    assert list(policies["policy"]) == ["baseline", "heuristic", "baseline"]
    assert list(policies["games"]) == [800] * 3
    assert {"label", "policy", "games", "wins", "win_rate", "win_ci_low",
            "win_ci_high"} <= set(policies.columns)
    assert (policies["win_ci_low"] <= policies["win_rate"]).all()
    assert (policies["win_rate"] <= policies["win_ci_high"]).all()
    pairs = c.pairs
    assert len(pairs) == 3 and list(pairs["games"]) == [800] * 3
    rate = dict(zip(policies["label"], policies["win_rate"]))
    for p in pairs.itertuples():
        assert p.difference == pytest.approx(rate[p.b] - rate[p.a])
        assert p.difference == pytest.approx(p.win_rate_b - p.win_rate_a)
        assert p.difference_ci_low <= p.difference <= p.difference_ci_high
    same = pairs[(pairs["a"] == "novice") & (pairs["b"] == "baseline")].iloc[0]
    assert same["difference"] == 0 and same["only_a_won"] == same["only_b_won"] == 0
    assert c.to_frame().equals(policies)
    assert c.pair("casual", "baseline")["difference"] == pytest.approx(
        rate["baseline"] - rate["casual"])
    assert "paired difference" in repr(c)


def test_compare_progress_counts_every_game_and_a_bar_runs(capsys):
    seen = []
    api.compare(policies="baseline,casual", games={"casual": 300, None: 500}, seed=1,
                progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (800, 800) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    r = api.simulate(games=300, progress=True)
    assert r.games == 300


def test_sweep_from_a_dict_spec_is_one_row_per_cell_and_policy(tmp_path):
    spec = {"sweep": {"games": 400, "seed": 3, "policies": ["novice", "casual"]},
            "base": {"traps": 2}, "axes": {"health": (7, 4, 2)}}
    df = api.sweep(spec)
    assert len(df) == 3 * 2
    assert list(df["health"]) == [7, 7, 4, 4, 2, 2]
    assert list(df["policy"]) == ["baseline", "heuristic"] * 3
    assert (df["games"] == 400).all() and (df["traps"] == 2).all()
    assert (df["win_ci_low"] <= df["win_rate"]).all()
    assert df.attrs["slashersim"]["games"] == 400
    row = df[(df["health"] == 4) & (df["policy"] == "heuristic")].iloc[0]
    ref = api.simulate(health=4, traps=2, policy="casual", games=400, seed=3)
    assert row["wins"] == ref.wins
    # with out, the same table is written there
    out = tmp_path / "t.parquet"
    again = api.sweep(spec, out=out)
    assert out.is_file() and again.drop(columns="rounds_hist").equals(
        df.drop(columns="rounds_hist"))
    with pytest.raises(ConfigError, match="unknown knob 'helth'"):
        api.sweep({"sweep": {"games": 10}, "axes": {"helth": [1]}})
    with pytest.raises(ConfigError, match="is a folder"):
        api.sweep(spec, out=tmp_path)


def test_luck_is_killer_position_effects_with_a_frame():
    r = api.luck(policy="novice", games=300, seed=6, health=5)
    ref = killer_position_effects(GameConfig(health=5), "baseline", games=300, seed=6)
    assert r.summary() == ref
    df = r.to_frame()
    n = GameConfig(health=5).killer_positions
    assert list(df["position"]) == list(range(1, n + 1)) and (df["games"] == 300).all()
    assert list(df.columns) == ["position", "games", "win_rate", "win_ci_low", "win_ci_high",
                                "effect", "effect_ci_low", "effect_ci_high"]
    assert (df["win_ci_low"] <= df["win_rate"]).all()
    assert (df["win_rate"] <= df["win_ci_high"]).all()
    assert df["win_rate"].mean() == pytest.approx(r.average)
    assert (df["effect"] - (df["win_rate"] - r.average)).abs().max() < 1e-12
    one = api.luck(policy="novice", games=300, seed=6, health=5, positions=3).to_frame()
    cols = ["position", "games", "win_rate", "win_ci_low", "win_ci_high"]
    assert len(one) == 1 and one.iloc[0][cols].equals(df.iloc[2][cols])   # the same games
    assert "killer start" in repr(r)
    with pytest.raises(ConfigError, match="killer position must be 1.."):
        api.luck(positions=99, games=10)
    assert not math.isnan(df["effect_ci_low"].iloc[0])


def test_a_refused_run_names_every_bad_input_before_anything_loads():
    """``simulate``'s checks (``api.checks``) name each bad input in one line, and importing
    them loads nothing that compiles."""
    with pytest.raises(ConfigError) as e:
        api.simulate(policy="genius", games=0, seed=-1, health=0, traps=9)
    for part in ("genius", "games", "seed", "health", "traps"):
        assert part in str(e.value)
    out = run_python("import sys, slashersim.api.checks\n"
                     "print(sorted(m for m in sys.modules if m.startswith(("
                     "'slashersim.engine', 'slashersim.runner', 'slashersim.api.calls'))))")
    assert out.strip() == "[]"


def test_a_runs_checked_inputs_name_what_it_compiles_and_the_preset_knobs_it_overrides():
    """``simulate_inputs`` resolves the player into its compile parts (the recorder's too when
    asked) and lists each knob given over the difficulty preset's own; a kernel kind that
    does not exist is refused by name."""
    from slashersim.api.checks import simulate_inputs
    from slashersim.core.presets import preset_knobs
    run = simulate_inputs(policy="novice", difficulty="hard", health=7)
    assert [p.name for p in run.parts] == ["engine_baseline"]   # the novice's fast path
    assert [(o.difficulty, o.knob, o.preset, o.value) for o in run.overrides] == \
        [("hard", "health", preset_knobs("hard")["health"], 7)]
    recorded = simulate_inputs(policy="novice", kernels=("engine", "record"))
    assert [p.name for p in recorded.parts] == ["engine_baseline", "record"]
    assert recorded.overrides == []
    with pytest.raises(ConfigError, match="unknown kernel kind 'recorder'.*record"):
        simulate_inputs(kernels=("recorder",))
