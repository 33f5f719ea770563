"""The ``expert`` policy: a fair player that values the cards won at the end of the round.

The heuristic (:mod:`..heuristic`) values a trick's cards by what they add to the taker's pile
*now*; the cards still in the hands are ignored, although every one of them ends up in a pile
too. That is where it loses most against ``search`` (measured on common random numbers;
``results/findings.md``, "How the expert was derived": search with the item-phase terms of its
cost switched off wins no more often than the heuristic, and the heuristic's closed-form trap
terms plus the end-of-round value of the cards won by *random* rollouts keep most of search's
lead). The expert keeps the heuristic's closed-form trap and plan terms and adds that value,
cheaply:

- **Leads** (:mod:`.leads`, :mod:`.rollouts`): for each class of equivalent legal cards, the
  mean item-phase cost of both players' piles at the end of ``lead_samples`` rollouts, each on
  a partner hand drawn from the player's view and played out by random priorities, the same
  deal and priorities for every class.
- **Answers** (:mod:`.futures`): no sampling; closed-form distributions of each player's future
  yellows and net knives, and the expected end-of-round cost of each answer under them.
- **Tent site / Lodge** (:mod:`.plan`): the plan wishes for a trick winner only when exactly
  one of "the leader wins the rest" and "the follower wins the rest" ends with the right
  parity; from trick ``dd_from`` on, each card is charged the trap cost times the share of the
  partner's possible hands (all of them, or ``dd_hands`` samples) on which no line of play
  keeps the area any more. The Hideaway, whose Killer kills, is not played to be kept.
- **The item phase ahead** (:mod:`.items`): both piles are valued together by what the player
  may know of the item deck: where the Killer can lie, who draws first and where the second
  drawer starts, and the escape items either may draw.
- Tricks 7-8 are the heuristic's exact endgame (:func:`..common.endgame_card`); item-phase
  decisions are the heuristic's, with the parameters tuned for the expert (the defaults of
  :data:`..params.EXPERT`).

The slots of its scratch arrays and its parameter indices are named in :mod:`.layout`.
Everything is drawn from the player's view: the partner's hand from
:func:`..common.partner_candidates` (unseen cards outside its void suits, less the hidden
trump-deck cards), random numbers from two draws of the policy stream per decision
(:mod:`.lcg`).

Settings measured to lose are gone from the player; ``results/findings.md`` keeps their
measurements, each with the commit and command that made it: the heuristic's closed form for
the piles instead of the item model, the plan to keep the Hideaway, raced lead rollouts, and
other ideas for the leads (balanced partner hands, rollouts played by rank, fewer rollouts for
later leads, leads valued by closed-form futures or by models fitted to the rollouts).
"""
from numba import njit

from ...core.layout import S_LED
from ...engine import interface
from .. import heuristic as H
from ..common import settled_card
from .futures import follow_card
from .leads import lead_card

__all__ = ["choose_card", "decide"]


@njit(cache=True)
def choose_card(st, player, legal, params):
    """A card from ``legal``: forced or the heuristic's exact tricks 7-8
    (:func:`..common.settled_card`), else searched."""
    card = settled_card(st, player, legal, params)
    if card >= 0:
        return card
    if st[S_LED] < 0:
        return lead_card(st, player, legal, params)
    return follow_card(st, player, legal, params)


@njit(cache=True, inline='always')
def decide(decision, player, arg, st, params):
    """The expert policy: its card play, the heuristic's item-phase decisions."""
    if decision == interface.PLAY_CARD:
        return choose_card(st, player, arg, params)
    return H.decide(decision, player, arg, st, params)
