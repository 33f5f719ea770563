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
# # Policy comparison
#
# **Question:** how much does the way the players play matter? This notebook shows the win rate
# of each policy in each cell with its 95 % Wilson interval and, for each pair of policies, the
# difference of their win rates per cell. Every policy of a sweep plays the same games (common
# random numbers), so the unpaired interval shown for a difference is conservative. With a single
# policy in the table there is nothing to compare; the notebook says so and shows that policy's
# profile across the settings instead.
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
# ## Win rate per policy and cell

# %%
policies = list(dict.fromkeys(df["policy"]))
knobs = tables.varying_knobs(df)
print(f"{len(policies)} polic{'y' if len(policies) == 1 else 'ies'}: {', '.join(policies)}")
display(df[[*knobs, "policy", "games", "win_rate", "win_ci_low", "win_ci_high"]].round(4))

# %% [markdown]
# ## Differences between policies
#
# For each pair: the win rate of the first minus that of the second, per cell, with an
# approximate 95 % interval (normal approximation, unpaired: conservative, since both
# players play the same games), from the counts.

# %%
import itertools

import pandas as pd

from slashersim.core.stats import unpaired_difference_interval

if len(policies) < 2:
    print(f"Only one policy in the table ({policies[0]}): no pair of policies to compare. "
          "The profile of that policy across the settings follows.")
for a, b in itertools.combinations(policies, 2):
    pa, pb = (df[df["policy"] == p].set_index(knobs) if knobs else
              df[df["policy"] == p].reset_index(drop=True) for p in (a, b))
    diff = pa["win_rate"] - pb["win_rate"]
    ci = [unpaired_difference_interval(wb, nb, wa, na) for wa, na, wb, nb
          in zip(pa["wins"], pa["games"], pb["wins"], pb["games"])]
    table = pd.DataFrame({a: pa["win_rate"], b: pb["win_rate"], "diff": diff,
                          "diff_low": [c[0] for c in ci], "diff_high": [c[1] for c in ci]},
                         index=pa.index)
    print(f"{a} - {b}: {a} better in {int((table['diff_low'] > 0).sum())} cells, "
          f"worse in {int((table['diff_high'] < 0).sum())}, not told apart in the others "
          f"(of {len(table)}); mean difference {diff.mean():+.4f}")
    display(table.round(4))
if len(policies) > 1:
    show(figures.win_rate_by_health(df))

# %% [markdown]
# ## Profile of each policy across settings
#
# Win rate by starting health, the win rate over starting health × edition, and the effect of
# each knob on the pooled win rate.

# %%
for p in policies:
    sub = df[df["policy"] == p]
    print(f"policy {p}")
    for make in (lambda sub=sub: figures.win_rate_by_health(sub),
                 lambda sub=sub: figures.heatmap(sub, "edition", "health")):
        try:
            show(make())
        except ValueError as e:
            print(f"  figure not drawn: {e}")
    for knob, table in report.knob_effects(sub).items():
        print(f"  {figures.knob_words(knob)} ({knob})")
        display(table.round(4))
