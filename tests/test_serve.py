"""``slashersim serve``, the difficulty explorer in the browser: everything but the browser.

The page's input checks, the knobs' mapping to a GameConfig, the default player, the preset
menu's names, the page's link (every setting in the URL, refusals as if typed), when a shown
answer is stale, the precomputed grid's answers (the difficulty presets from a small presets
table made here), the win rate by health figure's data, the refusals of the command (without
the web extra too), the live runs behind the page (played in parts, two at once, a position's
win probability), each equal to the public API's answer, the page itself built in this
process (no browser), and a link's cards (a link opened where other cards are served answers
nothing and says so). ``test_serve_browser.py`` drives the page in chromium.
"""
import hashlib
import json
import os
from pathlib import Path
import re
import socket
import subprocess
import sys
import time
from urllib.parse import parse_qsl
import urllib.request

from helpers import assert_one_line_error, run_cli
import numpy as np
import pytest

import slashersim
from slashersim.core.config import ConfigError, GameConfig
from slashersim.policies import SKILLS
from slashersim.serve.grid import (
    Grid,
    config_key,
    grid,
    health_curves,
)
from slashersim.serve.link import (
    LINK_KEYS,
    LinkCards,
    PageValues,
    default_setting,
    foreign_cards,
    link_query,
    parse_link,
    served_cards,
)
from slashersim.serve.settings import (
    CUSTOM,
    DEFAULTS,
    EXAMPLE_POSITION,
    Settings,
    check_port_free,
    difficulties,
    is_stale,
    luck_identity,
    parse_port,
    parse_position_text,
    parse_settings,
    player_label,
    preset_menu,
    preset_values,
    recognise,
    run_identity,
)

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "results" / "difficulty.parquet"
needs_table = pytest.mark.skipif(not TABLE.exists(), reason="results/difficulty.parquet is not "
                                                            "in this checkout")
try:
    import panel  # noqa: F401
    WEB = True
except ImportError:
    WEB = False
needs_web = pytest.mark.skipif(not WEB, reason="the web extra is not installed (pip install -e "
                                               "'.[web]')")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- the command's refusals ------------------------------------------------------------------

@pytest.mark.parametrize("text, needle", [("0", "port must be 1..65535, got 0"),
                                          ("abc", "port must be an integer 1..65535, got 'abc'"),
                                          ("70000", "port must be 1..65535, got 70000"),
                                          ("-5", "port must be 1..65535, got -5")])
def test_bad_ports_are_refused_in_one_line(text, needle):
    with pytest.raises(ConfigError, match="port must be"):
        parse_port(text)
    assert_one_line_error(run_cli("serve", "--port", text), needle)


def test_a_port_in_use_is_refused_in_one_line():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(ConfigError, match=f"port {port} is in use"):
            check_port_free(port)
        assert_one_line_error(run_cli("serve", "--port", str(port)), f"port {port} is in use")
    assert parse_port(" 8080 ") == 8080


def test_help_and_refusals_need_no_web_extra():
    """``--help`` and the refusals work without Panel; without it the command says how to
    install it, in one line, exit 2."""
    script = ("import sys; sys.modules['panel'] = sys.modules['bokeh'] = None; "
              "from slashersim.cli import main; sys.exit(main(sys.argv[1:]))")
    env = dict(os.environ, PYTHONPATH=str(ROOT))

    def run(*args):
        return subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                              text=True, env=env, cwd=ROOT)
    p = run("serve", "--help")
    assert p.returncode == 0 and "--port" in p.stdout
    assert_one_line_error(run("serve", "--port", "0"), "port must be 1..65535")
    assert_one_line_error(run("serve", "--port", str(free_port())),
                          "install slashersim[web]: pip install -e '.[web]'")


# --- the settings of the page ----------------------------------------------------------------

def test_settings_map_to_the_config_and_policy_of_the_api():
    s = parse_settings({"health": "5", "hideaway": True, "skill": "novice", "games": "2,000",
                        "seed": "3"})
    assert (s.health, s.hideaway, s.games, s.seed, s.policy) == (5, True, 2000, 3, "baseline")
    assert s.config() == GameConfig(health=5, hideaway=True)
    assert s.command() == ("slashersim simulate --edition rulebook --health 5 --hideaway "
                           "--cursed-object --escapes-needed 4 --traps 3 --skill novice "
                           "--games 2000 --seed 3")
    assert {level: parse_settings({"skill": level}).policy for level in SKILLS} == \
        {"novice": "baseline", "casual": "heuristic", "expert": "expert"}
    # the edition's defaults fill the knobs not given: the instructions play with the Hideaway
    assert parse_settings({"edition": "instructions"}).config().resolved() == \
        GameConfig(edition="instructions").resolved()


def test_a_preset_sets_the_knobs_and_an_explicit_knob_wins():
    from slashersim.core.presets import preset_knobs
    hard = preset_knobs("hard", "rulebook")
    s = parse_settings({"difficulty": "hard"})
    assert s.config() == GameConfig.from_dict({"difficulty": "hard"})
    assert preset_values("hard", "rulebook") == {k: hard[k] for k in preset_values(None,
                                                                                   "rulebook")}
    s = parse_settings({"difficulty": "hard", "health": 7})
    assert s.config() == GameConfig.from_dict({"difficulty": "hard", "health": 7})
    assert parse_settings({"difficulty": "custom"}).difficulty is None


@pytest.mark.parametrize("values, needle", [
    ({"games": "abc"}, "games must be an integer 1..10,000,000, got 'abc'"),
    ({"games": "0"}, "games must be an integer 1..10,000,000, got 0"),
    ({"games": "2.5"}, "games must be an integer"),
    ({"seed": "-1"}, "seed must be an integer 0 <= seed < 2**63, got '-1'"),
    ({"seed": str(2 ** 63)}, "seed must be an integer 0 <= seed < 2**63"),
    ({"health": 8}, "health must be an integer 1..7, got 8"),
    ({"traps": "many"}, "traps must be an integer 1..4"),
    ({"hideaway": "maybe"}, "hideaway must be in or out"),
    ({"skill": "godlike"}, "unknown skill level 'godlike'; expected one of: novice, casual, "
                           "expert"),
    ({"edition": "deluxe"}, "unknown edition 'deluxe'"),
    ({"difficulty": "insane"}, "unknown difficulty 'insane'"),
    ({"colour": "red"}, "unknown setting 'colour'"),
])
def test_malformed_values_are_refused_in_one_line(values, needle):
    with pytest.raises(ConfigError) as e:
        parse_settings(values)
    assert needle in str(e.value) and "\n" not in str(e.value)


# --- the default player and the preset menu -----------------------------------------------------

def test_the_page_speaks_for_the_expert_unless_told_otherwise():
    assert Settings().skill == "expert" and parse_settings({}).policy == "expert"
    assert PageValues().a["skill"] == PageValues().b["skill"] == "expert"
    assert PageValues().luck_skill == "expert"
    assert player_label("expert") == "expert (policy expert)"
    assert parse_settings({"skill": "novice"}).player == "novice (policy baseline)"


@pytest.mark.parametrize("edition", ["rulebook", "instructions"])
def test_the_menu_names_a_preset_and_the_edition_s_defaults(edition):
    assert preset_menu(edition) == [DEFAULTS, *difficulties(edition), CUSTOM]
    assert difficulties(edition) == ["easy", "normal", "hard", "nightmare"]
    assert recognise(edition, preset_values(None, edition)) == DEFAULTS
    for name in difficulties(edition):
        knobs = preset_values(name, edition)
        assert recognise(edition, knobs) == name
        assert recognise(edition, {**knobs, "health": knobs["health"] % 7 + 1}) == CUSTOM
    assert recognise(edition, {**preset_values(None, edition), "traps": 2}) == CUSTOM
    # the menu's labels are no presets: the settings are the edition's own or the knobs'
    assert parse_settings({"edition": edition, "difficulty": DEFAULTS}).config().resolved() == \
        GameConfig(edition=edition).resolved()
    assert parse_settings({"difficulty": CUSTOM}).difficulty is None


def test_a_setting_may_be_a_mixed_pair():
    s = parse_settings({"skill": "novice+expert", "games": "2000"})
    assert (s.skill, s.policy) == ("novice+expert", "baseline+expert")
    assert s.player == "novice (seat 0) + expert (seat 1) (policies baseline+expert)"
    assert "--skill novice+expert --games 2000" in s.command()
    assert parse_settings({"skill": "casual expert"}).skill == "casual+expert"
    assert parse_settings({"skill": "expert+expert"}).skill == "expert"
    for bad in ("novice+nobody", "novice+", "novice+casual+expert", "baseline+expert"):
        with pytest.raises(ConfigError, match=re.escape(
                f"unknown skill level {bad!r}; expected one of: novice, casual, expert, or a "
                "pair of them")):
            parse_settings({"skill": bad})
    page = PageValues(a={**default_setting(), "skill": "casual+novice"})
    query = link_query(page)
    assert query["skill"] == "casual+novice" and parse_link(query) == (page, [])


def test_a_live_run_of_a_mixed_pair_equals_simulate():
    from slashersim.serve.live import LiveRun
    s = parse_settings({"skill": "casual+novice", "games": 3000, "seed": 2})
    run = LiveRun(s).start()
    run.join()
    snap = run.snapshot()
    whole = slashersim.simulate(policy=("casual", "novice"), games=3000, seed=2)
    assert snap["finished"] and not snap["error"]
    assert np.array_equal(snap["a"].counts, whole.counts)


# --- the page's link ---------------------------------------------------------------------------

SHARED = PageValues(a={**default_setting("instructions"), "difficulty": "hard",
                       **preset_values("hard", "instructions"), "skill": "casual"},
                    b={**default_setting(), "health": 4, "difficulty": CUSTOM,
                       "skill": "novice"},
                    side_by_side=True, games="2,000", seed="5", luck_skill="novice",
                    playouts="3,000", luck_seed="9", position='{"round": 1}', tab="luck")


@pytest.mark.parametrize("page", [PageValues(), SHARED], ids=["defaults", "everything"])
def test_a_link_opens_the_page_it_was_made_of(page):
    query = link_query(page)
    assert list(query) == [k for k in LINK_KEYS if k in query]
    assert parse_link(query) == (page, [])
    assert link_query(parse_link(query)[0]) == query


def test_a_link_holds_every_setting_of_the_run():
    query = link_query(SHARED)
    assert query["games"] == "2000" and query["seed"] == "5" and query["skill"] == "casual"
    assert query["difficulty"] == "hard" and query["b_difficulty"] == CUSTOM
    assert query["hideaway"] == "in" and query["b_hideaway"] == "out"
    for key in ("edition", "health", "hideaway", "cursed_object", "escapes_needed", "traps",
                "side_by_side", "luck_skill", "playouts", "luck_seed", "tab"):
        assert key in query
    # B and the example position are left out while they play no part
    plain = link_query(PageValues())
    assert not any(k.startswith("b_") for k in plain) and "position" not in plain
    assert plain["side_by_side"] == "off" and plain["skill"] == "expert"
    # a hand-written link: a preset alone sets its knobs; a knob given wins over it
    page, errors = parse_link({"edition": "rulebook", "difficulty": "hard", "games": "2000"})
    assert errors == [] and page.a == {"edition": "rulebook", "difficulty": "hard",
                                       **preset_values("hard", "rulebook"), "skill": "expert"}
    page, _ = parse_link({"difficulty": "hard", "health": "6"})
    assert page.a["health"] == 6 and page.a["difficulty"] == CUSTOM
    assert parse_link({"difficulty": "hard", "health": "7"})[0].a["difficulty"] == "normal"
    assert parse_link({"health": "3", "traps": "1"})[0].a["difficulty"] == "hard"


def _typed(values):
    with pytest.raises(ConfigError) as e:
        parse_settings(values)
    return str(e.value)


@pytest.mark.parametrize("query, tab, refusal, kept", [
    ({"games": "abc"}, "difficulty", _typed({"games": "abc"}), ("games", "abc")),
    ({"games": "0"}, "difficulty", _typed({"games": "0"}), ("games", "0")),
    ({"seed": "-1"}, "difficulty", _typed({"seed": "-1"}), ("seed", "-1")),
    ({"health": "abc"}, "difficulty", "health must be an integer 1..7, got 'abc'", None),
    ({"health": "9"}, "difficulty", "health must be an integer 1..7, got 9", None),
    ({"hideaway": "maybe"}, "difficulty", "hideaway must be in or out, got 'maybe'", None),
    ({"skill": "godlike"}, "difficulty", "unknown skill level 'godlike'; expected one of: "
                                         "novice, casual, expert", None),
    ({"edition": "deluxe"}, "difficulty", "unknown edition 'deluxe'", None),
    ({"difficulty": "insane"}, "difficulty", "unknown difficulty 'insane'; expected one of: "
                                             "easy, normal, hard, nightmare", None),
    ({"b_traps": "9", "side_by_side": "on"}, "difficulty", "traps must be an integer 1..4", None),
    ({"side_by_side": "maybe"}, "difficulty", "side_by_side must be on or off, got 'maybe'",
     None),
    ({"colour": "red"}, "difficulty", "unknown setting 'colour' in the link; expected one of: "
                                      "edition, difficulty", None),
    ({"tab": "stats"}, "difficulty", "tab must be one of: difficulty, luck; got 'stats'", None),
    ({"luck_skill": "pro"}, "luck", "unknown skill level 'pro'", None),
    ({"playouts": "lots"}, "luck", "play-outs must be an integer 1..1,000,000, got 'lots'",
     ("playouts", "lots")),
    ({"position": '{"round": 1,'}, "luck", "the position is not valid JSON",
     ("position", '{"round": 1,')),
    ({"cards": "bog.toml"}, "cards", "the card file 'bog.toml' needs cards_sha256, the SHA-256 "
                                     "of its content (64 hex digits)",
     ("cards", LinkCards("bog.toml"))),
    ({"cards": "bog.toml", "cards_sha256": "55e6d4"}, "cards",
     "cards_sha256 must be the 64 hex digits of the card file's SHA-256, got '55e6d4'",
     ("cards", LinkCards("bog.toml", "55e6d4"))),
    ({"cards_sha256": "0" * 64}, "cards", "cards_sha256 names a card file's content, and cards "
                                          "(the file's name) is missing", None),
    ({"cards": "cards/bog.toml", "cards_sha256": "0" * 64}, "cards",
     "cards must be a card file's name (no folder) or printed, got 'cards/bog.toml'", None),
    ({"cards": "printed", "cards_sha256": "0" * 64}, "cards",
     "cards=printed takes no cards_sha256, got '000", None),
])
def test_a_link_s_bad_value_is_refused_as_if_typed(query, tab, refusal, kept):
    """The page's own one-line refusal; a text box keeps the text as given (as typed), any
    other widget its default; the rest of the link still applies."""
    page, errors = parse_link({**query, "seed": query.get("seed", "4")})
    assert len(errors) == 1 and errors[0][0] == tab and refusal in errors[0][1]
    assert "\n" not in errors[0][1]
    if kept is not None:
        assert getattr(page, kept[0]) == kept[1]
    else:
        assert page.a == PageValues().a and page.luck_skill == "expert"
    if "seed" not in query:
        assert page.seed == "4"


# --- whether a shown answer is stale -------------------------------------------------------------

def test_an_answer_is_stale_once_its_games_change():
    shown = run_identity(parse_settings({"difficulty": "hard", "games": 2000, "seed": 1}))
    same = parse_settings({**preset_values("hard", "rulebook"), "games": "2,000", "seed": 1})
    assert not is_stale(shown, run_identity(same))     # the preset's name or its knobs
    assert not is_stale(None, None)                      # nothing shown
    for change in ({"games": 2001}, {"seed": 2}, {"skill": "casual"}, {"health": 4},
                   {"edition": "instructions"}):
        other = parse_settings({"difficulty": "hard", "games": 2000, "seed": 1, **change})
        assert is_stale(shown, run_identity(other)), change
    assert is_stale(shown, None)                         # a value now refused
    assert is_stale(shown, run_identity(same, same))     # setting B shown beside it
    key = luck_identity(EXAMPLE_POSITION, "expert", "2,000", "0")
    assert key == luck_identity(" " + EXAMPLE_POSITION.replace("\n", " "), "expert", 2000, 0)
    assert key != luck_identity(EXAMPLE_POSITION, "novice", 2000, 0)
    assert key != luck_identity(EXAMPLE_POSITION, "expert", 2000, 1)
    assert luck_identity("{", "expert", 2000, 0) is None
    assert luck_identity(EXAMPLE_POSITION, "expert", "0", 0) is None


# --- the precomputed grid ---------------------------------------------------------------------

@needs_table
def test_the_grid_answers_its_cells_at_once():
    from slashersim.runner.tables import load_table
    df = load_table(TABLE)
    g = grid()
    assert isinstance(g, Grid)
    assert sum(a.source == "results/difficulty.parquet" for a in g.rows.values()) == len(df)
    row = df[(df.edition == "rulebook") & (df.health == 5) & df.hideaway & df.cursed_object
             & (df.policy == "baseline")].iloc[0]
    answer = g.lookup(parse_settings({"health": 5, "hideaway": True, "skill": "novice"}))
    assert (answer.games, answer.wins, answer.seed) == (row.games, row.wins, 7)
    assert answer.win_rate == row.win_rate and answer.label() == \
        f"precomputed: {row.games:,} games, seed 7"
    expert = g.lookup(parse_settings({"edition": "instructions", "health": 3,
                                      "skill": "expert"}))
    assert expert.games == 1_000_000
    # outside the grid: other escapes or traps
    assert g.lookup(parse_settings({"escapes_needed": 3})) is None
    assert g.lookup(parse_settings({"traps": 2})) is None
    # a preset whose knobs are a cell of the grid is answered as that cell
    s = parse_settings({"difficulty": "hard", "escapes_needed": 4, "traps": 3})
    assert g.lookup(s) == g.lookup(parse_settings({**preset_values("hard", "rulebook"),
                                                   "escapes_needed": 4, "traps": 3}))
    assert config_key(GameConfig(edition="instructions")) == \
        config_key(GameConfig(edition="instructions", hideaway=True))


@pytest.fixture(scope="module")
def presets_table(tmp_path_factory):
    """``experiments/presets_study.toml`` swept at 2,000 games a cell into a temporary table
    (the committed one is made at 1,000,000)."""
    tmp = tmp_path_factory.mktemp("presets")
    spec = (ROOT / "experiments" / "presets_study.toml").read_text()
    assert "\ngames = 1000000\n" in spec
    (tmp / "presets_study.toml").write_text(spec.replace("\ngames = 1000000\n",
                                                         "\ngames = 2000\n"))
    out = tmp / "presets_study.parquet"
    p = run_cli("sweep", str(tmp / "presets_study.toml"), "--out", str(out))
    assert p.returncode == 0, p.stderr
    return out


def test_the_grid_answers_a_preset_from_the_presets_table(presets_table):
    """Matched on the resolved rules: the table's axis is ``difficulty``, the page's setting
    the preset's name or its knobs by hand, and every one is answered."""
    from slashersim.runner.tables import load_table
    df = load_table(presets_table)
    g = Grid(presets_table)
    assert g.covers() == "presets_study.parquet (edition × difficulty)"
    assert len(df) == 2 * 4 * 3
    for row in df.itertuples():
        skill = next(k for k, v in SKILLS.items() if v == row.policy)
        by_name = parse_settings({"edition": row.edition, "difficulty": row.difficulty,
                                  "skill": skill})
        by_hand = parse_settings({"edition": row.edition, "skill": skill,
                                  **preset_values(row.difficulty, row.edition)})
        for s in (by_name, by_hand):
            answer = g.lookup(s)
            assert answer is not None, (row.edition, row.difficulty, skill)
            assert (answer.games, answer.wins, answer.seed) == (2000, row.wins, 7)
            assert answer.win_ci == (row.win_ci_low, row.win_ci_high)
            assert answer.source == "presets_study.parquet"
    assert g.lookup(parse_settings({"difficulty": "hard", "health": 6})) is None


@needs_table
def test_the_grid_reads_both_tables_the_committed_one_first(presets_table):
    g = grid((TABLE, presets_table))
    assert g.covers() == ("results/difficulty.parquet (edition × health × hideaway × "
                          "cursed_object); presets_study.parquet (edition × difficulty)")
    hard = g.lookup(parse_settings({"difficulty": "hard"}))
    assert hard.source == "presets_study.parquet" and hard.games == 2000
    cell = g.lookup(parse_settings({"health": 5}))
    assert cell.source == "results/difficulty.parquet" and cell.games == 1_000_000
    assert grid((ROOT / "results" / "missing.parquet",)) is None


@needs_table
@pytest.mark.parametrize("edition", ["rulebook", "instructions"])
@pytest.mark.parametrize("hideaway, cursed_object", [(False, True), (True, False)])
def test_the_health_figure_is_the_committed_grid_s_rows(edition, hideaway, cursed_object):
    from slashersim.runner.tables import load_table
    df = load_table(TABLE)
    curves = health_curves(grid((TABLE,)), edition, hideaway, cursed_object)
    for skill, policy in SKILLS.items():
        rows = df[(df.edition == edition) & (df.hideaway == hideaway)
                  & (df.cursed_object == cursed_object) & (df.policy == policy)]
        rows = rows.sort_values("health")
        assert curves.points[skill] == list(zip(rows.health, rows.win_rate, rows.win_ci_low,
                                                rows.win_ci_high))
        assert [h for h, *_ in curves.points[skill]] == list(range(1, 8))
    areas = (f"Hideaway {'in' if hideaway else 'out'}, Cursed Object "
             f"{'in' if cursed_object else 'out'}")
    assert curves.title == f"Win rate by starting health: {edition}, {areas}"
    assert edition in curves.x_label and areas in curves.x_label
    prov = df.attrs["slashersim"]
    assert curves.caption.startswith(f"From results/difficulty.parquet: seed {prov['seed']}, "
                                     f"{prov['games']:,} games per cell. ")


# --- a position typed as JSON -----------------------------------------------------------------

def test_the_example_position_is_experiments_state_example():
    assert json.loads(EXAMPLE_POSITION) == \
        json.loads((ROOT / "experiments" / "state_example.json").read_text())
    from slashersim.analysis.position import load_position
    a, b = parse_position_text(EXAMPLE_POSITION), load_position(ROOT / "experiments" /
                                                                "state_example.json")
    assert a.config == b.config and (a.state == b.state).all() and (a.known == b.known).all()


@pytest.mark.parametrize("text, needle", [
    ("", "the position is empty"),
    ('{"round": 3,', "the position is not valid JSON"),
    ("[1, 2]", "a state must be a JSON object"),
    ('{"round": 1, "traps": 2}', "traps 2 in round 1"),
    ('{"colour": 1}', "unknown state key 'colour'"),
])
def test_bad_positions_are_refused_in_one_line(text, needle):
    with pytest.raises(ConfigError) as e:
        parse_position_text(text)
    assert needle in str(e.value) and "\n" not in str(e.value)


# --- the live runs behind the page (these play games) -----------------------------------------

def test_a_live_run_in_parts_equals_simulate():
    """Chunks of growing size, numbers refining, then exactly ``slashersim simulate``."""
    from slashersim.serve.live import LiveRun
    s = parse_settings({"health": 5, "hideaway": True, "skill": "novice", "games": 30_000,
                        "seed": 3})
    run = LiveRun(s).start()
    run.join()
    snap = run.snapshot()
    whole = slashersim.simulate(health=5, hideaway=True, policy="baseline", games=30_000,
                                seed=3)
    assert snap["finished"] and not snap["error"] and snap["done"] == 30_000
    assert np.array_equal(snap["a"].counts, whole.counts)
    assert f"{snap['a'].win_rate:.4f}" == f"{whole.win_rate:.4f}"
    assert run.chunks >= 3     # played in growing parts (1, 16, 256, ...)


def test_simulate_in_parts_adds_up_to_the_whole_run():
    whole = slashersim.simulate(health=6, games=3000, seed=9)
    parts = [slashersim.simulate(health=6, games=n, seed=9, first_game=k)
             for k, n in ((0, 700), (700, 1800), (2500, 500))]
    assert np.array_equal(sum(p.counts for p in parts), whole.counts)
    with pytest.raises(ConfigError, match="first_game must be an integer"):
        slashersim.simulate(games=10, first_game=-1)
    with pytest.raises(ConfigError, match="go past 2"):
        slashersim.simulate(games=10, first_game=2 ** 63 - 5)


def test_two_settings_side_by_side_are_compare_on_the_same_games():
    """Setting B plays A's games: the paired difference is ``slashersim compare``'s when the
    two settings differ by the player only."""
    from slashersim.serve.live import LiveRun
    a = parse_settings({"skill": "novice", "games": 4000, "seed": 2})
    b = parse_settings({"skill": "casual", "games": 4000, "seed": 2})
    run = LiveRun(a, b).start()
    assert run.join(300)
    snap = run.snapshot()
    pair = slashersim.compare(policies=("baseline", "heuristic"), games=4000,
                              seed=2).pair("baseline", "heuristic")
    for key in ("games", "win_rate_a", "win_rate_b", "difference", "only_a_won",
                "only_b_won"):
        assert snap["pair"][key] == pair[key], key
    assert snap["pair"]["difference_ci"] == pytest.approx(pair["difference_ci"])
    assert snap["b"].win_rate == pair["win_rate_b"]


def test_two_runs_at_once_get_their_own_answers():
    """Two threads (two browsers) playing at once: the kernel lock lets their calls take
    turns, and each gets exactly its own games."""
    from slashersim.serve.live import LiveRun
    one = parse_settings({"health": 7, "skill": "novice", "games": 60_000, "seed": 11})
    two = parse_settings({"health": 2, "skill": "novice", "games": 60_000, "seed": 12})
    runs = [LiveRun(one).start(), LiveRun(two).start()]
    assert all(r.join(300) for r in runs)
    for run, s in zip(runs, (one, two)):
        expected = slashersim.simulate(health=s.health, policy=s.policy, games=s.games, seed=s.seed)
        assert np.array_equal(run.snapshot()["a"].counts, expected.counts)


def test_a_run_stops_when_cancelled():
    from slashersim.serve.live import LiveRun
    run = LiveRun(parse_settings({"skill": "novice", "games": 10_000_000})).start()
    time.sleep(0.5)
    run.cancel()
    assert run.join(10)
    snap = run.snapshot()
    assert snap["cancelled"] and snap["finished"] and snap["done"] < 10_000_000
    assert snap["error"] is None


def test_the_luck_run_is_luck_state():
    from slashersim.analysis.playouts import win_probability
    from slashersim.serve.live import LuckRun
    position = parse_position_text(EXAMPLE_POSITION)
    run = LuckRun(position, "novice", 3000, 4).start()
    assert run.join(600) and run.error is None
    assert run.result == win_probability(position, "baseline", 3000, 4)
    assert run.done == 3000


# --- the page, built in this process (no browser) -----------------------------------------------

def explorer(search="", tables=(TABLE,), cards=None):
    """A page as a browser session gets it (of a server playing the card file ``cards``), its
    link ``search``; the link as it stands."""
    from panel.io.location import Location

    from slashersim.serve.app import Explorer
    location = Location(search=search)
    return Explorer(tables=tables, location=location, cards=cards), location


@needs_web
def test_the_page_opens_a_link_and_keeps_its_link_up_to_date(presets_table):
    e, location = explorer("?edition=instructions&difficulty=hard&skill=casual&games=2000"
                           "&seed=5", (TABLE, presets_table))
    a = e.a
    assert (a.edition.value, a.difficulty.value, a.skill.value) == ("instructions", "hard",
                                                                    "casual")
    assert a.values_of_knobs() == preset_values("hard", "instructions")
    assert (e.games.value, e.seed.value) == ("2,000", "5")
    s, b = e.settings()
    assert b is None and (s.config(), s.policy, s.games, s.seed) == \
        (GameConfig.from_dict({"edition": "instructions", "difficulty": "hard"}), "heuristic",
         2000, 5)
    assert not e.message.visible
    # the preset is answered by the grid, its player named first
    assert "<span class='grid-player-a'>casual (policy heuristic)</span>: win rate" in \
        e.precomputed.object and "presets_study.parquet" in e.precomputed.object
    e.seed.value = "6"
    assert parse_link(dict(parse_qsl(location.search[1:]))) == (e.page_values(), [])
    assert "seed=6" in location.search and "difficulty=hard" in location.search
    a.partner.value = "expert"
    s, _ = e.settings()
    assert (s.skill, s.policy) == ("casual+expert", "heuristic+expert")
    assert parse_link(dict(parse_qsl(location.search[1:]))) == (e.page_values(), [])
    a.partner.value = "same"
    health = a.health.value
    a.health.value = health % 7 + 1
    assert a.difficulty.value == CUSTOM and "difficulty=custom" in location.search
    a.health.value = health
    assert a.difficulty.value == "hard"
    a.difficulty.value = DEFAULTS
    assert a.values_of_knobs() == preset_values(None, "instructions")
    a.edition.value = "rulebook"
    assert a.values_of_knobs() == preset_values(None, "rulebook") and \
        a.difficulty.value == DEFAULTS
    e.tabs.active = 1
    assert location.search.endswith("&tab=luck")
    # without the presets' table, a preset is outside the grid, and the page says why
    e, _ = explorer("?difficulty=hard", (TABLE,))
    assert "not in the precomputed grid" in e.precomputed.object
    assert "the presets are answered once results/presets_study.parquet is made" in \
        e.precomputed.object


@needs_web
def test_a_bad_link_is_refused_in_the_page_s_words():
    e, location = explorer("?games=abc&health=9&playouts=0")
    assert e.message.visible and e.message.object.count("error-text") == 2
    assert "games must be an integer 1..10,000,000, got &#x27;abc&#x27;" in e.message.object
    assert "health must be an integer 1..7, got 9" in e.message.object
    assert "play-outs must be an integer 1..1,000,000, got 0" in e.luck_message.object
    assert e.status.object == "Nothing played: fix the value above."
    assert e.games.value == "abc" and e.a.health.value == 7
    assert location.search == "?games=abc&health=9&playouts=0"
    e.write_link()           # once loaded (pn.state.onload), the link says what is on screen
    assert "health=7" in location.search and "games=abc" in location.search


@needs_web
def test_a_refusal_hides_the_bar_and_a_change_marks_the_run_stale():
    e, _ = explorer("?skill=novice&games=300&seed=2")
    assert not e.progress.visible and not e.stale.visible
    e.start()
    assert e.run.join(300)
    e.show_run(e.run.snapshot())
    assert e.progress.visible and e.progress.value == 100
    assert e.results.object.startswith("<p class='player'>A: novice (policy baseline)</p>")
    assert not e.stale.visible and "is-stale" not in e.output.css_classes
    e.seed.value = "3"
    assert e.stale.visible and "is-stale" in e.output.css_classes and e.output.styles
    e.seed.value = "2"                      # back to the run's settings: its answer again
    assert not e.stale.visible and not e.output.styles
    e.games.value = "abc"
    assert e.stale.visible
    e.start()
    assert not e.progress.visible and e.progress.value == 0 and e.run is None
    assert e.status.object == "Nothing played: fix the value above."
    e.games.value = "300"
    e.a.skill.value = "casual"
    assert e.stale.visible
    e.start()                                # running again clears the mark
    assert not e.stale.visible and e.results.object == ""
    e.stop()
    e.run.join(300)


@needs_web
def test_the_luck_answer_names_its_player_and_goes_stale():
    e, location = explorer("?tab=luck&luck_skill=novice&playouts=300&luck_seed=4")
    assert e.tabs.active == 1 and e.luck_skill.value == "novice"
    e.start_luck()
    assert e.luck_run.join(600)
    e.show_luck()
    assert e.luck_result.object.startswith("<p class='luck-player'>novice (policy baseline)"
                                           "</p><span class='luck-state'>done</span>")
    assert not e.luck_stale.visible
    e.playouts.value = "301"
    assert e.luck_stale.visible and "is-stale" in e.luck_output.css_classes
    assert "playouts=301" in location.search
    e.playouts.value = "300"
    assert not e.luck_stale.visible


@needs_web
def test_the_health_figure_follows_setting_a_s_areas():
    e, _ = explorer()
    src = e.health_src["expert"]
    curves = health_curves(grid((TABLE,)), "rulebook", False, True)
    assert list(src.data["value"]) == [p[1] for p in curves.points["expert"]]
    assert e.health_fig.title.text == curves.title
    assert curves.caption in html_unescape(e.health_caption.object)
    e.a.hideaway.value = True
    curves = health_curves(grid((TABLE,)), "rulebook", True, True)
    assert list(src.data["low"]) == [p[2] for p in curves.points["expert"]]
    assert "Hideaway in" in e.health_fig.title.text
    legend = [item.label["value"] for item in e.health_fig.legend[0].items]
    assert legend == [player_label(k) for k in SKILLS]


def html_unescape(text):
    import html
    return html.unescape(text)


@needs_web
def test_ctrl_c_stops_the_server():
    import signal
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "slashersim", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).close()
            break
        except OSError:
            time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 130 and "Traceback" not in err
    assert err.splitlines()[0] == (f"slashersim: the difficulty explorer is at "
                                   f"http://localhost:{port}/ (Ctrl-C stops it)")
    assert err.splitlines()[-1] == "slashersim: interrupted"


# --- a page started with a card file --------------------------------------------------------------

BOG = ROOT / "examples" / "bog.toml"


def test_settings_under_a_card_file_play_it_and_say_so():
    s = parse_settings({"skill": "novice", "games": "100", "cards": str(BOG)})
    assert s.config().resolved() == GameConfig(cards=str(BOG)).resolved()
    assert s.command().startswith(f"slashersim simulate --edition rulebook --cards {BOG} ")
    assert s.describe().startswith("CHANGED CARDS bog.toml (sha256 ")


def test_the_luck_tab_plays_a_position_under_the_card_file():
    from slashersim.serve.settings import check_luck
    text = (ROOT / "experiments" / "state_example.json").read_text()
    position, _, _ = check_luck(text, "100", "1", str(BOG))
    assert position.config.resolved()["cards"] == str(BOG)
    printed, _, _ = check_luck(text, "100", "1")
    assert printed.config.resolved()["cards"] is None


def test_serve_refuses_a_bad_card_file_in_one_line(tmp_path):
    assert_one_line_error(run_cli("serve", "--cards", str(tmp_path / "none.toml")),
                          "none.toml")


@needs_web
def test_the_page_under_a_card_file_names_it_and_answers_nothing_from_the_grid():
    from slashersim.serve.app import Explorer
    e = Explorer(tables=(TABLE,), location=None, cards=str(BOG))
    assert e.grid is None
    a, _ = e.settings()
    assert a.config().resolved()["cards"] == str(BOG)
    assert "CHANGED CARDS bog.toml" in e.layout()[1].object
    e.show_precomputed()
    assert "no precomputed answer under changed cards" in e.precomputed.object
    e.show_health()
    assert "not these changed cards" in e.health_caption.object


@needs_web
def test_the_health_caption_says_when_setting_a_is_not_the_curves_rules():
    e, _ = explorer("?edition=instructions&difficulty=hard")
    t = e.a.traps.value
    own = GameConfig(edition="instructions").resolved()["traps"]
    text = html_unescape(e.health_caption.object)
    assert (f"Setting A has {t} trap" in text) == (t != own)
    e.a.traps.value = own
    assert "Setting A has" not in html_unescape(e.health_caption.object) or \
        "escape" in html_unescape(e.health_caption.object)


# --- a link names the cards it answers for --------------------------------------------------------

BOG_SHA = hashlib.sha256(BOG.read_bytes()).hexdigest()


def test_a_link_names_its_cards_and_an_old_link_is_for_the_printed_ones():
    assert served_cards(None) == LinkCards("printed", None)
    assert served_cards(str(BOG)) == LinkCards("bog.toml", BOG_SHA)     # no folder in a link
    printed = link_query(PageValues())
    assert printed["cards"] == "printed" and "cards_sha256" not in printed
    page = PageValues(cards=served_cards(str(BOG)))
    query = link_query(page)
    assert (query["cards"], query["cards_sha256"]) == ("bog.toml", BOG_SHA)
    assert list(query)[-3:] == ["cards", "cards_sha256", "tab"]
    assert parse_link(query) == (page, [])
    assert parse_link({**query, "cards_sha256": BOG_SHA.upper()}) == (page, [])
    assert parse_link({"seed": "3"})[0].cards == LinkCards()           # made before the cards
    assert parse_link({"cards": "printed"})[0].cards == LinkCards()


def test_a_link_for_other_cards_says_which_and_how_to_serve_them(tmp_path):
    bog = served_cards(str(BOG))
    printed = LinkCards()
    (tmp_path / "renamed.toml").write_bytes(BOG.read_bytes())
    assert foreign_cards(bog, served_cards(str(tmp_path / "renamed.toml"))) is None
    assert foreign_cards(printed, printed) is None and foreign_cards(bog, bog) is None
    head = BOG_SHA[:12]
    assert foreign_cards(bog, printed) == (
        f"This link was made for the card file bog.toml (sha256 {head}), but this server plays "
        f"the printed cards, so the page answers nothing for it. Open the page without the link "
        f"for the cards served here, or serve the link's cards: slashersim serve --cards "
        f"bog.toml")
    assert foreign_cards(printed, bog) == (
        f"This link was made for the printed cards, but this server plays the card file "
        f"bog.toml (sha256 {head}), so the page answers nothing for it. Open the page without "
        f"the link for the cards served here, or serve the link's cards: slashersim serve "
        f"(without --cards)")
    assert "\ndraw_reduction = 1\n" in BOG.read_text()
    (tmp_path / "bog.toml").write_text(BOG.read_text().replace("\ndraw_reduction = 1\n",
                                                               "\ndraw_reduction = 2\n"))
    other = served_cards(str(tmp_path / "bog.toml"))
    assert other.name == "bog.toml" and other.sha256 != BOG_SHA
    line = foreign_cards(bog, other)
    assert line.startswith(f"This link was made for the card file bog.toml (sha256 {head}), "
                           f"but this server plays the card file bog.toml (sha256 "
                           f"{other.sha256[:12]}), the same file name with other content, so")
    assert line.endswith("serve the link's cards: slashersim serve --cards bog.toml")
    assert foreign_cards(LinkCards("my cards.toml", BOG_SHA[::-1]), printed).endswith(
        "slashersim serve --cards 'my cards.toml'")
    assert foreign_cards(LinkCards("bog.toml", "55e6d4"), printed) == (
        "This link's cards are unreadable (cards_sha256 must be the 64 hex digits of the card "
        "file's SHA-256, got '55e6d4'), so the page answers nothing for it. Open the page "
        "without the link for the cards served here, the printed cards.")


@needs_web
def test_a_card_page_s_link_opened_without_its_cards_answers_nothing():
    card_page, card_link = explorer(cards=str(BOG))
    card_page.write_link()
    assert f"&cards=bog.toml&cards_sha256={BOG_SHA}&" in card_link.search
    assert not card_page.foreign_pane.visible
    again, _ = explorer(card_link.search, cards=str(BOG))            # its own server: as made
    assert again.foreign is None and not again.foreign_pane.visible
    e, location = explorer(card_link.search)                          # a printed-cards server
    assert e.foreign_pane.visible
    assert e.foreign_pane.object == f"<p class='error-text'>{html_escape(e.foreign)}</p>"
    assert e.foreign.startswith(f"This link was made for the card file bog.toml (sha256 "
                                f"{BOG_SHA[:12]}), but this server plays the printed cards")
    assert e.precomputed.object == "" and e.grid is not None
    assert all(len(src.data["value"]) == 0 for src in e.health_src.values())
    assert "Nothing answered here" in e.health_caption.object
    e.a.health.value = 5                                  # no answer for any setting, and the
    assert e.precomputed.object == ""                     # link keeps the cards it was made for
    assert f"&cards=bog.toml&cards_sha256={BOG_SHA}&" in location.search
    assert "health=5" in location.search
    e.start()
    e.start_luck()
    assert e.run is None and e.luck_run is None
    assert "Nothing answered here" in e.status.object and \
        "Nothing answered here" in e.luck_result.object
    # the printed page's link on the card server: it says so too
    printed, printed_link = explorer()
    printed.write_link()
    assert "&cards=printed&" in printed_link.search
    e, _ = explorer(printed_link.search, cards=str(BOG))
    assert e.foreign.startswith("This link was made for the printed cards, but this server "
                                "plays the card file bog.toml")
    e, _ = explorer("?edition=instructions", cards=str(BOG))       # an old link: printed
    assert e.foreign.startswith("This link was made for the printed cards")


def html_escape(text):
    import html
    return html.escape(text)


@needs_web
def test_why_shows_luck_and_play_when_asked():
    """With luck and play asked for, the section shows each source's mean and share (and a
    dash where a subset's games all ended the same)."""
    from slashersim.serve.why_panel import _why_html
    sources = [{"source": "start", "mean": 0.74, "share": 0.01, "low": -0.02, "high": 0.03},
               {"source": "luck: deal", "mean": 0.1, "share": None, "low": None,
                "high": None}]
    s = {"games": 3, "seed": 3, "profile": [], "decisions": [], "hazard_by_round": [],
         "equity": {"sources": sources, "choose": 1, "estimate": 2, "astray": 0}}
    shown = _why_html(s)
    assert "luck and play (the future unknown)" in shown
    assert "<td>start</td><td>+0.7400</td><td>0.0100</td><td>[-0.0200, 0.0300]</td>" in shown
    assert "<td>luck: deal</td><td>+0.1000</td><td>-</td><td>-</td>" in shown


def test_why_games_are_lost_answers_as_the_command_and_goes_stale():
    """The page's "why games are lost" walks back setting A's first games as ``slashersim
    why`` does (the same profile), keeps its games in the link and goes stale when setting A
    changes; a refused count answers nothing."""
    from slashersim import why
    e, location = explorer("?skill=novice&seed=3&why_games=6")
    assert e.why.games.value == "6"
    e.why.start()
    assert e.why.run.join(600)
    e.why.show()
    shown = e.why.result.object
    assert shown.startswith("<p class='why-player'>novice (policy baseline)</p><span "
                            "class='why-state'>done</span>: 6 games, seed 3")
    profile = why(policy="novice", games=6, seed=3, workers=1).profile()
    for r in profile.itertuples():
        assert f"<td>{r.games:,}</td><td>{r.share:.4f}</td>" in shown
    assert "point of no return" in shown and not e.why.stale.visible
    e.why.equity.value = True
    assert e.why.stale.visible
    e.why.equity.value = False
    assert not e.why.stale.visible
    e.a.skill.value = "casual"
    assert e.why.stale.visible and "why_games=6" in location.search
    e.why.games.value = "0"
    e.why.start()
    assert e.why.result.object == "No answer: fix the value above."
    assert "games to walk back" in e.why.message.object
