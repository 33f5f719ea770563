"""Every fatal decision carries its two proofs: on the first ``--lost`` lost games of a run,
the winning line from the position before the decision replays to a win through the engine's
flow, and a fresh search decides the position after it unwinnable.

    python experiments/why_proofs.py --lost 1000 --seed 2026 --workers 2 \
        --out results/why_proofs.md
"""
import argparse
import collections
from concurrent.futures import ProcessPoolExecutor
import datetime
from multiprocessing import get_context
from pathlib import Path
import sys
import time

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from slashersim.analysis import fatal as F  # noqa: E402
from slashersim.core.config import GameConfig  # noqa: E402
from slashersim.runner import simulate  # noqa: E402


def _check(args):
    """One game: its verdict, and for a game lost by a decision its two proofs."""
    config, policy, seed, game = args
    f = F.fatal_decision(config, policy, seed, game)
    if f.verdict not in (F.AVOIDABLE, F.HINDSIGHT):
        return game, f.verdict, None, None, f.row()
    before, after = F.check_fatal(f)
    return game, f.verdict, bool(before), after, f.row()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lost", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--policy", default="expert")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    config = GameConfig()
    r = simulate(config, args.policy, 6 * args.lost, args.seed, keep_records=True).records
    lost = r.loc[r["outcome"] != "win", "game"].tolist()[:args.lost]
    tally = collections.Counter()
    failures = []
    t0 = time.perf_counter()
    tasks = [(config, args.policy, args.seed, g) for g in lost]
    with ProcessPoolExecutor(args.workers, mp_context=get_context("spawn")) as pool:
        for game, verdict, before, after, row in pool.map(_check, tasks, chunksize=4):
            tally[verdict] += 1
            if before is None:
                continue
            tally["before replays to a win"] += before
            if after is None:
                tally["no position after (items after a trick)"] += 1
            else:
                tally["after decided unwinnable"] += bool(after)
            if not before or after is False:
                failures.append((game, row, before, after))
    seconds = time.perf_counter() - t0
    decided = tally[F.AVOIDABLE] + tally[F.HINDSIGHT]
    lines = [
        "# The proofs of the fatal decisions",
        "",
        f"Regenerate: `python experiments/why_proofs.py --lost {args.lost} --seed {args.seed} "
        f"--workers {args.workers}"
        f"{' --out ' + args.out if args.out else ''}` (player {args.policy}, rulebook "
        f"defaults; the first {len(lost):,} lost games of seed {args.seed}; solver budget "
        f"{F.BUDGET:,} rounds expanded per game, {20 * F.BUDGET:,} for each proof's fresh "
        f"search). Written {datetime.date.today()}, {seconds:.0f} s with {args.workers} "
        f"workers.",
        "",
        "For each game lost by a decision: the winning line found from the position before the "
        "fatal decision is replayed through the engine's own flow (it must win), and a fresh "
        "search, which remembers nothing of the first, must decide the position after the "
        "decision unwinnable.",
        "",
        "| games | count |",
        "| --- | ---: |",
        *(f"| {k} | {tally[k]:,} |" for k in (*F.VERDICTS[1:],)),
        f"| lost by a decision | {decided:,} |",
        f"| ... the line before replays to a win | {tally['before replays to a win']:,} |",
        f"| ... the position after decided unwinnable | {tally['after decided unwinnable']:,} |",
        f"| ... no position after (items used right after a trick) | "
        f"{tally['no position after (items after a trick)']:,} |",
        f"| failures | {len(failures):,} |",
    ]
    for game, row, before, after in failures:
        lines.append(f"- game {game}: before {before}, after {after}: {row}")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
