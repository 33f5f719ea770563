"""``luck state``, game records and ``luck timeline``, ``luck sources``."""
import json
import math
from pathlib import Path

from helpers import assert_one_line_error, run_cli
import numba
import numpy as np
import pytest

import slashersim
from slashersim.analysis.luck import variance_sources
from slashersim.analysis.playouts import _outcomes, snapshot_position, timeline, win_probability
from slashersim.analysis.position import card_from_name, parse_position
from slashersim.analysis.records import record_events, record_game, record_json
from slashersim.cli import main
from slashersim.core import layout as L
from slashersim.core import rules
from slashersim.core.config import ConfigError, GameConfig
from slashersim.engine import luck_kernels as K
from slashersim.engine import positions, rng
from slashersim.policies import get_policy, param_vector
from slashersim.runner import simulate
from slashersim.runner.kernels import continue_as_is

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "experiments" / "state_example.json"


def close(p1, n1, p2, n2, z=4.5):
    return abs(p1 - p2) < z * math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)


@pytest.mark.parametrize("edition", ["rulebook", "instructions"])
def test_a_fresh_game_state_reproduces_simulate(edition):
    sim = simulate(GameConfig(edition=edition), games=20_000, seed=3)
    state = win_probability(parse_position({"config": {"edition": edition}}), games=20_000,
                            seed=4)
    assert close(state["win_rate"], 20_000, sim.win_rate, 20_000), (state, sim.win_rate)
    lo, hi = state["win_ci"]
    assert lo < state["win_rate"] < hi


def test_known_facts_stay_and_unknown_ones_are_redrawn():
    pos = parse_position({"round": 2, "areas_seen": ["lodge"], "killer_draws": 0,
                          "items": [["map"], []],
                          "item_deck": {"discard": ["backpack"], "top": ["car_key"]}})
    killer_at = []
    for seed in range(400):
        st = pos.state.copy()
        rng.seed_streams(st, seed, 0, 0, 0)
        K.resample_hidden(st, pos.known)
        deck = list(st[L.S_DECK:L.S_DECK + st[L.S_DECK_N]][::-1])
        assert deck[0] == rules.CAR_KEY and st[L.S_AREA_DECK] == rules.LODGE
        assert sorted(deck) == sorted(pos.state[L.S_DECK:L.S_DECK + pos.state[L.S_DECK_N]])
        killer_at.append(deck.index(rules.KILLER) + 1)
        # the rest of the first pass: the other Lv.1 cards, then Lv.2
        assert set(st[L.S_AREA_DECK + 1:L.S_AREA_DECK + 3]) == {rules.TENT_SITE, rules.WOODLAND}
    # 2 cards left the first deck (map, backpack), so the Killer, which started in its top 7,
    # is within the top 5; the known top card is the car key: places 2..5, uniformly
    counts = np.bincount(killer_at, minlength=8)
    assert counts[0] == counts[1] == 0 and counts[6:].sum() == 0
    assert all(abs(c / 400 - 0.25) < 0.08 for c in counts[2:6]), counts


def test_example_state_file_runs(capsys):
    assert main(["luck", "state", str(EXAMPLE), "--games", "2000", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert {"games", "wins", "win_rate", "win_ci", "config", "policy", "seed"} <= set(r)
    assert r["games"] == 2000 and 0 < r["win_rate"] < 1
    assert main(["luck", "state", str(EXAMPLE), "--games", "500"]) == 0
    assert "win probability" in capsys.readouterr().out


@pytest.mark.parametrize("state, needle", [
    ({"health": [9, 7]}, "health of player 0 must be 1..7, got 9"),
    ({"round": 0}, "round must be 1..200, got 0"),
    ({"round": 2, "area": "hidaway"}, "unknown area 'hidaway'"),
    ({"round": 2, "items": [["map"], []], "item_deck": {"discard": ["map"]}},
     "map is in two places: player 0's items and the discard pile"),
    ({"round": 2, "area": "lodge", "hands": [
        ["red 1", "red 2", "red 3", "red 4", "red 5", "white 1", "white 2", "white 3"],
        ["red 1", "green 2", "green 3", "green 4", "green 5", "yellow 1", "yellow 2",
         "yellow 3"]]}, "red 1 is in two places: player 0's hand and player 1's hand"),
    ({"traps": 3}, "3 traps set off lose the game"),
    ({"item_deck": {"killer_position": 9}}, "within the top 7"),
    ({"round": 3, "items": [["map", "car_key"], ["gasoline", "baseball_bat"]]},
     "the game is won"),
    ({"round": 2, "area": "cabins"}, "Lv.2 card"),
    ({"round": 3, "areas_seen": ["lodge", "lodge"]}, "comes up twice"),
    ({"round": 2, "item_deck": {"gone": ["first_aid_small"]}},
     "used items go to the discard pile"),
    ({"round": 4, "items": [["map", "car_key", "first_aid_small", "first_aid_large"],
                            ["flashlight", "backpack", "lucky_charm"]],
      "item_deck": {"discard": ["walkie_talkie"]}}, "the Killer has not come up"),
    ({"hands": [None, None]}, "hands and trump need the round's area"),
    ({"colour": 1}, "unknown state key 'colour'"),
])
def test_impossible_states_are_refused(state, needle, tmp_path, capsys):
    with pytest.raises(ConfigError, match=None) as e:
        parse_position(state)
    assert needle in str(e.value)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(state))
    assert main(["luck", "state", str(path), "--games", "10"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
    assert needle in captured.err


def test_state_errors_are_one_line_from_the_shell(tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"health": [9, 7]}')
    assert_one_line_error(run_cli("luck", "state", str(path)), "health of player 0 must be 1..7")
    assert_one_line_error(run_cli("luck", "state", str(tmp_path / "none.json")), "does not exist")


@pytest.mark.parametrize("edition", ["rulebook", "instructions"])
def test_a_recorded_game_is_the_game_simulate_played(edition):
    config = GameConfig(edition=edition, check_invariants=True, hideaway=True)
    rec = simulate(config, games=150, seed=2, keep_records=True).records
    for g in range(150):
        last = record_game(config, "baseline", 2, g).snaps[-1]
        assert last[L.S_OUTCOME] == rec["outcome"].cat.codes[g]
        assert (last[L.S_ROUND], last[L.S_KILLER_START], last[L.S_DAMAGE], last[L.S_KEPT]) == \
            (rec["rounds"][g], rec["killer_start"][g], rec["damage_0"][g], rec["kept_0"][g])
        assert last[L.S_VIOLATIONS] == 0


@pytest.fixture(scope="module")
def game_timeline():
    rec = record_game(GameConfig(), "baseline", 0, 3)
    return rec, timeline(rec, games=20_000, seed=1)


def test_timeline_starts_at_the_configuration_win_rate(game_timeline):
    rec, t = game_timeline
    sim = simulate(GameConfig(), games=20_000, seed=0)
    assert close(t["start"]["win_rate"], 20_000, sim.win_rate, 20_000), (t["start"],
                                                                         sim.win_rate)
    events = t["events"]
    assert events[0]["before"] == t["start"]["win_rate"]
    for a, b in zip(events, events[1:]):
        assert b["before"] == a["after"]
    assert events[-1]["after"] == float(t["outcome"] == "win")
    kinds = [e["event"] for e in events]
    assert kinds[:3] == ["deal", "trump", "play"] and "draw" in kinds
    assert sum(e["killer"] for e in events if e["event"] == "draw") == \
        rec.snaps[-1][L.S_KILLER_DRAWS]


def _turns(rec):
    """(round, player, cards the turn took from the top of the item deck) of each turn of a
    recorded game, read off the positions before and after the turn (after its last card when
    the game ended in it)."""
    info, snaps = rec.info, rec.snaps
    starts = [i for i in range(len(info)) if info[i, 0] == positions.SNAP_ITEMS and info[i, 2] < 2]
    turns = []
    for i in starts:
        j = i + 1
        while info[j, 0] == positions.SNAP_DRAW:
            j += 1
        if info[j, 0] == positions.SNAP_END:
            j -= 1                   # the game ended in the turn: its clean-up may reshuffle
        a, b = snaps[i], snaps[j]
        deck = [int(c) for c in a[L.S_DECK:L.S_DECK + a[L.S_DECK_N]][::-1]]
        if b[L.S_KILLER_DRAWS] > a[L.S_KILLER_DRAWS]:
            took = deck[:deck.index(rules.KILLER) + 1]
        else:
            took = deck[:int(a[L.S_DECK_N] - b[L.S_DECK_N])]
        name = ["junk" if x >= rules.JUNK else rules.ITEM_NAMES[x] for x in took]
        turns.append((int(a[L.S_ROUND]), int(a[L.S_ROUND_LEADER]) ^ int(info[i, 2]), name))
    return turns


@pytest.mark.parametrize("edition", ["rulebook", "instructions"])
def test_timeline_events_are_the_deal_the_trump_and_each_card_drawn(edition):
    config = GameConfig(edition=edition, hideaway=True)
    cursed = cabins_extra = 0
    for g in range(80):
        rec = record_game(config, "baseline", 5, g)
        events = record_events(rec)
        rounds = int(rec.snaps[-1][L.S_ROUND])
        for r in range(1, rounds + 1):
            mine = [e for e in events if e["round"] == r]
            kinds = [e["event"] for e in mine]
            assert kinds[:3] == ["deal", "trump", "play"] and set(kinds[3:]) <= {"draw"}
            deal, trump = mine[0], mine[1]
            assert "trump_card" not in deal and deal["after"] == trump["before"]
            card = card_from_name(trump["trump_card"])
            hands = [card_from_name(c) for h in deal["hands"] for c in h]
            assert len(set(hands)) == 16 and card not in hands
        # one draw event per card, in order, and nothing else drawn
        draws = [e for e in events if e["event"] == "draw"]
        by_turn = {}
        for e in draws:
            by_turn.setdefault((e["round"], e["player"]), []).append(e)
        expect = {(r, p): took for r, p, took in _turns(rec) if took}
        assert {k: [e["card"] for e in v] for k, v in by_turn.items()} == expect, g
        for evs in by_turn.values():
            assert [e["draw"] for e in evs] == list(range(1, len(evs) + 1))
            assert [e["last"] for e in evs] == [False] * (len(evs) - 1) + [True]
            assert all(e["kept"] is None for e in evs[:-1]) and evs[-1]["kept"] is not None
            assert [e["killer"] for e in evs] == [e["card"] == "killer" for e in evs]
            cursed += sum(e["card"] == "cursed_object" for e in evs)
        for i, (kind, _, _, _, extra) in enumerate(rec.info):
            if kind == positions.SNAP_DRAW and rec.snaps[i][L.S_AREA] == rules.CABINS and extra:
                cabins_extra += 1
        # the chain: every event starts where the previous one ended
        assert events[0]["before"] == 0
        assert all(b["before"] == a["after"] for a, b in zip(events, events[1:]))
    assert cursed > 5 and cabins_extra > 0


@pytest.mark.parametrize("edition", ["rulebook", "instructions"])
def test_recorded_positions_continued_as_they_are_end_as_the_game_did(edition):
    """Every recorded position, those in the middle of a draw included, played on from its
    exact state (nothing redrawn, the streams as recorded) ends as the recorded game."""
    config = GameConfig(edition=edition, hideaway=True, check_invariants=True)
    entry = get_policy("baseline")
    params = param_vector("baseline")
    mid = 0
    for g in range(60):
        rec = record_game(config, "baseline", 8, g)
        for i in range(len(rec.info) - 1):
            pos = snapshot_position(rec, i)
            st = pos.state.copy()
            continue_as_is(entry.decide, st, params, pos.known)
            assert np.array_equal(st, rec.snaps[-1]), (g, i, rec.info[i])
            known = pos.known
            mid += known[positions.P_PHASE] == positions.PHASE_DRAW and \
                known[positions.P_PENDING] > 0
    assert mid > 50


def test_after_a_turn_s_last_card_is_the_position_after_the_turn():
    """The probability after a player's last card (keeping still to come) equals, up to noise
    on common random numbers, that of the position after the turn (kept, before the next
    event): the choices in between are played out by the same policy."""
    pairs = 0
    for g in range(6):
        rec = record_game(GameConfig(), "baseline", 0, g)
        for i in range(len(rec.info) - 2):
            if rec.info[i, 0] != positions.SNAP_DRAW or rec.info[i + 1, 0] == positions.SNAP_DRAW:
                continue
            if rec.info[i + 1, 0] == positions.SNAP_END:
                continue
            a = _outcomes(snapshot_position(rec, i), "baseline", 2000, 4, None) == rules.WIN
            b = _outcomes(snapshot_position(rec, i + 1), "baseline", 2000, 4, None) == rules.WIN
            d = a.astype(float) - b
            assert abs(d.mean()) <= 4.5 * d.std() / math.sqrt(len(d)), (g, i, d.mean())
            pairs += 1
    assert pairs >= 10


def test_record_and_timeline_commands(tmp_path, capsys):
    out = tmp_path / "game.json"
    assert main(["simulate", "--skill", "novice", "--games", "50", "--record", "3",
                 "--record-out", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 50
    data = json.loads(out.read_text())
    assert data == record_json(record_game(GameConfig(), "baseline", 0, 3))
    assert data["events"][0]["event"] == "deal" and len(data["events"][0]["hands"][0]) == 8
    png = tmp_path / "t.png"
    assert main(["luck", "timeline", str(out), "--games", "300", "--png", str(png)]) == 0
    text = capsys.readouterr().out
    assert "start: a fresh game" in text and "largest swings" in text
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data["events"][0]["area"] = "cabins"
    out.write_text(json.dumps(data))
    assert main(["luck", "timeline", str(out), "--games", "10"]) == 2
    assert "does not match a replay" in capsys.readouterr().err
    data["format"] = "slashersim game record 1"
    out.write_text(json.dumps(data))
    assert main(["luck", "timeline", str(out), "--games", "10"]) == 2
    assert "older slashersim" in capsys.readouterr().err
    assert main(["simulate", "--games", "5", "--record", "7", "--record-out", str(out)]) == 2
    assert "--record must be 0..4" in capsys.readouterr().err


def test_a_record_of_an_earlier_expert_replays_when_its_removed_settings_change_nothing(
        tmp_path):
    """A record that lists a since-removed expert parameter at the value that plays as the
    expert does now still loads; at another value it is refused by name."""
    from slashersim.analysis.records import read_record
    from slashersim.policies.params import REMOVED
    data = record_json(record_game(GameConfig(), "expert", 0, 1))
    out = tmp_path / "old.json"
    data["policy_params"] = {**data["policy_params"], **REMOVED["expert"]}
    out.write_text(json.dumps(data))
    assert read_record(out).policy == "expert"
    data["policy_params"]["race_z"] = 2.0
    out.write_text(json.dumps(data))
    with pytest.raises(ConfigError, match="parameter race_z was removed"):
        read_record(out)


def test_held_streams_are_shared_within_groups_and_only_there():
    plain = simulate(GameConfig(), games=512, seed=6, keep_records=True).records
    same = simulate(GameConfig(), games=512, seed=6, keep_records=True,
                    hold=([rng.DEAL], 1)).records
    assert same.equals(plain)
    for bad in (([7], 2), ([rng.DEAL], 0)):
        with pytest.raises(ValueError, match="hold must be"):
            simulate(GameConfig(), games=10, hold=bad)
    columns = {rng.DEAL: ["first_yellows_0", "first_yellows_1", "first_trump"],
               rng.ITEMS: ["killer_start"], rng.AREAS: ["first_area"]}
    for stream, cols in columns.items():
        rec = simulate(GameConfig(), games=512, seed=6, keep_records=True,
                       hold=([stream], 4)).records
        for col in cols:
            groups = rec[col].to_numpy().reshape(128, 4)
            assert (groups == groups[:, :1]).all(), (stream, col)
            assert len(np.unique(groups[:, 0])) > 1
        for other, other_cols in columns.items():
            if other != stream:
                groups = rec[other_cols[0]].to_numpy().reshape(128, 4)
                assert not (groups == groups[:, :1]).all(), (stream, other)


def test_variance_shares_sum_sensibly(capsys):
    r = variance_sources(GameConfig(), games=12_000, repeats=4, seed=1, boot=100)
    assert list(r["shares"]) == ["deal", "items", "areas", "policy"]
    for v in r["shares"].values():
        assert -0.05 < v["first"] < v["total"] < 1.05
        assert v["first_ci"][0] <= v["first"] <= v["first_ci"][1]
        assert v["total_ci"][0] <= v["total"] <= v["total_ci"][1]
    assert r["sum_first"] < 1.05 and r["sum_total"] > 0.95
    assert r["interactions"] == pytest.approx(1 - r["sum_first"])
    assert main(["luck", "sources", "--games", "800", "--repeats", "4"]) == 0
    assert "first-order share" in capsys.readouterr().out
    assert main(["luck", "sources", "--games", "4", "--repeats", "4"]) == 2
    assert "games must be at least 2 x repeats" in capsys.readouterr().err


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 threads")
def test_play_outs_do_not_depend_on_threads():
    pos = parse_position({"round": 2, "health": [4, 7], "items": [["map"], []]})
    one = win_probability(pos, games=3000, seed=5, threads=1)
    two = win_probability(pos, games=3000, seed=5, threads=2)
    assert one == two


@pytest.mark.parametrize("edition", ["rulebook", "instructions"])
def test_position_probabilities_are_calibrated(edition):
    """Over many games, the outcome minus the probability of a recorded position averages 0:
    the hidden facts are redrawn from their true distribution given what is known."""
    from slashersim.analysis.playouts import snapshot_position
    config = GameConfig(edition=edition)
    games, rollouts = 600, 200
    # after the deal (trump known, and not yet: "hands"), before the second turn, and after
    # the first card of the item phase (mostly in the middle of a draw)
    for kind, turns, hands in ((positions.SNAP_DEALT, 0, False), (positions.SNAP_DEALT, 0, True),
                               (positions.SNAP_ITEMS, 1, False), (positions.SNAP_DRAW, 0, False)):
        gaps = []
        for g in range(games):
            rec = record_game(config, "baseline", 12, g)
            at = [i for i, (k, r, t, _, _) in enumerate(rec.info)
                  if (k, r, t) == (kind, 1, turns)]
            if not at:
                continue
            p = win_probability(snapshot_position(rec, (at[0], "hands") if hands else at[0]),
                                games=rollouts, seed=g)
            gaps.append(float(rec.snaps[-1][L.S_OUTCOME] == rules.WIN) - p["win_rate"])
        gaps = np.array(gaps)
        assert len(gaps) > 100
        assert abs(gaps.mean()) < 4.5 * gaps.std() / math.sqrt(len(gaps)), (kind, gaps.mean())


def test_recorded_positions_keep_the_killer_in_the_rest_of_its_top_group():
    from slashersim.analysis.playouts import snapshot_position
    seen = 0
    for g in range(60):
        rec = record_game(GameConfig(), "baseline", 13, g)
        for i, kind in enumerate(rec.info[:, 0]):
            st = rec.snaps[i]
            if kind not in (positions.SNAP_ITEMS, positions.SNAP_DRAW) or st[L.S_KILLER_DRAWS] \
                    or st[L.S_ROUND] > 2 or rules.KILLER not in st[L.S_DECK:L.S_DECK +
                                                                   st[L.S_DECK_N]]:
                continue
            pos = snapshot_position(rec, i)
            span = 7 - (13 - int(st[L.S_DECK_N]))
            places = set()
            for seed in range(40):
                x = pos.state.copy()
                rng.seed_streams(x, seed, 1, 0, 0)
                K.resample_hidden(x, pos.known)
                deck = list(x[L.S_DECK:L.S_DECK + x[L.S_DECK_N]][::-1])
                places.add(deck.index(rules.KILLER) + 1)
            assert places == set(range(1, span + 1)), (g, i, span, places)
            seen += 1
    assert seen > 20


def test_a_record_keeps_its_cards_hash_and_is_not_replayed_under_other_cards(tmp_path, capsys,
                                                                              monkeypatch):
    """A game record names its card file with the content's hash; once the file holds other
    cards, the record (luck timeline, Game.from_record) is refused, naming both hashes."""
    from slashersim import Game
    monkeypatch.chdir(tmp_path)
    bog = (ROOT / "examples" / "bog.toml").read_text()
    (tmp_path / "bog.toml").write_text(bog)
    out = tmp_path / "game.json"
    assert main(["simulate", "--skill", "novice", "--games", "20", "--record", "2",
                 "--record-out", "game.json", "--cards", "bog.toml", "--quiet"]) == 0
    capsys.readouterr()
    data = json.loads(out.read_text())
    sha = GameConfig(cards="bog.toml").cards_sha256
    assert data["config"]["cards"] == "bog.toml" and data["config"]["cards_sha256"] == sha
    assert data["rules_id"] == GameConfig(cards="bog.toml").rules_id.digest
    assert Game.from_record(out).outcome == data["outcome"]
    (tmp_path / "bog.toml").write_text(bog.replace("draw_reduction = 1", "draw_reduction = 2"))
    assert main(["luck", "timeline", "game.json", "--games", "10"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("slashersim: error: game record 'game.json': card file 'bog.toml' has "
                          f"changed: these rules were made with its content of sha256 "
                          f"{sha[:12]}…, it now holds ") and len(err.splitlines()) == 1
    with pytest.raises(slashersim.ConfigError, match="card file 'bog.toml' has changed"):
        Game.from_record(out)
    del data["config"]["cards_sha256"]
    out.write_text(json.dumps(data))
    assert main(["luck", "timeline", "game.json", "--games", "10"]) == 2
    assert "but not its content's hash" in capsys.readouterr().err
