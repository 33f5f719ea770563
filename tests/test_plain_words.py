"""Answers in plain words: why games are lost, the areas as their cards are titled, a legend
under every table; every bad option named in one line; every example of ``--help`` runs as
written."""
import argparse
import json

from helpers import run_main
import numpy as np
import pytest

from slashersim import api
from slashersim.cli.parser import build_parser, parse
from slashersim.core import layout as L
from slashersim.core import rules
from slashersim.core.config import GameConfig
from slashersim.runner import simulate


def test_why_games_are_lost_adds_up_to_the_outcomes():
    r = simulate(GameConfig(max_rounds=4), "baseline", games=3000, seed=5,
                 keep_records=True)
    s = r.summary()
    losses = s["losses"]
    o = s["outcomes"]
    assert o["loss_health"] and o["loss_traps"] and o["timeout"]
    assert sum(losses["health_by_area"].values()) == o["loss_health"]
    assert sum(losses["health_by_round"].values()) == o["loss_health"]
    assert sum(losses["traps_by_area"].values()) == o["loss_traps"]
    assert losses["timeout"] == o["timeout"]
    # each loss counts in the area and the round of the round the game ended in
    rec = r.records
    for outcome, key in (("loss_health", "health_by_area"), ("loss_traps", "traps_by_area")):
        ended = rec[rec["outcome"] == outcome]
        for a, area in enumerate(rules.AREA_NAMES):
            assert losses[key][area] == int((ended["last_area"] == a).sum())
    health = rec[rec["outcome"] == "loss_health"]
    assert losses["health_by_round"]["2"] == int((health["rounds"] == 2).sum())


def test_a_loss_by_traps_ends_in_a_round_that_set_one_off():
    rec = simulate(GameConfig(traps=1), "baseline", games=2000, seed=1,
                   keep_records=True).records
    trapped = rec[rec["outcome"] == "loss_traps"]
    assert len(trapped)
    for _, row in trapped.iterrows():
        area = rules.AREA_NAMES[row["last_area"]]
        assert row[f"traps_{area}"] == 1 and row["traps"] == 1


def test_with_one_round_every_loss_by_health_is_in_round_one():
    s = simulate(GameConfig(health=1, max_rounds=1), "baseline", games=500, seed=2).summary()
    by_round = s["losses"]["health_by_round"]
    assert by_round["1"] == s["outcomes"]["loss_health"] > 0
    assert sum(by_round.values()) == by_round["1"]
    assert s["losses"]["timeout"] == s["outcomes"]["timeout"]


def test_each_lost_game_is_counted_in_the_round_it_was_lost_in():
    """The record's ``lost_round`` is the round of a lost game's end, 0 for any other game, and
    ``losses.lost_round_hist`` counts the lost games by it, whichever way they were lost."""
    r = simulate(GameConfig(max_rounds=6, health=3), "baseline", games=2000, seed=3,
                 keep_records=True)
    rec = r.records
    lost = rec["outcome"].isin(["loss_health", "loss_traps"])
    assert lost.any() and (~lost).any()
    assert (rec["lost_round"][lost] == rec["rounds"][lost]).all()
    assert (rec["lost_round"][~lost] == 0).all()
    s = r.summary()
    hist = s["losses"]["lost_round_hist"]
    assert hist == np.bincount(rec["lost_round"][lost], minlength=len(hist)).tolist()
    assert hist[0] == 0 and sum(hist) == s["outcomes"]["loss_health"] + \
        s["outcomes"]["loss_traps"]
    assert r.fields["lost_round_hist"] == hist


def test_late_losses_count_in_the_last_round_bucket():
    counts = np.zeros(L.counts_size(40), dtype=np.int64)
    rec = np.zeros((2, L.RECORD_SIZE), dtype=np.int32)
    rec[:, L.R_OUTCOME] = rules.LOSS_HEALTH
    rec[:, L.R_ROUNDS] = (L.MAX_LOSS_ROUND, 30)
    rec[:, L.R_LAST_AREA] = rules.AREA_NAMES.index("lodge")
    from slashersim.engine.game import aggregate
    aggregate(rec, counts)
    from slashersim.runner.result import loss_fields
    f = loss_fields(counts)
    assert f["health_by_round"][f"{L.MAX_LOSS_ROUND}+"] == 2
    assert f["health_by_area"]["lodge"] == 2


def test_simulate_reads_in_plain_words(capsys):
    code, out, _ = run_main(capsys, "simulate", "--skill", "novice", "--games", "400",
                            "--health", "3", "--max-rounds", "6", "--quiet")
    assert code == 0
    assert "why games are lost" in out
    assert "the Killer took a player's last health" in out and "in round 1 " in out
    assert "the 3rd trap was set off" in out and "no end within 6 rounds" in out
    for title in ("Tent site", "Lodge", "Fire pit"):
        assert f"\n  {title} " in out
    assert "tent_site" not in out and "fire_pit" not in out
    assert "Killer's place" in out and "1 = its top card" in out
    assert "the range the true rate lies in, 19 times\n  out of 20" in out
    code, out, _ = run_main(capsys, "simulate", "--skill", "novice", "--games", "50",
                            "--json", "--quiet")
    s = json.loads(out)
    assert set(s["trap_rate_by_area"]) == set(rules.AREA_NAMES)
    assert set(s["losses"]) == {"health_by_area", "health_by_round", "traps_by_area",
                                "lost_round_hist", "timeout"}


def test_a_new_card_is_shown_by_its_title(tmp_path, capsys):
    f = tmp_path / "camp.toml"
    f.write_text('[area.camp]\nreplaces = "lodge"\ntitle = "Summer camp"\n'
                 'breaks_on_trick = "false"\n')
    code, out, _ = run_main(capsys, "simulate", "--skill", "novice", "--games", "50",
                            "--cards", str(f), "--quiet")
    assert code == 0, out
    assert "\n  Summer camp " in out and "\n  Lodge " not in out


def test_compare_and_luck_tables_have_a_legend(capsys):
    code, out, _ = run_main(capsys, "compare", "--policies", "novice,casual", "--games", "50",
                            "--quiet")
    assert code == 0
    assert "lost: health" in out and "no end within 200 rounds" in out
    assert "unpaired: the" in out and "Tent site" in out
    assert "paired: both players played the very same games" in out
    code, out, _ = run_main(capsys, "luck", "area", "--all", "--skill", "novice", "--games",
                            "50", "--quiet")
    assert code == 0
    assert "effect: how much this value moves the win rate" in out and "Tent site" in out


@pytest.mark.parametrize("argv, needles", [
    (["simulate", "--games", "0", "--health", "9", "--seed", "x", "--rule", "foo=1",
      "--policy-param", "zzz=1"],
     ["argument --games", "argument --seed", "health must be 1..7", "unknown rule 'foo'",
      "no parameter 'zzz'"]),
    (["simulate", "--skill", "expret", "--games", "-1", "--threads", "999"],
     ["did you mean 'expert'", "argument --games", "threads must be"]),
    (["compare", "--policies", "novice,bogus", "--traps", "9", "--games", "0"],
     ["argument --games", "unknown policy 'bogus'", "traps must be 1..4"]),
    (["luck", "killer", "--position", "9", "--games", "0", "--policy-param", "q=1"],
     ["argument --games", "no parameter 'q'", "killer position must be 1..7"]),
    (["luck", "sources", "--repeats", "1", "--health", "0"],
     ["health must be 1..7", "repeats must be at least 2"]),
    (["tune", "--target", "2", "--tolerance", "0.9", "--stages", "a", "--fix", "foo=1",
      "--keep", "0"],
     ["target must be between", "tolerance must be", "stages must be comma-separated",
      "unknown rule 'foo'", "argument --keep"]),
    (["sweep", "/nonexistent/spec.toml", "--out", "/proc/x.parquet", "--threads", "99",
      "--workers", "0"],
     ["argument --workers", "spec file '/nonexistent/spec.toml' does not exist",
      "--out '/proc/x.parquet'", "threads must be"]),
    (["simulate", "--record", "5", "--edition", "nope"],
     ["argument --edition: invalid choice", "--record-out FILE.json go together"]),
])
def test_every_bad_option_is_named_in_one_line(capsys, no_play, argv, needles):
    code, out, err = run_main(capsys, *argv, "--quiet")
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def test_luck_plays_the_policy_parameters(capsys):
    params = {"lead_samples": 1, "dd_from": 0}
    code, out, _ = run_main(capsys, "luck", "killer", "--position", "2", "--games", "60",
                            "--seed", "4", "--policy-param", "lead_samples=1",
                            "--policy-param", "dd_from=0", "--json", "--quiet")
    assert code == 0
    cli = json.loads(out)
    with_params = api.luck(positions=2, games=60, seed=4, params=params).summary()
    assert cli["positions"] == with_params["positions"]


# --- every example of --help, run as written ----------------------------------------------

def _examples():
    """``{(command..., option): example text}`` of every ``e.g.`` in the parser's help."""
    found = {}

    def walk(parser, path):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, (*path, name))
            elif action.help and "e.g." in action.help:
                text = action.help.split("e.g.", 1)[1]
                found[(*path, action.option_strings[0])] = text.strip()
    walk(build_parser(), ())
    return found


RULE_EXAMPLE = ["--rule", "item_timing=any_time", "--rule", "keep_optional=false", "--rule",
                "red_knives=[1,1,2,2,3]"]
SMALL = ["--games", "30", "--quiet"]
#: how each example runs: the command line that holds it as written (``{tmp}``: a folder)
RUNS = {
    **{(*cmd, "--rule"): [*cmd, *extra, *RULE_EXAMPLE, *SMALL] for cmd, extra in (
        (("simulate",), []), (("luck", "killer"), ["--position", "1"]),
        (("luck", "area"), ["--value", "lodge"]), (("luck", "trump"), ["--value", "red"]),
        (("luck", "yellows"), ["--value", "2"]), (("compare",), ["--policies", "novice"]))},
    **{(*cmd, "--policy-param"): [*cmd, *extra, "--policy-param", "lead_samples=32", *SMALL]
       for cmd, extra in ((("simulate",), []), (("luck", "killer"), ["--position", "1"]),
                          (("luck", "area"), ["--value", "lodge"]),
                          (("luck", "trump"), ["--value", "red"]),
                          (("luck", "yellows"), ["--value", "2"]))},
    ("luck", "sources", "--rule"): ["luck", "sources", "--skill", "novice", "--repeats", "2",
                                    *RULE_EXAMPLE, "--games", "8", "--quiet"],
    ("luck", "sources", "--policy-param"): ["luck", "sources", "--repeats", "2",
                                            "--policy-param", "lead_samples=32",
                                            "--games", "4", "--quiet"],
    ("compare", "--policy-param"): ["compare", "--policies", "heuristic,heuristic",
                                    "--policy-param", "heuristic#2.damage=3", *SMALL],
    ("compare", "--variant"): ["compare", "--policies", "novice", "--variant",
                               "no cursed object: cursed_object=false", *SMALL],
    ("sweep", "--out"): ["sweep", "{tmp}/spec.toml", "--out", "results/NAME.parquet",
                         "--quiet"],
    ("tune", "--target"): ["tune", "--target", "0.30", "--skill", "novice", "--knobs",
                           "health", "--stages", "40", "--keep", "1", "--quiet"],
    ("tune", "--fix"): ["tune", "--target", "0.3", "--skill", "novice", "--knobs", "health",
                        "--fix", "hideaway=true", "--stages", "40", "--keep", "1", "--quiet"],
    ("report", "--out"): ["report", "results/NAME.parquet", "--out", "results/NAME/"],
    ("simulate", "--winnable"): ["simulate", "--skill", "novice", "--winnable", "5", *SMALL],
}
#: the mixed pair every player option shows (``--skill novice+expert``, ``--policy
#: baseline+expert``, one option shared by every command that takes a player): played as
#: written by ``simulate``, and parsed as written by every other command
RUNS.update({("simulate", option): ["simulate", option, pair, *SMALL]
             for option, pair in (("--skill", "novice+expert"), ("--policy", "baseline+expert"))})
PAIR_PARSED = {(*cmd, option): pair
               for cmd in (("luck", "killer"), ("luck", "area"), ("luck", "trump"),
                           ("luck", "yellows"), ("luck", "sources"), ("luck", "state"),
                           ("tune",), ("why",))
               for option, pair in (("--skill", "novice+expert"),
                                    ("--policy", "baseline+expert"))}
RUNS.update({
    ("why", "--rule"): ["why", *RULE_EXAMPLE, "--games", "6", "--quiet"],
    ("why", "--policy-param"): ["why", "--policy-param", "lead_samples=32", "--games", "6",
                                "--quiet"],
    ("why", "--where"): ["why", "--where", "round == 2", "--games", "6", "--quiet"],
})
#: examples that name a place the suite cannot reach (a dask cluster's address); parsed only
PARSED_ONLY = {("sweep", "--scheduler"): "tcp://HOST:8786", **PAIR_PARSED}


#: the values each example of the help shows, as written there
SHOWN = {
    **{key: ["item_timing=any_time", "keep_optional=false", "red_knives=[1,1,2,2,3]"]
       for key in RUNS if key[-1] == "--rule"},
    **{key: ["lead_samples=32"] for key in RUNS if key[-1] == "--policy-param"
       and key[0] != "compare"},
    ("compare", "--policy-param"): ["heuristic#2.damage=3"],
    ("compare", "--variant"): ["no cursed object: cursed_object=false"],
    ("sweep", "--out"): ["results/NAME.parquet"],
    ("tune", "--target"): ["0.30"],
    ("tune", "--fix"): ["hideaway=true"],
    ("report", "--out"): ["results/NAME/"],
    ("simulate", "--winnable"): ["5"],
    **{key: ["novice+expert"] for key in RUNS if key[-1] == "--skill"},
    **{key: ["baseline+expert"] for key in RUNS if key[-1] == "--policy"},
    ("why", "--where"): ["round == 2"],
}


def test_every_help_example_is_run_by_the_suite():
    examples = _examples()
    assert set(examples) == set(RUNS) | set(PARSED_ONLY)
    for key, values in SHOWN.items():
        for value in values:
            assert value in examples[key], (key, value)
            assert value in RUNS[key], (key, value)
    for key, value in PARSED_ONLY.items():
        assert value in examples[key]


def test_the_help_examples_run_as_written(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spec.toml").write_text('[sweep]\npolicies = ["baseline"]\ngames = 40\n'
                                        'seed = 1\n[axes]\nhealth = [3, 7]\n')
    (tmp_path / "results").mkdir()
    order = sorted(RUNS, key=lambda k: k[0] == "report")
    for key in order:
        argv = [a.replace("{tmp}", str(tmp_path)) for a in RUNS[key]]
        code, _, err = run_main(capsys, *argv)
        assert code == 0, (key, err)
    assert (tmp_path / "results" / "NAME" / "report.md").is_file()
    parser = build_parser()
    args = parser.parse_args(["sweep", "spec.toml", "--out", "t.parquet", "--scheduler",
                              PARSED_ONLY[("sweep", "--scheduler")]])
    assert args.scheduler == "tcp://HOST:8786"
    for (*cmd, option), pair in PAIR_PARSED.items():
        extra = {"state": ["state.json"], "tune": ["--target", "0.3"],
                 "killer": ["--all"], "area": ["--all"], "trump": ["--all"],
                 "yellows": ["--all"]}.get(cmd[-1], [])
        assert parse([*cmd, option, pair, *extra]).policy == "baseline+expert"
