"""Do the players read a card only through its hooks, and does the skill ladder hold under a
designer's own cards?

    python experiments/cards_check.py [--games 20000] [--seed 2026] --out results/cards_check.md

Copies: every printed area card and every item card written anew under a name of its own, in
its place (:func:`slashersim.core.cards.copy_text`), played by the expert on the same games as
the printed cards (rulebook defaults; the Hideaway's copy with ``hideaway = true``, the only
way it is played there), with the paired difference of the win rates and its 95 % interval.
Ladder: novice, casual and expert on the how-to's card files (``examples/*.toml``), each on the
same games, with the win rates' 95 % intervals and whether each is apart from the next.
"""
import argparse
from pathlib import Path
import sys
import tempfile

import slashersim
from slashersim.core import cards as C
from slashersim.core import rules
from slashersim.core.stats import mean_interval

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ("bog.toml", "bonfire.toml", "cabins_eight.toml", "energy_bar.toml",
            "whistle.toml")
SKILLS = ("novice", "casual", "expert")


def wins(result):
    return (result.records["outcome"] == "win").to_numpy(float)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    run = dict(policy="expert", games=args.games, seed=args.seed, records=True)
    printed = {False: wins(slashersim.simulate(**run)),
               True: wins(slashersim.simulate(hideaway=True, **run))}
    copies = []
    with tempfile.TemporaryDirectory() as folder:
        for kind, names in (("area", rules.AREA_NAMES), ("item", C.ITEM_CARDS)):
            for name in names:
                path = Path(folder) / f"{name}.toml"
                path.write_text(C.copy_text(kind, name, "copy_of_" + name))
                hideaway = name == "hideaway"
                mine = wins(slashersim.simulate(cards=str(path), hideaway=hideaway, **run))
                d = mine - printed[hideaway]
                mean, (low, high) = mean_interval(d.sum(), (d ** 2).sum(), len(d))
                within = "yes" if abs(mean) <= 0.01 else "NO"
                copies.append(f"| {kind} | {name} | {mine.mean():.4f} | "
                              f"{printed[hideaway].mean():.4f} | {mean:+.4f} "
                              f"[{low:+.4f}, {high:+.4f}] | {within} |")
    ladder = []
    for example in ("printed", *EXAMPLES):
        cards = None if example == "printed" else str(ROOT / "examples" / example)
        rates = [slashersim.simulate(policy=skill, games=args.games, seed=args.seed,
                                     cards=cards) for skill in SKILLS]
        apart = all(rates[i + 1].win_ci[0] > rates[i].win_ci[1] for i in range(2))
        cells = " | ".join(f"{r.win_rate:.4f} [{r.win_ci[0]:.4f}, {r.win_ci[1]:.4f}]"
                           for r in rates)
        ladder.append(f"| {example} | {cells} | {'yes' if apart else 'NO'} |")
    command = " ".join(["python", "experiments/cards_check.py", *(argv or sys.argv[1:])])
    text = f"""# The players read a card through its hooks; the ladder under a designer's cards

Made by `{command}`: seed {args.seed}, {args.games:,} games per run, rulebook defaults;
players: the expert (the copies), novice, casual and expert (the ladder).

## A printed card copied under a new name plays as the original

Each printed card written anew under the name `copy_of_NAME`, in its place, played by the expert
on the same games as the printed cards (the Hideaway's copy and its printed row with
`hideaway = true`). The difference is the copy's win rate less the printed one's, game by game,
with its 95 % interval; the target is within 0.01.

| card | name | copy's win rate | printed win rate | difference | within 0.01 |
| --- | --- | ---: | ---: | --- | --- |
{chr(10).join(copies)}

## The ladder under the how-to's cards

Win rates with their 95 % Wilson intervals; *apart*: expert above casual above novice, each
interval clear of the next.

| cards | novice | casual | expert | apart |
| --- | --- | --- | --- | --- |
{chr(10).join(ladder)}
"""
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
