"""How many games could be won, how fast the exact solver says so, and whether every game a
player won is among them; writes the winnability report.

    python experiments/winnable_frontier.py [--games N] [--seed S] [--limit SECONDS]
        [--player-games N] --out results/winnable.md

For each configuration, the solver (:mod:`slashersim.analysis.winnable`) decides games
``0 .. N-1`` of the seed one at a time on one core, each within ``--limit`` seconds. Its
search is deterministic, so a game decided in ``t`` seconds is decided under any limit of at
least ``t``: one run gives the undecided share and the speed for every smaller limit (the
frontier table). The same games are played by the players (``--player-games`` of them, fewer
for search and omniscient), and every game a player won must be winnable: the report counts
the exceptions (games the solver calls unwinnable) and the won games it left undecided.
"""
import argparse
from datetime import date
from pathlib import Path
import sys

import numpy as np

from slashersim.analysis import winnable as W
from slashersim.config import GameConfig
from slashersim.runner import simulate
from slashersim.stats import wilson_interval

CONFIGS = {
    "rulebook defaults": {},
    "instructions defaults": {"edition": "instructions"},
    "rulebook hard preset": {"difficulty": "hard"},
    "rulebook nightmare preset": {"difficulty": "nightmare"},
}
LIMITS = (0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
PLAYERS = {"baseline": 1.0, "heuristic": 1.0, "expert": 1.0, "search": 0.25, "omniscient": 0.25}


def solve_all(config, games, seed, limit, progress):
    """Each game's answer and seconds."""
    cfg = GameConfig.from_dict(config).to_array()
    answers, seconds = [], []
    for g in range(games):
        s = W.solve_game(cfg, seed, g, seconds=limit)
        answers.append(s.answer)
        seconds.append(s.seconds)
        progress(g)
    return np.array(answers), np.array(seconds)


def players_won(config, games, seed):
    """For each player, the games (of the first ``games``, fewer for the slow ones) it won."""
    won = {}
    for name, share in PLAYERS.items():
        n = max(1, int(games * share))
        result = simulate(GameConfig.from_dict(config), policy=name, games=n, seed=seed,
                          keep_records=True)
        won[name] = (n, np.flatnonzero((result.records["outcome"] == "win").to_numpy()))
    return won


def fmt_share(k, n):
    lo, hi = wilson_interval(k, n)
    return f"{k / n:.3f} [{lo:.3f}, {hi:.3f}]"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--player-games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--limit", type=float, default=30.0)
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    names = [c.strip() for c in args.configs.split(",")]
    unknown = [c for c in names if c not in CONFIGS]
    if unknown:
        ap.error(f"unknown configuration {unknown[0]!r}; known: {', '.join(CONFIGS)}")
    command = "python experiments/winnable_frontier.py " + " ".join(sys.argv[1:] if argv is None
                                                                    else argv)
    lines = [
        "# Could the game have been won? The exact solver's answers and its frontier", "",
        f"Regenerate: `{command}` (seed {args.seed}; games 0..{args.games - 1} of each "
        f"configuration solved one at a time on one core, each within {args.limit:g} s; "
        f"players on the first {args.player_games} games, search and omniscient on a quarter "
        f"of them). Written {date.today().isoformat()}.", "",
        "A game is *winnable* when some sequence of both players' decisions, each seeing "
        "every card, wins it; *unwinnable* when none does; *undecided* when the time per game "
        "ran out. The upper bound counts undecided games as winnable.", "",
    ]
    frontier = ["| configuration | limit per game | games per s | undecided | mean s per "
                "game |", "| --- | ---: | ---: | ---: | ---: |"]
    for name in names:
        config = CONFIGS[name]
        answers, seconds = solve_all(
            config, args.games, args.seed, args.limit,
            lambda g, name=name: print(f"\r{name}: {g + 1}/{args.games}", end="",
                                       file=sys.stderr))
        print(file=sys.stderr)
        n = len(answers)
        k_win = int((answers == W.WINNABLE).sum())
        k_lose = int((answers == W.UNWINNABLE).sum())
        k_und = int((answers == W.UNDECIDED).sum())
        won = players_won(config, args.player_games, args.seed)
        lines += [f"## {name}", "",
                  f"- winnable: {k_win}, unwinnable: {k_lose}, undecided: {k_und} of {n} games",
                  f"- winnable share (undecided as not winnable): {fmt_share(k_win, n)}",
                  f"- upper bound (undecided as winnable): {fmt_share(k_win + k_und, n)}",
                  f"- solving time: {seconds.sum():.1f} s in all, median "
                  f"{np.median(seconds):.3f} s per game", "",
                  "| player | games | won | win rate | won but unwinnable | won but undecided |",
                  "| --- | ---: | ---: | --- | ---: | ---: |"]
        for player, (games, idx) in won.items():
            solved = idx[idx < n]
            lines.append(f"| {player} | {games} | {len(idx)} | {fmt_share(len(idx), games)} | "
                         f"{int((answers[solved] == W.UNWINNABLE).sum())} | "
                         f"{int((answers[solved] == W.UNDECIDED).sum())} |")
        lines.append("")
        for limit in [x for x in LIMITS if x <= args.limit]:
            decided = (answers != W.UNDECIDED) & (seconds <= limit)
            spent = np.minimum(seconds, limit).sum()
            frontier.append(f"| {name} | {limit:g} s | {n / spent:.1f} | "
                            f"{(~decided).mean():.3%} | {spent / n:.3f} |")
            write(args.out, lines, frontier)
    print(f"wrote {args.out}")


def write(out, lines, frontier):
    """The report as it stands: the configurations done so far and their frontier."""
    out.write_text("\n".join(lines + [
        "## The frontier: time per game against undecided games", "",
        "Read from the runs above: a game the solver decided in t seconds is decided under "
        "every limit of at least t. *Games per s* is the games one core gets through per "
        "second at that limit, the undecided ones included.", ""] + frontier + [""]))


if __name__ == "__main__":
    main()
