"""How many games could be won, how fast the exact solver says so, and whether every game a
player won is among them; writes the winnability report.

    python experiments/winnable_frontier.py [--games N[,N...]] [--seed S] [--limit SECONDS]
        [--player-games N] [--search-games N] --out results/winnable.md

For each configuration, the solver (:mod:`slashersim.analysis.winnable`) decides games
``0 .. N-1`` of the seed one at a time on one core, each within ``--limit`` seconds (``--games``
one count for all, or one per configuration). Its search is deterministic, so a game decided in
``t`` seconds is decided under any limit of at least ``t``: one run gives the undecided share
and the speed for every smaller limit (the frontier table). The same games are played by the
players (``--player-games`` of them, fewer for search and omniscient), and every game a player
won must be winnable: the report counts the exceptions (games the solver calls unwinnable) and
the won games it left undecided. The first ``--search-games`` games are solved again by the
search alone (no player tries first), whose answers must agree with the others.
"""
import argparse
from datetime import date
from pathlib import Path
import sys

import numpy as np

from slashersim.analysis import winnable as W
from slashersim.core.config import GameConfig
from slashersim.core.stats import wilson_interval
from slashersim.runner import simulate

CONFIGS = {
    "rulebook defaults": {},
    "instructions defaults": {"edition": "instructions"},
    "rulebook hard preset": {"difficulty": "hard"},
    "rulebook nightmare preset": {"difficulty": "nightmare"},
}
LIMITS = (0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
PLAYERS = {"baseline": 1.0, "heuristic": 1.0, "expert": 1.0, "search": 0.25, "omniscient": 0.25}
LABELS = {"baseline": "novice (baseline)", "heuristic": "casual (heuristic)"}


def solve_all(config, games, seed, limit, progress, players=W.FIRST_TRIES):
    """Each game's answer, seconds, and the player that finished its line ('' for none)."""
    cfg = GameConfig.from_dict(config).to_array()
    answers, seconds, by = [], [], []
    for g in range(games):
        s = W.solve_game(cfg, seed, g, seconds=limit, players=players)
        answers.append(s.answer)
        seconds.append(s.seconds)
        by.append(s.player or "")
        progress(g)
    return np.array(answers), np.array(seconds), np.array(by)


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
    ap.add_argument("--games", default="400")
    ap.add_argument("--player-games", type=int, default=400)
    ap.add_argument("--search-games", type=int, default=0)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--limit", type=float, default=30.0)
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    names = [c.strip() for c in args.configs.split(",")]
    unknown = [c for c in names if c not in CONFIGS]
    if unknown:
        ap.error(f"unknown configuration {unknown[0]!r}; known: {', '.join(CONFIGS)}")
    counts = [int(x) for x in args.games.split(",")]
    if len(counts) not in (1, len(names)) or min(counts) < 1:
        ap.error(f"--games: one count of at least 1, or one per configuration ({len(names)}), "
                 f"got {args.games!r}")
    counts = dict(zip(names, counts * len(names) if len(counts) == 1 else counts))
    command = "python experiments/winnable_frontier.py " + " ".join(sys.argv[1:] if argv is None
                                                                    else argv)
    lines = [
        "# Could the game have been won? The exact solver's answers and its frontier", "",
        f"Regenerate: `{command}` (seed {args.seed}; the first games of each "
        f"configuration, as many as each section says, solved one at a time on one core, each "
        f"within {args.limit:g} s; players on the first {args.player_games} games, search and "
        f"omniscient on a quarter of them; the search alone on the first {args.search_games} "
        f"games). Written {date.today().isoformat()}.", "",
        "A game is *winnable* when some sequence of both players' decisions, each seeing "
        "every card, wins it; *unwinnable* when none does; *undecided* when the time per game "
        "ran out. The upper bound counts undecided games as winnable. Before a position "
        f"between rounds is searched, {' and '.join(W.FIRST_TRIES)} play the game on from it; "
        "*first tries* counts the games so decided. Games those two won are therefore "
        "winnable by construction; the check that every won game is winnable tests the search "
        "on the games the other players won, and the search alone must agree with the "
        "solver on every game it decides.", "",
    ]
    frontier = ["| configuration | limit per game | games per s | undecided | mean s per "
                "game |", "| --- | ---: | ---: | ---: | ---: |"]
    for name in names:
        config = CONFIGS[name]
        games = counts[name]
        answers, seconds, by = solve_all(
            config, games, args.seed, args.limit,
            lambda g, name=name, games=games: print(f"\r{name}: {g + 1}/{games}", end="",
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
                  f"{np.median(seconds):.3f} s per game, {n / seconds.sum():.1f} games per s",
                  "- first tries: " + ", ".join(
                      f"{p} {int((by == p).sum())}" for p in W.FIRST_TRIES) +
                  f" of the {k_win} winnable games"]
        if args.search_games:
            m = min(args.search_games, n)
            alone, alone_s, _ = solve_all(config, m, args.seed, args.limit,
                                          lambda g: None, players=())
            both = (alone != W.UNDECIDED) & (answers[:m] != W.UNDECIDED)
            lines.append(
                f"- the search alone on the first {m} games: "
                f"{int((alone == W.WINNABLE).sum())} winnable, "
                f"{int((alone == W.UNWINNABLE).sum())} unwinnable, "
                f"{int((alone == W.UNDECIDED).sum())} undecided, {m / alone_s.sum():.1f} games "
                f"per s; disagreements where both decided: "
                f"{int((alone[both] != answers[:m][both]).sum())}")
        lines += ["",
                  "The ladder on the same games (the first of them for the slow players), "
                  "the winnable share last:", "",
                  "| player | games | won | win rate | won but unwinnable | won but undecided |",
                  "| --- | ---: | ---: | --- | ---: | ---: |"]
        for player, (games, idx) in won.items():
            solved = idx[idx < n]
            lines.append(f"| {LABELS.get(player, player)} | {games} | {len(idx)} | "
                         f"{fmt_share(len(idx), games)} | "
                         f"{int((answers[solved] == W.UNWINNABLE).sum())} | "
                         f"{int((answers[solved] == W.UNDECIDED).sum())} |")
        lines.append(f"| **winnable** (the exact solver) | {n} | {k_win} | "
                     f"{fmt_share(k_win, n)} | | |")
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
