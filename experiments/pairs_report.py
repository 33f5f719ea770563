"""Mixed pairs at the rulebook defaults: how often a novice wins beside an expert, and the rest.

    python experiments/pairs_report.py [--games N] [--seed S] [--threads T] --out results/pairs.md

Every row plays the same games of the seed (game g is the same deal, area deck and item deck
for every row: common random numbers): the three skill levels alone and the mixed pairs, seat 0's
player first. Each row's win rate has its 95 % Wilson interval; its difference from the expert
pair (expert+expert, which is the expert) and, for a pair, from the same two players in the
other seats are paired per game, with the 95 % interval of the paired differences
(:func:`slashersim.analysis.compare.compare_policies`).
"""
import argparse
from datetime import date
from pathlib import Path
import sys
import time

from slashersim.analysis.compare import compare_policies, pair
from slashersim.core.config import GameConfig
from slashersim.policies import split_pair
from slashersim.present.text import format_ci, played_areas

#: the rows: the levels alone, then the pairs one level apart, then novice beside expert
ROWS = ("novice", "casual", "expert",
        "novice+casual", "casual+novice", "casual+expert", "expert+casual",
        "novice+expert", "expert+novice")
DEFAULT_GAMES = 100_000
DEFAULT_SEED = 2026
#: the row every other is compared with: the expert pair
REFERENCE = "expert"


def _players(label):
    sides = split_pair(label)
    return f"{sides[0]} (seat 0) + {sides[1]} (seat 1)" if sides else f"{label} (both seats)"


def _swapped(label):
    sides = split_pair(label)
    return None if sides is None else f"{sides[1]}+{sides[0]}"


def report(games, seed, threads=None, command="", log=None):
    """The report's markdown and the comparison it was made from."""
    start = time.perf_counter()
    r = compare_policies(GameConfig(), list(ROWS), games=games, seed=seed, threads=threads)
    seconds = time.perf_counter() - start
    if log:
        log(f"played {len(ROWS)} rows x {games:,} games in {seconds:,.0f} s")
    rows = {row["label"]: row for row in r["policies"]}
    lines = [
        "# Mixed pairs at the rulebook defaults", "",
        f"Generated {date.today().isoformat()} by `{command}` in {seconds:,.0f} s. Seed {seed}; "
        f"{games:,} games per row, the same games for every row (common random numbers); "
        f"rulebook defaults (health 7, Hideaway out, Cursed Object in, 4 escapes, 3 traps); "
        f"each player with its default parameters.", "",
        "A row names seat 0's player, then seat 1's (`novice+expert`: a novice in seat 0 beside "
        "an expert in seat 1); a skill level alone plays both seats. Win rates have their 95 % "
        "Wilson interval. *vs expert pair* is the row's win rate minus the expert pair's "
        "(expert+expert, that is the expert) on the same games, with the 95 % interval of the "
        "paired per-game differences; *vs seats swapped* is the same for the pair against the "
        "same two players in the other seats.", "",
        "| players | games | win rate | 95 % CI | vs expert pair | 95 % CI | vs seats swapped "
        "| 95 % CI |",
        "| --- | ---: | ---: | --- | ---: | --- | ---: | --- |"]
    for label in ROWS:
        row = rows[label]
        if label == REFERENCE:
            vs = "- | -"
        else:
            p = pair(r, REFERENCE, label)
            vs = f"{p['difference']:+.4f} | {format_ci(p['difference_ci'], True)}"
        other = _swapped(label)
        if other in rows:
            q = pair(r, other, label)
            swap = f"{q['difference']:+.4f} | {format_ci(q['difference_ci'], True)}"
        else:
            swap = "- | -"
        lines.append(f"| {_players(label)} | {row['games']:,} | {row['win_rate']:.4f} | "
                     f"{format_ci(row['win_ci'])} | {vs} | {swap} |")
    lines += ["", "## Seat order", "",
              "Where the 95 % interval of *vs seats swapped* excludes 0, the seats matter: "
              "the same two players win more often one way round than the other.", ""]
    seen = set()
    for label in ROWS:
        other = _swapped(label)
        if other not in rows or other in seen:
            continue
        seen.add(label)
        q = pair(r, other, label)
        low, high = q["difference_ci"]
        verdict = "the seats matter" if low > 0 or high < 0 else "no difference shown"
        lines.append(f"- {label} - {other}: {q['difference']:+.4f} "
                     f"{format_ci(q['difference_ci'], True)}, {verdict}")
    lines += ["", "## Why games are lost", "",
              "Loss causes (shares of all games):", "",
              "| players | lost: health | lost: traps | no end |",
              "| --- | ---: | ---: | ---: |"]
    for label in ROWS:
        row = rows[label]
        lines.append(f"| {label} | {row['loss_health']:.4f} | {row['loss_traps']:.4f} | "
                     f"{row['timeout']:.4f} |")
    areas = played_areas(r)
    lines += ["", "Traps set off per round played, by area:", "",
              "| players | " + " | ".join(areas) + " |",
              "| --- |" + " ---: |" * len(areas)]
    for label in ROWS:
        rates = rows[label]["trap_rate_by_area"]
        lines.append(f"| {label} | " + " | ".join(
            "-" if rates[a] is None else f"{rates[a]:.3f}" for a in areas) + " |")
    return "\n".join(lines) + "\n", r


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    command = "python experiments/pairs_report.py" + "".join(
        f" --{k} {v}" for k, v in (("games", args.games), ("seed", args.seed))
        if v != {"games": DEFAULT_GAMES, "seed": DEFAULT_SEED}[k]) + f" --out {args.out}"
    text, _ = report(args.games, args.seed, args.threads, command,
                     log=lambda m: print(m, file=sys.stderr))
    Path(args.out).write_text(text)
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
