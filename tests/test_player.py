"""Python policies on the compiled engine, and a game played step by step (slashersim.api.player).

A Python policy that answers as a built-in plays exactly the built-in's games; the observation a
player gets is a function of its view only (the same hidden channels the strict hygiene test
redraws); every answer listed as legal is one the engine accepts; a step-by-step game is game
``g`` of ``simulate`` for the same seed, and replays a recorded game to its outcome."""
import json

import numpy as np
import pytest

import slashersim
from slashersim.analysis import hygiene as Hy
from slashersim.analysis.compare import compare_policies
from slashersim.api.player import Game, IllegalAnswer, Observation, policy_label
from slashersim.core import layout as L
from slashersim.core.config import GameConfig
from slashersim.engine import interface, rng
from slashersim.policies import get_policy, param_vector
from slashersim.runner import simulate

CONFIGS = {
    "rulebook": GameConfig(),
    "instructions": GameConfig(edition="instructions"),
    "any_time, gifts, either, may, both": GameConfig(
        item_timing="any_time", keep_optional=False, first_aid_target="either", hideaway=True,
        health=4, escapes_needed=5, no_yellow_draw="may", cursed_keep="optional",
        before_draw_items="both_players"),
}


def wrapped(name):
    """A Python policy that answers what the compiled policy ``name`` answers on the view."""
    fn, params = get_policy(name).decide, param_vector(name)

    def act(obs):
        return fn(obs.decision, obs.player, obs.arg, obs.state, params)
    act.name = f"python {name}"
    return act


class RandomLegal:
    """Answers uniformly among the legal answers, drawn from its own stream; the decisions any
    copy of it saw are noted in the class's ``KINDS`` (each seat of each game plays its own
    copy)."""

    name = "random legal"
    KINDS = set()

    def act(self, obs):
        RandomLegal.KINDS.add(obs.kind)
        return obs.legal[rng.rand_below(obs.state, rng.POLICY, len(obs.legal))]


@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
@pytest.mark.parametrize("name", ["baseline", "heuristic", "expert"])
def test_a_python_policy_answering_as_a_builtin_plays_its_games(name, config):
    games = 60 if name == "expert" else 200
    mine = simulate(config, wrapped(name), games=games, seed=4, keep_records=True)
    theirs = simulate(config, name, games=games, seed=4, keep_records=True)
    assert mine.records.equals(theirs.records)
    assert mine.policy == f"python {name}"


def test_the_observation_is_a_function_of_the_players_view():
    """Redrawing every hidden channel from the deciding player's view (as the strict hygiene
    test does) never changes the observation: it holds no hidden card."""
    from slashersim.engine.view import write_view
    rng = np.random.default_rng(3)
    changed = 0
    n = 0
    for i, config in enumerate(CONFIGS.values()):
        points = Hy.decision_points("heuristic", config, 120, seed=20 + i)
        for point in points:
            st, player = point[Hy.POINT_HEADER:], int(point[1])
            view = np.zeros(L.STATE_SIZE, dtype=np.int64)
            write_view(st, player, view)
            assert view[L.S_HAND + 1 - player] == 0
            assert view[L.S_TRUMP_DECK] == 1 << int(st[L.S_TRUMP_CARD])
            for _ in range(2):
                other = Hy.redraw_hidden(st, player, rng)
                changed += bool((other != st).any())
                again = np.zeros(L.STATE_SIZE, dtype=np.int64)
                write_view(other, player, again)
                assert np.array_equal(view, again), L.STATE_SIZE
            n += 1
    assert n >= 500 and changed >= n   # the redraws did change the hidden state


def test_every_legal_answer_is_accepted_and_every_decision_is_asked():
    RandomLegal.KINDS.clear()
    for i, config in enumerate(CONFIGS.values()):
        r = simulate(config, RandomLegal(), games=300, seed=i, keep_records=True)
        assert not (r.records["violations"] & L.V_POLICY).any()
    assert RandomLegal.KINDS == set(interface.DECISION_NAMES)


def test_an_illegal_answer_stops_the_run_with_the_legal_answers():
    def lead_twenty(obs):
        return 20 if obs.kind == "play_card" else obs.legal[0]
    with pytest.raises(IllegalAnswer, match=r"answered 20 at play_card .* legal answers were: "):
        simulate(GameConfig(), lead_twenty, games=10)


def test_an_exception_in_the_policy_reaches_the_caller():
    def broken(obs):
        return 1 // 0
    with pytest.raises(ZeroDivisionError):
        simulate(GameConfig(), broken, games=10)


def test_not_a_policy_is_refused():
    with pytest.raises(TypeError, match="act"):
        simulate(GameConfig(), 42, games=10)


def test_compare_pairs_a_python_policy_with_the_builtins():
    r = compare_policies(GameConfig(), [wrapped("baseline"), "baseline", "heuristic"], games=300,
                         seed=2)
    assert [p["label"] for p in r["policies"]] == ["python baseline", "baseline", "heuristic"]
    same = r["pairs"][0]
    assert (same["difference"], same["only_a_won"], same["only_b_won"]) == (0, 0, 0)
    assert policy_label(RandomLegal()) == "random legal"


@pytest.mark.parametrize("name", ["baseline", "heuristic"])
def test_a_game_step_by_step_is_the_game_of_simulate(name):
    config = CONFIGS["instructions"]
    records = simulate(config, name, games=8, seed=9, keep_records=True).records
    for g in range(8):
        game = Game(config, seed=9, game=g).play(name)
        assert game.over and game.player is None and game.legal == ()
        assert game.record() == records.iloc[g].drop("game").to_dict()
        assert all(k in interface.DECISION_NAMES for _, k, _, _ in game.history)


def test_a_game_step_by_step_with_a_python_policy_is_its_simulated_game():
    policy = wrapped("heuristic")
    records = simulate(GameConfig(), policy, games=4, seed=5, keep_records=True).records
    for g in range(4):
        game = Game(seed=5, game=g).play(policy)
        assert game.outcome == records["outcome"][g]


def test_a_recorded_game_replays_to_its_outcome(tmp_path):
    from slashersim.analysis.records import record_game, record_json
    config = GameConfig(health=5)
    rec = record_json(record_game(config, "heuristic", 12, 3))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    game = Game.from_record(path)
    assert (game.outcome, game.record()["rounds"]) == (rec["outcome"], rec["rounds"])
    assert game.record()["killer_start"] == rec["killer_start"]


def test_a_game_checks_answers_and_shows_each_player_only_its_view():
    game = Game(seed=1, hideaway=True)
    assert game.kind == "play_card" and game.player == 0
    obs = game.observation()
    assert isinstance(obs, Observation) and obs.legal == game.legal
    assert set(obs.legal) <= set(obs.hand) and len(obs.hand) == 8
    other = game.observation(1)
    assert other.kind is None and other.legal == ()
    assert not set(other.hand) & set(obs.hand)
    state = game.state
    assert other.state[L.S_HAND] == 0 and obs.state[L.S_HAND + 1] == 0
    assert state[L.S_HAND] != 0 and state[L.S_HAND + 1] != 0
    with pytest.raises(IllegalAnswer, match="legal"):
        game.apply(99)
    with pytest.raises(IllegalAnswer):
        game.apply("x")
    game.apply(game.legal[0])
    assert game.player == 1 and game.observation().led == game.history[0][3]
    game.play("baseline", steps=5)
    assert len(game.history) == 6
    twin = game.clone()
    game.close()
    assert game.over and game.outcome == "running"
    with pytest.raises(RuntimeError, match="over"):
        game.apply(0)
    with pytest.raises(RuntimeError, match="abandoned"):
        game.record()
    assert not twin.over and twin.history == game.history
    twin.play("baseline")
    assert twin.over and twin.history[:6] == game.history


def test_python_policies_and_games_are_the_same_with_numba_off():
    """The bridge, the view and the step-by-step game run as plain Python too (numba off)."""
    from helpers import run_python
    script = ("from slashersim.core.config import GameConfig\n"
              "from slashersim.api.player import Game\n"
              "from slashersim.engine import rng\n"
              "from slashersim.runner import simulate\n"
              "r = simulate(GameConfig(edition='instructions'),\n"
              "             lambda o: o.legal[rng.rand_below(o.state, rng.POLICY, len(o.legal))],\n"
              "             games=12, seed=6, keep_records=True)\n"
              "g = Game(seed=6, game=2).play('heuristic')\n"
              "print(r.records.to_json(), g.record())\n")
    assert run_python(script, disable_jit=True) == run_python(script)


# --- the worked example of a compiled policy, and its twin in Python ----------------------------
class CautiousInPython:
    """``examples/cautious.py`` written against the observation instead of the state."""

    name = "cautious (Python)"

    def act(self, obs):
        from slashersim.core import rules
        kind, legal = obs.kind, obs.legal
        if kind == "play_card":
            if obs.led is not None:
                return min(legal)
            trump = rules.SUIT_NAMES.index(obs.trump)
            counts = [sum(1 for c in legal if c // 5 == s) for s in range(4)]
            suits = [s for s in range(4) if s != trump and counts[s]]
            if not suits:
                return min(legal)
            best = max(suits, key=lambda s: (counts[s], -s))
            return min(c for c in legal if c // 5 == best)
        if kind in ("phase_start", "before_draw", "play_start", "after_trick"):
            held = obs.held[obs.player]
            if rules.LUCKY_CHARM in held and obs.traps > 0:
                return rules.LUCKY_CHARM
            if obs.health[obs.player] <= 4:
                for item in (rules.FIRST_AID_LARGE, rules.FIRST_AID_SMALL):
                    if item in held:
                        return item
            return -1
        if kind == "use_backpack":
            return 1
        if kind == "extra_draw":
            return 0
        if kind == "keep":
            team = set(obs.held[0]) | set(obs.held[1])
            drawn = obs.drawn
            keepable = [i for i in legal if i >= 0]
            for i in keepable:
                if drawn[i] < rules.N_ESCAPES and drawn[i] not in team:
                    return i
            return keepable[0] if keepable else -1
        return -1


@pytest.fixture
def cautious_registered():
    from slashersim.policies import PolicySpec, registered
    with registered("cautious", PolicySpec("examples.cautious")) as name:
        yield name


@pytest.mark.parametrize("config", list(CONFIGS.values())[:2], ids=list(CONFIGS)[:2])
def test_the_worked_compiled_example_plays_as_its_python_twin(cautious_registered, config):
    compiled = simulate(config, cautious_registered, games=400, seed=8, keep_records=True)
    python = simulate(config, CautiousInPython(), games=400, seed=8, keep_records=True)
    assert compiled.records.equals(python.records)
    assert not (compiled.records["violations"] & L.V_POLICY).any()
    assert 0 < compiled.win_rate < 1


def test_one_registry_entry_is_a_whole_player(cautious_registered, capsys):
    """The entry alone makes the player: its compile part, the command line, a comparison."""
    from helpers import run_main

    from slashersim.policies import compile_parts
    part = compile_parts([cautious_registered])[1]
    assert (part.name, part.stem, part.function, part.label) == \
        ("cautious", "cautious", "decide", "the cautious player")
    code, out, err = run_main(capsys, "simulate", "--policy", "cautious", "--games", "50",
                              "--quiet")
    assert code == 0 and out.startswith("policy cautious; rulebook edition"), err
    code, out, err = run_main(capsys, "compare", "--policies", "novice,cautious", "--games",
                              "50", "--quiet")
    assert code == 0 and "\n  cautious " in out, err


def test_the_worked_compiled_example_is_fair(cautious_registered):
    points = Hy.decision_points(cautious_registered, CONFIGS["instructions"], 100, seed=1)
    assert len(points) > 200 and Hy.check_decisions(cautious_registered, points) == []


def test_the_view_holds_the_picks_of_the_draw_and_describes_each_decision():
    """At a second keep (a Backpack used) the first pick is in the view, and every decision
    comes with its description."""
    from slashersim.engine.decisions import DECISIONS
    seen = {"second keeps": 0, "kinds": set()}

    class Keeper:
        def act(self, obs):
            assert obs.about is DECISIONS[obs.kind]
            seen["kinds"].add(obs.kind)
            if obs.kind == "use_backpack":
                return 1
            if obs.kind == "keep":
                assert obs.keeps in (1, 2) and len(obs.picks) == obs.arg
                if obs.arg == 1:
                    seen["second keeps"] += 1
                    assert obs.picks[0] not in obs.legal
                    assert obs.drawn[obs.picks[0]] < 11
                choices = [a for a in obs.legal if a >= 0]
                return choices[0] if choices else -1
            return obs.legal[0] if obs.kind != "play_card" else obs.legal[-1]

    simulate(GameConfig(), Keeper(), games=300, seed=4)
    assert seen["second keeps"] > 0
    assert {"play_card", "keep", "use_backpack"} <= seen["kinds"]


def test_a_game_takes_what_simulate_takes():
    """``Game(..., difficulty="hard")`` is the hard preset, as ``simulate`` reads it, and its
    record names the rules by content."""
    g = Game(seed=3, difficulty="hard", health=6)
    assert g.config == GameConfig.of(None, {"difficulty": "hard", "health": 6})
    g.play("novice")
    assert g.rules_id == g.config.rules_id.digest != Game(seed=3).rules_id
    with pytest.raises(slashersim.ConfigError, match="unknown difficulty"):
        Game(difficulty="hrad")


@pytest.mark.parametrize("rule", ["drawing_player", "both_players"])
def test_the_observation_names_the_player_about_to_draw(rule):
    """``turn`` is the player whose item turn it is, None outside one: at ``before_draw`` the
    one asked by default, and under ``before_draw_items = both_players`` the partner too."""
    asked = {"own": 0, "partner's": 0, "outside": 0}

    class User:
        def act(self, obs):
            if obs.kind == "before_draw":
                asked["own" if obs.turn == obs.player else "partner's"] += 1
                assert obs.turn in (0, 1)
            elif obs.kind in ("play_card", "phase_start"):
                assert obs.turn is None
                asked["outside"] += 1
            return obs.legal[-1]

    simulate(GameConfig(health=3, before_draw_items=rule), User(), games=200, seed=2)
    assert asked["own"] > 0 and asked["outside"] > 0
    assert (asked["partner's"] > 0) == (rule == "both_players")
