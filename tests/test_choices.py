"""The rules page's table of choices (docs/rules.md, "Every choice and its parameter"): every
point the rule texts leave open is a parameter with the defaults the table shows, reachable from
a sweep spec, and changing the games when flipped."""
import json
from pathlib import Path

import pytest

from slashersim.analysis.sweeps import cells, parse_spec
from slashersim.core.config import GameConfig
from slashersim.policies import param_vector
from slashersim.runner import simulate

RULES_PAGE = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def choices_table():
    """``{parameter: (rulebook default, instructions default)}`` from the rules page's table."""
    text = RULES_PAGE.read_text()
    body = text.split("<!-- choices table: tests/test_choices.py reads it -->")[1]
    body = body.split("<!-- end of choices table -->")[0]
    rows = [line for line in body.strip().splitlines()[2:] if line.startswith("|")]
    out = {}
    for line in rows:
        cols = [c.strip() for c in line.strip("|").split("|")]
        out[cols[1].strip("`")] = tuple(json.loads(c.strip("`")) for c in cols[2:4])
    return out


#: per parameter: the flipped value, the policy (and its parameters) and the base knobs under
#: which the flip must change the games
FLIPS = {
    "red_knives": ([3, 3, 3, 3, 3], "baseline", {}, {}),
    "red_greens": ([1, 1, 1, 1, 1], "baseline", {}, {}),
    "lv1_areas": (["lakeside", "cabins", "fire_pit"], "baseline", {}, {}),
    "arrows": (0, "baseline", {}, {}),
    "leader": ("last_trick", "baseline", {}, {}),
    "first_leader": (1, "baseline", {}, {"edition": "instructions"}),
    "draw_order": ("last_trick_winner", "baseline", {}, {}),
    "white_red_knives": (3, "baseline", {}, {"white_colours": ["red"] * 7}),
    "white_red_greens": (3, "baseline", {}, {"white_colours": ["red"] * 7}),
    "item_timing": ("any_time", "heuristic", {}, {}),
    "before_draw_items": ("both_players", "heuristic", {}, {}),
    "keep_optional": (False, "heuristic", {"keep_min": 5.0}, {}),
    "no_yellow_draw": ("may", "heuristic", {}, {"edition": "instructions"}),
    "cursed_keep": ("optional", "heuristic", {"keep_min": 101.0}, {"edition": "instructions"}),
    "walkie_talkie_without_draw": (False, "baseline", {}, {}),
    "fire_pit_gifts": ("none", "exerciser", {}, {}),
    "first_aid_target": ("either", "heuristic", {}, {}),
    "cursed_extra_draws": (1, "baseline", {}, {}),
    "lakeside_removal": (0, "baseline", {}, {}),
    "tent_site_reduction": (0, "baseline", {}, {}),
    "areas_used": (3, "baseline", {}, {"edition": "instructions"}),
    "area_deck": ("cycle", "baseline", {}, {}),
    "item_deck": ("shuffled", "baseline", {}, {}),
    "top_group": ("half_down", "baseline", {}, {"cursed_object": False}),
    "killer_reshuffle": ("at_once", "baseline", {}, {}),
    "used_items": ("out", "baseline", {}, {}),
    "junk": (0, "baseline", {}, {"edition": "instructions"}),
    "white_colours": (["green"] * 7, "baseline", {}, {}),
}
TABLE = choices_table()


def test_the_table_lists_every_flipped_parameter():
    assert set(TABLE) == set(FLIPS)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_parameter_has_the_documented_defaults(name):
    assert name in GameConfig.knob_names()
    for edition, default in zip(("rulebook", "instructions"), TABLE[name]):
        value = GameConfig(edition=edition).resolved()[name]
        assert (list(value) if isinstance(value, tuple) else value) == default, edition


@pytest.mark.parametrize("name", sorted(FLIPS))
def test_parameter_is_a_sweep_axis_and_changes_the_games(name):
    flipped, policy, params, base = FLIPS[name]
    edition = base.get("edition", "rulebook")
    default = TABLE[name][edition == "instructions"]
    spec = parse_spec({"sweep": {"games": 10, "policies": [policy]}, "base": base,
                       "axes": {name: [default, flipped]}})
    configs = [config for _, config in cells(spec)]
    assert [c.resolved()[name] for c in configs] != [configs[0].resolved()[name]] * 2
    vec = param_vector(policy, params)
    runs = [simulate(c, policy, games=1500, seed=4, keep_records=True, params=vec)
            for c in configs]
    assert not runs[0].records.equals(runs[1].records), name
