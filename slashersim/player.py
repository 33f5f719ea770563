"""Players written in plain Python, and a game played one decision at a time.

A **Python policy** is any object with a method ``act(observation) -> answer`` (or a plain
function of the observation). The compiled engine plays the games: at each decision a small
compiled policy (the *bridge*) writes the deciding player's view and the legal answers after
the game state (:mod:`slashersim.engine.view`) and calls back into Python through a ctypes
function pointer, so there is no second implementation of the rules and the games are those of
``simulate`` for the same seed. An :class:`Observation` holds only what that player may know.
A policy that answers as a built-in does gives the built-in's games exactly; a compiled policy
may be wrapped by calling it on ``observation.state`` (its random draws come back to the game).

:class:`Game` plays one game step by step: the engine runs in a helper thread that stops at
each decision until :meth:`Game.apply` gives the answer, so the game's randomness is again that
of ``simulate`` (game ``game`` of ``seed``).
"""
from __future__ import annotations

import ctypes
import operator
import queue
import threading
import time
import weakref

import numpy as np

from . import rules
from .config import GameConfig
from .engine import layout as L
from .engine.api import DECISION_NAMES, PLAY_CARD
from .engine.rng import POLICY as _POLICY_STREAM
from .inputs import check_seed

from .engine.view import (MAX_LEGAL as _MAX_LEGAL, V_ARG as _V_ARG,
                          V_DECISION as _V_DECISION, V_LEGAL as _V_LEGAL,
                          V_N_LEGAL as _V_N_LEGAL, V_PLAYER as _V_PLAYER,
                          VIEW_SIZE as _VIEW_SIZE)

_STREAM = L.S_RNG + _POLICY_STREAM
#: the bridge's parameter vector: [stop/illegal count, decision, player, arg, answer, n, legal...]
_REPORT_SIZE = 6 + _MAX_LEGAL
#: games per engine call of a Python policy run (errors surface after the call)
_CALL_GAMES = 64


def _cards(mask):
    return tuple(c for c in range(rules.N_NUMBER_CARDS) if (mask >> c) & 1)


def _items(mask):
    return tuple(i for i in range(rules.N_ITEM_IDS) if (mask >> i) & 1)


class Observation:
    """What ``player`` may know when it has to answer ``decision``, and the legal answers.

    ``state`` is the player's view in the engine's state layout (:mod:`slashersim.engine.
    layout`; hidden parts blanked, see :mod:`slashersim.engine.view`); the properties decode the
    parts a player usually needs. Card ids are ``suit * 5 + rank - 1`` (suits white, green,
    yellow, red: :func:`slashersim.rules.card_name`), item ids index
    :data:`slashersim.rules.ITEM_NAMES`. The answer to give for each decision kind is
    documented in :mod:`slashersim.engine.api`; ``legal`` lists every accepted one.
    """

    __slots__ = ("state",)

    def __init__(self, state):
        self.state = state

    # --- the decision ---
    @property
    def decision(self) -> int:
        """The decision code (``engine.api.PLAY_CARD`` ...)."""
        return int(self.state[_V_DECISION])

    @property
    def kind(self) -> str | None:
        """The decision's name: ``play_card``, ``keep``, ``trade``, ... (``DECISION_NAMES``),
        or None for an observation of a player who is not answering."""
        d = self.state[_V_DECISION]
        return None if d < 0 else DECISION_NAMES[d]

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
        """This round's area (``rules.AREA_NAMES``)."""
        return rules.AREA_NAMES[self.state[L.S_AREA]]

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
    def peek(self) -> tuple:
        """At a ``flashlight`` decision: the seen top cards, top first."""
        n = int(self.state[L.S_PEEK_N])
        return tuple(self.state[L.S_PEEK:L.S_PEEK + n].tolist())

    def copy(self) -> "Observation":
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


def policy_label(policy) -> str:
    """A name for ``policy`` in tables: its ``name`` attribute, else its class or function
    name."""
    if isinstance(policy, str):
        return policy
    name = getattr(policy, "name", None)
    if isinstance(name, str) and name:
        return name
    return getattr(policy, "__name__", None) or type(policy).__name__


# --- the bridge: the engine calls back into Python ---------------------------------------------
_PROTOTYPE = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64)
_local = threading.local()


def _trampoline(decision, player, arg):
    return _local.handler(decision, player, arg)


_CALLBACK = _PROTOTYPE(_trampoline)
_bridge = []


def bridge():
    """The compiled policy that asks the current thread's Python handler (compiled once per
    process, about a second: it holds the callback's address, so it is not cached on disk)."""
    if not _bridge:
        from numba import njit
        from .engine.api import POLICY_SIGNATURE
        from .engine.view import V_LEGAL, accept, prepare
        first_legal = L.STATE_SIZE + V_LEGAL
        callback = _CALLBACK

        @njit(POLICY_SIGNATURE)
        def python_policy(decision, player, arg, st, params):
            prepare(decision, player, arg, st)
            if params[0] > 0:
                return st[first_legal]
            return accept(callback(decision, player, arg), st, params)

        _bridge.append(python_policy)
    return _bridge[0]


def _illegal_message(report, label):
    d, p, arg, answer, n = (int(x) for x in report[1:6])
    legal = ", ".join(str(int(x)) for x in report[6:6 + n])
    return (f"policy {label} answered {answer} at {DECISION_NAMES[d]} (player {p}, argument "
            f"{arg}); the legal answers were: {legal}")


def _ask(act, view, report, errors):
    """The handler of a run: build the observation, ask the policy, keep its stream."""
    def handler(decision, player, arg):
        try:
            obs = Observation(view.copy())
            answer = operator.index(act(obs))
            view[_STREAM] = obs.state[_STREAM]
            return answer
        except BaseException as e:          # noqa: BLE001 (re-raised after the engine call)
            errors.append(e)
            report[0] = 1
            return -1
    return handler


def play_python(policy, config=None, games=1_000, seed=0, first_game=0, progress=None):
    """Play games of a run with a Python policy.

    Parameters
    ----------
    policy : object or callable
        An object with ``act(observation) -> answer``, or a function of the observation.
    config : GameConfig, optional
        The rules (default: the rulebook defaults).
    games, seed, first_game : int
        Games ``first_game .. first_game + games - 1`` of ``seed``: exactly the games
        ``simulate`` plays under those numbers.
    progress : callable, optional
        Called as ``progress(done, total)`` every few dozen games.

    Returns
    -------
    ndarray of int32, shape (games, RECORD_SIZE)
        One record row per game (``engine.layout.R_*``).

    Raises
    ------
    IllegalAnswer
        When the policy answers something the engine does not accept.
    Exception
        Whatever the policy raised. Either stops the run after the engine call it happened
        in (a few dozen games). Played on one thread: a Python policy holds the interpreter.
    """
    from .engine.steps import play_games
    config = config or GameConfig()
    act = answerer(policy)
    seed = check_seed(seed)
    first_game = check_seed(first_game, "first_game")
    cfg = config.to_array()
    st = np.zeros(L.STATE_SIZE + _VIEW_SIZE, dtype=np.int64)
    report = np.zeros(_REPORT_SIZE, dtype=np.float64)
    errors = []
    records = np.zeros((games, L.RECORD_SIZE), dtype=np.int32)
    fn = bridge()
    previous = getattr(_local, "handler", None)
    _local.handler = _ask(act, st[L.STATE_SIZE:], report, errors)
    try:
        done = 0
        while done < games:
            n = min(_CALL_GAMES, games - done)
            play_games(fn, 0, cfg, report, int(seed), int(first_game + done),
                       records[done:done + n], st)
            if errors:
                raise errors[0]
            if report[0] > 0:
                raise IllegalAnswer(_illegal_message(report, policy_label(policy)))
            done += n
            if progress is not None:
                progress(done, games)
    finally:
        _local.handler = previous
    return records


def simulate_python(policy, config=None, games=1_000, seed=0, first_game=0, keep_records=False,
                    progress=None):
    """:func:`slashersim.runner.simulate` for a Python policy: a ``SimulationResult``."""
    from .engine.game import aggregate
    from .runner import SimulationResult, records_frame
    config = config or GameConfig()
    t0 = time.perf_counter()
    rec = play_python(policy, config, games, seed, first_game, progress)
    counts = np.zeros(L.counts_size(int(config.to_array()[L.C_MAX_ROUNDS])), dtype=np.int64)
    aggregate(rec, counts)
    records = None
    if keep_records:
        records = records_frame(rec)
        records.insert(0, "game", np.arange(first_game, first_game + games))
    return SimulationResult(config, policy_label(policy), int(seed), counts,
                            time.perf_counter() - t0, records, {})


# --- one game, step by step ----------------------------------------------------------------------
_ABORT = object()


def _engine_thread(fn, cfg, report, seed, game, records, st, to_game, to_engine):
    def handler(decision, player, arg):
        to_game.put(("decision", decision, player, arg))
        answer = to_engine.get()
        if answer is _ABORT:
            report[0] = 1
            return -1
        return answer

    _local.handler = handler
    try:
        from .engine.steps import play_games
        play_games(fn, 0, cfg, report, seed, game, records, st)
    except BaseException as e:              # noqa: BLE001 (handed to the game's thread)
        to_game.put(("error", e))
    else:
        to_game.put(("over",))


class Game:
    """One game played a decision at a time, on the compiled engine.

    Parameters
    ----------
    config : GameConfig, optional
        The rules (default: the rulebook defaults).
    seed, game : int
        The game is game ``game`` of a run with ``seed``: its deals, item deck and area cards
        are those ``simulate(config, seed=seed)`` plays as game ``game``, so answering as a
        policy would gives exactly that policy's game.
    **knobs
        Knobs applied on top of ``config`` (``health=5``, ``hideaway=True``, ...).

    Examples
    --------
    >>> g = Game(seed=1, health=5)
    >>> while not g.over:
    ...     g.apply(g.legal[0])
    >>> g.outcome, g.record()["rounds"]

    :meth:`play` lets a registered policy, a skill level or a Python policy answer.
    """

    def __init__(self, config: GameConfig | None = None, seed: int = 0, game: int = 0,
                 **knobs):
        config = config or GameConfig()
        if knobs:
            config = config.replace(**knobs)
        self.config = config
        self.seed = check_seed(seed)
        self.game = check_seed(game, "game")
        self.history = []
        self._st = np.zeros(L.STATE_SIZE + _VIEW_SIZE, dtype=np.int64)
        self._view = self._st[L.STATE_SIZE:]
        self._records = np.zeros((1, L.RECORD_SIZE), dtype=np.int32)
        self._report = np.zeros(_REPORT_SIZE, dtype=np.float64)
        self._to_game = queue.SimpleQueue()
        self._to_engine = queue.SimpleQueue()
        self._over = False
        fn = bridge()
        from .engine import steps  # noqa: F401 (compiled or loaded here, not in the thread)
        self._thread = threading.Thread(
            target=_engine_thread, daemon=True, name=f"slashersim game {self.game}",
            args=(fn, config.to_array(), self._report, self.seed, self.game, self._records,
                  self._st, self._to_game, self._to_engine))
        self._finalizer = weakref.finalize(self, self._to_engine.put, _ABORT)
        self._thread.start()
        self._wait()

    def _wait(self):
        msg = self._to_game.get()
        if msg[0] == "error":
            self._over = True
            raise msg[1]
        if msg[0] == "over":
            self._over = True
            self._thread.join()
            self._finalizer.detach()

    # --- where the game stands ---
    @property
    def over(self) -> bool:
        """True once the game has ended (won, lost or timed out)."""
        return self._over

    @property
    def player(self) -> int | None:
        """The player to answer, or None when the game is over."""
        return None if self._over else int(self._view[_V_PLAYER])

    @property
    def kind(self) -> str | None:
        """The decision to answer (``play_card``, ``keep``, ...), or None when over."""
        return None if self._over else DECISION_NAMES[self._view[_V_DECISION]]

    @property
    def legal(self) -> tuple:
        """The answers :meth:`apply` accepts now (empty when the game is over)."""
        if self._over:
            return ()
        n = self._view[_V_N_LEGAL]
        return tuple(self._view[_V_LEGAL:_V_LEGAL + n].tolist())

    def observation(self, player: int | None = None) -> Observation:
        """What ``player`` (default: the player to answer) knows now, as an
        :class:`Observation`; the decision and legal answers only for the player to answer."""
        if player is None or (not self._over and player == self.player):
            if self._over:
                player = 0
            else:
                return Observation(self._view.copy())
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        from .engine.view import write_view
        out = np.zeros(_VIEW_SIZE, dtype=np.int64)
        write_view(self._st[:L.STATE_SIZE], int(player), out)
        out[_V_DECISION] = -1
        out[_V_PLAYER] = player
        return Observation(out)

    @property
    def outcome(self) -> str:
        """``running``, ``win``, ``loss_health``, ``loss_traps`` or ``timeout``."""
        return rules.OUTCOME_NAMES[self._st[L.S_OUTCOME]] if self._over else "running"

    @property
    def state(self) -> np.ndarray:
        """The whole game state (hidden parts included; for analysis, never for a fair
        player), a copy."""
        return self._st[:L.STATE_SIZE].copy()

    def record(self) -> dict:
        """The finished game's record (the row ``simulate`` keeps: outcome, rounds, Killer
        start, traps per area, ...), as a dict."""
        if not self._over:
            raise RuntimeError("the game is not over yet")
        from .runner import records_frame
        return records_frame(self._records).iloc[0].to_dict()

    # --- playing ---
    def apply(self, answer: int) -> None:
        """Answer the current decision; the game runs on to the next decision or its end."""
        if self._over:
            raise RuntimeError("the game is over")
        legal = self.legal
        try:
            answer = operator.index(answer)
        except TypeError:
            answer = None
        if answer not in legal:
            raise IllegalAnswer(f"{answer!r} is not a legal answer at {self.kind} (player "
                                f"{self.player}); legal: {', '.join(map(str, legal))}")
        self.history.append((self.player, self.kind, int(self._view[_V_ARG]), answer))
        self._to_engine.put(answer)
        self._wait()

    def play(self, policy="baseline", params=None, steps: int | None = None) -> "Game":
        """Let ``policy`` answer ``steps`` decisions (default: to the end of the game): a
        registered name (or skill level) with optional parameter vector ``params``, or a
        Python policy. A registered policy answers exactly as in ``simulate``."""
        if isinstance(policy, str):
            from .policies import get_policy, resolve
            from .runner import policy_params
            name = resolve(policy)
            fn = get_policy(name).decide
            vec = policy_params(name) if params is None else np.asarray(params, np.float64)
            st = self._st[:L.STATE_SIZE]

            def answer():
                a = fn(int(self._view[_V_DECISION]), int(self._view[_V_PLAYER]),
                       int(self._view[_V_ARG]), st, vec)
                self._view[_STREAM] = st[_STREAM]
                return a
        else:
            act = answerer(policy)

            def answer():
                obs = self.observation()
                a = act(obs)
                self._view[_STREAM] = obs.state[_STREAM]
                return a
        n = 0
        while not self._over and (steps is None or n < steps):
            self.apply(answer())
            n += 1
        return self

    def close(self) -> None:
        """Abandon the game (its engine thread finishes at once)."""
        if not self._over:
            self._to_engine.put(_ABORT)
            self._thread.join()
            self._over = True
            self._finalizer.detach()

    @classmethod
    def from_record(cls, path) -> "Game":
        """The game a ``simulate --record-out`` file names, replayed by its policy to the end
        (its outcome is the file's)."""
        from .analysis.position import read_record
        r = read_record(path)
        return cls(r.config, r.seed, r.game).play(r.policy, r.params)

    def __repr__(self):
        if self._over:
            return f"Game(seed={self.seed}, game={self.game}: {self.outcome})"
        return (f"Game(seed={self.seed}, game={self.game}: round {self._st[L.S_ROUND]}, "
                f"player {self.player} to answer {self.kind})")
