"""Random argument lists and files for every subcommand: each ends with exit status 0, or 2
with one line on stderr, and never with a traceback.

The strategies keep runs small: every command that plays gets ``--games`` 1..50 (and ``tune``
small stages) appended last, and only the fast policies are named.
"""
import json
import os
from pathlib import Path
import tempfile

from helpers import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
import pytest

from slashersim.cli import main

POLICIES = ["baseline", "heuristic", "exerciser", "genius", ""]
WORDS = st.sampled_from(["0", "1", "2", "7", "-1", "3.5", "nan", "inf", "1e9", str(2 ** 63),
                         "", "x", "all", "easy", "hard", "rulebook", "instructions",
                         "baseline,heuristic", "baseline,", "health", "health,traps",
                         "breach=nan", "samples=3", "breach=5", "heuristic.breach=1",
                         "baseline.x=1", "10,20", "20,10", "red", "lodge", "1,NAME=2"])
OPTIONS = {
    "run": ["--edition", "--difficulty", "--health", "--hideaway", "--no-hideaway",
            "--cursed-object", "--escapes-needed", "--traps", "--max-rounds", "--seed",
            "--threads", "--quiet", "--progress", "--no-progress", "--json"],
    "simulate": ["--policy", "--policy-param", "--record", "--record-out"],
    "luck killer": ["--policy", "--position", "--all"],
    "luck area": ["--policy", "--value", "--all"],
    "luck trump": ["--policy", "--value", "--all"],
    "luck yellows": ["--policy", "--value", "--all", "--player"],
    "luck sources": ["--policy", "--repeats"],
    "luck state": ["--policy", "--policy-param", "--seed", "--threads", "--json", "--quiet"],
    "luck timeline": ["--png", "--seed", "--threads", "--json", "--quiet"],
    "compare": ["--policies", "--policy-param"],
    "sweep": ["--csv", "--threads", "--quiet", "--backend", "--out"],
    "tune": ["--target", "--policy", "--edition", "--knobs", "--tolerance", "--keep", "--seed",
             "--top", "--json", "--quiet"],
    "report": ["--out", "--heatmap", "--title"],
    "bench": ["--policy", "--policies", "--json", "--quiet"],
}
STATE = json.loads((ROOT / "experiments" / "state_example.json").read_text())
JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 9) | st.sampled_from(
    ["map", "red 3", "lodge", "rulebook", "x", "flashlight", "junk", "killer"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["health", "edition", "discard", "top", "gone", "x"]), inner,
        max_size=3), max_leaves=8)


FLAGS = {"--hideaway", "--no-hideaway", "--cursed-object", "--no-cursed-object", "--quiet",
         "--progress", "--no-progress", "--json", "--all", "--csv"}
#: per option, mostly allowed values and a few that are not
VALUES = {
    "--edition": ["rulebook", "instructions", "deluxe"], "--difficulty": ["easy", "hard", "x"],
    "--health": ["1", "4", "7", "0", "8"], "--escapes-needed": ["1", "5", "6"],
    "--traps": ["1", "4", "0"], "--max-rounds": ["1", "50", "0", "200000"],
    "--seed": ["0", "5", "-1", str(2 ** 63), "x"], "--threads": ["1", "2", "0", "99"],
    "--policy": ["baseline", "heuristic", "exerciser", "genius"],
    "--policy-param": ["breach=5", "aid_large_below=3", "breach=nan", "aid_large_below=2.5",
                       "x", "heuristic.breach=1", "baseline.x=1", "heuristic.damage=-1"],
    "--record": ["0", "1", "-1", "100"], "--record-out": ["r.json", "", ".", "no/r.json"],
    "--position": ["1", "7", "9"], "--value": ["lodge", "red", "3", "tent_site", "x"],
    "--player": ["0", "1", "2"], "--repeats": ["2", "1", "4"], "--png": ["t.png", "."],
    "--policies": ["baseline,heuristic", "baseline", "", "genius", ",", "exerciser,baseline"],
    "--backend": ["local", "x"], "--target": ["0.3", "2", "nan"],
    "--knobs": ["health", "health,traps", "x", "", "health,health"],
    "--tolerance": ["0.05", "0.6"], "--keep": ["1", "2", "0"], "--top": ["1", "3"],
    "--heatmap": ["health,traps", "x"], "--title": ["t"], "--out": ["o.parquet", "."],
}


#: ``luck state`` plays out with players whose play-outs the suite compiles anyway (a casual
#: player's play-outs would be a kernel of their own, compiled for this test alone)
PLAYOUT_VALUES = {"--policy": ["baseline", "expert", "genius"]}


def _tokens(command):
    names = OPTIONS[command] + (OPTIONS["run"] if command in (
        "simulate", "luck killer", "luck area", "luck trump", "luck yellows", "luck sources",
        "compare") else [])
    values = {**VALUES, **PLAYOUT_VALUES} if command == "luck state" else VALUES
    pairs = [st.just([n]) if n in FLAGS else
             st.tuples(st.just(n), st.sampled_from(values.get(n, ["1"]))).map(list)
             for n in names]
    token = st.one_of(*pairs) | WORDS.map(lambda w: [w])
    return st.lists(token, max_size=4).map(lambda ts: [t for pair in ts for t in pair])


POLICY_LISTS = st.lists(st.sampled_from(POLICIES[:3]), min_size=1, max_size=2, unique=True)


@st.composite
def spec_text(draw):
    if not draw(st.integers(0, 5)):
        return draw(st.text(max_size=40))
    lines = ["[sweep]", f"games = {draw(st.integers(0, 30))}",
             f"seed = {draw(st.sampled_from([0, 5, 5, -1]))}",
             f"policies = {json.dumps(draw(POLICY_LISTS))}",
             "[axes]"]
    for knob in draw(st.lists(st.sampled_from(["health", "traps", "difficulty", "hideaway",
                                               "nonsense"]), max_size=2, unique=True)):
        values = draw(st.lists(st.sampled_from([1, 3, 7, 9, True, "easy", "hard"]),
                               min_size=1, max_size=3, unique=True)
                      if draw(st.integers(0, 4)) else
                      st.lists(st.sampled_from([1, 3, 7, 9, True, "easy"]), max_size=3))
        lines.append(f"{knob} = {json.dumps(values)}")
    return "\n".join(lines) + "\n"


@st.composite
def state_json(draw):
    data = dict(STATE)
    for _ in range(draw(st.integers(0, 3))):
        key = draw(st.sampled_from(list(STATE) + ["bogus"]))
        data[key] = draw(JSON)
    return json.dumps(data) if draw(st.integers(0, 9)) else draw(st.text(max_size=20))


COMMANDS = list(OPTIONS)[1:]
PLAYS = {"simulate", "luck killer", "luck area", "luck trump", "luck yellows", "luck sources",
         "luck state", "luck timeline", "compare"}


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    path = tmp_path_factory.mktemp("rec") / "rec.json"
    assert main(["simulate", "--games", "5", "--record", "2", "--record-out", str(path),
                 "--quiet"]) == 0
    return json.loads(path.read_text())


def _check(capsys, argv):
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    assert code in (0, 2), (argv, code, err)
    assert "Traceback" not in err
    if code == 2:
        lines = [line for line in err.strip().splitlines()]
        assert len(lines) == 1, (argv, err)


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data(), command=st.sampled_from(COMMANDS), games=st.integers(1, 50))
def test_random_arguments_never_give_a_traceback(capsys, record, data, command, games):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        argv = command.split()
        tokens = data.draw(_tokens(command))
        if command == "sweep":
            spec = tmp / "spec.toml"
            spec.write_text(data.draw(spec_text()))
            out = data.draw(st.sampled_from([tmp / "o.parquet"] * 4 + [spec, tmp,
                                                                       tmp / "no" / "o"]))
            argv += [str(spec), *tokens, "--out", str(out)]
        elif command == "luck state":
            state = tmp / "state.json"
            state.write_text(data.draw(state_json()))
            argv += [str(state), *tokens]
        elif command == "luck timeline":
            path = tmp / "rec.json"
            rec = dict(record)
            if data.draw(st.booleans()):
                rec[data.draw(st.sampled_from(list(rec)))] = data.draw(JSON)
            path.write_text(json.dumps(rec))
            argv += [str(path), *tokens]
        elif command == "report":
            table = tmp / data.draw(st.sampled_from(["t.csv", "t.parquet", "t.txt"]))
            table.write_text(data.draw(st.text(max_size=30)))
            argv += [str(table), *tokens, "--out", str(tmp / "r")]
        elif command == "bench":
            argv += [*tokens, "--games", "2000", "--seconds", "0.01"]
            if "--policies" in tokens:
                return                  # a timed table takes seconds per policy
        else:
            argv += tokens
        if command in PLAYS:
            argv += ["--games", str(games)]
        if command.startswith("luck ") and command.split()[1] in ("killer", "area", "trump",
                                                                   "yellows"):
            if not {"--all", "--position", "--value"} & set(tokens):
                argv += ["--all"]
        if command == "tune":
            argv += ["--target", "0.3", "--stages", "5,10", "--keep", "2"]
        if command == "luck sources":
            argv += ["--repeats", "2"]
        if command == "compare" and "--policies" not in tokens:
            argv += ["--policies", "baseline,heuristic"]
        if command == "tune" and "--knobs" not in tokens:
            argv += ["--knobs", "health"]
        cwd = os.getcwd()
        os.chdir(tmp)                   # --record-out, --png and the like write here
        try:
            _check(capsys, argv)
        finally:
            os.chdir(cwd)
