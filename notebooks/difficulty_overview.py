# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Difficulty overview
#
# **Question:** how hard is *The Slasher*, and which settings make it easier or harder? This
# notebook shows the win rate against starting health for each rule edition, the win rate over
# starting health × Hideaway, and the effect of each knob on the win rate pooled over all other
# knobs.
#
# The next cell loads `results/difficulty.parquet` (found from the repository root above this
# folder) when it exists. Otherwise, or with `SLASHERSIM_NOTEBOOK_FRESH=1` in the environment, it
# plays a small sweep itself (both editions, starting health 7..1, Hideaway in/out, Cursed Object
# in/out, policies `baseline` and `heuristic`) with `SLASHERSIM_NOTEBOOK_GAMES` games per cell
# (default 20,000).

# %%
from _common import load_results, show
from IPython.display import display

from slashersim.analysis import report
from slashersim.present import figures
from slashersim.runner import tables

df, source = load_results()
print(source)
print("Knobs that vary:", ", ".join(tables.varying_knobs(df)) or "none")

# %% [markdown]
# ## Win rate by starting health, per edition and player
#
# A panel per edition and player, a line per combination of the other varying knobs; the band
# is the 95 % Wilson interval.

# %%
try:
    show(figures.win_rate_by_health(df))
except figures.FigureUnavailable as e:
    print(e)

# %% [markdown]
# ## Starting health × Hideaway
#
# Win rate per edition and player, every other knob pooled from the counts
# (`sum(wins) / sum(games)`).

# %%
missing = {"health", "hideaway"} - set(tables.varying_knobs(df))
if missing:
    print(f"no heatmap: {', '.join(sorted(missing))} does not vary")
else:
    show(figures.heatmap(df, "hideaway", "health"))

# %% [markdown]
# ## Effect of each knob
#
# For each varying knob: the win rate pooled over everything else at each of its values, and
# `diff`, the change from its first value.

# %%
effects = report.knob_effects(df)
for knob, table in effects.items():
    print(f"{figures.knob_words(knob)} ({knob})")
    display(table.round(4))

# %% [markdown]
# ## Conclusion
#
# The cell below computes the summary from the table: the pooled win rate of each edition with
# its 95 % interval, the easiest and hardest cells, how the win rate moves from the lowest to the
# highest starting health, and the knobs ranked by the spread of their pooled win rates (the
# largest spread is the strongest lever on difficulty). Cells whose intervals overlap are not
# told apart at this number of games; rerun with more games per cell to separate them.

# %%
by_edition = tables.pool_counts(df, ["edition"] if "edition" in df.columns else [])
for _, r in by_edition.iterrows():
    name = f"{r['edition']} edition" if "edition" in r else "all games"
    print(f"{name}: win rate {r['win_rate']:.4f} [{r['win_ci_low']:.4f}, "
          f"{r['win_ci_high']:.4f}] over {int(r['games']):,} games")

varying = tables.varying_knobs(df)
for words, row in (("Easiest", df.loc[df["win_rate"].idxmax()]),
                   ("Hardest", df.loc[df["win_rate"].idxmin()])):
    cell = ", ".join(f"{k}={figures.format_value(row[k])}" for k in varying)
    print(f"{words} cell: {cell or 'the only cell'}: win rate {row['win_rate']:.4f} "
          f"[{row['win_ci_low']:.4f}, {row['win_ci_high']:.4f}]")

if "health" in effects:
    h = effects["health"].sort_values("value")
    lo, hi = h.iloc[0], h.iloc[-1]
    print(f"Health {figures.format_value(lo['value'])} -> {figures.format_value(hi['value'])}: "
          f"pooled win rate {lo['win_rate']:.4f} -> {hi['win_rate']:.4f} "
          f"({hi['win_rate'] - lo['win_rate']:+.4f})")

spreads = {k: t["win_rate"].max() - t["win_rate"].min() for k, t in effects.items()}
print("Knobs by spread of the pooled win rate:")
for k in sorted(spreads, key=spreads.get, reverse=True):
    print(f"  {k}: {spreads[k]:.4f}")
