"""Do the equity view's estimates agree with the frequencies? (``why --equity``)

A round's start is a public position: nothing is hidden there but what is still to come, so
over many games the players' estimated chance of winning at a round's start must match, on
average, how those games ended. For each round, over ``--games`` expert games at the rulebook
defaults: the mean of (won less the estimate at the round's start, on ``--playouts``
play-outs, each game on its own streams), 0 for calibrated estimates, with its 95 % interval.

    python experiments/equity_calibration.py --games 10000 --playouts 64 --seed 2026 \\
        --out results/equity_calibration.md
"""
import argparse
import datetime
from pathlib import Path
import sys

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from slashersim.analysis import equity as E  # noqa: E402
from slashersim.core import rules  # noqa: E402
from slashersim.core.config import GameConfig  # noqa: E402
from slashersim.engine import positions as K  # noqa: E402

#: the play-outs' seed is the games' seed plus this (streams apart from the games' own)
ROLLOUT_OFFSET = 1


def start_calibration(config, policy, seed, games, estimate):
    """Per round: the games reaching its start, and the mean of (won less the estimate at its
    start) with its 95 % interval."""
    rows = {}
    player = E.Player(policy)
    for game in range(games):
        g = E.game_moments(config, policy, seed, game)
        points, rec = E.game_points(g)
        starts = [p for p in points if p.kind in ("start", "phase")
                  and int(rec.info[p.base, 0]) == K.SNAP_START]
        out = E.point_rollouts(player, rec, starts, [()] * len(starts), estimate,
                               seed + ROLLOUT_OFFSET, game * E.PER_SET)
        for p, o in zip(starts, out[:, 0]):
            # a round's start is shown before the round is counted: its state's round is the
            # one before
            rows.setdefault(p.round + 1, []).append((g.won, (o == rules.WIN).mean()))
    table = []
    for rnd in sorted(rows):
        won, est = np.array(rows[rnd]).T
        d = won - est
        half = 1.96 * d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else np.nan
        table.append((rnd, len(d), est.mean(), won.mean(), d.mean(), d.mean() - half,
                      d.mean() + half))
    return table


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--playouts", type=int, default=E.ESTIMATE)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default="results/equity_calibration.md")
    a = ap.parse_args(argv)
    lines = ["# The equity view's estimates against the frequencies",
             "",
             f"Regenerate: `python experiments/equity_calibration.py --games {a.games} "
             f"--playouts {a.playouts} --seed {a.seed} --out {a.out}` (expert, rulebook "
             f"defaults, games 0 .. {a.games - 1} of seed {a.seed}; play-outs on seed "
             f"{a.seed + ROLLOUT_OFFSET}, each game its own streams). Written "
             f"{datetime.date.today()}.",
             "",
             "At each round's start (a public position), the estimated chance of winning "
             f"({a.playouts} play-outs) against how the games that reached it ended. "
             "*won less estimate* is 0 for calibrated estimates; its 95 % interval is over the "
             "games (rounds reached by 100 games or more).",
             "",
             "| round | games | mean estimate | share won | won less estimate [95 % CI] |",
             "| ---: | ---: | ---: | ---: | --- |"]
    for rnd, n, est, won, mean, lo, hi in start_calibration(GameConfig(), "expert", a.seed,
                                                            a.games, a.playouts):
        if n >= 100:
            flag = "" if lo <= 0 <= hi else " (0 outside)"
            lines.append(f"| {rnd} | {n:,} | {est:.4f} | {won:.4f} | {mean:+.4f} [{lo:+.4f}, "
                         f"{hi:+.4f}]{flag} |")
    text = "\n".join(lines) + "\n"
    Path(a.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
