"""Every rule on the command line (``--rule NAME=VALUE``): the same games as the API's keyword,
and a first line that names every rule that differs from the edition's."""
import json

from helpers import run_main

from slashersim.core.config import GameConfig
from slashersim.core.inputs import parse_rules
from slashersim.present.text import changed_rules, config_line
from slashersim.runner import simulate

KNOWN = GameConfig.knob_names()


def test_rule_values_read_as_toml_or_bare_text():
    assert parse_rules(["item_timing=any_time", "keep_optional=false", "junk=2",
                        "red_knives=[1, 1, 2, 2, 3]", 'draw-order="last_trick_winner"'],
                       KNOWN) == {
        "item_timing": "any_time", "keep_optional": False, "junk": 2,
        "red_knives": (1, 1, 2, 2, 3), "draw_order": "last_trick_winner"}


def test_the_first_line_names_every_changed_rule_and_only_those():
    c = GameConfig(item_timing="any_time", keep_optional=False).describe()
    assert changed_rules(c) == [("item_timing", "any_time"), ("keep_optional", False)]
    assert config_line(c).endswith("3 traps; CHANGED RULES item_timing=any_time, "
                                   "keep_optional=false")
    # the instructions' own defaults are not changes; a difficulty knob is on the line anyway
    assert changed_rules(GameConfig(edition="instructions", health=3).describe()) == []
    assert "CHANGED" not in config_line(GameConfig().describe())


def test_a_rule_on_the_command_line_plays_the_api_s_games(capsys):
    code, out, _ = run_main(capsys, "simulate", "--skill", "novice", "--games", "300",
                            "--seed", "3", "--rule", "item_timing=any_time", "--rule",
                            "top_group=half_down", "--no-cursed-object", "--json", "--quiet")
    assert code == 0
    r = json.loads(out)
    config = GameConfig(item_timing="any_time", top_group="half_down", cursed_object=False)
    assert r["config"] == config.describe()
    assert r["wins"] == simulate(config, "baseline", games=300, seed=3).summary()["wins"]
    code, out, _ = run_main(capsys, "simulate", "--skill", "novice", "--games", "300",
                            "--seed", "3", "--rule", "item_timing=any_time", "--quiet")
    assert "; CHANGED RULES item_timing=any_time; 300 games" in out.splitlines()[0]


def test_the_help_s_policy_parameter_example_runs_with_the_default_player(capsys):
    _, out, _ = run_main(capsys, "simulate", "--help")
    assert "e.g. lead_samples=32 for the expert" in " ".join(out.split())
    code, _, err = run_main(capsys, "simulate", "--games", "20", "--policy-param",
                            "lead_samples=32", "--quiet")
    assert code == 0, err
