"""A game played one decision at a time, and the plain-Python player's names.

:class:`Game` plays one game step by step: the engine runs in a helper thread that stops at
each decision until :meth:`Game.apply` gives the answer, so the game's randomness is that of
``simulate`` (game ``game`` of ``seed``). Python players (an object with ``act(observation)``
or a function of the observation) and what they see are :mod:`slashersim.policies.python`;
their names are importable from here too.
"""
from __future__ import annotations

import operator
import queue
import threading
import weakref

import numpy as np

from . import rules
from .analysis.position import read_record
from .config import GameConfig
from .engine import layout as L
from .engine.decisions import DECISION_NAMES
from .engine.layout import V_ARG as _V_ARG
from .engine.layout import V_DECISION as _V_DECISION
from .engine.layout import V_LEGAL as _V_LEGAL
from .engine.layout import V_N_LEGAL as _V_N_LEGAL
from .engine.layout import V_PLAYER as _V_PLAYER
from .engine.layout import VIEW_SIZE as _VIEW_SIZE
from .engine.view import write_view
from .inputs import check_seed
from .policies import get_policy, param_vector, resolve
from .policies.python import REPORT_SIZE as _REPORT_SIZE
from .policies.python import STREAM as _STREAM
from .policies.python import IllegalAnswer, Observation, answerer, answering, bridge, policy_label
from .runner.result import records_frame

__all__ = ["Game", "IllegalAnswer", "Observation", "answerer", "policy_label"]


# --- one game, step by step ----------------------------------------------------------------------
_ABORT = object()


def _engine_thread(fn, play_games, cfg, report, seed, game, records, st, to_game, to_engine):
    def handler(decision, player, arg):
        to_game.put(("decision", decision, player, arg))
        answer = to_engine.get()
        if answer is _ABORT:
            report[0] = 1
            return -1
        return answer

    try:
        with answering(handler):
            play_games(fn, cfg, report, seed, game, records, st)
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
        from .runner.kernels import play_games  # the kernels load when a game starts
        self._thread = threading.Thread(
            target=_engine_thread, daemon=True, name=f"slashersim game {self.game}",
            args=(bridge(), play_games.compile(), config.to_array(), self._report, self.seed,
                  self.game, self._records, self._st, self._to_game, self._to_engine))
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

    def play(self, policy="baseline", params=None, steps: int | None = None) -> Game:
        """Let ``policy`` answer ``steps`` decisions (default: to the end of the game): a
        registered name (or skill level) with optional parameter vector ``params``, or a
        Python policy. A registered policy answers exactly as in ``simulate``."""
        if isinstance(policy, str):
            name = resolve(policy)
            fn = get_policy(name).decide
            vec = param_vector(name) if params is None else np.asarray(params, np.float64)
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
    def from_record(cls, path) -> Game:
        """The game a ``simulate --record-out`` file names, replayed by its policy to the end
        (its outcome is the file's)."""
        r = read_record(path)
        return cls(r.config, r.seed, r.game).play(r.policy, r.params)

    def __repr__(self):
        if self._over:
            return f"Game(seed={self.seed}, game={self.game}: {self.outcome})"
        return (f"Game(seed={self.seed}, game={self.game}: round {self._st[L.S_ROUND]}, "
                f"player {self.player} to answer {self.kind})")
