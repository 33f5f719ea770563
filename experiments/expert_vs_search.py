"""The expert against search on the same games, and the expert's speed.

    python experiments/expert_vs_search.py [--games N] [--search-games N] [--seed S]
        [--threads T] [--out results/expert.md]

For the rulebook defaults, starting health 5 and the instructions defaults, search, the
expert and the heuristic play games 0 .. n-1 of the seed (common random numbers: game g is
the same deal for each); the expert's paired difference from search, with its 95 %
interval, is taken over the games both played (``--search-games``, default 20,000). Then the
expert's and the heuristic's speed, ``slashersim.bench.policy_speed`` (games per second on one
thread and on all, after compilation, rulebook defaults). Targets (the issue's): the expert
no more than 0.02 below search in each configuration, and at least 20,000 games/s per core.
"""
import argparse
from datetime import date
from pathlib import Path
import time

from slashersim.analysis.compare import compare_policies, format_ci, pair
from slashersim.bench import policy_speed
from slashersim.config import GameConfig

CONFIGS = (("rulebook defaults", {}), ("health 5", {"health": 5}),
           ("instructions defaults", {"edition": "instructions"}))
MARGIN = 0.02
SPEED_TARGET = 20_000


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000,
                    help="games of the expert and the heuristic per configuration")
    ap.add_argument("--search-games", type=int, default=20_000,
                    help="games of search per configuration (the paired comparison)")
    ap.add_argument("--seed", type=int, default=2027)
    ap.add_argument("--threads", type=int, default=None, help="numba threads (default: all)")
    ap.add_argument("--out", type=Path, help="also write the tables as Markdown here")
    args = ap.parse_args()
    t0 = time.perf_counter()
    lines = [f"# The expert against search", "",
             f"Generated {date.today()} by `python experiments/expert_vs_search.py "
             f"--games {args.games} --search-games {args.search_games} --seed {args.seed}`. "
             "Common random numbers: game g is the same deal for every policy; paired "
             "differences over the games both played, 95 % intervals.", "",
             "| configuration | policy | games | win rate | 95 % CI | loss by health | "
             "loss by traps |", "| --- | --- | ---: | ---: | --- | ---: | ---: |"]
    diffs = []
    for title, knobs in CONFIGS:
        cfg = GameConfig(**knobs)
        r = compare_policies(cfg, ["search", "expert", "heuristic"],
                             games={"search": args.search_games, None: args.games},
                             seed=args.seed, threads=args.threads)
        for row in r["policies"]:
            lines.append(f"| {title} | {row['label']} | {row['games']:,} | "
                         f"{row['win_rate']:.4f} | {format_ci(row['win_ci'])} | "
                         f"{row['loss_health']:.4f} | {row['loss_traps']:.4f} |")
        p = pair(r, "search", "expert")
        h = pair(r, "heuristic", "expert")
        diffs.append((title, p, h, r))
        print(f"{title}: expert - search {p['difference']:+.4f} "
              f"{format_ci(p['difference_ci'], True)} over {p['games']:,} games "
              f"(search {p['win_rate_a']:.4f}, expert {p['win_rate_b']:.4f}); "
              f"expert - heuristic {h['difference']:+.4f} {format_ci(h['difference_ci'], True)}"
              f" over {h['games']:,} games  [{time.perf_counter() - t0:.0f} s]", flush=True)
    lines += ["", "| configuration | games | expert − search | 95 % CI | target (≥ −0.02) | "
              "expert − heuristic | 95 % CI |", "| --- | ---: | ---: | --- | --- | ---: | --- |"]
    for title, p, h, _ in diffs:
        met = p["difference"] >= -MARGIN
        lines.append(f"| {title} | {p['games']:,} | {p['difference']:+.4f} | "
                     f"{format_ci(p['difference_ci'], True)} | "
                     f"{'met' if met else 'NOT met'}"
                     f"{'' if p['difference_ci'][0] >= -MARGIN else ' (interval reaches below)'}"
                     f" | {h['difference']:+.4f} | {format_ci(h['difference_ci'], True)} |")
    lines += ["", "Traps per round by area:", "",
              "| configuration | policy | " + " | ".join(
                  a for a in ("tent_site", "lodge", "lakeside", "hideaway", "cabins",
                              "woodland", "fire_pit")) + " |",
              "| --- | --- |" + " ---: |" * 7]
    for title, _, _, r in diffs:
        for row in r["policies"]:
            rates = row["trap_rate_by_area"]
            lines.append(f"| {title} | {row['label']} | " + " | ".join(
                "-" if rates[a] is None else f"{rates[a]:.3f}"
                for a in ("tent_site", "lodge", "lakeside", "hideaway", "cabins", "woodland",
                          "fire_pit")) + " |")
    lines += ["", "Speed (`slashersim.bench.policy_speed`, rulebook defaults, best of 3):", "",
              "| policy | 1 thread | all threads | threads | per core | target per core |",
              "| --- | ---: | ---: | ---: | ---: | --- |"]
    for policy in ("expert", "heuristic"):
        s = policy_speed(policy)
        per_core = s["games_per_s_per_core_all_threads"]
        target = s["target_per_core"]
        print(f"speed {policy}: 1 thread {s['games_per_s_1_thread']:,.0f} games/s, "
              f"{s['threads']} threads {s['games_per_s_all_threads']:,.0f} games/s "
              f"({per_core:,.0f} per core; target {target})", flush=True)
        lines.append(f"| {policy} | {s['games_per_s_1_thread']:,.0f} | "
                     f"{s['games_per_s_all_threads']:,.0f} | {s['threads']} | {per_core:,.0f} | "
                     f"{'-' if target is None else format(target, ',')}"
                     f"{'' if target is None else (' met' if s['target_met'] else ' NOT met')} |")
    search_rate = diffs[0][3]["policies"][0]
    lines.append(f"| search (from the rulebook comparison) | - | "
                 f"{search_rate['games'] / search_rate['elapsed_s']:,.0f} | - | - | - |")
    lines.append("")
    lines.append(f"Total {time.perf_counter() - t0:.0f} s.")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("\n".join(lines) + "\n")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
