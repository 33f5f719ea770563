"""Sweep benchmark: one 1,000,000-game baseline cell through ``run_sweep`` versus bare
``simulate`` of the same games, after compilation; prints both times and the overhead.

    python experiments/bench_sweep.py [--games 1000000] [--repeats 3]
"""
import argparse
from pathlib import Path
import tempfile
import time

from slashersim.runner import simulate
from slashersim.sweeps import parse_spec, run_sweep


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    spec = parse_spec({"sweep": {"games": args.games, "seed": 1, "policies": ["baseline"]},
                       "base": {"edition": "rulebook"}, "axes": {"health": [7]}})
    simulate(games=1000)
    bare, swept = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeats):
            t = time.perf_counter()
            simulate(games=args.games, seed=1)
            bare.append(time.perf_counter() - t)
            t = time.perf_counter()
            run_sweep(spec, Path(tmp) / f"cell{i}.parquet")
            swept.append(time.perf_counter() - t)
    b, s = min(bare), min(swept)
    print(f"{args.games:,}-game baseline cell, best of {args.repeats}:")
    print(f"  bare simulate : {b:.3f} s ({args.games / b:,.0f} games/s)")
    print(f"  sweep (1 cell): {s:.3f} s ({args.games / s:,.0f} games/s)")
    print(f"  sweep overhead: {100 * (s - b) / b:+.1f} %")


if __name__ == "__main__":
    main()
