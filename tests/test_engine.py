"""Whole-game properties: invariants over many random games, determinism, JIT equivalence."""
import json
import os
from pathlib import Path
import subprocess
import sys

from helpers import run_python
import numpy as np
import pytest

from slashersim.core import layout as L
from slashersim.core import rules
from slashersim.core.config import GameConfig
from slashersim.runner import simulate

ROOT = Path(__file__).resolve().parents[1]
EDITIONS = ("rulebook", "instructions")


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("variant", [{}, {"hideaway": True, "cursed_object": False, "health": 3}])
def test_invariants_hold_over_many_games(edition, variant):
    """Card conservation, item conservation, health bounds and one trap per round, checked
    by the kernel at the end of every round of 10,000 games."""
    cfg = GameConfig(edition=edition, check_invariants=True, **variant)
    r = simulate(cfg, games=10_000, seed=11, keep_records=True)
    assert r.counts[L.K_VIOLATIONS] == 0
    rec = r.records
    assert rec["violations"].eq(0).all()
    assert rec["health_0"].between(0, 7).all() and rec["health_1"].between(0, 7).all()
    traps_by_area = rec[[f"traps_{a}" for a in rules.AREA_NAMES]].to_numpy()
    rounds_by_area = rec[[f"rounds_{a}" for a in rules.AREA_NAMES]].to_numpy()
    assert (traps_by_area <= rounds_by_area).all()
    assert (rounds_by_area.sum(axis=1) == rec["rounds"]).all()
    assert r.outcome("win") + r.outcome("loss_health") + r.outcome("loss_traps") \
        + r.outcome("timeout") == r.games
    lost_health = rec["outcome"] == "loss_health"
    assert ((rec.loc[lost_health, "health_0"] == 0) | (rec.loc[lost_health, "health_1"] == 0)).all()
    won = rec["outcome"] == "win"
    assert (rec.loc[won, "escapes"] >= cfg.escapes_needed).all()
    assert (rec.loc[rec["outcome"] == "loss_traps", "traps"] == cfg.traps).all()


def test_invariant_check_can_fail():
    """The invariant checker flags a corrupted state (so the test above can fail)."""
    from slashersim.engine.deal import setup_game, start_round
    from slashersim.engine.game import check_invariants
    from slashersim.engine.rng import seed_streams
    st = L.new_state(GameConfig().to_array())
    seed_streams(st, 1, 0, 0, 0)
    setup_game(st)
    start_round(st)
    check_invariants(st)
    assert st[L.S_VIOLATIONS] == 0
    st[L.S_HELD] |= 1 << rules.KILLER
    st[L.S_HEALTH] = 8
    st[L.S_HAND] |= st[L.S_HAND + 1] & -st[L.S_HAND + 1]
    check_invariants(st)
    assert st[L.S_VIOLATIONS] & L.V_ITEMS and st[L.S_VIOLATIONS] & L.V_HEALTH
    assert st[L.S_VIOLATIONS] & L.V_CARDS


@pytest.mark.parametrize("edition", EDITIONS)
def test_same_results_for_1_and_2_threads_and_any_chunking(edition):
    cfg = GameConfig(edition=edition)
    one = simulate(cfg, games=5000, seed=3, threads=1, keep_records=True)
    two = simulate(cfg, games=5000, seed=3, threads=2, keep_records=True)
    chunked = simulate(cfg, games=5000, seed=3, threads=2, chunk_size=777, keep_records=True)
    assert np.array_equal(one.counts, two.counts)
    assert np.array_equal(one.counts, chunked.counts)
    assert one.records.equals(two.records) and one.records.equals(chunked.records)


def test_split_runs_merge_exactly():
    cfg = GameConfig()
    whole = simulate(cfg, games=3000, seed=9)
    a = simulate(cfg, games=1000, seed=9)
    b = simulate(cfg, games=2000, seed=9, first_game=1000)
    assert np.array_equal(whole.counts, a.counts + b.counts)


def test_different_seeds_differ_and_same_seed_repeats():
    a = simulate(games=2000, seed=1)
    assert np.array_equal(a.counts, simulate(games=2000, seed=1).counts)
    assert not np.array_equal(a.counts, simulate(games=2000, seed=2).counts)


def test_common_random_numbers_share_deals_and_decks():
    """Changing a knob that does not touch set-up leaves the first deal, area and the Killer's
    position unchanged game by game."""
    a = simulate(GameConfig(health=7), games=500, seed=4, keep_records=True).records
    b = simulate(GameConfig(health=4), games=500, seed=4, keep_records=True).records
    for col in ("killer_start", "first_area", "first_trump", "first_yellows_0"):
        assert a[col].equals(b[col])


_JIT_SCRIPT = """
import json, sys
import numpy as np
from slashersim.core.config import GameConfig
from slashersim.runner import simulate
out = {}
for edition in ("rulebook", "instructions"):
    for health in (7, 3):
        cfg = GameConfig(edition=edition, health=health, hideaway=True, check_invariants=True)
        r = simulate(cfg, games=60, seed=21, keep_records=True)
        out[f"{edition}-{health}"] = r.records.drop(columns=["outcome"]).to_numpy().tolist()
print(json.dumps(out))
"""


def test_numba_on_and_off_give_identical_games():
    jit, py = (json.loads(run_python(_JIT_SCRIPT, off)) for off in (False, True))
    assert jit.keys() == py.keys()
    for key in jit:
        assert jit[key] == py[key], key


def test_timeout_is_its_own_outcome():
    r = simulate(GameConfig(max_rounds=1), games=2000, seed=2)
    assert r.outcome("timeout") > 0
    assert r.outcome("timeout") + r.outcome("win") + r.outcome("loss_health") \
        + r.outcome("loss_traps") == 2000


def test_killer_start_is_uniform_and_forced_positions_hold():
    r = simulate(GameConfig(), games=14_000, seed=8)
    ks = r.win_rate_by_killer_start()
    assert sorted(ks, key=int) == [str(k) for k in range(1, 8)]
    for k, (n, _) in ks.items():
        assert abs(n - 2000) < 5 * np.sqrt(2000), k
    forced = simulate(GameConfig(killer_position=3), games=500, seed=8, keep_records=True)
    assert forced.records["killer_start"].eq(3).all()
    inst = simulate(GameConfig(edition="instructions"), games=13_000, seed=8)
    assert sorted(inst.win_rate_by_killer_start(), key=int) == [str(k) for k in range(1, 14)]


def test_chunk_kernel_loads_from_the_disk_cache():
    """A second process loads the compiled kernel instead of compiling it again."""
    script = ("from slashersim.runner import simulate\n"
              "from slashersim.runner.kernels import chunk_baseline\n"
              "simulate(games=10)\n"
              "print(sum(chunk_baseline.stats.cache_hits.values()))\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NUMBA_DISABLE_JIT", None)
    simulate(games=10)
    p = subprocess.run([sys.executable, "-W", "always", "-c", script], env=env, cwd=ROOT,
                       capture_output=True, text=True, check=True)
    assert "Cannot cache" not in p.stderr
    assert int(p.stdout.strip()) >= 1


def test_importing_the_kernels_compiles_none():
    """Importing the engine and the runner's kernels compiles nothing: each kernel compiles
    on its first call (most of a minute from a clean cache), and a run compiles only the
    kernels of the player it plays."""
    out = run_python("import slashersim.engine.game as g, slashersim.engine.luck_kernels as l\n"
                     "import slashersim.runner.kernels as k\n"
                     "from slashersim.engine.lazy import LazyKernel\n"
                     "ks = {n: x for m in (g, l, k) for n, x in vars(m).items()\n"
                     "      if isinstance(x, LazyKernel)}\n"
                     "print(sorted(n for n, x in ks.items() if x.dispatcher.overloads))\n"
                     "print('chunk' in ks and 'chunk_baseline' in ks and 'aggregate' in ks)\n")
    assert out.split("\n")[:2] == ["[]", "True"]


def test_a_baseline_run_compiles_only_the_baseline_kernel():
    """The fast path is chosen where the kernel is built: a baseline run compiles its own
    kernel, never the function-pointer one."""
    out = run_python("from slashersim.runner import simulate\n"
                     "import slashersim.runner.kernels as k\n"
                     "simulate(games=5)\n"
                     "print(sorted(n for n in ('chunk', 'chunk_baseline')\n"
                     "             if getattr(k, n).dispatcher.overloads))\n")
    assert out.split("\n")[0] == "['chunk_baseline']"


def test_a_position_s_play_outs_compile_no_game_kernel():
    """``luck state`` plays a position out and plays no whole game: it compiles the play-outs
    alone, never the game kernel."""
    state = Path(__file__).resolve().parents[1] / "experiments" / "state_example.json"
    out = run_python("from slashersim import api\n"
                     "import slashersim.runner.kernels as k\n"
                     f"api.luck_state({str(state)!r}, games=20)\n"
                     "print(sorted(n for n in ('chunk', 'decision_rollouts')\n"
                     "             if getattr(k, n).dispatcher.overloads))\n")
    assert out.split("\n")[0] == "['decision_rollouts']"


@pytest.mark.parametrize("hold", [None, ((0,), 2)], ids=["per-game", "held"])
def test_simulate_compiles_its_kernel_before_its_clock_starts(monkeypatch, hold):
    """The kernels compile on first call (most of a minute from a clean cache): ``simulate``
    must compile them before it starts timing, or ``elapsed_s`` and every games/s figure built
    on it (``simulate``'s output, the speed table of the policies report) count the compile."""
    from types import SimpleNamespace

    import slashersim.runner as runner
    from slashersim.runner import kernels
    events = []

    class Watched:
        def __init__(self, kernel):
            self.kernel = kernel

        def compile(self):
            events.append("compile")
            return self.kernel.compile()

        def __call__(self, *args):
            events.append("play")
            return self.kernel(*args)

    fast = kernels.FAST["baseline"]
    monkeypatch.setitem(kernels.FAST, "baseline", fast._replace(
        chunk_kernel=Watched(fast.chunk_kernel)))
    clock = runner.time.perf_counter
    monkeypatch.setattr(runner, "time", SimpleNamespace(
        perf_counter=lambda: events.append("clock") or clock()))
    r = simulate(games=3, seed=5, hold=hold)
    assert r.games == 3
    assert "compile" in events and events.index("compile") < events.index("clock") \
        < events.index("play")


@pytest.mark.parametrize("edition", EDITIONS)
def test_fast_path_and_function_pointer_play_the_same_games(edition):
    """The baseline compiled into its kernel and the baseline called through its function
    pointer (how every other policy is called) give identical records."""
    from slashersim.policies.baseline import decide
    from slashersim.runner.kernels import chunk, chunk_baseline
    cfg = GameConfig(edition=edition, hideaway=True).to_array()
    params = np.zeros(0)
    out = []
    for run in (lambda rec: chunk(decide, cfg, params, 17, 0, rec, 0, 1),
                lambda rec: chunk_baseline(cfg, params, 17, 0, rec, 0, 1)):
        rec = np.zeros((3000, L.RECORD_SIZE), dtype=np.int32)
        run(rec)
        out.append(rec)
    assert np.array_equal(out[0], out[1])


def test_small_chunks_are_cut_into_small_blocks():
    """A slow policy's kernel call of a few dozen games still spreads over the threads."""
    from slashersim.engine.game import BLOCK, MIN_BLOCKS, block_size
    assert block_size(1 << 16) == BLOCK
    assert block_size(MIN_BLOCKS * 3) == 3 and block_size(10) == 1 and block_size(0) == 1
