"""What a fast path gains: a player with kernels of its own (the policy compiled into its
game flow, ``runner.kernels.FAST``) against the same player passed as a function pointer to the
kernel every other player shares (``runner.kernels.chunk``), on the same games.

Each of ``--processes`` fresh processes times ``--games`` games of each kernel on one thread
``--repeats`` times, alternating, and keeps each kernel's fastest; the figure is the median
over the processes of the ratio pointer / fast path (how many times longer the games take
without the fast path), with the range.

    python dev/benchmarks/fast_paths.py [--policies baseline,heuristic] [--games 100000]
        [--repeats 3] [--processes 5]
"""
import argparse
import os
from pathlib import Path
import statistics
import subprocess
import sys

#: the repository root (this file is dev/benchmarks/fast_paths.py)
HERE = Path(__file__).resolve().parents[2]

CHILD = r"""
import sys, time
import numba
import numpy as np
numba.set_num_threads(1)
from slashersim.core import layout as L
from slashersim.core.config import GameConfig
from slashersim.policies import get_policy, param_vector
from slashersim.runner.kernels import FAST, chunk
name, games, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cfg, params = GameConfig().to_array(), param_vector(name)
decide, fast = get_policy(name).decide, FAST[name]
runs = {"pointer": lambda rec: chunk(decide, cfg, params, 5, 0, rec, 0, 1),
        "fast": lambda rec: fast.chunk(cfg, params, 5, 0, rec)}
out = {}
for label, run in runs.items():
    run(np.zeros((100, L.RECORD_SIZE), dtype=np.int32))
    out[label] = np.zeros((games, L.RECORD_SIZE), dtype=np.int32)
best = {label: float("inf") for label in runs}
for _ in range(repeats):
    for label, run in runs.items():
        t = time.process_time()
        run(out[label])
        best[label] = min(best[label], time.process_time() - t)
assert np.array_equal(out["pointer"], out["fast"])
print(best["pointer"], best["fast"])
"""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policies", default="baseline,heuristic")
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--processes", type=int, default=5)
    args = ap.parse_args(argv)
    env = {**os.environ, "PYTHONPATH": str(HERE)}
    for name in args.policies.split(","):
        ratios = []
        for k in range(args.processes):
            out = subprocess.run([sys.executable, "-c", CHILD, name, str(args.games),
                                  str(args.repeats)], env=env, cwd=HERE, capture_output=True,
                                 text=True, check=True).stdout.split()
            pointer, fast = float(out[-2]), float(out[-1])
            ratios.append(pointer / fast)
            print(f"{name} process {k + 1}: pointer {pointer:.3f} s, fast path {fast:.3f} s, "
                  f"pointer/fast {pointer / fast:.3f}", flush=True)
        print(f"{name}, {args.games:,} games, fastest of {args.repeats}, {args.processes} "
              f"processes: pointer/fast CPU time {statistics.median(ratios):.3f} "
              f"(range {min(ratios):.3f}-{max(ratios):.3f})", flush=True)


if __name__ == "__main__":
    main()
