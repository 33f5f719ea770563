"""Where the expert's time goes: its card decisions replayed by kind and trick.

    python experiments/bench_expert_budget.py [--games N] [--seed S] [--replays R]
        --out results/expert_budget.md

Issue 11 asks for 20,000 games/s per core, 50 us a game. This benchmark splits the expert's
time per game on one thread at the rulebook defaults:

1. **Whole games**: :func:`slashersim.simulate` on one thread, the expert at its defaults and
   without lead rollouts (``lead_samples 0``).
2. **Card decisions**: every card decision of ``--games`` games (seed ``--seed``) recorded
   (:func:`slashersim.testing.decision_points`) and replayed through the compiled
   :func:`slashersim.policies.expert.choose_card`, each on a copy of its state in one scratch
   array (the time of the copies alone taken off), best of ``--replays``, grouped by kind (a
   forced card, the exact last two tricks, leads and answers by trick); leads are replayed
   again without rollouts, which splits their time into rollouts and the rest, and without
   rollouts and exact area checks (``dd_from 8``), which splits the rest; answers are replayed
   again without exact area checks, which splits their time in the same way. Each part is the
   time the decisions of the recorded states take less that of the same decisions without it.
   What whole games cost beyond the card decisions is the engine and the item-phase decisions.

Measure on an idle machine: every figure is a wall-clock time.
"""
import argparse
from datetime import date
from pathlib import Path
import sys
import time

from numba import njit
import numpy as np

from slashersim.config import GameConfig
from slashersim.engine import api
from slashersim.engine.layout import S_LED, S_TRAP_ROUND, S_TRICK
from slashersim.policies import expert as E
from slashersim.policies import param_vector
from slashersim.rules import TRICKS_PER_ROUND
from slashersim.runner import simulate
from slashersim.testing import POINT_HEADER, decision_points

COMMAND = "python experiments/bench_expert_budget.py --out results/expert_budget.md"


@njit
def replay(states, players, legal, answers, rows, params, decide):
    """Play the recorded decisions ``rows`` again, each on a copy of its state in one scratch
    array (hot in the cache, as in a game; a policy may also draw from the state's random
    stream); with ``decide`` False only copy the states. Returns how many decisions chose
    another card than the one recorded (0 at the parameters the games were played with: the
    replay is faithful)."""
    st = np.empty(states.shape[1], dtype=np.int64)
    differ = 0
    for i in rows:
        st[:] = states[i]
        if decide:
            differ += E.choose_card(st, players[i], legal[i], params) != answers[i]
        else:
            differ += st[0] < 0
    return differ


def best_time(recorded, rows, params, replays):
    """Best of ``replays`` wall-clock times of :func:`replay` of ``rows`` less those of copying
    their states alone (seconds), and how many replayed decisions differ from the recorded
    ones. ``recorded``: the states, players, legal cards and answers of the decisions."""
    replay(*recorded, rows[:2], params, True)
    times = {}
    differ = 0
    for decide in (False, True):
        times[decide] = np.inf
        for _ in range(replays):
            t = time.perf_counter()
            d = replay(*recorded, rows, params, decide)
            times[decide] = min(times[decide], time.perf_counter() - t)
            if decide:
                differ = d
    return max(0.0, times[True] - times[False]), differ


def game_time(params, games, seed):
    """Wall-clock seconds per game of the expert on one thread (best of 3)."""
    simulate(GameConfig(), "expert", games=20, seed=seed, threads=1, params=params)
    return min(simulate(GameConfig(), "expert", games=games, seed=seed, threads=1,
                        params=params).elapsed_s for _ in range(3)) / games


def groups(points):
    """``[(label, row indices)]`` of the recorded card decisions, by kind and trick."""
    st = points[:, POINT_HEADER:]
    legal = points[:, 2]
    forced = (legal & (legal - 1)) == 0
    trick = st[:, S_TRICK]
    lead = st[:, S_LED] < 0
    endgame = ~forced & (trick == TRICKS_PER_ROUND - 2) & (st[:, S_TRAP_ROUND] == 0)
    searched = ~forced & ~endgame
    out = [("forced card", np.nonzero(forced)[0]), ("tricks 7-8, exact", np.nonzero(endgame)[0])]
    for t in range(TRICKS_PER_ROUND):
        for kind, mask in (("lead", lead), ("answer", ~lead)):
            rows = np.nonzero(searched & mask & (trick == t))[0]
            if rows.size:
                out.append((f"{kind}, trick {t + 1}", rows))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000,
                        help="games whose card decisions are replayed (default 1000)")
    parser.add_argument("--seed", type=int, default=7, help="seed of those games (default 7)")
    parser.add_argument("--replays", type=int, default=3,
                        help="replays of each group, the best counted (default 3)")
    parser.add_argument("--whole-games", type=int, default=4000,
                        help="games of each whole-game timing (default 4000)")
    parser.add_argument("--out", type=Path, help="write the report here (default: print it)")
    args = parser.parse_args(argv)
    for name in ("games", "replays", "whole_games"):
        if getattr(args, name) < 1:
            parser.exit(2, f"--{name.replace('_', '-')} must be at least 1, "
                           f"got {getattr(args, name)}\n")
    started = time.perf_counter()
    params = param_vector("expert")
    no_rollouts = param_vector("expert", {"lead_samples": 0})
    no_checks = param_vector("expert", {"dd_from": 8})
    neither = param_vector("expert", {"lead_samples": 0, "dd_from": 8})
    points = decision_points("expert", GameConfig(), args.games, seed=args.seed,
                             rates={api.PLAY_CARD: 1.0}, capacity=100 * args.games)
    points = points[points[:, 0] == api.PLAY_CARD]
    recorded = (np.ascontiguousarray(points[:, POINT_HEADER:]), points[:, 1].copy(),
                points[:, 2].copy(), points[:, 3].copy())
    whole = game_time(params, args.whole_games, args.seed)
    whole_plain = game_time(no_rollouts, args.whole_games, args.seed)

    rows = []
    sums = {"all": 0.0, "leads": 0.0, "lead rollouts": 0.0, "lead checks": 0.0,
            "answers": 0.0, "answer checks": 0.0}
    differ = 0
    for label, idx in groups(points):
        t, d = best_time(recorded, idx, params, args.replays)
        differ += d
        per_game = t / args.games
        sums["all"] += per_game
        extra = ""
        if label.startswith("lead"):
            plain = best_time(recorded, idx, no_rollouts, args.replays)[0]
            bare = best_time(recorded, idx, neither, args.replays)[0]
            sums["leads"] += per_game
            sums["lead rollouts"] += (t - plain) / args.games
            sums["lead checks"] += (plain - bare) / args.games
            extra = f"{(t - plain) / idx.size * 1e9:,.0f}"
        elif label.startswith("answer"):
            sums["answers"] += per_game
            sums["answer checks"] += \
                (t - best_time(recorded, idx, no_checks, args.replays)[0]) / args.games
        rows.append(f"| {label} | {idx.size / args.games:.2f} | {t / idx.size * 1e9:,.0f} | "
                    f"{extra} | {per_game * 1e6:.1f} |")

    us = 1e6
    lines = [
        "# Where the expert's time goes",
        "",
        f"Generated {date.today().isoformat()} by `{COMMAND}` in "
        f"{time.perf_counter() - started:.0f} s. Player: `expert` at its defaults (and, where "
        "named, without a part: `lead_samples 0`, `dd_from 8`), rulebook "
        "defaults, one thread. A part's time is that of the decisions less that of the same "
        "decisions without it.",
        "",
        f"Whole games: {args.whole_games:,} games, seed {args.seed}, best of 3. Card decisions: "
        f"every one of {args.games:,} games of seed {args.seed}, recorded and replayed through "
        f"the compiled `expert.choose_card` (each on a copy of its state; the copies' own time "
        f"taken off), best of {args.replays}: {len(points):,} decisions, "
        f"{differ} of them replayed to another card than the game played.",
        "",
        "Issue 11's target, 20,000 games/s per core, is 50 us a game.",
        "",
        "| part | us per game |",
        "| --- | ---: |",
        f"| whole game, expert defaults | {whole * us:.1f} |",
        f"| whole game, no lead rollouts | {whole_plain * us:.1f} |",
        f"| card decisions replayed | {sums['all'] * us:.1f} |",
        f"| - leads | {sums['leads'] * us:.1f} |",
        f"| - of which the rollouts | {sums['lead rollouts'] * us:.1f} |",
        f"| - of which the exact area checks (`dd_from 8` saves) | "
        f"{sums['lead checks'] * us:.1f} |",
        f"| - of which the rest (closed-form costs) | "
        f"{(sums['leads'] - sums['lead rollouts'] - sums['lead checks']) * us:.1f} |",
        f"| - answers | {sums['answers'] * us:.1f} |",
        f"| - of which the exact area checks (`dd_from 8` saves) | "
        f"{sums['answer checks'] * us:.1f} |",
        f"| - of which the rest (closed-form futures and terms) | "
        f"{(sums['answers'] - sums['answer checks']) * us:.1f} |",
        f"| engine and item-phase decisions (whole game less card decisions) | "
        f"{(whole - sums['all']) * us:.1f} |",
        "",
        "| card decision | per game | ns each | of which rollouts, ns | us per game |",
        "| --- | ---: | ---: | ---: | ---: |",
        *rows,
        "",
    ]
    text = "\n".join(lines)
    if args.out:
        args.out.write_text(text)
        print(f"wrote {args.out}", file=sys.stderr)
    else:
        print(text)


if __name__ == "__main__":
    main()
