"""The same games under two versions of slashersim: each player's win rate in both and the
paired difference old − new with its 95 % interval.

Each version is a checkout (``--old DIR``, ``--new DIR``, default this one); each plays games
``0 .. N - 1`` of ``--seed`` in a fresh process with that checkout first on ``PYTHONPATH``, and
the per-game outcomes are paired. Deals, item decks and area orders come from streams every
version seeds alike, so what differs is what the versions change (a player's random draws,
for instance), and the interval is far tighter than that of two independent runs.

    python dev/benchmarks/paired_versions.py --old /tmp/before [--new .] [--games 100000]
        [--seed 2026] [--policies baseline,exerciser,heuristic,expert]
"""
import argparse
import json
import os
from pathlib import Path
import subprocess
import sys
import tempfile

import numpy as np

#: the repository root (this file is dev/benchmarks/paired_versions.py)
HERE = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(HERE))

CHILD = r"""
import sys
import numpy as np
import os
import slashersim
if os.path.isdir(os.path.join(os.path.dirname(slashersim.__file__), "core")):
    from slashersim.core.config import GameConfig
else:  # a checkout from before the package's folders
    from slashersim.config import GameConfig
from slashersim.runner import simulate
policy, games, seed, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
r = simulate(GameConfig(), policy, games=games, seed=seed, keep_records=True)
np.save(out, (r.records["outcome"] == "win").to_numpy())
"""


def wins(root, policy, games, seed):
    """Per-game wins of ``policy`` under the checkout ``root``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "wins.npy"
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env["PYTHONPATH"] = str(root)
        subprocess.run([sys.executable, "-c", CHILD, policy, str(games), str(seed), str(out)],
                       env=env, cwd=tmp, check=True)
        return np.load(out)


def main():
    from slashersim.core.stats import mean_interval
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", default=str(HERE))
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--policies", default="baseline,exerciser,heuristic,expert")
    a = ap.parse_args()
    rows = []
    print(f"rulebook defaults, games 0..{a.games - 1} of seed {a.seed}; old {a.old}, "
          f"new {a.new}\n")
    print(f"  {'player':<11} {'old':>7} {'new':>7} {'old - new':>10}   95% CI")
    for policy in a.policies.split(","):
        old = wins(Path(a.old).resolve(), policy, a.games, a.seed)
        new = wins(Path(a.new).resolve(), policy, a.games, a.seed)
        only_old, only_new = int((old & ~new).sum()), int((new & ~old).sum())
        d, ci = mean_interval(only_old - only_new, only_old + only_new, a.games)
        rows.append({"policy": policy, "old": old.mean(), "new": new.mean(), "difference": d,
                     "ci": ci, "games": a.games, "same_games": int((old == new).sum())})
        print(f"  {policy:<11} {old.mean():>7.4f} {new.mean():>7.4f} {d:>+10.4f}   "
              f"[{ci[0]:+.4f}, {ci[1]:+.4f}]   identical outcomes {rows[-1]['same_games']:,}",
              flush=True)
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
