"""One default player everywhere and strict input: every command that plays, the Python API,
the sweeps and the tuner speak for the expert unless told otherwise, and say whom they speak
for in their first line; options are never abbreviated, a misspelt option or value gets the
nearest valid one suggested, an empty name in a list is refused by name; every file a command
writes is named on stderr, and a long command estimates its time before it plays."""
import argparse
import inspect
from pathlib import Path
import re

from helpers import run_main
import pytest

import slashersim
from slashersim import api, cli
from slashersim.analysis import tune
from slashersim.analysis.sweeps import SweepSpec, parse_spec
from slashersim.cli.parser import build_parser
from slashersim.core.progress import ProgressLines, duration
from slashersim.policies import DEFAULT_SKILL, SKILLS
from slashersim.present.text import format_summary, player_line

run = run_main


def commands_with_a_player(parser=None, prefix=()):
    """``(command words, its --policy action)`` of every command that takes ``--policy``."""
    parser = parser or build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from commands_with_a_player(sub, (*prefix, name))
        elif "--policy" in action.option_strings:
            yield prefix, action


def test_the_default_player_is_the_expert():
    assert DEFAULT_SKILL == "expert" and SKILLS[DEFAULT_SKILL] == "expert"


def test_every_command_that_plays_defaults_to_the_expert():
    found = {words: action.default for words, action in commands_with_a_player()}
    assert len(found) >= 9
    timed = {words: d for words, d in found.items() if words == ("bench",)}
    assert timed == {("bench",): "baseline"}           # bench times the engine itself
    assert {d for words, d in found.items() if words != ("bench",)} == {DEFAULT_SKILL}


def test_the_python_api_defaults_to_the_expert():
    assert inspect.signature(api.simulate).parameters["policy"].default == DEFAULT_SKILL
    assert inspect.signature(api.luck).parameters["policy"].default == DEFAULT_SKILL
    assert DEFAULT_SKILL in inspect.signature(api.compare).parameters["policies"].default
    assert inspect.signature(tune.tune).parameters["policy"].default == DEFAULT_SKILL
    assert inspect.signature(tune.Tuner).parameters["policy"].default == DEFAULT_SKILL
    assert SweepSpec(games=1).policies == (DEFAULT_SKILL,)
    assert parse_spec({"sweep": {"games": 10}}).policies == (DEFAULT_SKILL,)


@pytest.mark.parametrize("policy, line", [("expert", "expert player (policy expert)"),
                                          ("baseline", "novice player (policy baseline)"),
                                          ("heuristic", "casual player (policy heuristic)"),
                                          ("search", "policy search")])
def test_the_first_line_names_the_player(policy, line):
    assert player_line(policy) == line


def test_a_summary_and_a_comparison_start_with_their_players():
    r = slashersim.simulate(policy="novice", games=300, seed=2)
    assert format_summary(r.summary()).startswith("novice player (policy baseline); rulebook")
    c = slashersim.compare(policies="novice,casual,novice", games=300, seed=2)
    assert list(c.policies["label"]) == ["novice", "casual", "novice#2"]
    assert list(c.policies["policy"]) == ["baseline", "heuristic", "baseline"]
    assert repr(c).startswith("players novice (baseline), casual (heuristic), novice#2 "
                              "(baseline); rulebook")
    assert c.pairs["a"].iloc[0] == "novice" and c.pairs["b"].iloc[0] == "casual"


def test_rows_take_parameters_and_games_by_the_name_typed_or_resolved():
    c = slashersim.compare(policies=["casual", "casual"], games={"casual#2": 200, None: 100},
                           params={"heuristic#2": {"damage": 3}}, seed=1)
    assert list(c.policies["games"]) == [100, 200]
    assert c.summary()["policies"][0]["params"] != c.summary()["policies"][1]["params"]


# --- strict options ---------------------------------------------------------------------------
@pytest.mark.parametrize("argv, needle", [
    (["simulate", "--game", "10"], "unrecognized arguments: --game 10 (did you mean '--games'?)"),
    (["simulate", "--skil", "expert"], "(did you mean '--skill'?)"),
    (["simulate", "--gmaes", "10"], "(did you mean '--games'?)"),
    (["compare", "--polices", "novice"], "(did you mean '--policies'?)"),
    (["luck", "killer", "--position", "1", "--al"], "(did you mean '--all'?)"),
    (["simulate", "--edition", "rulbook"], "(did you mean 'rulebook'?)"),
    (["simulate", "--skill", "expret"], "(did you mean 'expert'?)"),
    (["simulat"], "(did you mean 'simulate'?)"),
    (["simulate", "--policy", "exprt"], "unknown policy 'exprt' (did you mean 'expert'?)"),
    (["compare", "--policies", "expert,,casual"],
     "--policies 'expert,,casual' has an empty name at position 2"),
    (["compare", "--policies", "novice,"], "has an empty name at position 2"),
    (["bench", "--policies", ",baseline"], "has an empty name at position 1"),
])
def test_a_misspelt_or_abbreviated_option_is_refused_with_a_suggestion(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and needle in err, err


@pytest.mark.parametrize("policies", ["expert,,casual", ["expert", ""]])
def test_the_api_refuses_an_empty_name(policies):
    with pytest.raises(ValueError, match="empty name at position 2"):
        slashersim.compare(policies=policies, games=10)


def test_no_parser_accepts_abbreviations():
    def parsers(p):
        yield p
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    yield from parsers(sub)
    assert all(not p.allow_abbrev for p in parsers(build_parser()))


# --- files named, time estimated --------------------------------------------------------------
def test_every_figure_written_is_named_on_stderr(capsys, tmp_path):
    png = tmp_path / "killer.png"
    code, out, err = run(capsys, "luck", "killer", "--position", "1", "--games", "40",
                         "--skill", "novice", "--png", str(png))
    assert code == 0 and png.is_file()
    assert f"slashersim: wrote figure {png}" in err
    png = tmp_path / "compare.png"
    code, out, err = run(capsys, "compare", "--policies", "novice,casual", "--games", "40",
                         "--png", str(png))
    assert code == 0 and f"slashersim: wrote figure {png}" in err
    assert out.startswith("players novice (baseline), casual (heuristic); rulebook")


def test_a_sweep_names_its_tables_and_estimates_its_time(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(cli, "LONG_GAMES", 0)          # these runs are short
    spec = tmp_path / "s.toml"
    spec.write_text('[sweep]\ngames = 200\npolicies = ["novice"]\n[axes]\nhealth = [7, 3]\n')
    out_file = tmp_path / "t.parquet"
    code, out, err = run(capsys, "sweep", str(spec), "--out", str(out_file), "--csv")
    assert code == 0
    assert f"slashersim: wrote table {out_file}" in err
    assert f"slashersim: wrote table {out_file.with_suffix('.csv')}" in err
    assert re.search(r"the sweep plays 400 games: expect about \d+ s "
                     r"\(games/s measured just now: baseline [\d,]+\)", err), err
    folder = tmp_path / "report"
    code, out, err = run(capsys, "report", str(out_file), "--out", str(folder))
    assert code == 0
    named = re.findall(r"^slashersim: wrote (figure|report) (.+)$", err, re.M)
    assert named[-1] == ("report", str(folder / "report.md"))
    figures = {Path(path) for kind, path in named if kind == "figure"}
    assert figures and figures == set(folder.glob("*.png"))


def test_tune_estimates_its_time_before_it_plays(monkeypatch, capsys):
    monkeypatch.setattr(cli, "LONG_GAMES", 0)          # these runs are short
    code, out, err = run(capsys, "tune", "--target", "0.3", "--skill", "novice", "--knobs",
                         "traps", "--stages", "200", "--keep", "2")
    assert code == 0
    first = err.strip().splitlines()[0]
    assert re.match(r"slashersim: tune plays [\d,]+ games: expect about", first), err
    assert out.startswith("novice player (policy baseline); rulebook edition")


def test_the_quiet_option_leaves_out_the_estimate(monkeypatch, capsys):
    monkeypatch.setattr(cli, "LONG_GAMES", 0)          # these runs are short
    code, out, err = run(capsys, "tune", "--target", "0.3", "--skill", "novice", "--knobs",
                         "traps", "--stages", "200", "--keep", "2", "--quiet")
    assert code == 0 and "expect about" not in err


def test_progress_lines_off_a_terminal_say_the_time_left(capsys):
    lines = ProgressLines(1000, every=0)
    lines.update(250)
    lines.update(750)
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1
    assert re.fullmatch(r"slashersim: 25% \(250 of 1,000 games\), about \d+ s left\n", err)


@pytest.mark.parametrize("seconds, text", [(0.2, "1 s"), (42, "42 s"), (420, "7 min"),
                                           (9000, "2.5 h")])
def test_durations_read_as_a_person_would_say_them(seconds, text):
    assert duration(seconds) == text


def test_the_cli_module_uses_the_one_default():
    from slashersim.cli import parser
    assert parser.DEFAULT_SKILL is DEFAULT_SKILL


def test_a_short_command_spends_no_time_on_an_estimate(capsys):
    code, out, err = run(capsys, "tune", "--target", "0.3", "--skill", "novice", "--knobs",
                         "traps", "--stages", "200", "--keep", "2")
    assert code == 0 and "expect about" not in err
