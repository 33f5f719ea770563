"""The belief player against the expert and search on the same games, the no-talking yardstick
(``open_hands``) and ``omniscient`` above it, and the belief player's frontier of settings;
writes the belief report.

    python experiments/belief_frontier.py [--games N] [--yardstick-games N] [--frontier-games N]
        [--seed S] --out results/belief.md

Every player plays games ``0 .. n-1`` of the seed under each configuration, on one thread
(the speeds are one core's), so game ``g`` is the same deal, area deck and item deck for every
player (common random numbers) and differences are paired per game: the mean of the per-game
differences of the outcomes (1 won, 0 not) on the games both played, with the normal 95 %
interval of that mean. ``expert``, ``search`` and ``belief`` play ``--games`` games,
``open_hands`` and ``omniscient`` ``--yardstick-games``; the frontier's settings of ``belief``
play ``--frontier-games`` games of the rulebook defaults.
"""
import argparse
from datetime import date
from pathlib import Path
import sys
import time

import numpy as np

from slashersim.core.config import GameConfig
from slashersim.core.stats import wilson_interval
from slashersim.policies import param_vector
from slashersim.runner import simulate

CONFIGS = {
    "rulebook defaults": {},
    "instructions defaults": {"edition": "instructions"},
    "rulebook hard preset": {"difficulty": "hard"},
    "rulebook, health 5": {"health": 5},
}
MAIN = ("expert", "search", "belief")
YARDSTICKS = ("open_hands", "omniscient")
#: (label, overrides of belief's defaults)
FRONTIER = (
    ("defaults", {}),
    ("belief off (public facts only)", {"use_belief": 0}),
    ("heuristic rollouts", {"rollout_blueprint": 0}),
    ("samples 8", {"samples": 8}),
    ("samples 32", {"samples": 32}),
    ("threshold 10", {"threshold": 10}),
    ("leads all blueprint (search_leads_from 8)", {"search_leads_from": 8}),
    ("leads searched from trick 3", {"search_leads_from": 3}),
    ("every card searched, no belief (search_leads_from 0)", {"search_leads_from": 0}),
)
PAIRS = (("belief", "expert"), ("belief", "search"), ("open_hands", "belief"),
         ("omniscient", "open_hands"))


def play(config, policy, games, seed, overrides=None):
    """Per-game wins (0/1) and seconds of ``policy`` on games ``0 .. games-1``, one thread."""
    params = param_vector(policy, overrides) if overrides else None
    simulate(config, policy, games=1, seed=seed + 1, threads=1, params=params)  # compiled
    start = time.perf_counter()
    result = simulate(config, policy, games=games, seed=seed, threads=1, keep_records=True,
                      params=params)
    seconds = time.perf_counter() - start
    return (result.records["outcome"] == "win").to_numpy().astype(np.int8), seconds


def paired(a, b):
    """Mean of ``a - b`` over the games both played, its 95 % interval, and the count."""
    n = min(len(a), len(b))
    d = a[:n].astype(float) - b[:n]
    half = 1.96 * d.std(ddof=1) / np.sqrt(n)
    return d.mean(), d.mean() - half, d.mean() + half, n


def interval(wins):
    """The 95 % Wilson interval of a win rate."""
    lo, hi = wilson_interval(int(wins.sum()), len(wins))
    return f"[{lo:.4f}, {hi:.4f}]"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--yardstick-games", type=int, default=2000)
    ap.add_argument("--frontier-games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    command = "python experiments/belief_frontier.py " + " ".join(argv or sys.argv[1:])
    counts = {**{p: args.games for p in MAIN}, **{p: args.yardstick_games for p in YARDSTICKS}}
    lines = [
        "# The belief player: reading the partner's leads, toward the ceiling",
        "",
        f"Regenerate: `{command}` (seed {args.seed}; games 0..n-1 of each configuration: "
        f"{args.games} for expert, search and belief, {args.yardstick_games} for open_hands and "
        f"omniscient, {args.frontier_games} for each frontier setting of belief on the rulebook "
        f"defaults; every player on one thread, default parameters unless a row says "
        f"otherwise). Written {date.today().isoformat()}.",
        "",
        "Players: `expert` (the expert skill level), `search` (determinised search with "
        "heuristic rollouts), `belief` (blueprint leads read by the partner, searched answers on "
        "the hands those leads leave), `open_hands` (the same search seeing both hands: the "
        "team that could talk about its hands; not fair), `omniscient` (sees both hands and the "
        "item deck; not fair). Differences are paired per game (common random numbers), over "
        "the games both players played, with the normal 95 % interval of the mean difference.",
        "",
    ]
    speed = {}
    for label, cfg in CONFIGS.items():
        config = GameConfig.from_dict(cfg)
        wins = {}
        for policy in (*MAIN, *YARDSTICKS):
            wins[policy], sec = play(config, policy, counts[policy], args.seed)
            g, s = speed.get(policy, (0, 0.0))
            speed[policy] = (g + counts[policy], s + sec)
            print(f"{label}: {policy} {wins[policy].mean():.4f} over {counts[policy]} games, "
                  f"{counts[policy] / sec:.1f} games/s", file=sys.stderr, flush=True)
        lines += [f"## {label}", "", "| player | games | win rate | 95 % CI |",
                  "| --- | ---: | ---: | --- |"]
        for policy, w in wins.items():
            lines.append(f"| {policy} | {len(w)} | {w.mean():.4f} | {interval(w)} |")
        lines += ["", "| difference | paired games | mean | 95 % CI |",
                  "| --- | ---: | ---: | --- |"]
        for a, b in PAIRS:
            m, lo, hi, n = paired(wins[a], wins[b])
            lines.append(f"| {a} − {b} | {n} | {m:+.4f} | [{lo:+.4f}, {hi:+.4f}] |")
        lines.append("")
    lines += ["## Speed", "", "Games per second on one core, over all the configurations above.",
              "", "| player | games | seconds | games/s |", "| --- | ---: | ---: | ---: |"]
    for policy, (g, s) in speed.items():
        lines.append(f"| {policy} | {g} | {s:.1f} | {g / s:,.1f} |")
    lines += ["", "## The belief player's frontier (rulebook defaults)", "",
              f"Each setting of `belief` on games 0..{args.frontier_games - 1}, paired with the "
              "expert on the same games; cost is one core's milliseconds per game.", "",
              "| setting | win rate | − expert | 95 % CI | ms per game |",
              "| --- | ---: | ---: | --- | ---: |"]
    config = GameConfig.from_dict(CONFIGS["rulebook defaults"])
    expert, _ = play(config, "expert", args.frontier_games, args.seed)
    for label, over in FRONTIER:
        w, sec = play(config, "belief", args.frontier_games, args.seed, over)
        m, lo, hi, _ = paired(w, expert)
        print(f"frontier {label}: {w.mean():.4f}", file=sys.stderr, flush=True)
        lines.append(f"| {label} | {w.mean():.4f} | {m:+.4f} | [{lo:+.4f}, {hi:+.4f}] | "
                     f"{1000 * sec / args.frontier_games:.1f} |")
    lines.append("")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines))
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
