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
# # Area balance
#
# **Question:** are the areas balanced, or do some set off traps far more often than others?
# This notebook shows the traps set off per round played in each area, per edition, which areas
# are the most dangerous, and in which round games end.
#
# The table holds counts: traps set off and rounds played per area, cell and player. A rate
# over several cells is all their traps over all their rounds there (pooling adds counts), and
# every rate is given per player, since the players differ most of all. The Hideaway is only in
# the area deck of the cells with the Hideaway in, so its rate comes from those cells alone; the
# notebook says how many.
#
# The next cell loads `results/difficulty.parquet` (found from the repository root above this
# folder) when it exists. Otherwise, or with `SLASHERSIM_NOTEBOOK_FRESH=1` in the environment, it
# plays a small sweep itself (both editions, starting health 7..1, Hideaway in/out, Cursed Object
# in/out, policies `baseline` and `heuristic`) with `SLASHERSIM_NOTEBOOK_GAMES` games per cell
# (default 20,000).

# %%
from _common import editions, load_results, of_edition, show
from IPython.display import display

from slashersim.present import figures
from slashersim.runner import tables

df, source = load_results()
print(source)
print("Knobs that vary:", ", ".join(tables.varying_knobs(df)) or "none")

# %% [markdown]
# ## Trap rate by area, per edition and player
#
# Traps set off per round played, pooled from the counts of the cells of each edition and
# player.

# %%
by = [*(["edition"] if "edition" in df.columns else []), "policy"]
pooled = tables.pool_counts(df, by)
rates = pooled.set_index(by)[[f"trap_rate_{a}" for a in figures.AREAS]]
rates = rates.rename(columns=lambda c: c.removeprefix("trap_rate_")).T
display(rates.round(3))
show(figures.trap_rate_by_area(df))

# %% [markdown]
# ## Which areas set off traps most
#
# Areas ranked by trap rate for each edition and player, and in how many cells the Hideaway was
# played (a cell counts once, whatever the number of players).

# %%
for key in rates.columns:
    ranked = rates[key].dropna().sort_values(ascending=False)
    name = " · ".join(map(str, key)) if isinstance(key, tuple) else str(key)
    print(f"{name}: " + ", ".join(f"{figures.area_words(a)} {v:.3f}" for a, v in ranked.items()))
    if len(ranked) > 1:
        print(f"  most / least dangerous: {ranked.iloc[0] / ranked.iloc[-1]:.2f}x")
played, cells = tables.cells_played(df, "hideaway")
print(f"\nThe Hideaway was played in {played} of the {cells} cells; its rates come from "
      f"those cells alone.")

# %% [markdown]
# ## When games end
#
# The share of games ending in each round, pooled over the cells of each edition (every
# player's games together in the summary line; the figure has a line per player).

# %%
for ed in editions(df):
    sub = of_edition(df, ed)
    hist = tables.pool_rounds_hist(sub)
    mean = sub["rounds"].sum() / sub["games"].sum()
    median = int((hist.cumsum() >= hist.sum() / 2).argmax())
    print(f"{ed}: mean {mean:.2f} rounds, median round {median}, "
          f"longest game {len(hist) - 1} rounds")
show(figures.rounds_distribution(df))
