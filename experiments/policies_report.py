"""Compare the policies on common random numbers and write the policies report.

    python experiments/policies_report.py [--games SPEC] [--policies A,B,...] [--seed S]
        [--threads T] [--policy-param POLICY.NAME=VALUE ...] --out results/policies.md

For both editions and starting health 7, 5 and 3, every policy plays the same games of the seed
(game g is the same deal for every policy); slow policies play fewer (``--games`` takes
``N,NAME=N,...``), and each pair is compared over the games both played. The report lists per
configuration each policy's win rate with its 95 % Wilson interval, its paired difference from
the previous policy in strength order, loss causes and trap rates by area, and checks issue 3's
targets on the rulebook defaults.
"""
import argparse
from datetime import date
from pathlib import Path
import sys
import time

from slashersim.analysis.compare import compare_policies, pair
from slashersim.core.config import GameConfig
from slashersim.core.inputs import parse_games
from slashersim.core.rules import EDITION_NAMES
from slashersim.policies import get_policy, policy_names
from slashersim.policies.choice import parse_policy_params
from slashersim.present.text import format_ci, played_areas

#: the nominal strength order; other registered policies follow in registry order
STRENGTH_ORDER = ("baseline", "exerciser", "heuristic", "expert", "search", "omniscient")
HEALTHS = (7, 5, 3)
DEFAULT_GAMES = "1000000,expert=100000,search=100000,omniscient=4000"
DEFAULT_SEED = 2026
#: (stronger, weaker, margin): the stronger's win rate must reach the weaker's + margin on the
#: rulebook defaults
TARGETS = (("heuristic", "baseline", 0.25), ("search", "heuristic", 0.03),
           ("omniscient", "search", 0.0))
#: the expert must stay within this of the best fair yardstick (search) in these configurations
EXPERT_MARGIN = -0.02
EXPERT_CONFIGS = (("rulebook defaults", GameConfig()),
                  ("health 5", GameConfig(health=5)),
                  ("instructions defaults", GameConfig(edition="instructions")))


def strength_sorted(names):
    rank = {n: i for i, n in enumerate(STRENGTH_ORDER)}
    return sorted(dict.fromkeys(names), key=lambda n: (rank.get(n, len(rank)),
                                                       list(policy_names()).index(n)))


def configuration_section(title, r):
    """Markdown tables of one :func:`compare_policies` result."""
    lines = [f"### {title}", "",
             "| policy | games | win rate | 95 % CI | vs previous | paired games | difference "
             "| 95 % CI | loss by health | loss by traps | timeout |",
             "| --- | ---: | ---: | --- | --- | ---: | ---: | --- | ---: | ---: | ---: |"]
    previous = None
    for row in r["policies"]:
        name = row["label"] + (" (sees hidden cards)" if row["omniscient"] else "")
        if previous is None:
            diff = "- | - | - | -"
        else:
            p = pair(r, previous, row["label"])
            diff = (f"{previous} | {p['games']:,} | {p['difference']:+.4f} | "
                    f"{format_ci(p['difference_ci'], True)}")
        lines.append(f"| {name} | {row['games']:,} | {row['win_rate']:.4f} | "
                     f"{format_ci(row['win_ci'])} | {diff} | {row['loss_health']:.4f} | "
                     f"{row['loss_traps']:.4f} | {row['timeout']:.4f} |")
        previous = row["label"]
    areas = played_areas(r)
    lines += ["", "Traps set off per round played, by area:", "",
              "| policy | " + " | ".join(areas) + " |",
              "| --- |" + " ---: |" * len(areas)]
    for row in r["policies"]:
        rates = row["trap_rate_by_area"]
        lines.append(f"| {row['label']} | " + " | ".join(
            "-" if rates[a] is None else f"{rates[a]:.3f}" for a in areas) + " |")
    return lines + [""]


def targets_section(r):
    """Issue 3's targets checked on the rulebook-defaults result ``r``."""
    lines = ["## Targets (rulebook defaults, same games)", "",
             "| target | paired games | measured difference | 95 % CI | verdict |",
             "| --- | ---: | ---: | --- | --- |"]
    for strong, weak, margin in TARGETS:
        target = f"{strong} ≥ {weak} + {margin:.2f}"
        p = pair(r, weak, strong)
        if p is None:
            lines.append(f"| {target} | - | - | - | not checked: not run |")
            continue
        ci = p["difference_ci"]
        if p["difference"] >= margin:
            verdict = "met" + ("" if ci is None or ci[0] >= margin
                               else " (the interval reaches below the target)")
        else:
            verdict = "**not met**" + ("" if ci is None or ci[1] < margin
                                       else " (the interval reaches the target)")
        lines.append(f"| {target} | {p['games']:,} | {p['difference']:+.4f} | "
                     f"{format_ci(ci, True)} | {verdict} |")
    return lines + [""]


def expert_section(results):
    """The expert against search on the same games in :data:`EXPERT_CONFIGS`."""
    lines = ["## The expert against search (same games)", "",
             f"Target: expert − search ≥ {EXPERT_MARGIN:+.2f} in each configuration.", "",
             "| configuration | paired games | expert | search | expert − search | 95 % CI "
             "| verdict |", "| --- | ---: | ---: | ---: | ---: | --- | --- |"]
    for title, config in EXPERT_CONFIGS:
        r = results.get(config)
        p = None if r is None else pair(r, "search", "expert")
        if p is None:
            lines.append(f"| {title} | - | - | - | - | - | not run |")
            continue
        ci = p["difference_ci"]
        verdict = ("met" if ci[0] >= EXPERT_MARGIN else "met (the interval reaches below)") \
            if p["difference"] >= EXPERT_MARGIN else "**not met**"
        if p["difference"] > 0:
            verdict += "; the expert is ahead"
        lines.append(f"| {title} | {p['games']:,} | {p['win_rate_b']:.4f} | "
                     f"{p['win_rate_a']:.4f} | {p['difference']:+.4f} | "
                     f"{format_ci(ci, True)} | {verdict} |")
    return lines + [""]


def hidden_information_section(results):
    """Per configuration: omniscient − the best fair player, on the games both played."""
    lines = ["## What hidden information costs", "",
             "Per configuration, the yardstick that sees hidden cards (`omniscient`, which "
             "sees the partner's hand and the item deck) against the fair player with the best "
             "win rate there, on the games both played.", "",
             "| configuration | best fair player | its win rate | omniscient | cost | 95 % CI |",
             "| --- | --- | ---: | ---: | ---: | --- |"]
    for config, r in results.items():
        fair = [row for row in r["policies"] if not row["omniscient"]]
        upper = [row for row in r["policies"] if row["omniscient"]]
        if not fair or not upper:
            continue
        best = max(fair, key=lambda row: row["win_rate"])
        p = pair(r, best["label"], upper[0]["label"])
        lines.append(f"| {config.edition}, health {config.health} | {best['label']} | "
                     f"{p['win_rate_a']:.4f} | {p['win_rate_b']:.4f} | {p['difference']:+.4f} | "
                     f"{format_ci(p['difference_ci'], True)} |")
    return lines + [""]


def speed_section(results, threads):
    """Games per second of each player in this very run (all configurations pooled)."""
    games, seconds = {}, {}
    for r in results.values():
        for row in r["policies"]:
            games[row["label"]] = games.get(row["label"], 0) + row["games"]
            seconds[row["label"]] = seconds.get(row["label"], 0.0) + row["elapsed_s"]
    lines = ["## Speed in this run", "",
             f"Games per second of each player over all the configurations above, on "
             f"{threads} thread{'s' * (threads != 1)} of this 2-core machine (the same run as "
             "the figures; `slashersim bench --policies all` measures one and two threads "
             "alone).", "", "| player | games | seconds | games/s |",
             "| --- | ---: | ---: | ---: |"]
    for name in games:
        lines.append(f"| {name} | {games[name]:,} | {seconds[name]:,.1f} | "
                     f"{games[name] / max(seconds[name], 1e-9):,.0f} |")
    return lines + [""]


def build_report(policies, games, seed, threads=None, params=None,
                 command="python experiments/policies_report.py", log=None):
    """The report's markdown; ``log`` (e.g. ``print``) is told about each configuration."""
    t0 = time.perf_counter()
    policies = strength_sorted(policies)
    sections, targets, results = [], None, {}
    for edition in EDITION_NAMES:
        for health in HEALTHS:
            config = GameConfig(edition=edition, health=health)
            t = time.perf_counter()
            r = results[config] = compare_policies(config, policies, games, seed, threads,
                                                   params)
            if log:
                log(f"{edition} health {health}: {time.perf_counter() - t:.1f} s")
            if config == GameConfig():
                targets = r
            sections += configuration_section(f"{edition}, health {health}", r)
    counts = {row["label"]: row["games"] for row in targets["policies"]}
    upper = [p for p in policies if get_policy(p).omniscient]
    head = ["# Policies compared", "",
            f"Generated {date.today().isoformat()} by `{command}` in "
            f"{time.perf_counter() - t0:,.0f} s. Seed {seed}; games per policy: "
            + ", ".join(f"{n} {c:,}" for n, c in counts.items())
            + " (policy parameters: " + (", ".join(
                f"{p}.{k}={v:g}" for p, kv in (params or {}).items() for k, v in kv.items())
                or "defaults") + ").", "",
            "Every policy plays games 0, 1, 2, ... of the seed, and game g is the same deal, "
            "area deck and item deck for every policy (common random numbers). A policy's win "
            "rate is over all its games, with its 95 % Wilson interval; its difference from "
            "the previous policy in strength order is over the games both played (the first "
            "min of their counts), with the 95 % interval of the paired per-game differences. "
            "Loss causes are fractions of games; trap rates are traps set off per round "
            "played in the area."
            + (f" {', '.join(upper)} sees hidden cards: a yardstick, neither a fair player "
               "nor a bound (the exact solver wins games it loses: results/winnable.md)."
               if upper else "")
            + " The belief player and the open-hands yardstick are measured on paired games "
              "in results/belief.md (`python experiments/belief_frontier.py`).", ""]
    import numba
    used = threads or numba.config.NUMBA_NUM_THREADS
    return "\n".join(head + targets_section(targets) + expert_section(results)
                     + hidden_information_section(results) + speed_section(results, used)
                     + ["## By configuration", ""] + sections)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=DEFAULT_GAMES, type=parse_games,
                    help=f"N or N,NAME=N,... games per policy (default {DEFAULT_GAMES})")
    ap.add_argument("--policies", default=",".join(policy_names()),
                    help="comma-separated policies (default: every registered policy)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--policy-param", action="append", default=[],
                    metavar="POLICY.NAME=VALUE")
    ap.add_argument("--out", required=True, help="the markdown file, e.g. results/policies.md")
    args = ap.parse_args(argv)
    names = [p.strip() for p in args.policies.split(",") if p.strip()]
    for name in names:
        get_policy(name)
    games = args.games
    if isinstance(games, dict):
        games = {k: v for k, v in games.items() if k is None or k in names}
    command = "python experiments/policies_report.py " + " ".join(
        argv if argv is not None else sys.argv[1:])
    md = build_report(names, games, args.seed, args.threads,
                      parse_policy_params(args.policy_param), command.strip(), print)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(md)
    print(f"report written to {out}")


if __name__ == "__main__":
    main()
