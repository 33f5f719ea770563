"""A game played one decision at a time, and the plain-Python player's names.

:class:`Game` plays one game step by step on the compiled engine, replaying it from its start
at each step, so the game's randomness is that of ``simulate`` (game ``game`` of ``seed``).
Python players (an object with ``act(observation)`` or a function of the observation) and what
they see are :mod:`slashersim.policies.python`; their names are importable from here too.
"""
from __future__ import annotations

import copy
import operator

import numpy as np

from ..analysis.records import read_record
from ..analysis.winnable import Solution, solve_game
from ..core import layout as L
from ..core import rules
from ..core.config import GameConfig
from ..core.inputs import check_seconds, check_seed
from ..core.layout import V_ARG as _V_ARG
from ..core.layout import V_DECISION as _V_DECISION
from ..core.layout import V_LEGAL as _V_LEGAL
from ..core.layout import V_N_LEGAL as _V_N_LEGAL
from ..core.layout import V_PLAYER as _V_PLAYER
from ..core.layout import VIEW_SIZE as _VIEW_SIZE
from ..engine.decisions import DECISION_NAMES
from ..engine.view import write_view
from ..policies import get_policy, param_vector, resolve
from ..policies.python import (
    BRIDGE_STATE_SIZE,
    REPORT_AT,
    IllegalAnswer,
    Observation,
    answerer,
    answering,
    bridge,
    keep_writes,
    policy_label,
    seats,
)
from ..policies.reach import refuse_own_generators
from ..runner.result import area_names, item_cards, records_frame

__all__ = ["Game", "IllegalAnswer", "Observation", "answerer", "policy_label"]


# --- one game, step by step ---------------------------------------------------------------------
class Game:
    """One game played a decision at a time, on the compiled engine.

    A game is its rules, its seed and number, and the answers given so far: each step replays
    the game from its start through the engine (the answers given, then a stop at the next
    decision), so there is no second implementation of the rules, no thread, and a game can be
    copied (:meth:`clone`) like OpenSpiel's ``State``. Its randomness is that of ``simulate``
    (game ``game`` of ``seed``).

    Parameters
    ----------
    config : GameConfig or mapping, optional
        The rules (default: the rulebook defaults), read once: a card file is played as it
        was when the game was made.
    seed, game : int
        The game is game ``game`` of a run with ``seed``: its deals, item deck and area cards
        are those ``simulate(config, seed=seed)`` plays as game ``game``, so answering as a
        policy would gives exactly that policy's game.
    **knobs
        Knobs applied on top of ``config`` as :func:`slashersim.simulate` takes them
        (``health=5``, ``difficulty="hard"``, ``cards="my.toml"``, ...).

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
        self.config = GameConfig.of(config, knobs)
        self.seed = check_seed(seed)
        self.game = check_seed(game, "game")
        #: ``(player, decision name, argument, answer)`` of each decision so far
        self.history = []
        self._answers = []          # (answer, what the player wrote: its view after) per decision
        self._over = False
        self._abandoned = False
        self._st = np.zeros(BRIDGE_STATE_SIZE, dtype=np.int64)
        self._view = self._st[L.STATE_SIZE:REPORT_AT]
        self._records = np.zeros((1, L.RECORD_SIZE), dtype=np.int32)
        self._seats = {}            # a Python player's copy for each seat, by player object
        self._replay()

    def _replay(self):
        """Play the game from its start with the answers given, and stop at the next decision
        (its state and view kept), or at the end of the game."""
        from ..runner.kernels import play_games  # the kernels load when a game starts
        st = np.zeros(BRIDGE_STATE_SIZE, dtype=np.int64)
        view = st[L.STATE_SIZE:REPORT_AT]
        report = st[REPORT_AT:]
        answers = self._answers
        asked = 0
        stopped = []

        def handler(decision, player, arg):
            nonlocal asked
            if asked < len(answers):
                answer, wrote = answers[asked]
                asked += 1
                keep_writes(wrote, view, player)
                return answer
            stopped.append(st.copy())
            report[0] = 1               # the bridge answers the rest of the game itself
            return -1

        with answering(handler):
            play_games.compile()(bridge(), self.config.to_array(), np.zeros(0), self.seed,
                                 self.game, self._records, st)
        if stopped:
            self._st[:] = stopped[0]
        else:
            self._st[:] = st
            self._over = True

    # --- where the game stands ---
    @property
    def over(self) -> bool:
        """True once the game has ended (won, lost or timed out) or was abandoned."""
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
        out = np.zeros(_VIEW_SIZE, dtype=np.int64)
        write_view(self._st[:L.STATE_SIZE], int(player), out)
        out[_V_DECISION] = -1
        out[_V_PLAYER] = player
        return Observation(out)

    @property
    def outcome(self) -> str:
        """``running`` (also for an abandoned game), ``win``, ``loss_health``, ``loss_traps``
        or ``timeout``."""
        return rules.OUTCOME_NAMES[self._st[L.S_OUTCOME]] if self._over else "running"

    @property
    def state(self) -> np.ndarray:
        """The whole game state (hidden parts included; for analysis, never for a fair
        player), a copy."""
        return self._st[:L.STATE_SIZE].copy()

    def record(self) -> dict:
        """The finished game's record (the row ``simulate`` keeps: outcome, rounds, Killer
        start, traps per area, ...), as a dict."""
        if not self._over or self._abandoned:
            raise RuntimeError("the game is not over yet" if not self._over else
                               "the game was abandoned")
        return records_frame(self._records, areas=area_names(self.config),
                             items=item_cards(self.config)).iloc[0].to_dict()

    @property
    def rules_id(self) -> str:
        """The rules this game is played under, by content (:attr:`GameConfig.rules_id`):
        a card file is the one read when the game was made, whatever the file holds later."""
        return self.config.rules_id.digest

    def winnable(self, seconds: float = 10.0) -> Solution:
        """Could this game have been won? The exact solver's answer for the game from its
        start (whatever was answered so far), given ``seconds``: ``answer`` (``winnable``,
        ``unwinnable`` or ``undecided``), and for a winnable game its winning ``line``
        (``summary()`` in words and card names)."""
        return solve_game(self.config.to_array(), self.seed, self.game,
                          check_seconds("seconds", seconds))

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
        self._answers.append((answer, self._view.copy()))
        self._replay()

    def play(self, policy="baseline", params=None, steps: int | None = None) -> Game:
        """Let ``policy`` answer ``steps`` decisions (default: to the end of the game): a
        registered name (or skill level) with optional parameter vector ``params``, or a
        Python policy. Either answers exactly as in ``simulate``: a Python player as a copy of
        it for each seat, kept from one call to the next."""
        if isinstance(policy, str):
            from ..runner.kernels import as_function  # the kernels load when a game starts
            name = resolve(policy)
            fn = as_function(get_policy(name).decide)
            vec = param_vector(name) if params is None else np.asarray(params, np.float64)
            st = self._st[:L.STATE_SIZE]

            def answer():
                player = int(self._view[_V_PLAYER])
                a = fn(int(self._view[_V_DECISION]), player, int(self._view[_V_ARG]), st, vec)
                keep_writes(st, self._view, player)
                return a
        else:
            refuse_own_generators(policy)
            acts = self._seats.setdefault(id(policy), (policy, seats(policy)))[1]

            def answer():
                obs = self.observation()
                a = acts[obs.player](obs)
                keep_writes(obs.state, self._view, obs.player)
                return a
        n = 0
        while not self._over and (steps is None or n < steps):
            self.apply(answer())
            n += 1
        return self

    def clone(self) -> Game:
        """An independent copy of the game as it stands (its answers, state and history)."""
        other = copy.copy(self)
        other.history = list(self.history)
        other._answers = list(self._answers)
        other._st = self._st.copy()
        other._view = other._st[L.STATE_SIZE:REPORT_AT]
        other._records = self._records.copy()
        other._seats = {}           # a Python player plays on as fresh copies of it
        return other

    def close(self) -> None:
        """Abandon the game: it is over, its outcome stays ``running``, it has no record."""
        if not self._over:
            self._over = self._abandoned = True

    @classmethod
    def from_record(cls, path) -> Game:
        """The game a ``simulate --record-out`` file names, replayed by its policy to the end
        (its outcome is the file's)."""
        r = read_record(path)
        return cls(r.config, r.seed, r.game).play(r.policy, r.params)

    def __repr__(self):
        if self._over:
            what = "abandoned" if self._abandoned else self.outcome
            return f"Game(seed={self.seed}, game={self.game}: {what})"
        return (f"Game(seed={self.seed}, game={self.game}: round {self._st[L.S_ROUND]}, "
                f"player {self.player} to answer {self.kind})")
