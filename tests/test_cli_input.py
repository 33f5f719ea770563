"""A new user's first hour: every refusal is one line, exit status 2, before anything compiles
or plays and without harming a file; progress, compile messages, locks and exit statuses."""
import json
import os
import subprocess
import sys
import time
from types import SimpleNamespace

from helpers import ROOT, assert_one_line_error, run_cli, run_main
from numba import njit
import numpy as np
import pytest

from slashersim import policies
from slashersim.analysis.position import parse_position
from slashersim.core import compiling
from slashersim.core.config import ConfigError
from slashersim.core.inputs import OutputLock, lock_path
from slashersim.engine import interface
from slashersim.policies import param_specs, param_vector, registered
from slashersim.policies.baseline import decide as baseline
from slashersim.policies.params import EXPERT, HEURISTIC, SEARCH, defaults, index_of

STATE = json.loads((ROOT / "experiments" / "state_example.json").read_text())
SPEC = """[sweep]
games = 40
seed = 3
[axes]
health = [7, 5]
"""


run = run_main


def refused(capsys, needle, *argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "", (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def spec(tmp_path):
    path = tmp_path / "spec.toml"
    path.write_text(SPEC)
    return path


# --- the registry ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["heuristic", "expert", "search", "omniscient"])
def test_param_specs_are_sound(name):
    """Every default is of its type and within its range, and the vector starts with the
    heuristic's parameters (the policies share code that reads those at its indices)."""
    specs = param_specs(name)
    for p in specs:
        assert p.type in (int, float) and p.low <= p.default <= p.high
        assert p.check(p.default, name) == p.default
    assert [p.name for p in specs[:len(HEURISTIC)]] == [p.name for p in HEURISTIC]


def test_the_policies_take_indices_and_defaults_from_the_specs():
    """``index_of`` and ``defaults`` read a spec tuple, the one declaration of a parameter."""
    assert index_of(SEARCH, "samples") == len(HEURISTIC)
    assert index_of(SEARCH, "breach") == 0
    with pytest.raises(ValueError, match="no parameter 'samples'"):
        index_of(HEURISTIC, "samples")
    vector = defaults(EXPERT)
    assert vector.dtype == np.float64 and vector.shape == (len(EXPERT),)
    assert vector.tolist() == [p.default for p in EXPERT]
    assert np.array_equal(param_vector("expert"), vector)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "1e7", "x", ""])
def test_bad_float_parameters_are_refused(capsys, no_play, value):
    refused(capsys, f"parameter breach must be a number 0..1,000,000, got {value!r}",
            "simulate", "--policy", "heuristic", "--policy-param", f"breach={value}")


@pytest.mark.parametrize("value", ["0", "-3", "2.5", "1e9", "nan"])
def test_bad_samples_are_refused(capsys, no_play, value):
    refused(capsys, f"parameter samples must be an integer 1..1,024, got {value!r}",
            "simulate", "--policy", "search", "--policy-param", f"samples={value}")


def test_integral_parameters_accept_integral_text():
    samples = [p.name for p in param_specs("search")].index("samples")
    assert param_vector("search", {"samples": "64"})[samples] == 64
    assert param_vector("search", {"samples": "1e2"})[samples] == 100
    with pytest.raises(ValueError, match="has no parameter 'sample'; expected one of: breach"):
        param_vector("search", {"sample": 3})


def test_compare_refuses_a_bad_parameter_before_playing(capsys, no_play):
    refused(capsys, "parameter aid_large_below must be an integer 0..7, got '9'",
            "compare", "--policies", "baseline,heuristic",
            "--policy-param", "heuristic.aid_large_below=9")


def test_api_refuses_a_nan_parameter_vector():
    from slashersim.policies import param_vector
    from slashersim.runner import simulate
    params = param_vector("heuristic").copy()
    params[0] = np.nan
    with pytest.raises(ValueError, match="parameter breach must be a number"):
        simulate(policy="heuristic", games=10, params=params)


# --- nothing compiles before the input is checked ---------------------------------------------
_IMPORTS = """
import sys, time
t0 = time.perf_counter()
from slashersim.cli import main
for argv in {argvs!r}:
    try:
        main(argv)
    except SystemExit:
        pass
compiled = sorted(m for m in sys.modules if m.startswith(("slashersim.engine.",
                  "slashersim.policies.")) and m.rsplit(".", 1)[1] not in
                  ("layout", "positions", "decisions", "params", "python", "choice",
                   "reach"))
print(compiled, round(time.perf_counter() - t0, 2))
"""


def test_help_and_refusals_import_no_compiled_module(tmp_path, spec):
    """With a clean numba cache, ``--help`` and refusals import nothing that compiles, and
    answer in about a second."""
    state = tmp_path / "state.json"
    state.write_text(json.dumps({**STATE, "round": 1}))
    argvs = [["--help"], ["simulate", "--health", "0"], ["simulate", "--seed", str(2 ** 63)],
             ["luck", "state", str(state)], ["sweep", str(spec), "--out", str(spec)],
             ["compare", "--policies", "baseline,genius"],
             ["simulate", "--policy", "search", "--policy-param", "samples=0"]]
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(PYTHONPATH=str(ROOT), SLASHERSIM_CACHE_DIR=str(tmp_path / "cache"))
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", _IMPORTS.format(argvs=argvs)], env=env,
                       capture_output=True, text=True, cwd=tmp_path)
    elapsed = time.perf_counter() - t0
    assert p.returncode == 0, p.stderr
    compiled, _ = p.stdout.splitlines()[-1].rsplit(" ", 1)
    assert compiled == "[]"
    assert elapsed < 10, elapsed
    assert not list((tmp_path / "cache").rglob("*.nbi"))


def test_help_is_quick_on_a_clean_cache(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(PYTHONPATH=str(ROOT), SLASHERSIM_CACHE_DIR=str(tmp_path / "cache"))
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "slashersim", "simulate", "--help"], env=env,
                       capture_output=True, text=True)
    assert p.returncode == 0 and "--quiet" in p.stdout
    assert time.perf_counter() - t0 < 5


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("slashersim ")


# --- refusals ----------------------------------------------------------------------------------
@pytest.mark.parametrize("argv, needle", [
    (["simulate", "--seed", str(2 ** 63)],
     f"seed must be an integer 0 <= seed < 2**63, got {2 ** 63}"),
    (["simulate", "--seed", "-1"], "seed must be an integer 0 <= seed < 2**63, got -1"),
    (["luck", "killer", "--all", "--seed", "-5"], "got -5"),
    (["compare", "--policies", "baseline", "--seed", str(2 ** 64)], "got 18446744073709551616"),
    (["tune", "--target", "0.3", "--seed", "-1"], "got -1"),
    (["luck", "timeline", "x.json", "--seed", str(2 ** 63)], "seed must be an integer 0 <= seed"),
    (["bench", "--policies", ""], "--policies needs at least one policy, got ''"),
    (["bench", "--policies", "baseline,genius"], "unknown policy 'genius'"),
    (["simulate", "--record", "3"], "--record N and --record-out FILE.json go together"),
    (["simulate", "--games", "10", "--record", "10", "--record-out", "r.json"],
     "--record must be 0..9"),
    (["sweep", "s.toml", "--out", "o.parquet", "--workers", "4096"],
     "workers must be 1.."),
    (["tune", "--target", "nan"], "target must be a finite number, got 'nan'"),
    (["tune", "--target", "0.3", "--knobs", ""], "knobs must name at least one of"),
    (["tune", "--target", "0.3", "--stages", "10,5"], "stages must be increasing"),
    (["simulate", "--threads", "4096"], "threads must be 1.."),
    (["simulate", "--rule", "item_timng=any_time"],
     "unknown rule 'item_timng' (did you mean 'item_timing'?); expected one of:"),
    (["simulate", "--rule", "item_timing=sometimes"],
     "unknown item_timing 'sometimes'; expected one of: item_phase, any_time"),
    (["simulate", "--rule", "lakeside_removal=30"], "lakeside_removal"),
    (["luck", "killer", "--all", "--rule", "keep_optional"], "--rule must be NAME=VALUE"),
    (["compare", "--rule", "edition=instructions"], "--rule edition: set it with --edition"),
    (["simulate", "--rule", "health=5", "--health", "4"],
     "--rule health=5 and --health 4 both set health; give one"),
    (["simulate", "--rule", "junk=1", "--rule", "junk=2"], "--rule junk is given twice"),
    (["simulate", "--health", "9", "--traps", "7", "--rule", "junk=9"],
     "health must be 1..7, got 9; traps must be 1..4, got 7; junk must be 0..5, got 9"),
])
def test_refusals(capsys, no_play, argv, needle, spec, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    if argv[0] == "sweep":
        argv = ["sweep", str(spec), *argv[2:]]
    refused(capsys, needle, *argv)


def test_sweep_out_refusals_harm_nothing(capsys, no_play, spec, tmp_path):
    """``--out`` that is the spec, a folder, in a missing or read-only folder: refused before a
    game is played, and the spec is untouched."""
    before = spec.read_bytes()
    folder = tmp_path / "existing_dir"
    folder.mkdir()
    refused(capsys, "is the input file", "sweep", str(spec), "--out", str(spec))
    refused(capsys, "is a folder; expected a file path", "sweep", str(spec), "--out",
            str(folder))
    refused(capsys, "does not exist", "sweep", str(spec), "--out",
            str(tmp_path / "missing" / "o.parquet"))
    refused(capsys, "cannot write in folder '/proc' (it does not take new files (a system "
            "folder))", "sweep", str(spec), "--out", "/proc/o.parquet")
    refused(capsys, f"{str(spec)!r} is a file, not a folder", "compare", "--games", "10",
            "--png", str(spec / "k.png"))
    csv_spec = tmp_path / "t.csv"
    csv_spec.write_text(SPEC)
    refused(capsys, "is the input file", "sweep", str(csv_spec), "--out",
            str(tmp_path / "t.parquet"), "--csv")
    assert spec.read_bytes() == before and csv_spec.read_text() == SPEC
    assert list(folder.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["existing_dir", "spec.toml", "t.csv"]


def test_record_out_refusals(capsys, no_play, tmp_path):
    refused(capsys, "is a folder", "simulate", "--games", "10", "--record", "1",
            "--record-out", str(tmp_path))
    refused(capsys, "does not exist", "simulate", "--games", "10", "--record", "1",
            "--record-out", str(tmp_path / "no" / "r.json"))


def test_report_refusals(capsys, tmp_path):
    table = tmp_path / "t.csv"
    table.write_text("health,wins\n")
    refused(capsys, "table", "report", str(tmp_path / "nope.parquet"), "--out", str(tmp_path))
    refused(capsys, "is the input file", "report", str(table), "--out", str(table))
    refused(capsys, "must be a .parquet or .csv", "report", str(ROOT / "README.md"), "--out",
            str(tmp_path / "r"))
    assert table.read_text() == "health,wins\n"


def test_a_record_without_a_configuration_is_refused(capsys, no_play, tmp_path):
    record = tmp_path / "rec.json"
    record.write_text(json.dumps({"format": "slashersim game record 2", "policy": "baseline",
                                  "seed": 0, "game": 1, "events": []}))
    refused(capsys, "has no 'config'", "luck", "timeline", str(record))
    record.write_text(json.dumps({"format": "slashersim game record 2", "config": {},
                                  "policy": "baseline", "seed": -1, "game": 1, "events": []}))
    refused(capsys, "seed must be an integer 0 <= seed < 2**63, got -1", "luck", "timeline",
            str(record))


def test_a_closed_pipe_is_not_an_error(tmp_path):
    """``slashersim simulate | head -1``: no traceback, no error line."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run(f"'{sys.executable}' -m slashersim simulate --skill novice --games 2000"
                       " | head -n 1",
                       shell=True, env=env, capture_output=True, text=True, cwd=tmp_path)
    assert p.stdout.startswith("novice player (policy baseline); rulebook edition")
    assert "Traceback" not in p.stderr and "Error" not in p.stderr, p.stderr


# --- silent wrong answers ----------------------------------------------------------------------
def test_record_uses_the_policy_parameters(capsys, tmp_path):
    """``simulate --record`` replays the game the statistics came from, parameters included."""
    from slashersim.core.config import GameConfig
    from slashersim.runner import simulate
    out = tmp_path / "r.json"
    code, _, _ = run(capsys, "simulate", "--policy", "expert", "--games", "40",
                     "--policy-param", "breach=0", "--policy-param", "damage=0",
                     "--record", "7", "--record-out", str(out), "--seed", "3")
    assert code == 0
    rec = json.loads(out.read_text())
    assert rec["policy_params"]["breach"] == 0 and rec["policy_params"]["damage"] == 0
    params = param_vector("expert", {"breach": 0, "damage": 0})
    row = simulate(GameConfig(), "expert", games=40, seed=3, params=params,
                   keep_records=True).records.iloc[7]
    assert (rec["outcome"], rec["rounds"]) == (row["outcome"], row["rounds"])
    code, out_text, _ = run(capsys, "luck", "timeline", str(out), "--games", "5")
    assert code == 0 and "game 7 of seed 3" in out_text


@njit
def _illegal(decision, player, arg, st, params):
    """Plays a card it does not hold: the engine flags every such game."""
    if decision == interface.PLAY_CARD:
        return 63
    return baseline(decision, player, arg, st, params)


@pytest.fixture
def broken():
    with registered("broken", SimpleNamespace(
            name="broken", decide=_illegal, default_params=np.zeros(0), omniscient=False,
            param_names=())) as name:
        yield name


def test_invariant_violations_exit_1_and_show(capsys, broken):
    code, out, err = run(capsys, "simulate", "--policy", broken, "--games", "30")
    assert code == 1
    assert "INVARIANT VIOLATIONS in 30 games" in out
    assert "30 of 30 games broke an invariant" in err
    code, out, err = run(capsys, "simulate", "--policy", broken, "--games", "30", "--json")
    assert code == 1 and json.loads(out)["invariant_violations"] == 30
    code, out, err = run(capsys, "compare", "--policies", f"baseline,{broken}", "--games", "20")
    assert code == 1 and "20 of 40 games broke an invariant" in err
    code, out, err = run(capsys, "luck", "killer", "--position", "1", "--policy", broken,
                         "--games", "10", "--json")
    assert code == 1 and json.loads(out)["invariant_violations"] == 20   # position 1 and as dealt


@pytest.mark.parametrize("change, needle", [
    ({"round": 1, "traps": 1, "health": [7, 7], "items": [[], []], "killer_draws": 0,
      "areas_seen": [], "item_deck": {}},
     "traps 1 in round 1: a trap goes off only in a round's play phase"),
    ({"round": 2, "traps": 2, "areas_seen": ["lodge"]}, "traps 2 in round 2"),
    ({"round": 1, "traps": 0, "health": [6, 7], "items": [[], []], "killer_draws": 0,
      "areas_seen": [], "item_deck": {}},
     "health of player 0 is 6 in round 1, but health changes only in an item phase"),
    ({"round": 1, "traps": 0, "health": [7, 7], "items": [["map"], []], "killer_draws": 0,
      "areas_seen": [], "item_deck": {}},
     "player 0 holds map in round 1, but items are kept only in an item phase"),
    ({"round": 1, "traps": 0, "health": [7, 7], "items": [[], []], "killer_draws": 0,
      "areas_seen": [], "item_deck": {"discard": ["flashlight"]}},
     "the discard pile holds flashlight in round 1"),
    ({"item_deck": {"discard": ["gasoline", "bolt_cutters", "gasoline"]}},
     "gasoline is listed twice in the discard pile, but the game has one gasoline card"),
    ({"item_deck": {"discard": ["map"]}}, "map is in two places"),
])
def test_impossible_positions_are_refused(change, needle):
    with pytest.raises(ConfigError) as e:
        parse_position({**STATE, **change})
    assert needle in str(e.value) and "\n" not in str(e.value)


def test_luck_state_refusal_on_the_command_line(capsys, no_play, tmp_path):
    state = tmp_path / "s.json"
    state.write_text(json.dumps({**STATE, "round": 1, "areas_seen": []}))
    refused(capsys, "round 1", "luck", "state", str(state))


def test_duplicate_axis_values_are_refused(capsys, no_play, tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text("[sweep]\ngames = 5\n[axes]\nhealth = [7, 5, 7]\n")
    refused(capsys, "axis 'health' lists 7 twice", "sweep", str(spec), "--out",
            str(tmp_path / "o.parquet"))


def test_an_explicit_knob_wins_over_the_preset_and_says_so(capsys, tmp_path):
    code, out, err = run(capsys, "simulate", "--games", "20", "--difficulty", "hard",
                         "--health", "7", "--json")
    assert code == 0 and json.loads(out)["config"]["health"] == 7
    assert "--health 7 overrides difficulty hard's health" in err
    assert "explicit option wins" in err
    spec = tmp_path / "s.toml"
    spec.write_text("[sweep]\ngames = 20\n[axes]\ndifficulty = [\"easy\", \"hard\"]\n"
                    "health = [7]\n")
    code, out, err = run(capsys, "sweep", str(spec), "--out", str(tmp_path / "o.parquet"))
    assert code == 0
    assert "note: health in [axes] overrides the difficulty preset's health in" in err


# --- locks, progress, compile messages ---------------------------------------------------------
def test_a_second_sweep_on_the_same_output_is_refused(capsys, spec, tmp_path):
    out = tmp_path / "o.parquet"
    with OutputLock(out):
        line = refused(capsys, "is being written by another run", "sweep", str(spec),
                       "--out", str(out))
        assert f"pid {os.getpid()}" in line
        assert not out.exists()
    assert not lock_path(out).exists()
    lock_path(out).write_text("999999999")          # a lock whose owner is gone is stale
    code, _, _ = run(capsys, "sweep", str(spec), "--out", str(out))
    assert code == 0 and out.exists() and not lock_path(out).exists()


def test_progress_is_off_when_stderr_is_not_a_terminal():
    from slashersim.core.progress import bar, increments
    assert bar(10).disable
    seen = []
    step = increments(seen.append)
    step(3, 10)
    step(3, 10)
    step(10, 10)
    assert seen == [3, 7]


def test_adaptive_kernel_calls_keep_results_bit_identical():
    from slashersim.runner import next_chunk, simulate
    a = simulate(policy="heuristic", games=3000, seed=9, keep_records=True)
    b = simulate(policy="heuristic", games=3000, seed=9, keep_records=True, chunk_size=7)
    assert a.records.equals(b.records) and np.array_equal(a.counts, b.counts)
    assert next_chunk(1, 1e-6, 65536) == 16 and next_chunk(100, 1.0, 65536) == 20
    assert next_chunk(65536, 1e-3, 65536) == 65536 and next_chunk(1, 10.0, 99) == 1


def test_compile_message_only_on_a_cold_cache(monkeypatch, capsys):
    monkeypatch.setattr(compiling, "busy", lambda workers: False)
    assert compiling.is_cached(policies.compile_part("engine"))   # the tests loaded it
    compiling.enable(True, policies.compile_parts(["heuristic"]))
    assert compiling.announce() is None           # warm: nothing said
    monkeypatch.setattr(compiling, "is_cached", lambda part: part.name != "search")
    compiling.enable(True, policies.compile_parts(["search"]))
    said = compiling.announce()
    assert said.startswith("slashersim: compiling the search player, first run only, about ")
    assert compiling.announce() is None           # once per command
    compiling.enable(False)
    assert compiling.announce() is None
    assert capsys.readouterr().err == said + "\n"


def test_quiet_says_nothing_on_stderr(capsys, monkeypatch):
    monkeypatch.setattr(compiling, "is_cached", lambda part: False)
    code, out, err = run(capsys, "simulate", "--skill", "novice", "--games", "20", "--quiet")
    assert code == 0 and err == "" and "win rate" in out
    policies._imported.cache_clear()
    code, out, err = run(capsys, "simulate", "--skill", "novice", "--games", "20")
    assert err.startswith("slashersim: compiling the engine with the baseline, first run only")


def test_cli_refusal_in_a_subprocess_is_one_line():
    assert_one_line_error(run_cli("simulate", "--policy", "heuristic", "--policy-param",
                                  "breach=nan"), "parameter breach must be a number")


def default_sigint():
    """In the child: Ctrl-C raises KeyboardInterrupt even when this test runs where SIGINT is
    ignored (a background job of a non-interactive shell)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_a_long_run_within_a_second():
    import signal
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen([sys.executable, "-m", "slashersim", "simulate", "--policy",
                          "heuristic", "--games", str(10 ** 9), "--threads", "1"], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=default_sigint)
    time.sleep(4)
    p.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, err = p.communicate(timeout=30)
    assert time.monotonic() - sent < 1.5
    assert p.returncode == 130 and out == ""
    assert err.strip().splitlines()[-1] == "slashersim: interrupted" and "Traceback" not in err


@pytest.mark.parametrize("then", ["fails", "goes on"])
def test_ctrl_c_inside_a_compiler_callback_still_stops_the_command(capsys, monkeypatch, then):
    """Ctrl-C landing while numba's compiler calls back into Python (Python can only print it
    as "exception ignored") stops the command as any Ctrl-C does, whether the compile then
    fails or goes on: one line, exit status 130, no traceback."""
    import ctypes

    from slashersim import cli

    def pressed():
        raise KeyboardInterrupt

    def command(args):
        ctypes.CFUNCTYPE(None)(pressed)()
        if then == "fails":
            raise RuntimeError("the compiler lost its object code")
        for _ in range(10 ** 7):
            pass
        return 0
    monkeypatch.setitem(cli.COMMANDS, "simulate", command)
    assert cli.main(["simulate"]) == 130
    err = capsys.readouterr().err
    assert err == "slashersim: interrupted\n"


def test_timeline_png_refusals(capsys, no_play, tmp_path):
    record = tmp_path / "rec.json"
    record.write_text(json.dumps({"format": "slashersim game record 2", "config": {},
                                  "policy": "baseline", "seed": 0, "game": 1, "events": []}))
    refused(capsys, "is the input file", "luck", "timeline", str(record), "--png", str(record))
    refused(capsys, "is a folder", "luck", "timeline", str(record), "--png", str(tmp_path))
    assert json.loads(record.read_text())["game"] == 1


def test_atomic_writes_get_the_usual_file_permissions(tmp_path):
    """Outputs are readable like any new file (umask), not 0600 like the temporary file."""
    import os

    from slashersim.core.inputs import write_atomic
    umask = os.umask(0o022)
    try:
        write_atomic(tmp_path / "out.txt", lambda f: f.write("x"))
    finally:
        os.umask(umask)
    assert (tmp_path / "out.txt").stat().st_mode & 0o777 == 0o644


def test_ctrl_c_during_a_kernel_call_is_held_until_it_returns():
    """numba turns an interrupt raised while it dispatches into a TypeError: the runner holds
    Ctrl-C until the kernel call has returned and raises KeyboardInterrupt then. (Python's own
    handler is installed first: a background job starts with SIGINT ignored.)"""
    import signal

    from slashersim.runner import held_interrupt
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        finished = False
        with pytest.raises(KeyboardInterrupt):
            with held_interrupt():
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)
                finished = True
        assert finished and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        with held_interrupt():
            pass
    finally:
        signal.signal(signal.SIGINT, previous)


def test_every_policy_compiled_apart_from_the_engine_is_announced():
    """A policy with a fast path has kernels of its own (``runner.kernels.FAST``); every other
    registered policy is a part of its own whose first compilation is announced."""
    from slashersim.runner.kernels import FAST
    fast = {name for name, spec in policies.POLICIES.items() if spec.fast}
    assert fast == set(FAST) == {"baseline"}
    for name in set(policies.policy_names()) - fast:
        assert [p.name for p in policies.compile_parts([name])] == ["engine", name]
        assert policies.compile_part(name).label


# --- no output over an input -----------------------------------------------------------------
def test_no_output_is_a_file_the_command_reads(capsys, no_play, tmp_path, monkeypatch):
    """An output that is an input (by its path, another spelling of it or a link to it), two
    outputs that are one file, and a figure named for another format: refused, files kept."""
    monkeypatch.chdir(tmp_path)
    bog = (ROOT / "examples" / "bog.toml").read_text()
    (tmp_path / "in.toml").write_text(bog)
    (tmp_path / "link.toml").symlink_to(tmp_path / "in.toml")
    refused(capsys, "--record-out 'in.toml' is the input file 'in.toml' (--cards); choose "
            "another output", "simulate", "--games", "10", "--record", "3", "--record-out",
            "in.toml", "--cards", "in.toml")
    refused(capsys, "--record-out './sub/../in.toml' is the input file", "simulate", "--games",
            "10", "--record", "3", "--record-out", "./sub/../in.toml", "--cards", "in.toml")
    refused(capsys, "--record-out 'link.toml' is the input file 'in.toml' (--cards)",
            "simulate", "--games", "10", "--record", "3", "--record-out", "link.toml",
            "--cards", "in.toml")
    refused(capsys, "--png 'in.toml' is the input file 'in.toml' (--variant)", "compare",
            "--games", "10", "--variant", "bog: cards=in.toml", "--png", "in.toml")
    refused(capsys, "--png 'out.txt' writes a PNG image: give it a name ending in .png",
            "compare", "--games", "10", "--png", "out.txt")
    record = tmp_path / "rec.json"
    record.write_text(json.dumps({"format": "slashersim game record 2", "config": {},
                                  "policy": "baseline", "seed": 0, "game": 1, "events": []}))
    refused(capsys, "--png 'rec.json' is the input file 'rec.json' (the file)", "luck",
            "timeline", "rec.json", "--png", "rec.json")
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC + 'cards = ["in.toml", "printed"]\n')
    refused(capsys, "--out 'in.toml' is the input file 'in.toml'", "sweep", "spec.toml",
            "--out", "in.toml")
    assert (tmp_path / "in.toml").read_text() == bog
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.toml", "link.toml", "rec.json",
                                                          "spec.toml"]
