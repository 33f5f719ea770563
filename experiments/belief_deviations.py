"""Where the belief player's search leaves its blueprint (the expert made replayable); writes
the deviations report.

    python experiments/belief_deviations.py [--games N] [--seed S]
        --out results/belief_deviations.md

Every card decision of ``belief`` with more than one legal card in ``N`` games of the rulebook
defaults is recorded (:func:`slashersim.analysis.hygiene.decision_points`) and compared with the
blueprint's card on the same position (:func:`slashersim.policies.blueprint.card`): the share
of searched decisions where the search chose another card, by role (lead or answer), trick
and area.
"""
import argparse
from collections import Counter
from datetime import date
from pathlib import Path
import sys

from slashersim.analysis import hygiene as Hy
from slashersim.core import layout as L
from slashersim.core.config import GameConfig
from slashersim.core.rules import AREA_NAMES
from slashersim.engine import interface
from slashersim.policies import blueprint as BP
from slashersim.policies import param_vector
from slashersim.policies.belief import SEARCH_LEADS_FROM


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    command = "python experiments/belief_deviations.py " + " ".join(argv or sys.argv[1:])
    params = param_vector("belief")
    points = Hy.decision_points("belief", GameConfig(), args.games, seed=args.seed,
                                rates={interface.PLAY_CARD: 1.0}, capacity=60 * args.games)
    searched, moved = Counter(), Counter()
    for row in points:
        decision, player, legal, answer = (int(x) for x in row[:Hy.POINT_HEADER])
        st = row[Hy.POINT_HEADER:].copy()
        lead = st[L.S_LED] < 0
        trick = int(st[L.S_TRICK])
        if decision != interface.PLAY_CARD or not legal & (legal - 1) or \
                lead and trick < params[SEARCH_LEADS_FROM]:
            continue
        keys = [("role", "lead" if lead else "answer"), ("trick", trick + 1),
                ("area", AREA_NAMES[int(st[L.S_AREA])])]
        other = BP.card(st, player, legal, params) != answer
        for key in keys:
            searched[key] += 1
            moved[key] += other
    lines = [
        "# Where the belief player's search leaves its blueprint",
        "",
        f"Regenerate: `{command}` (seed {args.seed}; every card decision of `belief` with "
        f"more than one legal card in games 0..{args.games - 1} of the rulebook defaults, "
        f"default parameters: answers, and leads from trick "
        f"{int(params[SEARCH_LEADS_FROM]) + 1} on). Written {date.today().isoformat()}.",
        "",
        "A decision *moved* when the searched card is not the blueprint's (the expert's card, "
        "made replayable) on the same position.",
        "",
    ]
    for kind in ("role", "trick", "area"):
        lines += [f"## By {kind}", "", f"| {kind} | searched decisions | moved | share |",
                  "| --- | ---: | ---: | ---: |"]
        for key in sorted(k for k in searched if k[0] == kind):
            n, m = searched[key], moved[key]
            lines.append(f"| {key[1]} | {n} | {m} | {m / n:.3f} |")
        lines.append("")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines))
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
