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
in/out, policy `baseline`) with `SLASHERSIM_NOTEBOOK_GAMES` games per cell (default 20,000).'''


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


NOTEBOOKS = {
    "difficulty_overview.ipynb": difficulty_overview,
    "area_balance.ipynb": area_balance,
    "policy_comparison.ipynb": policy_comparison,
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
