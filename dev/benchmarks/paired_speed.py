"""How much faster or slower one version of slashersim plays than another: the ratio of the CPU
time of the same games, new / old, with its 95 % interval.

The time of the same compiled kernel differs by about a tenth from one process to the next
(where the JIT places its code), so one pair of runs cannot tell 5 % apart. Each of ``--pairs``
pairs starts a fresh process for each checkout in turn (new, then old), each loading its
kernels (``--old DIR``, ``--new DIR``, default this one, first on ``PYTHONPATH``) and timing
``--games`` games of ``--policy`` on ``--threads`` threads ``--repeats`` times, keeping the
fastest; the figure is the median of the pairs' ratios, and its interval a bootstrap over the
pairs. On one thread the time is the process's CPU time; on more, the wall time (the CPU time
of several threads counts their waiting for each other too).

    python dev/benchmarks/paired_speed.py --old /tmp/before [--new .] [--policy baseline]
        [--games 200000] [--repeats 3] [--pairs 10] [--threads 1]
"""
import argparse
import os
from pathlib import Path
import statistics
import subprocess
import sys

import numpy as np

#: the repository root (this file is dev/benchmarks/paired_speed.py)
HERE = Path(__file__).resolve().parents[2]

CHILD = r"""
import os, sys, time
import numba
threads = int(sys.argv[5])
numba.set_num_threads(threads)
clock = time.process_time if threads == 1 else time.perf_counter
if os.path.isdir(os.path.join(sys.argv[1], "slashersim", "core")):
    from slashersim.core.config import GameConfig
else:
    from slashersim.config import GameConfig
from slashersim.runner import simulate
policy, games, repeats = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
simulate(GameConfig(), policy=policy, games=min(games, 1000), seed=5)
times = []
for _ in range(repeats):
    t = clock()
    simulate(GameConfig(), policy=policy, games=games, seed=5)
    times.append(clock() - t)
print(min(times))
"""


def fastest(checkout, policy, games, repeats, threads=1):
    """The fastest of ``repeats`` times of ``games`` games in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    out = subprocess.run([sys.executable, "-c", CHILD, str(checkout), policy, str(games),
                          str(repeats), str(threads)], env=env, cwd=checkout,
                         capture_output=True, text=True, check=True).stdout
    return float(out.split()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", type=Path, required=True)
    ap.add_argument("--new", type=Path, default=HERE)
    ap.add_argument("--policy", default="baseline")
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--pairs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1, help="the bootstrap's seed")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    for name in ("old", "new"):
        if not (getattr(args, name) / "slashersim").is_dir():
            ap.error(f"--{name} {getattr(args, name)}: not a checkout of slashersim")
    ratios = []
    for k in range(args.pairs):
        new = fastest(args.new.resolve(), args.policy, args.games, args.repeats, args.threads)
        old = fastest(args.old.resolve(), args.policy, args.games, args.repeats, args.threads)
        ratios.append(new / old)
        print(f"pair {k + 1}: new {new:.3f} s, old {old:.3f} s, new/old {new / old:.4f}",
              flush=True)
    rng = np.random.default_rng(args.seed)
    boot = sorted(statistics.median(rng.choice(ratios, len(ratios))) for _ in range(2000))
    what = "CPU time, 1 thread" if args.threads == 1 else f"wall time, {args.threads} threads"
    print(f"{args.policy}, {args.games:,} games, fastest of {args.repeats}, {args.pairs} pairs: "
          f"new/old {what} {statistics.median(ratios):.3f} "
          f"[{boot[49]:.3f}, {boot[1949]:.3f}]")


if __name__ == "__main__":
    main()
