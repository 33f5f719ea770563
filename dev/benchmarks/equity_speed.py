"""How fast each game's luck and costs are found (the equity view), and how well the play-outs
estimate.

The target: the luck and costs of ``--games`` (1,000) expert games at the rulebook defaults
within 15 minutes on 2 cores, at the default play-outs (64 per estimate, 24 per answer to
pick the best). Then, on the same games:

- **sums**: every game's start plus luck less costs is its outcome (counted games that fail:
  must be 0), and no play-out's replay left its game (``astray``: must be 0);
- **calibration at the rounds' starts**: a round's start is a public position (nothing is
  hidden but what is still to come), so over the games that reach it the mean estimate must
  agree with the share of them that were won;
- **long runs**: at ``--checks`` decision points (one per game, the game's sixth estimated
  decision), the frequency of 1,024 further play-outs of the answer given lies within the 95 %
  interval of the 64-play-out estimate about 95 % of the time.

And the frontier for the hard presets, per play-out count: seconds per game, and the mean 95 %
half-width of an estimate (Wilson), on ``--frontier-games`` games each.

Wall-clock time with the compiled code loaded (one warm-up game first).

    python dev/benchmarks/equity_speed.py [--games 1000] [--checks 200] [--frontier-games 40]
        [--playouts 32,64,128] [--seed 2026] [--out FILE.md]
"""
import argparse
import datetime
import os
from pathlib import Path
import platform
import sys
import time

import numpy as np

HERE = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(HERE))

from slashersim.analysis import equity as E  # noqa: E402
from slashersim.core import rules  # noqa: E402
from slashersim.core.config import GameConfig  # noqa: E402
from slashersim.core.stats import wilson_interval  # noqa: E402

PRESETS = {"rulebook hard": {"difficulty": "hard"},
           "instructions hard": {"edition": "instructions", "difficulty": "hard"}}


def run(config, policy, seed, games, estimate, keep=0):
    """``(seconds, tables, moments)`` of the equity view of games ``0 .. games - 1`` (the
    moments of the first ``keep``)."""
    g = E.game_moments(config, policy, seed, 0)
    E.game_equity(g, E.choose_for(estimate), estimate, seed)              # warm-up
    tables, moments = [], []
    t = time.perf_counter()
    for game in range(games):
        g = E.game_moments(config, policy, seed, game)
        tables.append(E.game_equity(g, E.choose_for(estimate), estimate, seed))
        if game < keep:
            moments.append(g)
    return time.perf_counter() - t, tables, moments


def calibration(tables):
    """Per round: games reaching its start, their mean estimate there, the share won and
    its 95 % interval."""
    rows = {}
    for t in tables:
        area = t[(t["event"] == "luck") & (t["kind"] == "area")]
        won = t.attrs["outcome"]
        for _, r in area.iterrows():
            rows.setdefault(int(r["round"]), []).append((r["before"], won))
    out = []
    for rnd in sorted(rows):
        est, won = np.array(rows[rnd]).T
        lo, hi = wilson_interval(int(won.sum()), len(won))
        out.append((rnd, len(won), est.mean(), won.mean(), lo, hi))
    return out


def long_runs(moments, n, seed):
    """Of ``n`` decision points, how many long-run frequencies (1,024 play-outs) lie within
    the 95 % interval of the 64-play-out estimate."""
    inside = checked = 0
    for g in moments[:n]:
        points, rec = E.game_points(g)
        dec = [p for p in points if p.kind == "decision"]
        if len(dec) < 6:
            continue
        p = dec[5]
        player = E.Player(g.policy, g.params)
        short = E.point_rollouts(player, rec, [p], [(p.given,)], 64, seed + 7)[0, 0]
        long = E.point_rollouts(player, rec, [p], [(p.given,)], 1024, seed + 8)[0, 0]
        lo, hi = wilson_interval(int((short == rules.WIN).sum()), 64)
        inside += lo <= (long == rules.WIN).mean() <= hi
        checked += 1
    return inside, checked


def half_width(estimate):
    """The mean 95 % half-width of an estimate on ``estimate`` play-outs near p = 0.5..0.9."""
    return float(np.mean([(lambda lo, hi: (hi - lo) / 2)(*wilson_interval(int(p * estimate),
                                                                           estimate))
                          for p in (0.5, 0.7, 0.9)]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--checks", type=int, default=200)
    ap.add_argument("--frontier-games", type=int, default=40)
    ap.add_argument("--playouts", default="32,64,128")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    lines = ["# The equity view: speed and checks",
             "",
             f"Command: `python dev/benchmarks/equity_speed.py --games {a.games} --checks "
             f"{a.checks} --frontier-games {a.frontier_games} --playouts {a.playouts} --seed "
             f"{a.seed}`  ",
             f"Player: expert; seed {a.seed}; games 0 .. {a.games - 1}; "
             f"{datetime.date.today()}; {platform.processor() or platform.machine()}, "
             f"{os.cpu_count()} cores; wall-clock seconds with the compiled code loaded.",
             ""]
    secs, tables, moments = run(GameConfig(), "expert", a.seed, a.games, E.ESTIMATE, a.checks)
    bad = sum(not E.check_sums(t) for t in tables)
    astray = sum(t.attrs["astray"] for t in tables)
    decisions = np.mean([(t["event"] == "decision").sum() for t in tables])
    lines += ["## Rulebook defaults, expert",
              "",
              f"- {a.games:,} games in {secs:.0f} s ({secs / a.games:.2f} s per game; target: "
              f"{a.games:,} in 900 s: {'met' if secs <= 900 * a.games / 1000 else 'NOT met'}), "
              f"{E.ESTIMATE} play-outs per estimate, {E.CHOOSE} per answer to pick the best; "
              f"{decisions:.1f} decisions estimated per game.",
              f"- Games whose start plus luck less costs is not their outcome: {bad}. "
              f"Play-outs whose replay left the game: {astray}.",
              "",
              "Calibration at the rounds' starts (a public position): the mean estimate against "
              "the share of those games won.",
              "",
              "| round | games | mean estimate | share won [95 % CI] |",
              "| ---: | ---: | ---: | --- |"]
    for rnd, n, est, won, lo, hi in calibration(tables):
        if n >= 20:
            flag = "" if lo <= est <= hi else " (outside)"
            lines.append(f"| {rnd} | {n} | {est:.3f} | {won:.3f} [{lo:.3f}, {hi:.3f}]{flag} |")
    inside, checked = long_runs(moments, a.checks, a.seed)
    lo, hi = wilson_interval(inside, checked)
    lines += ["",
              f"Long runs: at {checked} decision points (each game's sixth), the frequency of "
              f"1,024 further play-outs of the answer given lay within the 95 % interval of the "
              f"64-play-out estimate {inside} times ({inside / checked:.3f} [{lo:.3f}, "
              f"{hi:.3f}]; about 0.95 expected).",
              "",
              "## Frontier, hard presets",
              "",
              "| preset | play-outs per estimate | s per game | 95 % half-width of an estimate "
              "| astray |",
              "| --- | ---: | ---: | ---: | ---: |"]
    for name, knobs in PRESETS.items():
        for n in (int(x) for x in a.playouts.split(",")):
            s, tabs, _ = run(GameConfig.of(None, knobs), "expert", a.seed, a.frontier_games, n)
            lines.append(f"| {name} | {n} | {s / a.frontier_games:.2f} | {half_width(n):.3f} | "
                         f"{sum(t.attrs['astray'] for t in tabs)} |")
            print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        Path(a.out).write_text(text)


if __name__ == "__main__":
    main()
