"""Write results/luck.md: how much of The Slasher is luck.

    python experiments/luck_report.py                       # the committed report
    python experiments/luck_report.py --policies baseline --games 20000 --out /tmp/luck.md

Win rate by the Killer's starting position for both editions and each policy (generated, on
common random numbers, checked against the unconditioned ``simulate`` run), the first deal's
yellows, and the share of the outcome variance due to each random stream per edition,
difficulty and policy. Every count used is stated in the file.
"""
import argparse
from datetime import UTC, datetime
from pathlib import Path
import sys
import time

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from slashersim.analysis.luck import first_fact_effects, killer_position_effects, variance_sources  # noqa: E402
from slashersim.core.config import GameConfig  # noqa: E402
from slashersim.core.stats import wilson_interval  # noqa: E402
from slashersim.policies import POLICIES  # noqa: E402
from slashersim.runner import simulate  # noqa: E402

EDITIONS = ("rulebook", "instructions")


def pick_policies(wanted):
    """The wanted policies that exist; a note for each one that does not."""
    have = [p for p in wanted if p in POLICIES]
    for p in wanted:
        if p not in POLICIES:
            print(f"note: policy {p!r} is not registered (have: {', '.join(POLICIES)}); "
                  f"left out", file=sys.stderr)
    if not have:
        raise SystemExit(f"none of the policies {', '.join(wanted)} is registered")
    return have


def ci(lo, hi, signed=False):
    f = "+.4f" if signed else ".4f"
    return f"[{lo:{f}}, {hi:{f}}]"


def killer_section(policies, games, seed, threads, summary):
    lines = ["## Win rate by the Killer's starting position", "",
             f"Each position plays the same {games:,} games of seed {seed} with the first item "
             "deck dealt so (generated, not filtered; common random numbers). *effect* is the "
             "position's win rate minus the average over positions, with a paired 95 % "
             "interval. *unconditioned* is the win rate of the games of one plain `simulate` "
             f"run of {2 * games:,} games (seed {seed + 1}) in which the Killer happened to "
             "start there, with its 95 % Wilson interval: the generated figures must agree "
             "with it.", ""]
    for edition in EDITIONS:
        config = GameConfig(edition=edition)
        for policy in policies:
            r = killer_position_effects(config, policy, games, seed, threads)
            plain = simulate(config, policy, games=2 * games, seed=seed + 1, threads=threads)
            by_start = plain.win_rate_by_killer_start()
            lines += [f"### {edition} edition, policy {policy}", "",
                      "| Killer start | win rate | 95% CI | effect | 95% CI | "
                      "unconditioned (games) | 95% CI |",
                      "| ---: | ---: | --- | ---: | --- | ---: | --- |"]
            for k, p in r["positions"].items():
                n, rate = by_start.get(k, (0, float("nan")))
                ulo, uhi = wilson_interval(round(rate * n), n)
                lines.append(f"| {k} | {p['win_rate']:.4f} | {ci(*p['win_ci'])} | "
                             f"{p['effect']:+.4f} | {ci(*p['effect_ci'], signed=True)} | "
                             f"{rate:.4f} ({n:,}) | {ci(ulo, uhi)} |")
            lines += ["", f"Average over positions: {r['average']:.4f}; plain run: "
                          f"{plain.win_rate:.4f} {ci(*plain.win_ci)}.", ""]
            pos = r["positions"]
            last = list(pos)[-1]
            summary.append(f"- {edition}, {policy}: the Killer on top of the first item deck "
                           f"wins {pos['1']['win_rate']:.3f}, at its deepest "
                           f"(position {last}) {pos[last]['win_rate']:.3f}, against "
                           f"{r['average']:.3f} on average: a spread of "
                           f"{pos[last]['win_rate'] - pos['1']['win_rate']:.3f}.")
    return lines


def yellows_section(policies, games, seed, threads):
    lines = ["## Yellows in player 0's first hand", "",
             f"Each count plays the same {games:,} games of seed {seed}, the first deal "
             "generated with that many yellows for player 0 (the partner's count free). The "
             "counts are not equally likely, so the average and the effects are weighted by "
             "their chances (C(5,y) C(15,8-y) / C(20,8)): the average is the unconditioned "
             "win rate.", ""]
    for edition in EDITIONS:
        for policy in policies:
            r = first_fact_effects("yellows", GameConfig(edition=edition), policy, games,
                                   seed, threads)
            lines += [f"### {edition} edition, policy {policy}", "",
                      "| yellows | win rate | 95% CI | effect | 95% CI |",
                      "| ---: | ---: | --- | ---: | --- |"]
            for y, p in r["values"].items():
                lines.append(f"| {y} | {p['win_rate']:.4f} | {ci(*p['win_ci'])} | "
                             f"{p['effect']:+.4f} | {ci(*p['effect_ci'], signed=True)} |")
            lines += ["", f"Weighted average: {r['average']:.4f}.", ""]
    return lines


def sources_section(policies, difficulties, games, repeats, seed, threads, summary):
    lines = ["## Where outcomes come from: variance shares of the random streams", "",
             "The game's randomness comes from four independent streams (`engine/rng.py`): "
             "**deal** (the number cards of every round and the trump), **items** (item-deck "
             "set-up and reshuffles), **areas** (area order and arrows) and **policy** (the "
             "players' random choices). A stream's *first-order share* "
             "Var(E[win | stream]) / Var(win) is what it decides on its own; its *total "
             "share* E[Var(win | other streams)] / Var(win) is everything it takes part in "
             "deciding. Both are estimated with groups of games that share streams "
             f"(`luck sources`): {games:,} games per estimate in groups of {repeats}, seed "
             f"{seed}; the 95 % intervals are percentile bootstraps over groups. *together* "
             "is 1 − the sum of first-order shares: what only the streams' combination "
             "decides.", ""]
    for edition in EDITIONS:
        for difficulty in difficulties:
            values = {"edition": edition}
            if difficulty != "default":
                values["difficulty"] = difficulty
            config = GameConfig.from_dict(values)
            for policy in policies:
                r = variance_sources(config, policy, games, repeats, seed, threads)
                c = r["config"]
                knobs = (f"health {c['health']}, {c['escapes_needed']} escapes, "
                         f"{c['traps']} traps, hideaway {'in' if c['hideaway'] else 'out'}, "
                         f"cursed object {'in' if c['cursed_object'] else 'out'}")
                lines += [f"### {edition}, difficulty {difficulty} ({knobs}), policy {policy}",
                          "", f"Win rate {r['win_rate']:.4f}.", "",
                          "| stream | first-order share | 95% CI | total share | 95% CI |",
                          "| --- | ---: | --- | ---: | --- |"]
                for name, v in r["shares"].items():
                    lines.append(f"| {name} | {v['first']:.4f} | "
                                 f"{ci(*v['first_ci'], signed=True)} | {v['total']:.4f} | "
                                 f"{ci(*v['total_ci'])} |")
                lines += [f"| *together* | {r['interactions']:.4f} | | | |", ""]
                top = max(r["shares"], key=lambda n: r["shares"][n]["first"])
                summary.append(f"- {edition}, {difficulty}, {policy}: largest first-order "
                               f"share {top}, {r['shares'][top]['first']:.3f}; first-order "
                               f"shares sum to {r['sum_first']:.3f}, so "
                               f"{r['interactions']:.3f} of the variance is decided only by "
                               f"the streams together.")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policies", default="baseline,heuristic,expert",
                        help="comma-separated policies (default baseline,heuristic,expert; missing "
                             "ones are left out with a note)")
    parser.add_argument("--games", type=int, default=200_000,
                        help="games per Killer position (default 200000)")
    parser.add_argument("--yellow-games", type=int, default=100_000,
                        help="games per yellow count (default 100000)")
    parser.add_argument("--sources-games", type=int, default=320_000,
                        help="games per variance-share estimate (default 320000)")
    parser.add_argument("--repeats", type=int, default=8, help="games per group (default 8)")
    parser.add_argument("--difficulties", default="default,normal,hard",
                        help="difficulty presets for the variance shares ('default' = the "
                             "edition's defaults; default default,normal,hard)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "luck.md")
    args = parser.parse_args(argv)
    policies = pick_policies([p.strip() for p in args.policies.split(",") if p.strip()])
    difficulties = [d.strip() for d in args.difficulties.split(",") if d.strip()]
    missing = [p for p in args.policies.split(",") if p.strip() and p.strip() not in POLICIES]
    t0 = time.perf_counter()
    summary = []
    body = killer_section(policies, args.games, args.seed, args.threads, summary)
    body += yellows_section(policies, args.yellow_games, args.seed, args.threads)
    body += sources_section(policies, difficulties, args.sources_games, args.repeats,
                            args.seed, args.threads, summary)
    body = ["## Summary", "", *summary, ""] + body
    elapsed = time.perf_counter() - t0
    command = "python experiments/luck_report.py" + "".join(f" {a}" for a in (argv or
                                                                          sys.argv[1:]))
    head = ["# How much of The Slasher is luck", "",
            f"Generated by `{command}` on {datetime.now(UTC):%Y-%m-%d} in "
            f"{elapsed:.0f} s. Policies: {', '.join(policies)}"
            + (f" ({', '.join(missing)} not registered, left out)" if missing else "")
            + f". Counts: {args.games:,} games per Killer position, {args.yellow_games:,} per "
              f"yellow count, {args.sources_games:,} per variance-share estimate (groups of "
              f"{args.repeats}), seed {args.seed}.", ""]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(head + body))
    print(f"{args.out} written in {elapsed:.0f} s")


if __name__ == "__main__":
    main()
