"""The exact solver: its winning lines win through the engine, and its answers agree with an
exhaustive search written apart from it (tests/solver_check.py)."""
import json

import numpy as np
import pytest
from solver_check import exhaustive, position

from slashersim import GameConfig
from slashersim.analysis import winnable as W
from slashersim.core import layout as L
from slashersim.core.rules import (
    BASEBALL_BAT,
    BOLT_CUTTERS,
    CAR_KEY,
    FIRE_PIT,
    FIRST_AID_LARGE,
    FIRST_AID_SMALL,
    GASOLINE,
    KILLER,
    MAP,
    MAX_ITEM_IDS,
    OUTCOME_NAMES,
    WIN,
)


@pytest.mark.parametrize("players", [(), W.FIRST_TRIES], ids=["search", "first-tries"])
@pytest.mark.parametrize("edition, game", [("rulebook", 3), ("rulebook", 6),
                                           ("instructions", 1)])
def test_a_winning_line_wins_through_the_engine(edition, game, players):
    cfg = GameConfig(edition=edition).to_array()
    solution = W.solve_game(cfg, 2026, game, seconds=120, players=players)
    assert solution.answer == W.WINNABLE
    assert W.replay_line(cfg, 2026, game, solution.line)[L.S_OUTCOME] == WIN
    spoiled = [W.Round(r.start, r.cards, [-1] * len(r.items), r.windows)
               for r in solution.line]
    assert W.replay_line(cfg, 2026, game, spoiled)[L.S_OUTCOME] != WIN


@pytest.mark.parametrize("game, windows", [(15, False), (29, True)])
def test_a_line_searched_then_played_on_replays_window_d_from_its_played_rounds(game, windows):
    """Instructions games 15 and 29: the search's first rounds (window (d) passed), then a
    registered player's (window (d) answered as it did). Each wins only when each part is
    replayed its way: game 15 loses with window (d) passed throughout, game 29 with it
    answered throughout."""
    cfg = GameConfig(edition="instructions").to_array()
    solution = W.solve_game(cfg, 2026, game, seconds=120)
    played = [r.windows for r in solution.line]
    assert solution.player in W.FIRST_TRIES and not played[0] and played[-1]
    assert W.replay_line(cfg, 2026, game, solution.line)[L.S_OUTCOME] == WIN
    one_way = [W.Round(r.start, r.cards, r.items, windows) for r in solution.line]
    assert W.replay_line(cfg, 2026, game, one_way)[L.S_OUTCOME] != WIN


def test_a_recorded_player_plays_as_it_does_unrecorded():
    """The recorder writes the expert's answers and changes none: its games end as the
    runner's do, and its answers replayed by the scripted player end the same way."""
    from slashersim.runner import simulate
    from slashersim.runner.recorded import play_recorded
    config = GameConfig(edition="instructions")
    outcomes = simulate(config, policy="expert", games=6, seed=2026,
                        keep_records=True).records["outcome"].tolist()
    for game in range(6):
        end, rows = play_recorded("expert", W.start_state(config.to_array(), 2026, game))
        assert OUTCOME_NAMES[end[L.S_OUTCOME]] == outcomes[game]
        replayed = W.replay_line(config.to_array(), 2026, game, W._played_rounds(rows))
        for field in (L.S_OUTCOME, L.S_ROUND, L.S_HEALTH, L.S_HEALTH + 1, L.S_TRAPS):
            assert replayed[field] == end[field]


#: hand-built last rounds: rules, items held (player 0 the even places), the area
CASES = [
    (dict(health=1, traps=1, escapes_needed=1), ("flashlight", "backpack"), None),
    (dict(health=2, traps=2, escapes_needed=2),
     ("map", "lucky_charm", "first_aid_small", "walkie_talkie"), None),
    (dict(edition="instructions", health=1, traps=1, escapes_needed=1),
     ("first_aid_large", "flashlight", "lucky_charm"), None),
    (dict(health=1, traps=2, escapes_needed=2), ("map", "backpack"), FIRE_PIT),
    (dict(health=2, traps=2, escapes_needed=2), ("first_aid_small", "car_key"), FIRE_PIT),
    (dict(health=1, traps=1, escapes_needed=1, before_draw_items="both_players"),
     ("flashlight", "backpack"), None),
    (dict(health=2, traps=2, escapes_needed=2, before_draw_items="both_players"),
     ("map", "lucky_charm", "first_aid_small", "walkie_talkie"), None),
]


@pytest.mark.parametrize("config, items, area", CASES)
def test_the_solver_agrees_with_an_exhaustive_search(config, items, area):
    answers = []
    for game in range(8):
        pos = position(config, 11, game, 3, items, area)
        if pos is None:
            continue
        expected = exhaustive(pos)
        if expected is None:
            continue
        solution = W.solve_state(pos, seconds=60, in_play=True)
        assert solution.answer == (W.WINNABLE if expected else W.UNWINNABLE), game
        if expected:
            assert W.replay_from(pos, solution.line)[L.S_OUTCOME] == WIN
        answers.append(expected)
    assert len(answers) >= 4


def test_both_answers_occur_among_the_checked_positions():
    found = set()
    for config, items, area in CASES[:2]:
        for game in range(8):
            pos = position(config, 11, game, 3, items, area)
            if pos is not None:
                found.add(W.solve_state(pos, seconds=60, in_play=True).answer)
    assert found == {W.WINNABLE, W.UNWINNABLE}


@pytest.mark.parametrize("rule", ["drawing_player", "both_players"])
def test_first_aid_is_a_gift_tried_before_a_draw_where_both_players_use_items(rule):
    """The gifts the search leaves for later (solver._deferred_gifts), in the gift window
    before player 1's turn (player 0 drew first): player 1, about to draw, gives nothing; but
    where both players use items before a draw, First Aid, which player 0 could use on itself
    before that draw. Player 0 gives anything but an escape item."""
    from slashersim.engine import scripted as S
    from slashersim.engine import solver
    st = L.new_state(GameConfig(before_draw_items=rule).to_array())
    st[L.S_ROUND_LEADER] = 0
    st[S.M_ARG] = 1
    st[S.M_PLAYER] = 1
    every = ((1 << MAX_ITEM_IDS) - 1) & ~(1 << KILLER)
    kits = (1 << FIRST_AID_SMALL) | (1 << FIRST_AID_LARGE)
    assert solver._deferred_gifts(st) == (every & ~kits if rule == "both_players" else every)
    st[S.M_PLAYER] = 0
    escapes = sum(1 << i for i in (MAP, CAR_KEY, GASOLINE, BOLT_CUTTERS, BASEBALL_BAT))
    assert solver._deferred_gifts(st) == escapes


def test_a_game_out_of_time_is_undecided():
    cfg = GameConfig().to_array()
    solution = W.solve_game(cfg, 2026, 15, seconds=0.0)
    assert solution.answer == W.UNDECIDED and solution.line == []


def test_the_search_merges_only_what_the_item_phase_cannot_tell_apart():
    """Two play-phase positions with the same key read the same item phase: the key holds
    each player's whites, greens, yellows and the set of reds."""
    from slashersim.engine import solver
    a = np.zeros(L.STATE_SIZE, dtype=np.int64)
    b = a.copy()
    a[L.S_WON] = (1 << 5) | (1 << 16)        # green 1, red 2
    b[L.S_WON] = (1 << 6) | (1 << 16)        # green 2, red 2
    assert solver._play_key(a) == solver._play_key(b)
    b[L.S_WON] = (1 << 6) | (1 << 17)        # green 2, red 3
    assert solver._play_key(a) != solver._play_key(b)


def test_the_api_answers_each_game_and_counts_them():
    import slashersim
    answer = slashersim.winnable(games=2, seed=2026, first_game=3, seconds=60)
    frame = answer.to_frame()
    assert list(frame["game"]) == [3, 4]
    assert answer.counts == {W.WINNABLE: 2, W.UNWINNABLE: 0, W.UNDECIDED: 0}
    assert answer.share()["winnable"] == 1.0 and all(frame["line_rounds"] > 0)


@pytest.mark.parametrize("bad, message", [
    (dict(games=0), "games must be at least 1, got 0"),
    (dict(seed=-1), "seed must be an integer"),
    (dict(seconds=-1), "seconds must be a number >= 0, got -1"),
    (dict(healht=3), "unknown knob 'healht'"),
])
def test_the_api_refuses_bad_input_by_name(bad, message):
    import slashersim
    with pytest.raises(slashersim.ConfigError, match=message):
        slashersim.winnable(**bad)


def test_simulate_adds_the_winnable_share_of_its_first_games(capsys):
    from slashersim.cli import main
    assert main(["simulate", "--games", "20", "--seed", "2026", "--skill", "novice",
                 "--winnable", "2", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)["winnable"]
    assert answer["games"] == 2 and answer["winnable"] + answer["unwinnable"] \
        + answer["undecided"] == 2 and answer["seconds"] == 10
    assert main(["simulate", "--games", "20", "--seed", "2026", "--skill", "novice",
                 "--winnable", "2"]) == 0
    assert "could be won" in capsys.readouterr().out


@pytest.mark.parametrize("args, needle", [
    (["--winnable", "0"], "--winnable must be at least 1, got 0"),
    (["--winnable", "x"], "--winnable must be an integer, got 'x'"),
    (["--winnable-seconds", "-1"], "--winnable-seconds must be at least 0, got -1"),
])
def test_simulate_refuses_a_bad_winnable_option(args, needle):
    from helpers import assert_one_line_error, run_cli
    assert_one_line_error(run_cli("simulate", "--games", "10", *args), needle)


def test_a_luck_answer_gives_each_value_its_winnable_share(capsys):
    """The luck questions solve the first games of each value they report, on the same games
    the value played: the Killer on top at health 1 (rulebook) and a first area card."""
    import slashersim
    from slashersim.cli import main
    r = slashersim.luck(games=30, seed=2026, positions=1, policy="novice", health=1,
                        winnable=3, winnable_seconds=5).summary()
    w = r["positions"]["1"]["winnable"]
    assert r["winnable_games"] == 3 and w["games"] == 3
    assert w["winnable"] + w["unwinnable"] + w["undecided"] == 3
    config = slashersim.GameConfig(health=1, killer_position=1).to_array()
    expected = [W.solve_game(config, 2026, g, 5).answer for g in range(3)]
    assert w["winnable"] == expected.count(W.WINNABLE)
    assert main(["luck", "area", "--value", "lodge", "--games", "20", "--seed", "2026",
                 "--skill", "novice", "--winnable", "2"]) == 0
    out = capsys.readouterr().out
    assert "could it have been won? the first 2 games of each" in out and "Lodge" in out


@pytest.mark.parametrize("command", [["luck", "killer", "--all"],
                                     ["luck", "yellows", "--all"]])
@pytest.mark.parametrize("args, needle", [
    (["--winnable", "0"], "--winnable must be at least 1, got 0"),
    (["--winnable-seconds", "-1"], "--winnable-seconds must be at least 0, got -1"),
])
def test_a_luck_question_refuses_a_bad_winnable_option(command, args, needle):
    from helpers import assert_one_line_error, run_cli
    assert_one_line_error(run_cli(*command, "--games", "10", *args), needle)


def test_the_api_refuses_a_bad_winnable_count_by_name():
    import slashersim
    with pytest.raises(slashersim.ConfigError, match="winnable must be at least 1, got 0"):
        slashersim.luck(games=10, winnable=0)
    with pytest.raises(slashersim.ConfigError, match="winnable_seconds must be a number"):
        slashersim.luck_fact("trump", games=10, winnable=2, winnable_seconds=-1)


def test_a_recorded_game_says_whether_it_could_have_been_won(tmp_path, capsys):
    """``simulate --record N --winnable``: the record holds the solver's answer and line; the
    timeline of that record (``--winnable``) and ``Game.winnable`` give the same answer."""
    from slashersim import Game
    from slashersim.cli import main
    out = tmp_path / "game.json"
    assert main(["simulate", "--games", "4", "--seed", "2026", "--skill", "novice",
                 "--record", "3", "--record-out", str(out), "--winnable", "1"]) == 0
    assert "game 3: winnable" in capsys.readouterr().err
    rec = json.loads(out.read_text())["winnable"]
    solution = Game(seed=2026, game=3).winnable(10)
    assert rec["answer"] == solution.answer == W.WINNABLE
    assert rec == json.loads(json.dumps(solution.summary())) | {"seconds": rec["seconds"]}
    assert len(rec["line"][0]["cards"]) == 16 and rec["line"][0]["cards"][0].split()[0] in \
        ("red", "yellow", "green", "white")
    assert main(["luck", "timeline", str(out), "--games", "8", "--winnable"]) == 0
    assert "could it have been won? winnable" in capsys.readouterr().out
