"""The difficulty tuner, the presets it derived, and ``--difficulty``."""
import json

import pytest

from slashersim.analysis.sweeps import parse_spec, run_sweep
from slashersim.analysis.tune import Tuner, tune
from slashersim.cli import main
from slashersim.core import rules
from slashersim.core.config import ConfigError, GameConfig
from slashersim.core.presets import DIFFICULTIES, load_presets, preset_knobs
from slashersim.runner import simulate

STAGES = (2000, 6000)


def test_tune_ranks_settings_and_keeps_common_random_numbers():
    df = tune(0.30, "baseline", knobs=("health", "escapes_needed"), stages=STAGES, keep=4,
              seed=5)
    assert len(df) == 4 and (df["games"] == STAGES[-1]).all()
    for _, r in df.iterrows():
        direct = simulate(GameConfig(health=int(r["health"]),
                                     escapes_needed=int(r["escapes_needed"])),
                          games=STAGES[-1], seed=5)
        assert direct.wins == r["wins"]
        assert r["meets_target"] == (r["win_ci_low"] >= 0.28 and r["win_ci_high"] <= 0.32)
    met = df[df["meets_target"]]
    missed = df[~df["meets_target"]]
    assert list(met.index) + list(missed.index) == list(df.index)
    assert list(missed["distance"]) == sorted(missed["distance"])


def test_tuner_reuses_games_across_targets():
    tuner = Tuner("baseline", knobs=("health",), seed=1)
    tuner.search(0.2, stages=STAGES, keep=3)
    played = {c.knobs["health"]: c.games for c in tuner.candidates}
    assert sorted(played.values()) == [STAGES[0]] * 4 + [STAGES[1]] * 3
    before = sum(played.values())
    tuner.search(0.2, stages=STAGES, keep=3)
    assert sum(c.games for c in tuner.candidates) == before


@pytest.mark.parametrize("kwargs, message", [
    ({"target": 1.5}, "target must be between 0 and 1, got 1.5"),
    ({"target": 0.3, "knobs": ("helth",)}, "unknown knob 'helth' to tune"),
    ({"target": 0.3, "stages": (100, 50)}, "stages must be increasing"),
])
def test_tune_refuses_bad_input(kwargs, message):
    with pytest.raises(ConfigError, match=None) as e:
        tune(**kwargs)
    assert message in str(e.value)


def test_committed_presets_cover_every_edition_and_difficulty():
    presets = load_presets()
    for edition in rules.EDITION_NAMES:
        for name in DIFFICULTIES:
            knobs = preset_knobs(name, edition)
            assert set(knobs) == set(rules.DIFFICULTY_KNOBS)
            GameConfig(edition=edition, **knobs)
    assert set(presets) == set(rules.EDITION_NAMES)


def test_presets_name_their_player_and_round_trip_through_tomli_w(tmp_path):
    """The preset file says which player its win rates hold for, and :func:`write_presets`
    writes back exactly what it reads."""
    import tomllib

    from slashersim.core.presets import PRESETS_FILE, derived_for, write_presets
    assert derived_for() == "expert"
    data = tomllib.loads(PRESETS_FILE.read_text())
    data.pop("derived_for")
    copy = tmp_path / "presets.toml"
    write_presets(data, "heuristic", copy, header=["a comment"])
    assert copy.read_text().startswith("# a comment\n")
    assert derived_for(copy) == "heuristic"
    again = tomllib.loads(copy.read_text())
    assert again.pop("derived_for") == "heuristic" and again == data


def test_difficulty_in_config_and_override():
    hard = preset_knobs("hard", "instructions")
    cfg = GameConfig.from_dict({"edition": "instructions", "difficulty": "hard"})
    assert {k: cfg.resolved()[k] for k in hard} == hard
    over = GameConfig.from_dict({"edition": "instructions", "difficulty": "hard", "health": 1})
    assert over.health == 1
    with pytest.raises(ConfigError, match="unknown difficulty 'insane'; expected one of: easy"):
        GameConfig.from_dict({"difficulty": "insane"})


def test_simulate_cli_difficulty(capsys):
    assert main(["simulate", "--games", "500", "--difficulty", "easy", "--json"]) == 0
    c = json.loads(capsys.readouterr().out)["config"]
    assert {k: c[k] for k in rules.DIFFICULTY_KNOBS} == preset_knobs("easy")
    assert main(["simulate", "--games", "500", "--difficulty", "easy", "--traps", "1",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["config"]["traps"] == 1


def test_sweep_spec_difficulty_axis(tmp_path):
    spec = parse_spec({"sweep": {"games": 1500, "seed": 3, "policies": ["baseline"]},
                       "axes": {"difficulty": ["easy", "nightmare"]}})
    df = run_sweep(spec, tmp_path / "d.parquet")
    assert list(df["difficulty"]) == ["easy", "nightmare"]
    for name, wins in zip(df["difficulty"], df["wins"]):
        direct = simulate(GameConfig(**preset_knobs(name)), games=1500, seed=3)
        assert direct.wins == wins


def test_tune_cli(capsys):
    assert main(["tune", "--target", "0.3", "--knobs", "health", "--stages", "1000,2000",
                 "--keep", "2", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 2 and {"health", "win_rate", "meets_target"} <= rows[0].keys()


def test_tune_holds_a_fixed_knob_and_explains_its_columns(capsys):
    assert main(["tune", "--target", "0.3", "--skill", "novice", "--fix", "hideaway=true",
                 "--knobs", "health", "--stages", "500,1000", "--keep", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("novice player (policy baseline); rulebook edition, "
                                          "hideaway held at true: settings nearest")
    assert "changes: how many of the searched knobs differ" in out
    assert main(["tune", "--target", "0.3", "--skill", "novice", "--fix", "health=5",
                 "--stages", "500", "--keep", "2", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert "health" not in rows[0] and "hideaway" in rows[0]     # held, not searched
    direct = simulate(GameConfig(hideaway=True, health=5), "baseline", games=500, seed=0)
    assert main(["tune", "--target", "0.3", "--skill", "novice", "--fix", "hideaway=true",
                 "--fix", "health=5", "--knobs", "traps", "--stages", "500", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert next(r for r in rows if r["traps"] == 3)["wins"] == direct.wins
    assert main(["tune", "--target", "0.3", "--fix", "health=5", "--knobs", "health"]) == 2
    assert "--fix health and --knobs health" in capsys.readouterr().err


def test_report_cli(tmp_path, capsys):
    spec = parse_spec({"sweep": {"games": 1000}, "axes": {"health": [7, 4], "hideaway":
                                                             [False, True]}})
    run_sweep(spec, tmp_path / "t.parquet")
    assert main(["report", str(tmp_path / "t.parquet"), "--out", str(tmp_path / "r")]) == 0
    assert (tmp_path / "r" / "report.md").exists()
    assert (tmp_path / "r" / "heatmap.png").read_bytes()[:4] == b"\x89PNG"
    assert main(["report", str(tmp_path / "nope.parquet"), "--out", str(tmp_path / "x")]) == 2
    assert "table" in capsys.readouterr().err
