"""How fast can the expert play at each strength? Speed and strength of its settings side by side.

    python experiments/bench_expert_frontier.py [--games N] [--search-games N] [--seed S]
        [--seconds S] [--threads T] --out results/expert_frontier.md

Issue 11 asks for an expert within 0.02 of ``search`` at 20,000 games/s per core. This
experiment measures, for the settings that make the expert cheaper, both at once:

1. **Speed**: games per second on one thread and on all threads at the rulebook defaults
   (:func:`slashersim.bench.policy_speed`: sized to about ``--seconds`` per run, best of 3).
2. **Strength**: each setting against ``search`` on the same games (seed 2026: the games of
   ``results/policies.md``) in the three configurations of issue 11, with the 95 % interval
   of the paired per-game differences.

Measure on an idle machine: the speed columns are wall-clock rates.
"""
import argparse
from datetime import date
from pathlib import Path
import sys
import time

from slashersim.analysis.compare import compare_policies, pair
from slashersim.bench import SPEED_TARGETS, policy_speed
from slashersim.config import GameConfig
from slashersim.policies import param_vector
from slashersim.present import format_ci

CONFIGS = (("rulebook defaults", GameConfig()),
           ("health 5", GameConfig(health=5)),
           ("instructions defaults", GameConfig(edition="instructions")))
#: (label, policy, parameter overrides): the defaults first, then ever cheaper settings
SETTINGS = (("expert defaults (16 rollouts per lead class)", "expert", {}),
            ("tighter pruning (prune_margin 10)", "expert", {"prune_margin": 10}),
            ("8 rollouts", "expert", {"lead_samples": 8}),
            ("4 rollouts", "expert", {"lead_samples": 4}),
            ("no exact area checks (dd_from 8)", "expert", {"dd_from": 8}),
            ("no rollouts", "expert", {"lead_samples": 0}),
            ("no rollouts, no exact area checks", "expert", {"lead_samples": 0, "dd_from": 8}),
            ("heuristic (casual)", "heuristic", {}))
#: the target of issue 11: games per second per core, and the largest shortfall to search
TARGET = SPEED_TARGETS["expert"]
MARGIN = -0.02


def _labels():
    """Row labels of :func:`compare_policies`: a policy named k times is NAME, NAME#2, ..."""
    seen = {}
    out = []
    for _, policy, _ in SETTINGS:
        seen[policy] = seen.get(policy, 0) + 1
        out.append(policy if seen[policy] == 1 else f"{policy}#{seen[policy]}")
    return out


def strength(games, search_games, seed, threads):
    """``{(setting index, configuration title): (difference, interval)}`` against search."""
    labels = _labels()
    policies = [policy for _, policy, _ in SETTINGS] + ["search"]
    params = {label: over for label, (_, _, over) in zip(labels, SETTINGS) if over}
    counts = {label: games for label in labels}
    counts["search"] = search_games
    out = {}
    for title, config in CONFIGS:
        r = compare_policies(config, policies, games=counts, seed=seed, threads=threads,
                             params=params)
        for i, label in enumerate(labels):
            p = pair(r, "search", label)
            out[i, title] = (p["difference"], p["difference_ci"])
        print(f"  strength: {title} done", file=sys.stderr, flush=True)
    return out


#: the seed of the speed runs (game g of each run is the same for every setting)
SPEED_SEED = 12345


def speeds(seconds):
    """``[policy_speed result]`` per setting, at the rulebook defaults."""
    rows = []
    for name, policy, over in SETTINGS:
        rows.append(policy_speed(policy, seconds=seconds, seed=SPEED_SEED,
                                 params=param_vector(policy, over)))
        print(f"  speed: {name} done", file=sys.stderr, flush=True)
    return rows


def report(rows, diffs, games, search_games, seed):
    threads = rows[0]["threads"]
    lines = ["| setting | games per run | 1 thread | " f"{threads} threads | per core | "
             + " | ".join(f"{t}: − search | 95 % CI" for t, _ in CONFIGS) + " |",
             "| --- | ---: | ---: | ---: | ---: | "
             + " | ".join("---: | ---" for _ in CONFIGS) + " |"]
    both = []
    for i, ((name, _, _), b) in enumerate(zip(SETTINGS, rows)):
        per_core = min(b["games_per_s_1_thread"], b["games_per_s_per_core_all_threads"])
        cells = []
        strong = True
        for title, _ in CONFIGS:
            d, ci = diffs[i, title]
            cells.append(f"{d:+.4f} | {format_ci(ci, signed=True)}")
            strong &= d >= MARGIN
        if strong and per_core >= TARGET:
            both.append(name)
        lines.append(f"| {name} | {b['games']:,} | {b['games_per_s_1_thread']:,.0f} | "
                     f"{b['games_per_s_all_threads']:,.0f} | "
                     f"{b['games_per_s_per_core_all_threads']:,.0f} | " + " | ".join(cells) + " |")
    verdict = (f"Settings within {abs(MARGIN)} of search in all three configurations at "
               f"{TARGET:,} games/s per core or more (per core: the lesser of the one-thread "
               f"rate and the all-threads rate per core): "
               + (", ".join(both) if both else "**none**") + ".")
    intro = [f"Speed: games per second at the rulebook defaults, best of {rows[0]['repeats']} "
             f"runs per setting of the game count shown (sized to about the same time), seed "
             f"{SPEED_SEED}; {threads} threads = all cores. "
             f"Strength: seed {seed}, {games:,} games per setting and {search_games:,} for "
             "search, each difference over the games both played with the 95 % interval of "
             "the paired per-game differences (the games of `results/policies.md`).", "",
             verdict, ""]
    return intro + lines + [""]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--search-games", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    for name in ("games", "search_games"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if not args.seconds > 0:
        ap.error(f"--seconds must be positive, got {args.seconds}")
    start = time.time()
    rows = speeds(args.seconds)
    diffs = strength(args.games, args.search_games, args.seed, args.threads)
    command = "python experiments/bench_expert_frontier.py" + "".join(
        f" {a}" for a in (argv if argv is not None else sys.argv[1:]))
    head = ["# The expert's speed against its strength", "",
            f"Generated {date.today().isoformat()} by `{command}` in "
            f"{time.time() - start:,.0f} s. Players: `expert` in the settings named (the rest "
            "at its defaults), the `heuristic` at its defaults for scale, `search` at its "
            "defaults as the yardstick.", "",
            f"Issue 11's target: within {abs(MARGIN)} of search and at least {TARGET:,} "
            "games/s per core.", ""]
    args.out.write_text("\n".join(head + report(rows, diffs, args.games, args.search_games,
                                                args.seed)))
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
