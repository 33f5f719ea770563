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
# # Write your own player
#
# **Question:** how well does a pair win who play by a few rules of thumb I can write down —
# and how far is that from the built-in expert, on the same games?
#
# A player is a Python object with a method `act(observation)` (or just a function of the
# observation) that returns one of `observation.legal`. The compiled engine plays the games and
# asks it at every decision: which card to play, which item to use, which drawn card to keep.
# The observation holds only what that player may know (its own hand, the cards played and won,
# the public piles and counters), so the player is fair by construction.
#
# Counts are small so that the notebook runs in seconds (`SLASHERSIM_NOTEBOOK_GAMES` games per
# player, default 20,000); the intervals say how far to trust them.

# %%
from _common import games_per_cell, show
from IPython.display import display
from matplotlib.figure import Figure

import slashersim
from slashersim.core import rules

GAMES = games_per_cell()
SEED = 0

# %% [markdown]
# ## 1. The player
#
# Both players of the team play by the same rules of thumb. Most traps are set off by a single
# trick that breaks the area's rule (Lakeside: ranks more than 2 apart; Cabins: ranks adding up
# to more than 7; Woodland: a white and a red card; Fire pit: a trick won by a 4), so the
# follower plays its lowest card that keeps the trick safe. The leader leads low from its
# longest suit that is not trumps. Items: a Lucky Charm as soon as a trap is set off, First Aid
# when health is low, escape items the team lacks first when keeping.

# %%
def breaks_the_area(area, lead, follow, trump):
    """Whether the trick ``lead``, ``follow`` sets off the area's trap by itself."""
    r1, r2 = lead % 5 + 1, follow % 5 + 1
    if area == "lakeside":
        return abs(r1 - r2) > 2
    if area == "cabins":
        return r1 + r2 > 7
    if area == "woodland":
        return {lead // 5, follow // 5} == {rules.WHITE, rules.RED}
    if area == "fire_pit":
        follow_wins = (follow // 5 == lead // 5 and follow > lead) or \
            (follow // 5 != lead // 5 and follow // 5 == trump)
        return (follow if follow_wins else lead) % 5 + 1 == 4
    return False


class SafeFollower:
    """Follow with the lowest card that keeps the trick safe; lead from the longest suit that
    is not trumps (its lowest card, or its highest with ``lead_high``); heal at health 4 or
    less."""

    def __init__(self, lead_high=False):
        self.lead_high = lead_high
        self.name = "safe follower" + (", leads high" if lead_high else "")

    def act(self, obs):
        legal = obs.legal
        if obs.kind == "play_card":
            trump = rules.SUIT_NAMES.index(obs.trump)
            if obs.led is not None:
                safe = [c for c in legal if not breaks_the_area(obs.area, obs.led, c, trump)]
                return min(safe or legal)
            suits = [s for s in range(4) if s != trump and any(c // 5 == s for c in legal)]
            if not suits:
                return min(legal)
            longest = max(suits, key=lambda s: sum(c // 5 == s for c in legal))
            pick = max if self.lead_high else min
            return pick(c for c in legal if c // 5 == longest)
        if obs.kind in ("phase_start", "before_draw", "play_start", "after_trick"):
            held = obs.held[obs.player]
            if rules.LUCKY_CHARM in held and obs.traps > 0:
                return rules.LUCKY_CHARM
            if obs.health[obs.player] <= 4:
                for item in (rules.FIRST_AID_LARGE, rules.FIRST_AID_SMALL):
                    if item in held:
                        return item
            return -1
        if obs.kind == "keep":
            team = set(obs.held[0]) | set(obs.held[1])
            picks = [i for i in legal if i >= 0]
            missing = [i for i in picks if obs.drawn[i] < rules.N_ESCAPES
                       and obs.drawn[i] not in team]
            return (missing or picks or [-1])[0]
        if obs.kind == "use_backpack":
            return 1
        return 0 if obs.kind in ("extra_draw", "peek_order") else -1


mine = SafeFollower()

# %% [markdown]
# ## 2. One decision, as the player sees it
#
# `slashersim.Game` plays one game step by step on the same engine. Here is the first decision
# of game 0 and what the player answers; the partner's hand is not in the observation.

# %%
game = slashersim.Game(seed=SEED, game=0)
obs = game.observation()
print(obs)
print("hand:", [rules.card_name(c) for c in obs.hand], "| area:", obs.area, "| trump:", obs.trump)
print("answer:", rules.card_name(mine.act(obs)))
game.play(mine)
print("this game:", game.outcome, "after", game.record()["rounds"], "rounds")

# %% [markdown]
# ## 3. Against the built-in players, on the same games
#
# `slashersim.compare` plays every player on the same deals, item decks and area cards (game
# `g` of the seed is the same game whoever plays it), so the differences are paired: their
# intervals are much narrower than those of separate runs.

# %%
c = slashersim.compare(policies=[mine, "novice", "casual", "expert"], games=GAMES, seed=SEED)
display(c.policies[["label", "games", "win_rate", "win_ci_low", "win_ci_high",
                    "loss_health", "loss_traps"]])
vs = c.pairs[c.pairs["a"] == mine.name]
display(vs[["b", "games", "difference", "difference_ci_low", "difference_ci_high"]])
expert = vs[vs["b"] == "expert"].iloc[0]
print(f"{mine.name}: win rate {c.policies['win_rate'][0]:.3f}; the expert wins "
      f"{expert['difference']:+.3f} [{expert['difference_ci_low']:+.3f}, "
      f"{expert['difference_ci_high']:+.3f}] more often on the same games")

# %%
fig = Figure(figsize=(6, 2.6))
ax = fig.subplots()
p = c.policies
ax.barh(p["label"], p["win_rate"], color="#7a9cc6")
ax.errorbar(p["win_rate"], p["label"], xerr=[p["win_rate"] - p["win_ci_low"],
                                             p["win_ci_high"] - p["win_rate"]],
            fmt="none", ecolor="black", capsize=3)
ax.set_xlabel(f"win rate (95 % interval, {GAMES:,} games each, rulebook defaults)")
ax.invert_yaxis()
fig.tight_layout()
show(fig)

# %% [markdown]
# ## 4. Does a change help?
#
# One rule at a time, paired against the original on the same games: lead the highest card
# of the longest suit instead of the lowest.

# %%
variant = SafeFollower(lead_high=True)
d = slashersim.compare(policies=[mine, variant], games=GAMES, seed=SEED).pairs.iloc[0]
print(f"leading high instead of low: {d['difference']:+.4f} "
      f"[{d['difference_ci_low']:+.4f}, {d['difference_ci_high']:+.4f}] on the same games")

# %% [markdown]
# ## 5. Is it fair?
#
# The strict information-hygiene check: at decision points of real games, every hidden card,
# the order of the item deck, the future areas and the partner's dice and memory are redrawn
# as the player cannot tell them apart; a fair player answers (and remembers) the same.

# %%
from slashersim.analysis import hygiene

points = hygiene.decision_points("exerciser", slashersim.GameConfig(), games=100, seed=SEED)
unfair = hygiene.check_decisions(mine, points)
print(f"{mine.name}: " + (f"fair at all {len(points):,} decision points" if not unfair else
                          f"{len(unfair)} of {len(points):,} decision points change when the "
                          "hidden information is redrawn"))
