"""Why and where games are lost: each fatal decision carries its two proofs, the profile's
counts add up, the answer does not depend on the workers, and bad questions are refused."""
import json
from types import SimpleNamespace

from helpers import run_main
import numpy as np
import pytest

from slashersim import GameConfig
from slashersim.analysis import fatal as F
from slashersim.analysis import why as Y
from slashersim.core.errors import ConfigError

SEED = 7
#: a card file of the card language's how-to
CARDS = '[area.cabins]\nbreaks_on_trick = "lead.rank + follow.rank > 8"\n'
#: the first games of seed 7 (expert, rulebook defaults): 6 of them lost, each decided quickly
GAMES = 16


@pytest.fixture(scope="module")
def answer():
    return Y.why(GameConfig(), policy="expert", games=GAMES, seed=SEED, workers=1)


def test_every_fatal_decision_carries_its_two_proofs(answer):
    """The winning line from the position before the decision replays to a win through the
    engine's flow, and a fresh search decides the position after it unwinnable."""
    t = answer.table
    decided = t.loc[t["verdict"].isin(Y.DECIDED), "game"].tolist()
    assert len(decided) >= 2
    for game in decided[:2]:
        f = F.fatal_decision(GameConfig(), "expert", SEED, game)
        assert f.verdict in Y.DECIDED
        before, after = F.check_fatal(f)
        assert before, f"game {game}: the line before the fatal decision does not win"
        if f.part != "after_trick":
            assert after, f"game {game}: the position after the fatal decision can be won"


def test_a_won_game_has_no_fatal_decision(answer):
    t = answer.table
    won = t[t["outcome"] == "win"]
    assert len(won) and (won["verdict"] == F.WON).all() and won["round"].isna().all()


def test_the_profile_adds_up(answer):
    p = answer.profile().set_index("verdict")
    assert p["games"].sum() == GAMES
    assert p.loc[F.WON, "games"] == int((answer.table["outcome"] == "win").sum())
    assert ((p["ci_low"] <= p["share"]) & (p["share"] <= p["ci_high"])).all()
    h = answer.hazard_by_round()
    decided = int(p.loc[[F.AVOIDABLE, F.HINDSIGHT], "games"].sum())
    assert h["lost"].sum() == decided
    assert h.loc[0, "at_risk"] == GAMES - p.loc[F.DEAL, "games"] - p.loc[F.UNDECIDED, "games"]
    assert (h["at_risk"].diff().dropna() <= 0).all()
    a = answer.hazard_by_area()
    assert a["lost"].sum() == decided
    assert a["rounds_at_risk"].sum() == h["at_risk"].sum()
    d = answer.decisions()
    assert d["games"].sum() == decided and d["avoidable"].sum() == p.loc[F.AVOIDABLE, "games"]


def test_the_fatal_round_was_winnable_at_its_start_and_lost_by_its_end(answer):
    t = answer.table
    d = t[t["verdict"].isin(Y.DECIDED)]
    assert (d["round"] == d["winnable_rounds"]).all()
    assert (d["round"] <= d["rounds"]).all()
    assert d["part"].isin(list(F.PART_WORDS)).all()
    assert d["seat"].isin([0, 1]).all()
    cards = d[d["kind"] == "card"]
    assert cards["trick"].between(1, 8).all() and (cards["decision"] == "play_card").all()


def test_the_answer_does_not_depend_on_the_workers(tmp_path):
    """Worker processes (here under a card file, which each reads and checks by its hash)
    give the rows one process gives."""
    cards = tmp_path / "cards.toml"
    cards.write_text(CARDS)
    config = GameConfig(cards=str(cards))
    games = [1, 2, 3, 4, 6]
    one = Y.fatal_rows(config, "expert", SEED, games, budget=300, workers=1)
    two = Y.fatal_rows(config, "expert", SEED, games, budget=300, workers=2)
    assert [r["game"] for r in two] == games
    assert sum(r["verdict"] != F.WON for r in one) >= 2
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in two] == \
        [{k: v for k, v in r.items() if k != "seconds"} for r in one]


def test_a_helper_stopped_by_ctrl_c_exits_quietly(monkeypatch, capsys):
    """Ctrl-C reaches a command's helper processes too: a helper walking a game back exits
    with status 130 and prints nothing (the asking process says "interrupted")."""
    import io
    import sys

    def pressed(args):
        raise KeyboardInterrupt
    source = io.BytesIO()
    for value in ((GameConfig(), "expert", SEED, None, 300, "belief"), 5, None):
        Y._send(source, value)
    source.seek(0)
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=source))
    monkeypatch.setattr(sys, "stdout", SimpleNamespace(buffer=io.BytesIO()))
    monkeypatch.setattr(Y, "_fatal_batch", pressed)
    try:
        Y._serve()
    except KeyboardInterrupt:
        pytest.fail("the helper let Ctrl-C out, with its traceback")
    except SystemExit as e:
        assert e.code == 130 and capsys.readouterr().err == ""
    else:
        pytest.fail("the helper went on")


def test_a_question_about_some_games(answer):
    sub = Y.WhyResult(**{**answer.__dict__, "where": "lost_round == 2"})
    assert sub.profile()["games"].sum() == int((answer.table["lost_round"] == 2).sum())
    assert sub.summary()["asked"] == sub.profile()["games"].sum()


@pytest.mark.parametrize("where, word", [("nonsense == 2", "nonsense"), ("round ==", "round"),
                                         ("", "condition")])
def test_a_bad_condition_is_refused_naming_it(where, word):
    with pytest.raises(ConfigError, match=word) as e:
        Y.check_where(where)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("argv, word", [
    (["--where", "killer_place == 2"], "killer_place"),
    (["--budget", "0"], "--budget"),
    (["--workers", "0"], "--workers"),
    (["--skill", "nobody"], "nobody"),
    (["--png", "out.txt"], "png"),
])
def test_the_command_refuses_bad_input_in_one_line(capsys, argv, word):
    code, out, err = run_main(capsys, "why", "--games", "5", *argv)
    assert code == 2 and not out
    assert word in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_an_output_never_overwrites_the_card_file_and_the_answer_names_it(tmp_path, capsys):
    cards = tmp_path / "cards.toml"
    cards.write_text(CARDS)
    before = cards.read_bytes()
    for option in ("--games-out", "--png"):
        code, _, err = run_main(capsys, "why", "--games", "5", "--cards", str(cards), option,
                                str(cards))
        assert code == 2 and "input" in err and cards.read_bytes() == before
    code, out, _ = run_main(capsys, "why", "--games", "6", "--cards", str(cards), "-q",
                            "--workers", "1")
    assert code == 0 and "CHANGED CARDS cards.toml (sha256 " in out.splitlines()[0]


def test_the_command_answers_in_words_and_json(capsys, tmp_path):
    code, out, err = run_main(capsys, "why", "--games", "8", "--seed", str(SEED), "-q",
                              "--games-out", str(tmp_path / "g.csv"))
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith("expert player") and f"8 games, seed {SEED}" in first
    for words in ("lost at the deal", "hindsight", "hazard by round", "hazard by area",
                  "point of no return"):
        assert words in out
    assert (tmp_path / "g.csv").read_text().count("\n") == 9
    code, out, _ = run_main(capsys, "why", "--games", "8", "--seed", str(SEED), "-q",
                            "--json")
    s = json.loads(out)
    assert code == 0 and sum(r["games"] for r in s["profile"]) == 8
    assert s["rules_id"] == GameConfig().rules_id.digest and s["budget"] == F.BUDGET


def test_the_api_returns_frames():
    import slashersim
    r = slashersim.why(games=4, seed=SEED, workers=1)
    assert list(r.profile()["verdict"]) == list(F.VERDICTS)
    assert {"round", "at_risk", "lost", "hazard"} <= set(r.hazard_by_round().columns)
    with pytest.raises(ConfigError, match="budget"):
        slashersim.why(games=8, budget=0)
    with pytest.raises(ConfigError, match="registered"):
        slashersim.why(games=8, policy=lambda obs: 0)


def test_first_unwinnable_is_a_binary_search():
    for n in range(1, 12):
        for first in range(1, n + 1):
            asked = []

            def winnable_at(k, asked=asked, first=first):
                asked.append(k)
                return k < first
            assert F._first_unwinnable(n, winnable_at) == first
            assert len(asked) <= int(np.ceil(np.log2(n))) + 1


def test_the_api_s_defaults_are_the_analysis_own():
    from slashersim.api import calls
    assert (calls.WHY_BUDGET, calls.WHY_FAIR) == (F.BUDGET, F.FAIR)


EXPLORE = """
import hashlib
import numpy as np
from slashersim.analysis import winnable as W
from slashersim.core import layout as L
from slashersim.core.config import GameConfig
from slashersim.engine import scripted as C
from slashersim.engine import solver as S
cfg = GameConfig(edition="instructions").to_array()
for game in range(2):
    st = S.begun_round(W.start_state(cfg, 7, game))
    S.start_scripted(st, np.zeros(C.PARAMS_SIZE))
    S.finish_play_scripted(st, np.zeros(C.PARAMS_SIZE))
    first = None
    for prefix in ([], "first"):
        prefix = [] if prefix == [] else first[:1]
        states = np.empty((256, L.STATE_SIZE), dtype=np.int64)
        scripts = np.empty((256, C.MAX_SCRIPT), dtype=np.int64)
        lengths = np.empty(256, dtype=np.int64)
        n = S.explore_from(1, st, np.array(prefix, dtype=np.int64), states, scripts, lengths,
                           np.zeros(C.PARAMS_SIZE))
        first = [int(a) for a in scripts[0, :lengths[0]]]
        print(game, prefix, n, hashlib.sha256(states[:n].tobytes()).hexdigest()[:16],
              [list(scripts[i, :lengths[i]]) for i in range(n)][:3])
"""


def test_a_part_explored_from_the_answers_given_with_numba_on_and_off():
    """``explore_from`` (the item phase of a round, from nothing and from the first answer of
    its first ending) finds the same endings, in the same order, compiled and in Python."""
    from helpers import run_python
    compiled = run_python(EXPLORE)
    assert compiled == run_python(EXPLORE, disable_jit=True)
    assert len(compiled.splitlines()) == 4
