"""Players written in plain Python: what they see, and the compiled policy that asks them.

A **Python policy** is any object with a method ``act(observation) -> answer`` (or a plain
function of the observation). The compiled engine plays the games: at each decision a small
compiled policy (the *bridge*) writes the deciding player's view and the legal answers after
the game state (:mod:`slashersim.engine.view`) and calls back into Python through a ctypes
function pointer, so there is no second implementation of the rules and the games are those of
``simulate`` for the same seed. An :class:`Observation` holds only what that player may know.
A policy that answers as a built-in does gives the built-in's games exactly; a compiled policy
may be wrapped by calling it on ``observation.state`` (its random draws come back to the game).
"""
from __future__ import annotations

from contextlib import contextmanager
import copy
import ctypes
import functools
import operator
import threading

from ..core import layout as L
from ..core import rules
from ..core.layout import MAX_LEGAL as _MAX_LEGAL
from ..core.layout import V_ARG as _V_ARG
from ..core.layout import V_DECISION as _V_DECISION
from ..core.layout import V_LEGAL as _V_LEGAL
from ..core.layout import V_N_LEGAL as _V_N_LEGAL
from ..core.layout import V_PLAYER as _V_PLAYER
from ..core.layout import VIEW_SIZE
from ..engine.decisions import DECISION_NAMES, DECISIONS, Decision
from .reach import policy_label

STREAM = L.S_RNG + L.POLICY
#: the bridge's report: [stop/illegal count, decision, player, arg, answer, n, legal...]
REPORT_SIZE = 6 + _MAX_LEGAL
#: where the report starts in the bridge's state
REPORT_AT = L.STATE_SIZE + VIEW_SIZE
#: length of the bridge's state: the engine's state, the deciding player's view, the report
#: (kept in the state, not in the parameters, which the engine hands to a policy read-only)
BRIDGE_STATE_SIZE = REPORT_AT + REPORT_SIZE


def _cards(mask):
    return tuple(c for c in range(rules.N_NUMBER_CARDS) if (mask >> c) & 1)


def _items(mask):
    return tuple(i for i in range(rules.MAX_ITEM_IDS) if (mask >> i) & 1)


class Observation:
    """What ``player`` may know when it has to answer ``decision``, and the legal answers.

    ``state`` is the player's view in the engine's state layout (:mod:`slashersim.core.layout`;
    hidden parts blanked, see :mod:`slashersim.engine.view`); the properties decode the
    parts a player usually needs. Card ids are ``suit * 5 + rank - 1`` (suits white, green,
    yellow, red: :func:`slashersim.core.rules.card_name`), item ids index
    :data:`slashersim.core.rules.ITEM_NAMES`. When each kind of decision is asked, what its
    :attr:`arg` holds and what its answers mean is :attr:`about` (from
    :data:`slashersim.engine.decisions.DECISIONS`); :attr:`legal` lists every accepted answer.
    """

    __slots__ = ("state",)

    def __init__(self, state):
        self.state = state

    # --- the decision ---
    @property
    def decision(self) -> int:
        """The decision code (``engine.interface.PLAY_CARD`` ...)."""
        return int(self.state[_V_DECISION])

    @property
    def kind(self) -> str | None:
        """The decision's name: ``play_card``, ``keep``, ``trade``, ... (``DECISION_NAMES``),
        or None for an observation of a player who is not answering."""
        d = self.state[_V_DECISION]
        return None if d < 0 else DECISION_NAMES[d]

    @property
    def about(self) -> Decision | None:
        """The decision's description: ``when`` it is asked, what ``arg`` holds, what the
        ``answers`` mean; None for an observation of a player who is not answering."""
        kind = self.kind
        return None if kind is None else DECISIONS[kind]

    @property
    def player(self) -> int:
        """The deciding player, 0 or 1."""
        return int(self.state[_V_PLAYER])

    @property
    def arg(self) -> int:
        """The decision's argument (legal-card mask, pick number, peeked cards, trick ...)."""
        return int(self.state[_V_ARG])

    @property
    def legal(self) -> tuple:
        """Every answer the engine accepts here (for ``play_card``: the playable card ids)."""
        n = self.state[_V_N_LEGAL] if self.state[_V_DECISION] >= 0 else 0
        return tuple(self.state[_V_LEGAL:_V_LEGAL + n].tolist())

    # --- the table ---
    @property
    def hand(self) -> tuple:
        """The player's own cards."""
        return _cards(int(self.state[L.S_HAND + self.state[_V_PLAYER]]))

    @property
    def round(self) -> int:
        return int(self.state[L.S_ROUND])

    @property
    def area(self) -> str:
        """This round's area: its name in ``rules.AREA_NAMES``, or for the k-th card a card
        file added beside the printed seven, ``added_k`` (the card file lists them in order)."""
        a = int(self.state[L.S_AREA])
        return rules.AREA_NAMES[a] if a < rules.N_AREAS else f"added_{a - rules.N_AREAS + 1}"

    @property
    def trump(self) -> str:
        """This round's trump suit."""
        return rules.SUIT_NAMES[self.state[L.S_TRUMP]]

    @property
    def trump_card(self) -> int:
        """The revealed trump-deck card."""
        return int(self.state[L.S_TRUMP_CARD])

    @property
    def trick(self) -> int:
        """Tricks completed this round (0..8)."""
        return int(self.state[L.S_TRICK])

    @property
    def led(self) -> int | None:
        """The card led in the current trick, or None when the player leads."""
        c = int(self.state[L.S_LED])
        return None if c < 0 else c

    @property
    def leader(self) -> int:
        """The player who leads (led) the current trick."""
        return int(self.state[L.S_TRICK_LEADER])

    @property
    def played(self) -> tuple:
        """The cards played this round, in play order."""
        n = 2 * int(self.state[L.S_TRICK]) + (self.state[L.S_LED] >= 0)
        return tuple(self.state[L.S_PLAY_LOG:L.S_PLAY_LOG + n].tolist())

    @property
    def tricks_won(self) -> tuple:
        """Tricks won this round by player 0 and player 1."""
        return int(self.state[L.S_TRICKS]), int(self.state[L.S_TRICKS + 1])

    @property
    def won(self) -> tuple:
        """The cards won this round by player 0 and by player 1."""
        return _cards(int(self.state[L.S_WON])), _cards(int(self.state[L.S_WON + 1]))

    @property
    def health(self) -> tuple:
        return int(self.state[L.S_HEALTH]), int(self.state[L.S_HEALTH + 1])

    @property
    def traps(self) -> int:
        """Traps set off so far (the game is lost at ``rules_traps``)."""
        return int(self.state[L.S_TRAPS])

    @property
    def rules_traps(self) -> int:
        return int(self.state[L.C_TRAPS])

    @property
    def escapes_needed(self) -> int:
        return int(self.state[L.C_ESCAPES_NEEDED])

    @property
    def held(self) -> tuple:
        """Item ids held by player 0 and by player 1 (items are face up)."""
        return _items(int(self.state[L.S_HELD])), _items(int(self.state[L.S_HELD + 1]))

    @property
    def turn(self) -> int | None:
        """In the item phase, the player whose turn it is (it draws next, or is drawing), or
        None between turns: at a ``before_draw`` decision, the player it comes before (the
        partner of the one asked, under ``before_draw_items = "both_players"``)."""
        t = int(self.state[L.S_TURN])
        return None if t < 0 else t

    @property
    def deck_size(self) -> int:
        return int(self.state[L.S_DECK_N])

    @property
    def deck(self) -> tuple:
        """The item deck top first: the card where the player's own Flashlight saw it, else
        None (unknown)."""
        n = int(self.state[L.S_DECK_N])
        me = 1 << int(self.state[_V_PLAYER])
        return tuple(int(self.state[L.S_DECK + i]) if self.state[L.S_DECK_SEEN + i] & me
                     else None for i in range(n - 1, -1, -1))

    @property
    def deck_cards(self) -> tuple:
        """The cards in the item deck, in id order (what they are is public; not their order)."""
        n = int(self.state[L.S_DECK_N])
        return tuple(sorted(self.state[L.S_DECK:L.S_DECK + n].tolist()))

    @property
    def discard(self) -> tuple:
        """The face-up discard pile, earliest first."""
        n = int(self.state[L.S_DISCARD_N])
        return tuple(self.state[L.S_DISCARD:L.S_DISCARD + n].tolist())

    @property
    def drawn(self) -> tuple:
        """The cards drawn in this item turn, in order (``keep`` answers index them)."""
        n = int(self.state[L.S_DRAWN_N])
        return tuple(self.state[L.S_DRAWN:L.S_DRAWN + n].tolist())

    @property
    def picks(self) -> tuple:
        """At a ``keep`` or ``walkie_talkie`` decision: the indices into :attr:`drawn` picked
        so far in this draw, in pick order (empty before the first pick)."""
        return tuple(int(i) for i in self.state[L.S_PICK:L.S_PICK + 2] if i >= 0)

    @property
    def keeps(self) -> int:
        """At a ``keep`` decision: how many cards this draw may keep (1, or 2 with the
        Backpack used)."""
        return int(self.state[L.S_PICKS])

    @property
    def memory(self):
        """The player's own memory, ``MEMORY_SIZE`` integers it may write (an int64 array
        view): kept from one of its decisions to the next within a game, zero at its start,
        never seen by the partner. The one place a player may remember anything."""
        mine = L.S_MEMORY + int(self.state[_V_PLAYER]) * L.MEMORY_SIZE
        return self.state[mine:mine + L.MEMORY_SIZE]

    @property
    def peek(self) -> tuple:
        """At a ``peek_order`` decision: the seen top cards, top first."""
        n = int(self.state[L.S_PEEK_N])
        return tuple(self.state[L.S_PEEK:L.S_PEEK + n].tolist())

    def copy(self) -> Observation:
        return Observation(self.state.copy())

    def __repr__(self):
        if self.state[_V_DECISION] < 0:
            return f"Observation(player={self.player}, round {self.round}, no decision)"
        return (f"Observation({self.kind}, player={self.player}, round {self.round}, "
                f"{self.area}, trick {self.trick}, legal={self.legal})")


class IllegalAnswer(ValueError):
    """A Python policy answered something the engine does not accept."""


def answerer(policy):
    """The function that answers an observation: ``policy.act`` or the callable itself; a
    ``TypeError`` for anything else."""
    act = getattr(policy, "act", None)
    if callable(act):
        return act
    if callable(policy):
        return policy
    raise TypeError(f"a policy must be a registered name, an object with act(observation) or "
                    f"a function of the observation; got {policy!r}")


# --- the bridge: the engine calls back into Python ---------------------------------------------
_PROTOTYPE = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64)
_local = threading.local()


def _trampoline(decision, player, arg):
    return _local.handler(decision, player, arg)


_CALLBACK = _PROTOTYPE(_trampoline)


@functools.cache
def bridge():
    """The compiled policy that asks the current thread's Python handler (compiled once per
    process, about a second: it holds the callback's address, so it is not cached on disk)."""
    # the engine loads when a Python player first plays; the bridge compiles then
    from numba import njit

    from ..engine.interface import POLICY_SIGNATURE
    from ..engine.view import accept, fill_view
    first_legal = L.STATE_SIZE + _V_LEGAL
    callback = _CALLBACK

    @njit(POLICY_SIGNATURE)
    def python_policy(decision, player, arg, st, params):
        fill_view(decision, player, arg, st)
        if st[REPORT_AT] > 0:
            return st[first_legal]
        return accept(callback(decision, player, arg), st, st[REPORT_AT:])

    return python_policy


def illegal_message(report, label):
    """The one-line message of the first illegal answer a run's ``report`` holds."""
    d, p, arg, answer, n = (int(x) for x in report[1:6])
    legal = ", ".join(str(int(x)) for x in report[6:6 + n])
    return (f"policy {label} answered {answer} at {DECISION_NAMES[d]} (player {p}, argument "
            f"{arg}); the legal answers were: {legal}")


def keep_writes(source, view, player):
    """Copy what a player may write, its stream and its memory, from ``source`` (a state or
    view it decided on) into ``view``."""
    view[STREAM] = source[STREAM]
    mine = L.S_MEMORY + player * L.MEMORY_SIZE
    view[mine:mine + L.MEMORY_SIZE] = source[mine:mine + L.MEMORY_SIZE]


def seats(policy):
    """The two seats' answerers of a game: each seat plays its own copy of ``policy``
    (``copy.deepcopy``; a function is its own copy), so nothing one seat keeps in the object
    reaches the other, and no game sees what an earlier one left there."""
    try:
        return tuple(answerer(copy.deepcopy(policy)) for _ in range(2))
    except (TypeError, copy.Error) as e:
        raise TypeError(f"a Python player is copied for each seat of each game "
                        f"(copy.deepcopy), and {policy_label(policy)} cannot be: {e}") from None


def asker(acts, st, errors):
    """The handler of a run played in the bridge's state ``st``: build the observation, ask
    the deciding seat's answerer (``acts[player]``; replace ``acts``' items between games to
    give each game fresh seats), keep its stream and memory; an exception is kept in
    ``errors`` (raised after the engine call) and stops the run."""
    view = st[L.STATE_SIZE:REPORT_AT]
    report = st[REPORT_AT:]

    def handler(decision, player, arg):
        try:
            obs = Observation(view.copy())
            answer = operator.index(acts[player](obs))
            keep_writes(obs.state, view, player)
            return answer
        except BaseException as e:          # noqa: BLE001 (re-raised after the engine call)
            errors.append(e)
            report[0] = 1
            return -1
    return handler


@contextmanager
def answering(handler):
    """Let the bridge ask ``handler(decision, player, arg)`` on this thread while inside."""
    previous = getattr(_local, "handler", None)
    _local.handler = handler
    try:
        yield
    finally:
        _local.handler = previous
