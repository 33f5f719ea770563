"""Is every game that some player won winnable? The check of the exact solver's unwinnable
answers against every player's wins; writes its report.

    python experiments/winnable_check.py [--games N] [--slow-games N] [--seed S]
        [--limit SECONDS] [--configs NAME,...] [--workers N] --out results/winnable_check.md

For each configuration, every registered player plays games ``0 .. N-1`` of the seed
(``--slow-games`` of them for search and omniscient). Each game some player won must be
winnable. The solver tries the expert and the omniscient player first, so a game either of
them won is winnable by construction (their own line wins it); every other won game is solved
within ``--limit`` seconds, and the report counts those the solver called unwinnable (the
exceptions, which must be none) and those it left undecided.
"""
import argparse
from concurrent.futures import ProcessPoolExecutor
from datetime import date
from functools import partial
from pathlib import Path
import shlex
import sys

import numpy as np

from slashersim.analysis import winnable as W
from slashersim.core.config import GameConfig
from slashersim.runner import simulate

CONFIGS = {
    "rulebook defaults": {},
    "rulebook health 5": {"health": 5},
    "rulebook hard preset": {"difficulty": "hard"},
    "instructions defaults": {"edition": "instructions"},
    "instructions health 5": {"edition": "instructions", "health": 5},
    "instructions hard preset": {"edition": "instructions", "difficulty": "hard"},
}
PLAYERS = ("baseline", "exerciser", "heuristic", "expert", "search", "omniscient")
SLOW = ("search", "omniscient")


def won_games(config, name, games, seed):
    """The games of ``0 .. games - 1`` that player ``name`` won."""
    result = simulate(GameConfig.from_dict(config), policy=name, games=games, seed=seed,
                      keep_records=True)
    return set(np.flatnonzero((result.records["outcome"] == "win").to_numpy()).tolist())


def _answer(cfg, seed, limit, game):
    return W.solve_game(cfg, seed, game, limit).answer


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--slow-games", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--configs", default=",".join(CONFIGS),
                    help="the configurations to check, by name, comma-separated (default: all)")
    ap.add_argument("--workers", type=int, default=1,
                    help="processes solving the won games side by side (default 1)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    names = [n.strip() for n in args.configs.split(",") if n.strip()]
    unknown = [n for n in names if n not in CONFIGS]
    if unknown:
        ap.error(f"unknown configuration {unknown[0]!r}; expected names from: {', '.join(CONFIGS)}")
    if args.workers < 1:
        ap.error(f"--workers {args.workers}: expected a whole number of processes, 1 or more")
    command = "python experiments/winnable_check.py " + shlex.join(
        sys.argv[1:] if argv is None else argv)
    lines = ["# Is every game a player won winnable?", "",
             f"Regenerate: `{command}` (seed {args.seed}; every player on games "
             f"0..{args.games - 1} of each configuration, search and omniscient on the first "
             f"{args.slow_games}; each won game that neither the expert nor the omniscient "
             f"player won solved within {args.limit:g} s). Written {date.today().isoformat()}.",
             "", "A game the expert or the omniscient player won is winnable by construction "
             "(the solver tries them first and their own line wins it); the games only other "
             "players won test the solver's search. An *exception* is a won game the solver "
             "calls unwinnable: there must be none.", "",
             "| configuration | games won by some player | by the expert or omniscient | "
             "solved | winnable | exceptions (unwinnable) | undecided |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name in names:
        config = CONFIGS[name]
        won = {p: won_games(config, p, args.slow_games if p in SLOW else args.games,
                            args.seed) for p in PLAYERS}
        anyone = set().union(*won.values())
        trivial = won["expert"] | won["omniscient"]
        rest = sorted(anyone - trivial)
        cfg = GameConfig.from_dict(config).to_array()
        answers = []
        solve = partial(_answer, cfg, args.seed, args.limit)
        with ProcessPoolExecutor(args.workers) as pool:
            for answer in pool.map(solve, rest, chunksize=16):
                answers.append(answer)
                print(f"\r{name}: {len(answers)}/{len(rest)}", end="", file=sys.stderr)
        print(file=sys.stderr)
        lines.append(f"| {name} | {len(anyone)} | {len(anyone & trivial)} | {len(rest)} | "
                     f"{answers.count(W.WINNABLE)} | {answers.count(W.UNWINNABLE)} | "
                     f"{answers.count(W.UNDECIDED)} |")
        args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
