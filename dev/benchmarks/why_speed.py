"""How fast the fatal decisions are found, and how many stay undecided, per solver budget.

The target: the fatal decisions of ``--lost`` (2,000) lost expert games at the rulebook
defaults within 10 minutes on 2 cores (``--workers 2``), under 1 % of them undecided. Then the
frontier for the hard presets: for each budget (rounds the solver may expand per game), the
time per lost game, the undecided share and the widest 95 % interval of the profile's shares,
on ``--frontier-lost`` lost games of each preset.

The lost games are the first ones of a run of ``seed`` (the games ``slashersim simulate``
plays). Wall-clock time of ``analysis.why.fatal_rows`` with the compiled code already loaded
(one warm-up game first); ``--out FILE.md`` writes the figures as a report too.

    python dev/benchmarks/why_speed.py [--lost 2000] [--budget 4000] [--workers 2]
        [--frontier-lost 200] [--budgets 500,2000,8000] [--seed 11] [--out FILE.md]
"""
import argparse
import datetime
import os
from pathlib import Path
import platform
import sys
import time

HERE = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(HERE))

from slashersim.analysis import fatal as F  # noqa: E402
from slashersim.analysis.why import fatal_rows  # noqa: E402
from slashersim.core.config import GameConfig  # noqa: E402
from slashersim.core.stats import wilson_interval  # noqa: E402
from slashersim.runner import simulate  # noqa: E402

PRESETS = {"rulebook hard": {"difficulty": "hard"},
           "instructions hard": {"edition": "instructions", "difficulty": "hard"}}


def lost_games(config, policy, seed, n):
    """The first ``n`` lost games of a run of ``seed``."""
    games, lost = 4 * n, []
    while len(lost) < n:
        r = simulate(config, policy, games, seed, keep_records=True).records
        lost = r.loc[r["outcome"] != "win", "game"].tolist()
        games *= 2
    return lost[:n]


def measure(config, policy, seed, games, budget, workers):
    """``(seconds, rows)`` of the fatal decisions of ``games``."""
    fatal_rows(config, policy, seed, games[:1], budget=budget, workers=1)     # warm-up
    t = time.perf_counter()
    rows = fatal_rows(config, policy, seed, games, budget=budget, workers=workers)
    return time.perf_counter() - t, rows


def figures(seconds, rows):
    n = len(rows)
    counts = {v: sum(r["verdict"] == v for r in rows) for v in F.VERDICTS}
    widest = max(wilson_interval(k, n)[1] - wilson_interval(k, n)[0] for k in counts.values())
    lo, hi = wilson_interval(counts[F.UNDECIDED], n)
    return {"games": n, "seconds": seconds, "per_game": seconds / n,
            "undecided": counts[F.UNDECIDED], "undecided_share": counts[F.UNDECIDED] / n,
            "undecided_ci": (lo, hi), "widest_ci": widest, "counts": counts}


def line(label, budget, f):
    lo, hi = f["undecided_ci"]
    c = f["counts"]
    return (f"| {label} | {budget:,} | {f['games']:,} | {f['seconds']:.0f} | "
            f"{f['per_game']:.3f} | {f['undecided']} ({f['undecided_share']:.2%}, "
            f"[{lo:.2%}, {hi:.2%}]) | {c[F.DEAL]} | {c[F.AVOIDABLE]} | {c[F.HINDSIGHT]} | "
            f"{f['widest_ci']:.3f} |")


HEAD = ("| configuration | budget | lost games | seconds | s per game | undecided (share, 95 % "
        "CI) | at the deal | avoidable | hindsight | widest 95 % CI of a share |\n"
        "| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lost", type=int, default=2000)
    ap.add_argument("--budget", type=int, default=F.BUDGET)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--frontier-lost", type=int, default=200)
    ap.add_argument("--budgets", default="500,2000,8000")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--policy", default="expert")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    out = []

    def say(text=""):
        print(text, flush=True)
        out.append(text)

    say("# Fatal decisions: time and undecided share per solver budget")
    say()
    say(f"Regenerate: `python dev/benchmarks/why_speed.py --lost {args.lost} --budget "
        f"{args.budget} --workers {args.workers} --frontier-lost {args.frontier_lost} "
        f"--budgets {args.budgets} --seed {args.seed}` (player {args.policy}; the first lost "
        f"games of seed {args.seed}; wall-clock seconds, compiled code loaded). Measured "
        f"{datetime.date.today()} on {os.cpu_count()} cores ({platform.machine()}).")
    say()
    say("## The target: rulebook defaults")
    say()
    say(HEAD)
    games = lost_games(GameConfig(), args.policy, args.seed, args.lost)
    f = figures(*measure(GameConfig(), args.policy, args.seed, games, args.budget,
                         args.workers))
    say(line("rulebook defaults", args.budget, f))
    met = f["seconds"] <= 600 and f["undecided_share"] < 0.01
    say()
    say(f"Target (at most 600 s, under 1 % undecided): {'met' if met else 'NOT met'}.")
    say()
    say("## The frontier: the hard presets, per budget")
    say()
    say(HEAD)
    for label, knobs in PRESETS.items():
        config = GameConfig.of(None, knobs)
        games = lost_games(config, args.policy, args.seed, args.frontier_lost)
        for budget in (int(b) for b in args.budgets.split(",")):
            say(line(label, budget, figures(*measure(config, args.policy, args.seed, games,
                                                      budget, args.workers))))
    if args.out:
        Path(args.out).write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
