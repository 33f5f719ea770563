"""What the play-phase item windows of ``item_timing = any_time`` are worth to the players.

    python experiments/any_time_windows.py [--games 1000000] [--slow-games 4000] [--seed 2026]
        --out results/any_time_windows.md

At the ``instructions`` defaults (where ``any_time`` is the rule), each policy that uses the
windows (heuristic, search, omniscient: parameter ``any_time_items``) plays the same games
with the windows used (1) and unused (0); the report gives the paired difference of win
rates with its 95 % interval. Search and omniscient play ``--slow-games`` games.
"""
import argparse
from pathlib import Path
import sys
import time

from slashersim.analysis.compare import compare_policies
from slashersim.core.config import GameConfig
from slashersim.present.text import format_ci

POLICIES = ("heuristic", "search", "omniscient")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--slow-games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    config = GameConfig(edition="instructions")
    rows = []
    t0 = time.perf_counter()
    for policy in POLICIES:
        games = args.games if policy == "heuristic" else args.slow_games
        r = compare_policies(config, [policy, policy], games=games, seed=args.seed,
                             params={f"{policy}#2": {"any_time_items": 0}})
        p = r["pairs"][0]
        used, unused = r["policies"][0], r["policies"][1]
        rows.append(f"| {policy} | {games:,} | {unused['win_rate']:.4f} | "
                    f"{used['win_rate']:.4f} | {-p['difference']:+.4f} | "
                    f"{format_ci([-p['difference_ci'][1], -p['difference_ci'][0]], True)} |")
        print(rows[-1], file=sys.stderr)
    lines = [
        "# The play-phase item windows under `instructions`",
        "",
        f"Made by `python experiments/any_time_windows.py --games {args.games} --slow-games "
        f"{args.slow_games} --seed {args.seed} --out {args.out}` "
        f"({time.perf_counter() - t0:.0f} s on 2 cores).",
        "",
        "`instructions` defaults (`item_timing = any_time`: item windows also at the start of "
        "each play phase and after each trick). Each player plays the same games (seed "
        f"{args.seed}, common random numbers) using the windows (`any_time_items = 1`, its "
        "default) and not using them (`any_time_items = 0`): a Lucky Charm as soon as a trap "
        "is set off, and First Aid after the last trick when the colour it gives the whites "
        "lowers the cost of the cards won. The numbers hold for the player named in each row.",
        "",
        "| player | games | win rate, windows unused | win rate, windows used | "
        "difference | 95 % CI (paired) |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
        *rows,
    ]
    Path(args.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
