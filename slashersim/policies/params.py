"""Parameter specs of the built-in policies, readable without compiling them.

Each policy's parameter vector is a tuple of :class:`Param`: name, type (``int`` or
``float``), inclusive range and default. The command line checks ``--policy-param`` values
against them before anything compiles. These tuples are the only declaration: the policies'
modules take their parameter indices from them (:func:`index_of`) and the registry its default
vectors (:func:`defaults`).
"""
import math
from typing import NamedTuple

import numpy as np

#: the largest cost or weight a parameter may take
BIG = 1e6


class Param(NamedTuple):
    """One entry of a policy's parameter vector."""

    name: str
    type: type          #: ``int`` or ``float``
    low: float
    high: float
    default: float
    help: str = ""

    def describe(self):
        kind = "an integer" if self.type is int else "a number"
        return f"{kind} {_fmt(self.low)}..{_fmt(self.high)}"

    def check(self, value, policy="policy"):
        """``value`` (a number or its text) as a float, after checking type and range."""
        text = value.strip() if isinstance(value, str) else value
        try:
            if isinstance(text, bool):
                raise ValueError
            number = float(text)
        except (TypeError, ValueError):
            number = None
        ok = number is not None and math.isfinite(number) and self.low <= number <= self.high
        if ok and self.type is int and not number.is_integer():
            ok = False
        if not ok:
            raise ValueError(f"policy {policy!r} parameter {self.name} must be "
                             f"{self.describe()}, got {value!r}")
        return number


def _fmt(x):
    if math.isinf(x):
        return "-inf" if x < 0 else "inf"
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


def index_of(specs, name):
    """The position of parameter ``name`` in the parameter vector of ``specs``."""
    for i, p in enumerate(specs):
        if p.name == name:
            return i
    raise ValueError(f"no parameter {name!r}")


def defaults(specs):
    """The default parameter vector of ``specs``, ``ndarray(float64, (len(specs),))``."""
    return np.array([p.default for p in specs], dtype=np.float64)


def _cost(name, default, help):
    return Param(name, float, 0.0, BIG, default, help)


HEURISTIC = (
    _cost("breach", 100.0, "cost of a trap set off by a trick"),
    _cost("wrong_winner", 30.0, "cost of a trick won by the player the area plan did not want"),
    _cost("draw_over", 0.0, "cost of each draw above the target"),
    _cost("draw_under", 0.0, "cost of each draw below the target"),
    Param("target_draws", float, 0.0, 20.0, 1.0, "draws a player aims for in an item phase"),
    _cost("damage", 20.0, "cost of each point of health the Killer is expected to take"),
    _cost("death", 60.0, "cost of the chance that the Killer kills"),
    _cost("keep_flexible", 40.0, "value of keeping a card that meets many others safely"),
    Param("flashlight_risk", float, 0.0, 1.0, 0.0,
          "use the Flashlight when the chance of the Killer in one's draws is above"),
    Param("cabins_gain", float, -BIG, BIG, 0.0,
          "take Cabins' extra card when (escape chance - Killer cost) is above"),
    _cost("killer_cost", 1.0, "cost of drawing the Killer, in escape items"),
    Param("backpack_min", float, -BIG, BIG, 5.0,
          "use the Backpack when the second pick is worth at least this"),
    Param("aid_large_below", int, 0, 7, 5.0, "use First Aid Large while health is at most this"),
    Param("aid_small_below", int, 0, 7, 6.0, "use First Aid Small while health is at most this"),
    Param("any_time_items", int, 0, 1, 1.0,
          "1: under item_timing = any_time, also use items in the play phase (after the deal "
          "and after each trick)"),
    Param("keep_min", float, 0.0, 101.0, 0.0,
          "where keeping is optional, keep only a card worth at least this"),
)

#: a search game at the largest ``samples`` still takes well under a second, so a run can be
#: interrupted between games
MAX_SAMPLES = 1024
SEARCH = HEURISTIC + (
    Param("samples", int, 1, MAX_SAMPLES, 24.0, "partner hands dealt per card decision"),
    Param("whole_round", int, 0, 1, 1.0,
          "1: roll out the whole round, item phase included, on sampled item decks"),
    _cost("escape_value", 60.0, "value of an escape item gained in a whole-round rollout"),
    _cost("win_value", 200.0, "value of a game won (and cost of one lost) in a rollout"),
)

#: the expert's defaults of the heuristic's parameters, as tuned (results/findings.md)
_EXPERT_TUNED = {"death": 200.0, "draw_over": 0.0, "cabins_gain": -1.0}
EXPERT = tuple(p._replace(default=_EXPERT_TUNED.get(p.name, p.default)) for p in HEURISTIC) + (
    Param("lead_samples", int, 0, 256, 16.0, "rollouts per class of leads (0: none)"),
    Param("dd_from", int, 0, 8, 4.0, "Tent site, Lodge: exact check from this trick (0-based) on"),
    Param("dd_hands", int, 1, 128, 64.0,
          "... over all the partner's possible hands, or this many samples"),
    _cost("lead_weight", 1.0, "weight of the rollout value of the cards won, leads"),
    _cost("follow_weight", 2.0, "weight of the closed-form value of the cards won, answers"),
    _cost("prune_margin", 50.0,
          "leads whose closed-form cost is this far above the best: no rollouts"),
    _cost("escape_value", 60.0, "value of an escape item gained, in the item phase ahead"),
    _cost("win_value", 100.0, "... value of the game won"),
)

OMNISCIENT = HEURISTIC + (
    _cost("escape_value", 60.0, "value of an escape item gained in a rollout"),
    _cost("win_value", 2000.0, "value of a game won (and cost of one lost) in a rollout"),
)

#: the search of the belief player and the open-hands yardstick, after the expert's parameters
#: (the expert is their blueprint, :mod:`.belief`)
_BELIEF_SEARCH = (
    Param("samples", int, 1, MAX_SAMPLES, 16.0, "partner hands dealt per searched card"),
    _cost("threshold", 0.0,
          "leave the blueprint's card only for one this much cheaper in the rollouts"),
    Param("rollout_blueprint", int, 0, 1, 1.0,
          "1: roll out with the blueprint (the expert), 0: with the heuristic"),
    _cost("rollout_escape", 60.0, "value of an escape item gained in a rollout"),
    _cost("rollout_win", 200.0, "value of a game won (and cost of one lost) in a rollout"),
)
BELIEF = EXPERT + _BELIEF_SEARCH + (
    Param("use_belief", int, 0, 1, 1.0,
          "1: deal the partner only hands its blueprint leads are consistent with"),
    Param("search_leads_from", int, 0, 8, 6.0,
          "search the leads from this trick (0-based) on, and read the partner's before it"),
)
OPEN_HANDS = EXPERT + _BELIEF_SEARCH + (
    Param("search_leads", int, 0, 1, 1.0, "1: search the leads too, 0: lead as the blueprint"),
)

#: every parameterised policy's vector starts with the heuristic's parameters, so code shared by
#: them (:mod:`.common`) reads those at the heuristic's indices
assert all(tuple(p.name for p in specs[:len(HEURISTIC)]) == tuple(p.name for p in HEURISTIC)
           for specs in (SEARCH, EXPERT, OMNISCIENT, BELIEF, OPEN_HANDS))


#: parameters removed after they were measured to lose (their findings are in results/), with
#: the value at which the policy still plays as it does now: a saved game record that lists
#: one at that value still replays; at another value it is refused by name
REMOVED = {"expert": {"race_z": 0.0, "race_from": 8.0, "item_model": 1.0, "hideaway_plan": 0.0}}
