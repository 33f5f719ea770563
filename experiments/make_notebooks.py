"""Write the analysis notebooks of notebooks/ from the cell sources below (stored without
outputs, so that they are reviewed here, as code).

    python experiments/make_notebooks.py            # rewrite notebooks/*.ipynb
    python experiments/make_notebooks.py --out DIR  # write them into DIR instead

tests/test_notebooks.py checks that the committed notebooks are what this script writes.
"""
import argparse
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

NOTEBOOKS_DIR = Path(__file__).resolve().parent.parent / "notebooks"

LOAD = '''\
from IPython.display import display
from _common import editions, load_results, of_edition, show
from slashersim.analysis import plots, report

df, source = load_results()
print(source)
print("Knobs that vary:", ", ".join(plots.varying_knobs(df)) or "none")'''

LOAD_NOTE = '''\
The next cell loads `results/difficulty.parquet` (found from the repository root above this
folder) when it exists. Otherwise, or with `SLASHERSIM_NOTEBOOK_FRESH=1` in the environment, it
plays a small sweep itself (both editions, starting health 7..1, Hideaway in/out, Cursed Object
in/out, policies `baseline` and `heuristic`) with `SLASHERSIM_NOTEBOOK_GAMES` games per cell (default 20,000).'''


def difficulty_overview():
    return [
        new_markdown_cell('''\
# Difficulty overview

**Question:** how hard is *The Slasher*, and which settings make it easier or harder? This
notebook shows the win rate against starting health for each rule edition, the win rate over
starting health × Hideaway, and the effect of each knob on the win rate pooled over all other
knobs.

''' + LOAD_NOTE),
        new_code_cell(LOAD),
        new_markdown_cell('''\
## Win rate by starting health, per edition

One line per combination of the other varying knobs; the band is the 95 % Wilson interval.'''),
        new_code_cell('''\
for ed in editions(df):
    try:
        fig = plots.win_rate_by_health(of_edition(df, ed))
    except plots.FigureUnavailable as e:
        print(f"{ed}: {e}")
        continue
    fig.suptitle(f"{ed} edition")
    show(fig)'''),
        new_markdown_cell('''\
## Starting health × Hideaway

Win rate per edition, every other knob pooled from the counts (`sum(wins) / sum(games)`).'''),
        new_code_cell('''\
for ed in editions(df):
    sub = of_edition(df, ed)
    missing = {"health", "hideaway"} - set(plots.varying_knobs(sub))
    if missing:
        print(f"{ed}: no heatmap, {', '.join(sorted(missing))} does not vary")
        continue
    fig = plots.heatmap(sub, "hideaway", "health")
    fig.suptitle(f"{ed} edition")
    show(fig)'''),
        new_markdown_cell('''\
## Effect of each knob

For each varying knob: the win rate pooled over everything else at each of its values, and
`diff`, the change from its first value.'''),
        new_code_cell('''\
effects = report.knob_effects(df)
for knob, table in effects.items():
    print(f"{plots.knob_words(knob)} ({knob})")
    display(table.round(4))'''),
        new_markdown_cell('''\
## Conclusion

The cell below computes the summary from the table: the pooled win rate of each edition with
its 95 % interval, the easiest and hardest cells, how the win rate moves from the lowest to the
highest starting health, and the knobs ranked by the spread of their pooled win rates (the
largest spread is the strongest lever on difficulty). Cells whose intervals overlap are not
told apart at this number of games; rerun with more games per cell to separate them.'''),
        new_code_cell('''\
by_edition = plots.pool_counts(df, ["edition"] if "edition" in df.columns else [])
for _, r in by_edition.iterrows():
    name = f"{r['edition']} edition" if "edition" in r else "all games"
    print(f"{name}: win rate {r['win_rate']:.4f} [{r['win_ci_low']:.4f}, "
          f"{r['win_ci_high']:.4f}] over {int(r['games']):,} games")

varying = plots.varying_knobs(df)
for words, row in (("Easiest", df.loc[df["win_rate"].idxmax()]),
                   ("Hardest", df.loc[df["win_rate"].idxmin()])):
    cell = ", ".join(f"{k}={plots.format_value(row[k])}" for k in varying)
    print(f"{words} cell: {cell or 'the only cell'}: win rate {row['win_rate']:.4f} "
          f"[{row['win_ci_low']:.4f}, {row['win_ci_high']:.4f}]")

if "health" in effects:
    h = effects["health"].sort_values("value")
    lo, hi = h.iloc[0], h.iloc[-1]
    print(f"Health {plots.format_value(lo['value'])} -> {plots.format_value(hi['value'])}: "
          f"pooled win rate {lo['win_rate']:.4f} -> {hi['win_rate']:.4f} "
          f"({hi['win_rate'] - lo['win_rate']:+.4f})")

spreads = {k: t["win_rate"].max() - t["win_rate"].min() for k, t in effects.items()}
print("Knobs by spread of the pooled win rate:")
for k in sorted(spreads, key=spreads.get, reverse=True):
    print(f"  {k}: {spreads[k]:.4f}")'''),
    ]


def area_balance():
    return [
        new_markdown_cell('''\
# Area balance

**Question:** are the areas balanced, or do some set off traps far more often than others?
This notebook shows the traps set off per round played in each area, per edition, which areas
are the most dangerous, and in which round games end.

The table holds a trap *rate* per area and cell, so rates over several cells are averaged,
weighted by games (cells where an area was never played are left out of its average). The
Hideaway is only in the area deck of the cells with `hideaway` in, so its rate comes from those
cells alone; in the others it is missing, not zero.

''' + LOAD_NOTE),
        new_code_cell(LOAD),
        new_markdown_cell('''\
## Trap rate by area, per edition

Pooled over the cells of each edition, weighted by games.'''),
        new_code_cell('''\
by = ["edition"] if "edition" in df.columns else []
rates = plots.weighted_trap_rates(df, by)
rates.index = rates["edition"] if by else ["all games"]
rates = rates.drop(columns=by).rename(columns=lambda c: c.removeprefix("trap_rate_")).T
display(rates.round(3))
for ed in editions(df):
    fig = plots.trap_rate_by_area(of_edition(df, ed))
    fig.suptitle(f"{ed} edition")
    show(fig)'''),
        new_markdown_cell('''\
## Which areas set off traps most

Areas ranked by trap rate in each edition, and the rates with the Hideaway in and out (adding
the Hideaway changes which areas are played, and so may move the others' rates too).'''),
        new_code_cell('''\
for ed in rates.columns:
    ranked = rates[ed].dropna().sort_values(ascending=False)
    print(f"{ed}: " + ", ".join(f"{plots.area_words(a)} {v:.3f}" for a, v in ranked.items()))
    if len(ranked) > 1:
        print(f"  most / least dangerous: {ranked.iloc[0] / ranked.iloc[-1]:.2f}x")
if "hideaway" in df.columns:
    n_in = int(df["hideaway"].astype(bool).sum())
    print(f"\\nHideaway rates come from the {n_in} of {len(df)} cells with the Hideaway in.")
    split = plots.weighted_trap_rates(df, [*by, "hideaway"])
    display(split.rename(columns=lambda c: c.removeprefix("trap_rate_")).round(3))'''),
        new_markdown_cell('''\
## When games end

The share of games ending in each round, pooled over the cells of each edition.'''),
        new_code_cell('''\
for ed in editions(df):
    sub = of_edition(df, ed)
    hist = plots.pool_rounds_hist(sub)
    mean = (sub["mean_rounds"] * sub["games"]).sum() / sub["games"].sum()
    median = int((hist.cumsum() >= hist.sum() / 2).argmax())
    print(f"{ed}: mean {mean:.2f} rounds, median round {median}, "
          f"longest game {len(hist) - 1} rounds")
    fig = plots.rounds_distribution(sub)
    fig.suptitle(f"{ed} edition")
    show(fig)'''),
    ]


def policy_comparison():
    return [
        new_markdown_cell('''\
# Policy comparison

**Question:** how much does the way the players play matter? This notebook shows the win rate
of each policy in each cell with its 95 % Wilson interval and, for each pair of policies, the
difference of their win rates per cell. Every policy of a sweep plays the same games (common
random numbers), so the unpaired interval shown for a difference is conservative. With a single
policy in the table there is nothing to compare; the notebook says so and shows that policy's
profile across the settings instead.

''' + LOAD_NOTE),
        new_code_cell(LOAD),
        new_markdown_cell('''\
## Win rate per policy and cell'''),
        new_code_cell('''\
policies = list(dict.fromkeys(df["policy"]))
knobs = plots.varying_knobs(df)
print(f"{len(policies)} polic{'y' if len(policies) == 1 else 'ies'}: {', '.join(policies)}")
display(df[[*knobs, "policy", "games", "win_rate", "win_ci_low", "win_ci_high"]].round(4))'''),
        new_markdown_cell('''\
## Differences between policies

For each pair: the win rate of the first minus that of the second, per cell, with an
approximate 95 % interval (normal approximation, unpaired).'''),
        new_code_cell('''\
import itertools
import numpy as np
import pandas as pd

if len(policies) < 2:
    print(f"Only one policy in the table ({policies[0]}): no pair of policies to compare. "
          "The profile of that policy across the settings follows.")
for a, b in itertools.combinations(policies, 2):
    pa, pb = (df[df["policy"] == p].set_index(knobs) if knobs else
              df[df["policy"] == p].reset_index(drop=True) for p in (a, b))
    diff = pa["win_rate"] - pb["win_rate"]
    se = np.sqrt(pa["win_rate"] * (1 - pa["win_rate"]) / pa["games"]
                 + pb["win_rate"] * (1 - pb["win_rate"]) / pb["games"])
    table = pd.DataFrame({a: pa["win_rate"], b: pb["win_rate"], "diff": diff,
                          "diff_low": diff - 1.96 * se, "diff_high": diff + 1.96 * se})
    print(f"{a} - {b}: {a} better in {int((table['diff_low'] > 0).sum())} cells, "
          f"worse in {int((table['diff_high'] < 0).sum())}, not told apart in the others "
          f"(of {len(table)}); mean difference {diff.mean():+.4f}")
    display(table.round(4))
if len(policies) > 1:
    show(plots.win_rate_by_health(df))'''),
        new_markdown_cell('''\
## Profile of each policy across settings

Win rate by starting health, the win rate over starting health × edition, and the effect of
each knob on the pooled win rate.'''),
        new_code_cell('''\
for p in policies:
    sub = df[df["policy"] == p]
    print(f"policy {p}")
    for make in (lambda: plots.win_rate_by_health(sub),
                 lambda: plots.heatmap(sub, "edition", "health")):
        try:
            show(make())
        except ValueError as e:
            print(f"  figure not drawn: {e}")
    for knob, table in report.knob_effects(sub).items():
        print(f"  {plots.knob_words(knob)} ({knob})")
        display(table.round(4))'''),
    ]


def luck():
    return [
        new_markdown_cell('''\
# How lucky was that Killer placement?

**Question:** the team lost a game in which the Killer lay on top of the first item deck. Did
they lose to that bad luck, or would they have lost anyway? This notebook answers it for one
game of the simulator, step by step:

1. find such a game (the Killer on top, a loss) and replay it;
2. how much the Killer's starting position matters in general (`luck killer`);
3. the win probability at the start of that game, not knowing where the Killer is, and knowing
   it is on top (`luck state`);
4. the luck timeline of the game: the win probability before and after each random event
   (`luck timeline`).

Counts are small so that it runs in seconds (`SLASHERSIM_NOTEBOOK_GAMES` games per Killer
position and per position played out, default 20,000); the intervals say how far to trust
them.'''),
        new_code_cell('''\
from IPython.display import display
import pandas as pd
from _common import games_per_cell, show
from slashersim.analysis.luck import killer_position_effects
from slashersim.analysis.position import (parse_position, record_game, timeline,
                                          timeline_figure, win_probability)
from slashersim.config import GameConfig
from slashersim.runner import simulate

GAMES = games_per_cell()
config = GameConfig()  # the rulebook defaults, baseline policy
print(f"{GAMES:,} games per Killer position and per position played out")'''),
        new_markdown_cell('''\
## 1. The game

The first game of seed 0 that was lost with the Killer on top of the first item deck, replayed
(`record_game` plays it exactly as `simulate` did).'''),
        new_code_cell('''\
records = simulate(config, games=500, seed=0, keep_records=True).records
lost_on_top = records[(records["killer_start"] == 1) & (records["outcome"] != "win")]
game = int(lost_on_top["game"].iloc[0])
rec = record_game(config, "baseline", 0, game)
row = records.loc[records["game"] == game].iloc[0]
print(f"game {game}: {row['outcome']} after {row['rounds']} rounds, "
      f"Killer drawn {row['killer_draws']} times")'''),
        new_markdown_cell('''\
## 2. How much the Killer's starting position matters

Every position plays the same games (common random numbers); the effect is the position's win
rate minus the average over positions, with a paired 95 % interval.'''),
        new_code_cell('''\
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

eff = killer_position_effects(config, games=GAMES, seed=1)
table = pd.DataFrame(eff["positions"]).T
display(table[["games", "win_rate", "effect"]].astype(float).round(4))
fig = Figure(figsize=(6, 3.5), constrained_layout=True)
FigureCanvasAgg(fig)
ax = fig.subplots()
k = [int(x) for x in eff["positions"]]
rate = [p["win_rate"] for p in eff["positions"].values()]
err = [[p["win_rate"] - p["win_ci"][0] for p in eff["positions"].values()],
       [p["win_ci"][1] - p["win_rate"] for p in eff["positions"].values()]]
ax.errorbar(k, rate, yerr=err, fmt="o-", capsize=3)
ax.axhline(eff["average"], color="grey", linestyle=":", label="average over positions")
ax.set_xlabel("Killer's starting position (1 = top)")
ax.set_ylabel("win rate")
ax.set_title("Win rate by the Killer's starting position (95% intervals)")
ax.legend()
show(fig)
top = eff["positions"]["1"]
print(f"Killer on top: win rate {top['win_rate']:.4f}, effect {top['effect']:+.4f} "
      f"[{top['effect_ci'][0]:+.4f}, {top['effect_ci'][1]:+.4f}]")'''),
        new_markdown_cell('''\
## 3. The start of that game, with and without knowing the Killer's place

A position is a plain description (README, "luck state"): here a fresh game, and the same
with the Killer known to be the top card. The difference is what the placement was worth
before a single card was played.'''),
        new_code_cell('''\
unknown = win_probability(parse_position({"config": {}}), games=GAMES, seed=2)
on_top = win_probability(parse_position({"config": {}, "item_deck": {"killer_position": 1}}),
                         games=GAMES, seed=2)
for name, r in (("Killer anywhere", unknown), ("Killer on top", on_top)):
    print(f"{name:>16}: {r['win_rate']:.4f} [{r['win_ci'][0]:.4f}, {r['win_ci'][1]:.4f}]")
placement = on_top["win_rate"] - unknown["win_rate"]
print(f"the placement changed the win probability by {placement:+.4f} at the start")'''),
        new_markdown_cell('''\
## 4. The luck timeline of the game

The win probability before and after each random event, as the players know the game
afterwards (their hands, everything face up, never the order of the item deck).'''),
        new_code_cell('''\
t = timeline(rec, games=max(200, GAMES // 4), seed=3)
events = pd.DataFrame(t["events"])[["label", "before", "after", "swing"]]
display(events.round(4))
show(timeline_figure(t))'''),
        new_markdown_cell('''\
## Conclusion

Computed from the figures above: the placement's worth at the start, set against the largest
swings of the game. A placement small next to the later swings means the game was lost to what
came after (draws, traps), not to the Killer's starting place.'''),
        new_code_cell('''\
swings = sorted(t["events"], key=lambda e: -abs(e["swing"]))[:3]
print(f"placement: {placement:+.4f} (Killer on top against anywhere)")
for e in swings:
    print(f"swing {e['swing']:+.4f}: {e['label']}")
verdict = "mostly the placement" if abs(placement) > abs(swings[0]["swing"]) else \\
    "mostly what came after the placement"
print(f"game {game} was decided by {verdict}.")'''),
    ]


NOTEBOOKS = {
    "difficulty_overview.ipynb": difficulty_overview,
    "area_balance.ipynb": area_balance,
    "policy_comparison.ipynb": policy_comparison,
    "luck.ipynb": luck,
}


def build(name):
    """The notebook ``name`` (a key of :data:`NOTEBOOKS`), without outputs, with stable ids."""
    cells = NOTEBOOKS[name]()
    stem = name.removesuffix(".ipynb")
    for i, cell in enumerate(cells):
        cell["id"] = f"{stem}-{i:02d}"
    return new_notebook(cells=cells, metadata={
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    })


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=NOTEBOOKS_DIR,
                        help="folder to write the notebooks into (default: notebooks/)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name in NOTEBOOKS:
        nb = build(name)
        nbformat.validate(nb)
        nbformat.write(nb, args.out / name)
        print(args.out / name)


if __name__ == "__main__":
    main()
