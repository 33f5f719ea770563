"""The area cards as data: the printed card file states each printed rule (checked against the
rules page, exhaustively), a card file changes a card by name and every answer then says so,
and everything outside the card language is refused with one line naming the file and line."""
from pathlib import Path
import shutil
import subprocess
import sys

import numpy as np
import pytest

from slashersim.core import cards as C
from slashersim.core import layout as L
from slashersim.core import rules
from slashersim.core.config import ConfigError, GameConfig
from slashersim.present.text import format_summary
from slashersim.runner import simulate

KNOBS = {"lakeside_removal": 2, "tent_site_reduction": 1, "cursed_extra_draws": 3}


def _rank(c):
    return c % 5 + 1


def _suit(c):
    return c // 5


def plain_trick_rule(area, lead, follow, trump):
    """docs/rules.md, "The areas and their traps", stated once more in plain Python."""
    same = _suit(follow) == _suit(lead)
    won = follow if (same and follow > lead) or (not same and _suit(follow) == trump) else lead
    if area == "lakeside":
        return abs(_rank(lead) - _rank(follow)) > 2
    if area == "cabins":
        return _rank(lead) + _rank(follow) > 7
    if area == "woodland":
        return {_suit(lead), _suit(follow)} == {rules.WHITE, rules.RED}
    if area == "fire_pit":
        return _rank(won) == 4
    return False


def plain_tricks_won_rule(area, t0, t1):
    if area == "hideaway":
        return t0 > 0 and t1 > 0
    if t0 + t1 < 8:
        return False
    return {"tent_site": t0 % 2 == 1, "lodge": t0 % 2 == 0}.get(area, False)


def test_the_printed_card_file_states_every_printed_rule():
    t = C.load().tables(KNOBS)
    for a, area in enumerate(rules.AREA_NAMES):
        for trump in range(4):
            for lead in range(20):
                for follow in range(20):
                    if follow != lead:
                        safe = bool((int(t["safe"][a, trump, lead]) >> follow) & 1)
                        assert safe != plain_trick_rule(area, lead, follow, trump)
        for t0 in range(9):
            for t1 in range(9 - t0):
                assert bool((int(t["tricks_break"][a, t0]) >> t1) & 1) == \
                    plain_tricks_won_rule(area, t0, t1)
    assert list(t["white_shift"]) == [0, -1, 0, 0, 0, 1, 0]
    assert list(t["greens_removed"]) == [0, 0, 2, 0, 0, 0, 0]
    assert list(t["draw_reduction"]) == [1, 0, 0, 0, 0, 0, 0]
    assert list(t["extra_draw"]) == [0, 0, 0, 0, 1, 0, 0]
    assert list(t["killer_all"]) == [0, 0, 0, 1, 0, 0, 0]
    assert list(t["gifts"]) == [0, 0, 0, 0, 0, 0, 1]
    assert list(t["parity"]) == [0, 1, -1, -1, -1, -1, -1]
    assert list(t["sweep"]) == [0, 0, 0, 1, 0, 0, 0]
    assert list(t["has_trick_rule"]) == [0, 0, 1, 0, 1, 1, 1]


def test_a_card_names_the_rule_parameter_that_sets_it():
    t = C.load().tables({"lakeside_removal": 5, "tent_site_reduction": 0,
                         "cursed_extra_draws": 3})
    assert t["greens_removed"][rules.LAKESIDE] == 5 and t["draw_reduction"][rules.TENT_SITE] == 0
    cfg = GameConfig(lakeside_removal=5).to_array()
    assert cfg[L.C_AREA_GREENS_REMOVED + rules.LAKESIDE] == 5


def write(tmp_path, text, name="cards.toml"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_card_file_changes_a_card_and_the_answer_says_so(tmp_path):
    path = write(tmp_path, '[area.cabins]\nbreaks_on_trick = "lead.rank + follow.rank > 8"\n')
    config = GameConfig(cards=path)
    cfg, printed = config.to_array(), GameConfig().to_array()
    cabins = (rules.CABINS * 4 + 0) * 20 + rules.card_id(rules.GREEN, 4)
    four = rules.card_id(rules.RED, 4)                # 4 + 4 = 8 keeps the new rule only
    assert (cfg[L.C_AREA_SAFE + cabins] >> four) & 1
    assert not (printed[L.C_AREA_SAFE + cabins] >> four) & 1
    mine = simulate(config, "baseline", games=3000, seed=5)
    theirs = simulate(GameConfig(), "baseline", games=3000, seed=5)
    assert mine.summary()["traps_by_area"]["cabins"] < theirs.summary()["traps_by_area"]["cabins"]
    first = format_summary(mine.summary()).splitlines()[0]
    assert "CHANGED CARDS cards.toml (sha256 " in first and "cabins.breaks_on_trick" in first
    assert "CHANGED" not in format_summary(theirs.summary()).splitlines()[0]


def test_the_printed_file_as_a_card_file_plays_the_printed_games(tmp_path):
    path = shutil.copy(C.PRINTED_FILE, tmp_path / "copy.toml")
    mine = simulate(GameConfig(cards=str(path)), "heuristic", games=400, seed=2,
                    keep_records=True)
    theirs = simulate(GameConfig(), "heuristic", games=400, seed=2, keep_records=True)
    assert mine.records.equals(theirs.records)
    assert "CHANGED CARDS copy.toml" in format_summary(mine.summary()).splitlines()[0]
    assert ": no rule;" in format_summary(mine.summary()).splitlines()[0]


@pytest.mark.parametrize("text,message", [
    ('[area.cabins]\nbreaks_on_trik = "false"\n',
     "line 2: area 'cabins' has no key 'breaks_on_trik'; did you mean 'breaks_on_trick'?"),
    ('[area.cabins]\nbreaks_on_trick = "lead.rnak > 3"\n',
     "line 2, breaks_on_trick of 'cabins': a card has no 'rnak'; did you mean 'rank'?"),
    ('[area.cabins]\nbreaks_on_trick = "folow.rank > 3"\n',
     "unknown name 'folow'; did you mean 'follow'?"),
    ('[area.cabins]\nbreaks_on_trick = "__import__(\'os\').system(\'true\')"\n',
     "unknown function"),
    ('[area.cabins]\nbreaks_on_trick = "lead.__class__"\n', "a card has no '__class__'"),
    ('[area.cabins]\nbreaks_on_trick = "[c for c in ranks]"\n', "listcomp"),
    ('[area.cabins]\nbreaks_on_trick = "lead.rank >"\n', "is not an expression"),
    ('[area.cabins]\nbreaks_on_tricks_won = "lead.rank > 3"\n', "unknown name 'lead'"),
    ('[area.cabins]\nwhite_shift = 2\n', "white_shift of 'cabins' must be a whole number -1..1"),
    ('[area.cabins]\ngreens_removed = "lakeside_removel"\n',
     "names no rule parameter 'lakeside_removel'; did you mean 'lakeside_removal'?"),
    ('[area.cabins]\nkiller = "everything"\n',
     "killer of 'cabins' is 'everything'; expected one of: damage, all_health"),
    ('[area.cabins]\nkiller = "all_healt"\n', "killer of 'cabins' is 'all_healt'; did you mean "
                                              "'all_health'?; expected one of: damage, all_health"),
    ('[area.cabins]\nextra_draw = 1\n', "extra_draw of 'cabins' must be true or false"),
    ('[area.cabin]\nrule = "x"\n', "'cabin' is not an area of the game; did you mean 'cabins'?"),
    ('[junk.one]\nrule = "x"\n', "no card kind 'junk'"),
    ('[item.knife]\nrule = "x"\n', "'knife' is not an item of the game"),
    ('[item.map]\nheal = 1\n', "heal is a key of a heal item, and 'map' is of kind 'escape'"),
    ('[item.map]\nkind = "heel"\n', "kind of 'map' is 'heel'; did you mean 'heal'?; expected "
                                     "one of: escape, heal, look_at_top, keep_one_more, "
                                     "remove_trap, take_from_discard, cursed, junk"),
    ('[item.map]\nkind = "heal"\n', "'map' is a heal item: give it heal = N"),
    ('[item.map]\nextra_draws = 2\n', "extra_draws is a key of a cursed item"),
    ('[item.rope]\nreplaces = "map"\n', "the new item 'rope' states its kind: kind = one of"),
    ('[item.rope]\nreplaces = "mop"\nkind = "junk"\n',
     "'rope' replaces 'mop', which is not a printed item; did you mean 'map'?"),
    ('[item.first_aid_small]\nheal = 0\n', "heal of 'first_aid_small' must be a whole number 1..7"),
    ('[item.first_aid_small]\nheel = 2\n', "has no key 'heel'; did you mean 'heal'?"),
    ('[area.cabins\n', "not a TOML file"),
])
def test_text_outside_the_language_is_refused_with_its_line(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError, match=None) as e:
        GameConfig(cards=path)
    assert message in str(e.value)
    assert str(e.value).startswith((path, f"card file {path}"))


def test_a_missing_card_file_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="card file '.*nope.toml' does not exist"):
        GameConfig(cards=str(tmp_path / "nope.toml"))
    with pytest.raises(ConfigError, match="is a folder"):
        GameConfig(cards=str(tmp_path))


def test_the_command_line_refuses_a_bad_card_file_in_one_line(tmp_path):
    path = write(tmp_path, '[area.cabins]\nbreaks_on_trick = "lead.rnak > 3"\n')
    p = subprocess.run([sys.executable, "-m", "slashersim", "simulate", "--cards", path],
                       capture_output=True, text=True)
    assert p.returncode == 2
    assert p.stderr.strip().count("\n") == 0 and "did you mean 'rank'?" in p.stderr
    assert "Traceback" not in p.stderr


def test_a_card_file_can_be_a_sweep_axis(tmp_path):
    import slashersim
    path = write(tmp_path, '[area.fire_pit]\nbreaks_on_trick = "false"\n')
    df = slashersim.sweep({"sweep": {"games": 300, "seed": 1, "policies": ["novice"]},
                           "axes": {"cards": ["printed", path]}})
    assert len(df) == 2
    assert df["traps_fire_pit"].iloc[1] == 0 < df["traps_fire_pit"].iloc[0]


def test_nothing_in_a_card_file_runs_as_python(tmp_path):
    """The interpreter evaluates only its own nodes: a name that Python would resolve (a
    builtin, a module) is unknown to the language."""
    for text in ("open('x')", "globals()", "lead.rank.__add__(1)", "(lambda: 1)()"):
        with pytest.raises(C.CardError):
            C.language.Expression(text, C.language.TRICK_NAMES, "here")
    expr = C.language.Expression("max(ranks) - min(ranks) > 2 if leader_won else trump == 'red'",
                                 C.language.TRICK_NAMES, "here")
    env = C.language.trick_env(rules.card_id(rules.GREEN, 1), rules.card_id(rules.GREEN, 5), 0)
    assert expr(env) is False        # the 5 wins: not leader_won; trump white
    assert np.isscalar(len(C.AREA_KEYS))


# --- what a rule means, checked when the file is read ------------------------------------------
@pytest.mark.parametrize("key,rule,message", [
    ("breaks_on_trick", "lead.rank + follow.rank",
     "'lead.rank + follow.rank' is a number, not true or false; compare it, e.g. "
     "'lead.rank + follow.rank >= 8'"),
    ("breaks_on_trick", "lead.suit", "'lead.suit' is a suit, not true or false; compare it, "
                                     "e.g. \"lead.suit == 'red'\""),
    ("breaks_on_trick", "ranks", "'ranks' is a tuple, not true or false; compare it, e.g. "
                                 "'4 in ranks'"),
    ("breaks_on_trick", "'lead.rank > 3'", "is text, not true or false; write the rule without "
                                           "quotes of its own"),
    ("breaks_on_tricks_won", "tricks0", "'tricks0' is a number, not true or false; compare it, "
                                        "e.g. 'tricks0 > 0'"),
    ("breaks_on_trick", "lead.suit == 'blue'",
     "'blue' is not a suit; expected one of: white, green, yellow, red in \"lead.suit == "
     "'blue'\""),
    ("breaks_on_trick", "'rd' in suits", "'rd' is not a suit; did you mean 'red'?"),
    ("breaks_on_trick", "trump in ('white', 'gren')", "'gren' is not a suit; did you mean "
                                                      "'green'?"),
    ("breaks_on_trick", "lead.rank == 6 or won.rank == 4", "a rank is 1..5, never 6 in"),
    ("breaks_on_trick", "0 in ranks", "a rank is 1..5, never 0 in"),
    ("breaks_on_trick", "lead.rank + follow.rank == 11", "lead.rank + follow.rank is 2..10, "
                                                         "never 11"),
    ("breaks_on_tricks_won", "last and tricks1 != 9", "tricks1 is 0..8, never 9"),
    ("breaks_on_tricks_won", "played == 0 or tricks0 == 3", "played (asked after every trick) "
                                                            "is 1..8, never 0"),
    ("breaks_on_trick", "'red' + lead.rank > 2", "'+' is for numbers, and 'red' is text in"),
    ("breaks_on_trick", "lead.trump + follow.trump > 1",
     "'+' is for numbers, and lead.trump is true or false"),
    ("breaks_on_tricks_won", "not tricks0", "'not' is for true or false, and tricks0 is a "
                                            "number in 'not tricks0'; compare it, e.g. "
                                            "'tricks0 > 0'"),
    ("breaks_on_tricks_won", "last and tricks0 % 2",
     "'and' is for true or false, and tricks0 % 2 is a number"),
    ("breaks_on_trick", "lead.suit < 'red'", "'<' orders numbers, and lead.suit is a suit"),
    ("breaks_on_trick", "lead.rank == 'red'", "lead.rank is a number and 'red' is text: never "
                                              "equal"),
    ("breaks_on_trick", "'red' in ('red', 'white') or won.rank == 4",
     "'red' and 'red' are both text in \"'red' in ('red', 'white') or won.rank == 4\"; "
     "compare a suit with a suit's name"),
    ("breaks_on_trick", "trump.rank > 3", "trump is a suit, not a card: only a card has .rank"),
    ("breaks_on_trick", "len(lead.suit) > 3", "len counts a tuple's values, and lead.suit is "
                                              "a suit"),
    ("breaks_on_trick", "lead.rank // (follow.rank - lead.rank) > 1",
     "a division by zero (when white 1 is led, green 1 follows, white is trump)"),
    ("breaks_on_trick", "lead.rank > 5", "'lead.rank > 5' never breaks: it is false on every "
                                         "trick the game can deal; write \"false\" for a card "
                                         "without this rule"),
    # both trumps are of one suit, and the higher follower wins: the leader never wins
    ("breaks_on_trick", "lead.trump and follow.trump and leader_won and lead.rank < follow.rank",
     "never breaks"),
    # two distinct cards: at least 1 + 1
    ("breaks_on_trick", "lead.rank + follow.rank >= 2",
     "'lead.rank + follow.rank >= 2' breaks on every trick: it is true on every trick the "
     "game can deal; write \"true\" if you mean it"),
    ("breaks_on_trick", "lead.suit == follow.suit or lead.suit != follow.suit",
     "breaks on every trick"),
    # asked after a trick: one has been played
    ("breaks_on_tricks_won", "played >= 1", "breaks on every trick: it is true after every "
                                            "trick, whatever the tricks won"),
    ("breaks_on_tricks_won", "last and played < 8", "never breaks: it is false after every "
                                                    "trick, whatever the tricks won"),
])
def test_a_rule_that_cannot_mean_anything_is_refused(tmp_path, key, rule, message):
    """Refused when the file is read, in one line naming the file, the line, the rule and its
    card, and what is meant."""
    path = write(tmp_path, f'[area.cabins]\nrule = "x"\n{key} = "{rule}"\n')
    with pytest.raises(ConfigError) as e:
        GameConfig(cards=path)
    assert str(e.value).startswith(f"{path}, line 3, {key} of 'cabins': ")
    assert message in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("key,rule", [
    ("breaks_on_trick", "1 <= lead.rank <= 3"),
    ("breaks_on_trick", "lead.suit in ('white', 'red') and 5 in ranks"),
    ("breaks_on_trick", "trump == ('red' if leader_won else 'white')"),
    ("breaks_on_trick", "suits == ('white', 'red') and max(ranks) - min(ranks) == 4"),
    ("breaks_on_trick", "lead == won and abs(lead.rank - follow.rank) // 2 == 2"),
    ("breaks_on_tricks_won", "tricks0 == 8 or played == 1"),
    ("breaks_on_tricks_won", "last and tricks0 - tricks1 in (-8, 8)"),
])
def test_a_rule_that_means_something_reads(tmp_path, key, rule):
    """Each holds on some trick (or count) and not on another: read without a warning, and
    tabled as a rule that some answers keep."""
    cards = C.load(write(tmp_path, f'[area.bog]\nadded = true\n{key} = "{rule}"\n'))
    assert cards.warnings == ()
    t = cards.tables(KNOBS)
    if key == "breaks_on_trick":
        assert t["has_trick_rule"][7] == 1 and t["safe"][7].any()
    else:
        assert t["has_tricks_won_rule"][7] == 1 and not t["tricks_break"][7, 2] & 0b100


def test_a_refusal_names_the_line_of_its_own_card(tmp_path):
    path = write(tmp_path, '[area.lakeside]\nbreaks_on_trick = "lead.rank > 3"\n\n'
                           '[area.cabins]\ntitle = "Cabins"\nbreaks_on_trick = "lead.rank > 9"\n')
    with pytest.raises(ConfigError, match=r"line 6, breaks_on_trick of 'cabins': 'lead.rank > 9'"
                                          r" never breaks"):
        GameConfig(cards=path)


def test_a_rule_written_true_or_false_is_meant(tmp_path):
    """``"false"`` reads silently, as does a rule left out; ``"true"`` (the trap set off in every
    round there) reads with a warning, which the answer shows on its first line."""
    silent = write(tmp_path, '[area.cabins]\nbreaks_on_trick = "false"\n'
                             '[area.bog]\nreplaces = "lodge"\nrule = "x"\n', "silent.toml")
    assert C.load(silent).warnings == ()
    path = write(tmp_path, '[area.fire_pit]\ngifts = false\n[area.cabins]\nrule = "x"\n'
                           'breaks_on_trick = "true"\n[area.bog]\nadded = true\n'
                           'breaks_on_tricks_won = "True"\n')
    cards = C.load(path)
    assert cards.warnings == (
        'cabins.breaks_on_trick is "true" (line 5): the rule breaks on the first trick, so '
        'every round played there sets off its trap',
        'bog.breaks_on_tricks_won is "true" (line 8): the rule breaks on the first trick, so '
        'every round played there sets off its trap')
    t = cards.tables(KNOBS)
    assert not t["safe"][rules.CABINS].any() and t["tricks_break"][7, 0] & 0b10
    r = simulate(GameConfig(cards=path), "baseline", games=50, seed=1)
    assert r.summary()["traps_by_area"]["cabins"] == r.summary()["rounds_by_area"]["cabins"] > 0
    first = format_summary(r.summary()).splitlines()[0]
    assert f"; WARNING {cards.warnings[0]}; WARNING {cards.warnings[1]}; rulebook" in first
    from slashersim.analysis.sweeps import _cards_provenance
    assert _cards_provenance(GameConfig(cards=path))["cards"]["warnings"] == list(cards.warnings)
    assert "warnings" not in _cards_provenance(GameConfig(cards=silent))["cards"]


def test_the_command_line_refuses_a_rule_that_cannot_mean_anything(tmp_path):
    from helpers import assert_one_line_error, run_cli
    number = write(tmp_path, '[area.cabins]\nbreaks_on_trick = "lead.rank + follow.rank"\n',
                   "number.toml")
    assert_one_line_error(run_cli("simulate", "--cards", number, "--games", "10"),
                          "line 2, breaks_on_trick of 'cabins': 'lead.rank + follow.rank' is a "
                          "number, not true or false; compare it, e.g.")
    blue = write(tmp_path, '[area.cabins]\nbreaks_on_trick = "lead.suit == \'blue\'"\n',
                 "blue.toml")
    assert_one_line_error(run_cli("simulate", "--cards", blue, "--games", "10"),
                          "line 2, breaks_on_trick of 'cabins': 'blue' is not a suit")


def test_the_command_line_shows_a_cards_warning(tmp_path):
    import json

    from helpers import run_cli
    path = write(tmp_path, '[area.cabins]\nbreaks_on_trick = "true"\n')
    warning = C.load(path).warnings[0]
    p = run_cli("simulate", "--cards", path, "--games", "10", "--skill", "novice")
    assert p.returncode == 0 and f"; WARNING {warning}; " in p.stdout.splitlines()[0]
    p = run_cli("simulate", "--cards", path, "--games", "10", "--skill", "novice", "--json")
    assert json.loads(p.stdout)["card_warnings"] == [warning]
    p = run_cli("simulate", "--games", "10", "--skill", "novice", "--json")
    assert "card_warnings" not in json.loads(p.stdout)

# --- a new card in a printed one's place ---------------------------------------------------------
@pytest.mark.parametrize("area", rules.AREA_NAMES)
def test_a_printed_card_copied_under_a_new_name_plays_as_the_original(tmp_path, area):
    """Every printed area, written anew under a name of its own in the original's place: the
    same games as the printed game (the tables are the card's, not its name's), and answers
    that name the new card."""
    path = write(tmp_path, C.copy_text("area", area, "my_" + area))
    knobs = {"hideaway": True} if area == "hideaway" else {}
    mine = simulate(GameConfig(cards=path, **knobs), "heuristic", games=300, seed=4,
                    keep_records=True)
    theirs = simulate(GameConfig(**knobs), "heuristic", games=300, seed=4, keep_records=True)
    assert mine.records.equals(theirs.records)
    text = format_summary(mine.summary())
    assert f"my_{area} in place of {area}" in text.splitlines()[0]
    # the copy keeps the printed card's title, which answers show
    title = C.load(path).titles[rules.AREA_NAMES.index(area)]
    assert title == C.load().titles[rules.AREA_NAMES.index(area)]
    assert f"\n  {title} " in text


def test_a_new_card_starts_blank_where_its_file_is_silent(tmp_path):
    path = write(tmp_path, '[area.bog]\nreplaces = "cabins"\nbreaks_on_trick = '
                           '"lead.rank % 2 == 1 and follow.rank % 2 == 1"\n')
    t = C.load(path).tables(KNOBS)
    assert t["extra_draw"][rules.CABINS] == 0 and t["has_trick_rule"][rules.CABINS] == 1
    three, five = rules.card_id(rules.GREEN, 3), rules.card_id(rules.RED, 5)
    assert not (int(t["safe"][rules.CABINS, 0, three]) >> five) & 1
    assert C.load(path).names[rules.CABINS] == "bog"


@pytest.mark.parametrize("text,message", [
    ('[area.bog]\nrule = "x"\n', "; a new area card takes a printed one's place: "
                                 "replaces = \"NAME\" or is added beside them: added = true"),
    ('[area.bog]\nadded = true\nreplaces = "cabins"\n',
     "'bog' is either added beside the printed areas or replaces one, not both"),
    ('[item.horn]\nadded = true\nreplaces = "map"\nkind = "junk"\n',
     "'horn' is either added beside the printed items or replaces one, not both"),
    ('[item.items]\nadded = true\nkind = "junk"\n', "a new item may not be called 'items'"),
    ('[item.horn]\nadded = true\n', "the new item 'horn' states its kind"),
    ("".join(f'[item.i{i}]\nadded = true\nkind = "junk"\n' for i in range(7)),
     "'i6' would be item card 19; a card set holds at most 18"),
    ('[area.cabins]\nadded = true\n', "'cabins' is a printed area, already in the game"),
    ("".join(f'[area.a{i}]\nadded = true\n' for i in range(6)),
     "'a5' would be area card 13; a card set holds at most 12"),
    ('[area.bog]\nreplaces = "cabin"\n', "'bog' replaces 'cabin', which is not a printed area; "
                                         "did you mean 'cabins'?"),
    ('[area.bog]\nreplaces = "cabins"\n[area.fen]\nreplaces = "cabins"\n',
     "'fen' replaces 'cabins', which the file already replaces with 'bog'"),
    ('[area.bog]\nreplaces = "cabins"\n[area.cabins]\nrule = "x"\n',
     "'bog' replaces 'cabins', which the file already changes"),
    ('[area.cabins]\nreplaces = "lodge"\n', "'cabins' is a printed area"),
    ('[area.Bog-1]\nreplaces = "cabins"\n', "a new area's name must be lower-case letters"),
])
def test_a_new_card_names_the_place_it_takes(tmp_path, text, message):
    with pytest.raises(ConfigError) as e:
        GameConfig(cards=write(tmp_path, text))
    assert message in str(e.value)


def test_a_changed_item_heals_as_its_card_says(tmp_path):
    """The First Aid cards' ``heal`` is a hook: the engine heals by it, the casual player
    judges a kit by it."""
    path = write(tmp_path, "[item.first_aid_small]\nheal = 3\n")
    cfg = GameConfig(cards=path).to_array()
    assert cfg[L.C_ITEM_HEAL + rules.FIRST_AID_SMALL] == 3
    assert cfg[L.C_ITEM_HEAL + rules.FIRST_AID_LARGE] == 2
    from slashersim.engine import items
    st = L.new_state(cfg)
    st[L.S_HEALTH] = 2
    st[L.S_HELD] = 1 << rules.FIRST_AID_SMALL
    assert items.use_item(st, 0, rules.FIRST_AID_SMALL, 0)
    assert st[L.S_HEALTH] == 5
    from slashersim.policies import heuristic
    st[L.S_HEALTH] = 2
    assert heuristic.healed(st, 0, rules.FIRST_AID_SMALL) == 5
    mine = simulate(GameConfig(cards=path), "heuristic", games=3000, seed=1)
    theirs = simulate(GameConfig(), "heuristic", games=3000, seed=1)
    assert mine.summary()["mean_damage"] != theirs.summary()["mean_damage"]
    first = format_summary(mine.summary()).splitlines()[0]
    assert "first_aid_small.heal" in first


def test_the_cursed_objects_draws_are_its_cards(tmp_path):
    path = write(tmp_path, "[item.cursed_object]\nextra_draws = 1\n")
    cursed = L.C_ITEM_EXTRA_DRAWS + rules.CURSED_OBJECT
    assert GameConfig(cards=path).to_array()[cursed] == 1
    assert GameConfig(cursed_extra_draws=2).to_array()[cursed] == 2


# --- item kinds ---------------------------------------------------------------------------------
def _kinds(cfg):
    return {rules.ITEM_KINDS[k]: {i for i in range(12) if (cfg[L.C_KIND_ITEMS + k] >> i) & 1}
            for k in range(rules.N_ITEM_KINDS)}


def test_the_printed_items_are_of_their_printed_kinds():
    kinds = _kinds(GameConfig().to_array())
    assert kinds["escape"] == set(range(rules.N_ESCAPES))
    assert kinds["heal"] == {rules.FIRST_AID_SMALL, rules.FIRST_AID_LARGE}
    assert kinds["look_at_top"] == {rules.FLASHLIGHT}
    assert kinds["keep_one_more"] == {rules.BACKPACK}
    assert kinds["remove_trap"] == {rules.LUCKY_CHARM}
    assert kinds["take_from_discard"] == {rules.WALKIE_TALKIE}
    assert kinds["cursed"] == {rules.CURSED_OBJECT} and kinds["junk"] == set()
    cfg = GameConfig().to_array()
    assert cfg[L.C_KEEPABLE] == (1 << rules.CURSED_OBJECT) - 1      # the old ``card < 11``
    assert [int(cfg[L.C_ITEM_KIND + i]) for i in range(12)] == \
        [rules.KIND_ESCAPE] * 5 + [rules.KIND_HEAL] * 2 + [
            rules.KIND_LOOK_AT_TOP, rules.KIND_KEEP_ONE_MORE, rules.KIND_REMOVE_TRAP,
            rules.KIND_TAKE_FROM_DISCARD, rules.KIND_CURSED]


def test_an_item_of_another_kind_does_what_its_kind_does(tmp_path):
    """Worked by hand: the Baseball Bat made a heal item heals by its ``heal``; the Lucky Charm
    made an escape item counts toward the escape and is no longer usable; the Map made junk is
    never kept."""
    from helpers import held, set_drawn
    from scripted import script, scripted

    from slashersim.engine import items, steps
    path = write(tmp_path, '[item.baseball_bat]\nkind = "heal"\nheal = 2\n'
                           '[item.lucky_charm]\nkind = "escape"\n[item.map]\nkind = "junk"\n')
    config = GameConfig(cards=path, keep_optional=False)
    st = L.new_state(config.to_array())
    st[L.S_HEALTH] = 3
    st[L.S_HELD] = 1 << rules.BASEBALL_BAT
    assert items.use_item(st, 0, rules.BASEBALL_BAT, 0)
    assert st[L.S_HEALTH] == 5 and st[L.S_HELD] == 0
    st[L.S_HELD] = (1 << rules.LUCKY_CHARM) | (1 << rules.CAR_KEY)
    st[L.S_TRAPS] = 1
    assert not items.use_item(st, 0, rules.LUCKY_CHARM, 0)        # not a remove-trap item
    assert items.team_escapes(st) == 2
    set_drawn(st, [rules.MAP, rules.GASOLINE])
    st[L.S_HELD] = 0
    steps.keep_items(scripted, 0, st, script(keep=(0, -1)))       # the Map is refused, and
    assert st[L.S_VIOLATIONS] & L.V_POLICY                         # the mandatory keep takes
    assert held(st, 0) == {rules.GASOLINE}                         # the first keepable card
    cfg = config.to_array()
    assert not (cfg[L.C_KEEPABLE] >> rules.MAP) & 1
    assert cfg[L.C_USABLE] == (1 << rules.BASEBALL_BAT) | (1 << rules.FIRST_AID_SMALL) | \
        (1 << rules.FIRST_AID_LARGE) | (1 << rules.FLASHLIGHT)


def test_a_new_item_takes_a_printed_ones_place_and_its_kind(tmp_path):
    """A second keep-one-more item in the Walkie-talkie's place: drawn two keepable cards, its
    holder is offered to keep both, and the new item is the one used up; a cursed Gasoline
    leaves the game when drawn and adds its own draws."""
    from helpers import deck, discard, drawn, held, hold, is_out, set_deck, set_drawn
    from scripted import draw_cards, script, scripted

    from slashersim.engine import steps
    path = write(tmp_path, '[item.sack]\nreplaces = "walkie_talkie"\ntitle = "Sack"\n'
                           'kind = "keep_one_more"\n'
                           '[item.gasoline]\nkind = "cursed"\nextra_draws = 2\n')
    cards = C.load(path)
    assert cards.item_names[rules.WALKIE_TALKIE] == "sack"
    assert "sack in place of walkie_talkie" in cards.changed
    st = L.new_state(GameConfig(cards=path, escapes_needed=4).to_array())
    hold(st, 0, rules.WALKIE_TALKIE)
    set_drawn(st, [rules.FLASHLIGHT, rules.MAP])
    steps.keep_items(scripted, 0, st, script(backpack=1, keep=(0, 1)))
    assert held(st, 0) == {rules.FLASHLIGHT, rules.MAP}
    assert discard(st) == [rules.WALKIE_TALKIE]
    st = L.new_state(GameConfig(cards=path, escapes_needed=4).to_array())
    set_deck(st, [rules.GASOLINE, rules.MAP, rules.CAR_KEY, rules.FLASHLIGHT])
    assert not draw_cards(st, 1)              # one draw: the Gasoline, then 2 more
    assert is_out(st, rules.GASOLINE) and deck(st) == [rules.FLASHLIGHT]
    assert drawn(st) == [rules.MAP, rules.CAR_KEY]


def test_the_escapes_needed_are_at_most_the_escape_items_in_play(tmp_path):
    path = write(tmp_path, '[item.map]\nkind = "junk"\n')
    assert GameConfig(cards=path, escapes_needed=4).to_array()[L.C_ESCAPES_NEEDED] == 4
    with pytest.raises(ConfigError, match="escapes_needed 5 is more than the 4 escape items"):
        GameConfig(cards=path, escapes_needed=5).to_array()


@pytest.mark.parametrize("policy", ["baseline", "heuristic", "expert"])
def test_the_players_judge_items_by_their_kinds(tmp_path, policy):
    """Under items of other kinds every skill plays without a refused answer or a broken rule
    (the invariants checked every round), and the games differ from the printed ones."""
    path = write(tmp_path, '[item.baseball_bat]\nkind = "heal"\nheal = 1\n'
                           '[item.first_aid_large]\nkind = "escape"\n'
                           '[item.walkie_talkie]\nkind = "look_at_top"\n')
    games = 40 if policy == "expert" else 600
    mine = simulate(GameConfig(cards=path, check_invariants=True), policy, games=games, seed=3)
    theirs = simulate(GameConfig(), policy, games=games, seed=3)
    summary = mine.summary()
    assert summary["invariant_violations"] == 0          # a refused answer counts as one too
    assert summary["item_stats"] != theirs.summary()["item_stats"]


@pytest.mark.parametrize("kind,names", [("area", rules.AREA_NAMES), ("item", C.ITEM_CARDS)])
def test_every_printed_card_copied_under_a_new_name_gives_the_same_rules(tmp_path, kind, names):
    """A copy (:func:`cards.copy_text`) is read only through its hooks: the configuration's
    whole rule array is the printed one's, for every area and every item."""
    printed = GameConfig().to_array()
    for name in names:
        path = write(tmp_path, C.copy_text(kind, name, "copy_of_" + name), f"{name}.toml")
        assert (GameConfig(cards=path).to_array() == printed).all(), name
        assert f"copy_of_{name} in place of {name}" in C.load(path).changed
    with pytest.raises(C.CardError, match="'mop' is not a printed item; did you mean 'map'"):
        C.copy_text("item", "mop", "x")


# --- an area card added beside the printed seven ------------------------------------------------
BONFIRE = str(Path(__file__).resolve().parents[1] / "examples" / "bonfire.toml")


def test_an_added_card_is_an_area_of_its_own():
    """Its hooks fill the tables' eighth row, the area deck holds it in its card's level group,
    and the configuration names it like a printed area."""
    cards = C.load(BONFIRE)
    assert cards.slots == (*rules.AREA_NAMES, "bonfire") and cards.titles[-1] == "Bonfire"
    assert cards.changed == ("bonfire added",)
    t = cards.tables(KNOBS)
    five, four = rules.card_id(rules.GREEN, 5), rules.card_id(rules.GREEN, 4)
    assert not (int(t["safe"][7, rules.RED, four]) >> five) & 1     # the 5 wins: broken
    assert (int(t["safe"][7, rules.RED, five]) >> four) & 1 == 0     # led 5 wins too
    three = rules.card_id(rules.GREEN, 3)
    assert (int(t["safe"][7, rules.RED, three]) >> four) & 1          # a 4 wins: kept
    assert t["draw_reduction"][7] == 1 and t["has_trick_rule"][7] == 1
    cfg = GameConfig(cards=BONFIRE).to_array()
    assert cfg[L.C_N_AREAS] == 8 and cfg[L.C_AREA_IN + 7] == 1 and cfg[L.C_AREA_LEVEL + 7] == 2
    assert GameConfig(cards=BONFIRE, removed_areas=("bonfire",)).to_array()[L.C_AREA_IN + 7] == 0
    assert GameConfig(cards=BONFIRE, arrows=(0,) * 8).arrows == (0,) * 8
    with pytest.raises(ConfigError, match="arrows must list 8 players"):
        GameConfig(cards=BONFIRE, arrows=(0,) * 7)
    with pytest.raises(ConfigError, match="bonfire"):
        GameConfig(removed_areas=("bonfire",))


def test_an_added_card_is_played_and_answers_name_it():
    r = simulate(GameConfig(cards=BONFIRE), "heuristic", games=400, seed=3, keep_records=True)
    s = r.summary()
    assert s["rounds_by_area"]["bonfire"] > 0 and s["traps_by_area"]["bonfire"] > 0
    assert r.records["rounds_bonfire"].sum() == s["rounds_by_area"]["bonfire"]
    text = format_summary(s)
    assert "bonfire added" in text.splitlines()[0]
    assert "\n  Bonfire " in text


def test_an_added_card_left_out_of_the_deck_changes_no_game():
    """Its arrow is drawn after the printed deck is built, so the printed games are played."""
    mine = simulate(GameConfig(cards=BONFIRE, removed_areas=("bonfire",)), "heuristic",
                    games=300, seed=6, keep_records=True)
    theirs = simulate(GameConfig(), "heuristic", games=300, seed=6, keep_records=True)
    assert (mine.records["rounds_bonfire"] == 0).all()
    assert mine.records.drop(columns=["traps_bonfire", "rounds_bonfire"]).equals(theirs.records)


def test_an_added_card_can_lead_the_deck_and_the_cycle():
    first = GameConfig(cards=BONFIRE, area_deck="cycle", areas_used=8, first_area="bonfire")
    r = simulate(first, "baseline", games=200, seed=1, keep_records=True)
    assert (r.records["first_area"] == 7).all()
    assert r.summary()["rounds_by_area"]["bonfire"] >= 200


def test_a_sweep_over_an_added_card_counts_it_in_every_row():
    import slashersim
    from slashersim.runner.tables import knob_columns, load_table
    df = slashersim.sweep({"sweep": {"games": 300, "seed": 1, "policies": ["novice"]},
                           "axes": {"cards": ["printed", BONFIRE]}})
    assert df["rounds_bonfire"].iloc[0] == 0 < df["rounds_bonfire"].iloc[1]
    assert "rounds_bonfire" not in knob_columns(df)
    loaded = load_table(df)
    assert loaded["trap_rate_bonfire"].isna().iloc[0] and loaded["trap_rate_bonfire"].iloc[1] > 0


# --- an item card added beside the printed twelve -----------------------------------------------
WHISTLE = str(Path(__file__).resolve().parents[1] / "examples" / "whistle.toml")


def test_an_added_item_is_an_item_card_of_its_own():
    """It takes the first id after the Junk, its kind's masks hold it, and the item deck (and
    the rulebook's top group the Killer joins) is one card larger."""
    cards = C.load(WHISTLE)
    assert cards.item_slots[-1] == "whistle" and cards.item_ids[-1] == rules.FIRST_ADDED_ITEM
    assert cards.changed == ("whistle added",)
    cfg = GameConfig(cards=WHISTLE).to_array()
    whistle = 1 << rules.FIRST_ADDED_ITEM
    assert cfg[L.C_N_ADDED_ITEMS] == 1 and cfg[L.C_ITEM_IN + rules.FIRST_ADDED_ITEM] == 1
    assert cfg[L.C_KIND_ITEMS + rules.KIND_REMOVE_TRAP] == (1 << rules.LUCKY_CHARM) | whistle
    assert cfg[L.C_KEEPABLE] & whistle and cfg[L.C_USABLE] & whistle
    printed = GameConfig().to_array()
    assert cfg[L.C_TOP_GROUP] == printed[L.C_TOP_GROUP] + 1
    assert GameConfig(cards=WHISTLE).killer_positions == GameConfig().killer_positions + 1


def test_an_added_item_is_drawn_kept_and_used():
    r = simulate(GameConfig(cards=WHISTLE, check_invariants=True), "heuristic", games=1500,
                 seed=3, keep_records=True)
    s = r.summary()
    assert s["invariant_violations"] == 0
    assert s["item_stats"]["kept"]["whistle"] > 0 and s["item_stats"]["used"]["whistle"] > 0
    assert r.records["used_whistle"].sum() == s["item_stats"]["used"]["whistle"]
    assert "whistle added" in format_summary(s).splitlines()[0]


def test_a_sweep_over_an_added_item_counts_it_in_every_row():
    import slashersim
    from slashersim.runner.tables import knob_columns
    df = slashersim.sweep({"sweep": {"games": 300, "seed": 1, "policies": ["novice"]},
                           "axes": {"cards": ["printed", WHISTLE]}})
    assert df["kept_whistle"].iloc[0] == 0 < df["kept_whistle"].iloc[1]
    assert "used_whistle" not in knob_columns(df) and "used_items" not in df.columns
