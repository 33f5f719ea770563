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
# # How lucky was that Killer placement?
#
# **Question:** the team lost a game in which the Killer lay on top of the first item deck. Did
# they lose to that bad luck, or would they have lost anyway? This notebook answers it for one
# game of the simulator, step by step:
#
# 1. find such a game (the Killer on top, a loss) and replay it;
# 2. how much the Killer's starting position matters in general (`luck killer`);
# 3. the win probability at the start of that game, not knowing where the Killer is, and knowing
#    it is on top (`luck state`);
# 4. the luck timeline of the game: the win probability before and after each random event
#    (`luck timeline`).
#
# Counts are small so that it runs in seconds (`SLASHERSIM_NOTEBOOK_GAMES` games per Killer
# position and per position played out, default 20,000); the intervals say how far to trust
# them.

# %%
from _common import games_per_cell, show
from IPython.display import display
import pandas as pd

from slashersim.analysis.luck import killer_position_effects
from slashersim.analysis.playouts import timeline, win_probability
from slashersim.analysis.position import parse_position
from slashersim.analysis.records import record_game
from slashersim.core.config import GameConfig
from slashersim.policies import DEFAULT_SKILL
from slashersim.present.figures import timeline_figure
from slashersim.runner import simulate

GAMES = games_per_cell()
config = GameConfig()  # the rulebook defaults
POLICY = DEFAULT_SKILL  # the expert, the level a designer tunes for
print(f"player: {POLICY}; {GAMES:,} games per Killer position and per position played out")

# %% [markdown]
# ## 1. The game
#
# The first game of seed 0 that was lost with the Killer on top of the first item deck, replayed
# (`record_game` plays it exactly as `simulate` did).

# %%
records = simulate(config, POLICY, games=500, seed=0, keep_records=True).records
lost_on_top = records[(records["killer_start"] == 1) & (records["outcome"] != "win")]
game = int(lost_on_top["game"].iloc[0])
rec = record_game(config, POLICY, 0, game)
row = records.loc[records["game"] == game].iloc[0]
print(f"game {game}: {row['outcome']} after {row['rounds']} rounds, "
      f"Killer drawn {row['killer_draws']} times")

# %% [markdown]
# ## 2. How much the Killer's starting position matters
#
# Every position plays the same games (common random numbers); the effect is the position's win
# rate minus the average over positions, with a paired 95 % interval.

# %%
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

eff = killer_position_effects(config, POLICY, games=GAMES, seed=1)
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
      f"[{top['effect_ci'][0]:+.4f}, {top['effect_ci'][1]:+.4f}]")

# %% [markdown]
# ## 3. The start of that game, with and without knowing the Killer's place
#
# A position is a plain description (docs/reference/formats.md, "Position files"): here a
# fresh game, and the same with the Killer known to be the top card. The difference is what the
# placement was worth before a single card was played.

# %%
unknown = win_probability(parse_position({"config": {}}), POLICY, games=GAMES, seed=2)
on_top = win_probability(parse_position({"config": {}, "item_deck": {"killer_position": 1}}),
                         POLICY, games=GAMES, seed=2)
for name, r in (("Killer anywhere", unknown), ("Killer on top", on_top)):
    print(f"{name:>16}: {r['win_rate']:.4f} [{r['win_ci'][0]:.4f}, {r['win_ci'][1]:.4f}]")
placement = on_top["win_rate"] - unknown["win_rate"]
print(f"the placement changed the win probability by {placement:+.4f} at the start")

# %% [markdown]
# ## 4. The luck timeline of the game
#
# The win probability before and after each random event, as the players know the game
# afterwards (their hands, everything face up, never the order of the item deck).

# %%
t = timeline(rec, games=max(200, GAMES // 4), seed=3)
events = pd.DataFrame(t["events"])[["label", "before", "after", "swing"]]
display(events.round(4))
show(timeline_figure(t))

# %% [markdown]
# ## Conclusion
#
# Computed from the figures above: the placement's worth at the start, set against the largest
# swings of the game. A placement small next to the later swings means the game was lost to what
# came after (draws, traps), not to the Killer's starting place.

# %%
swings = sorted(t["events"], key=lambda e: -abs(e["swing"]))[:3]
print(f"placement: {placement:+.4f} (Killer on top against anywhere)")
for e in swings:
    print(f"swing {e['swing']:+.4f}: {e['label']}")
verdict = "mostly the placement" if abs(placement) > abs(swings[0]["swing"]) else \
    "mostly what came after the placement"
print(f"game {game} was decided by {verdict}.")
