"""The compiled entry points through which games are played, one set per kind of player.

The engine's kernels are generic in the policy (:func:`engine.game.simulate_chunk`,
:func:`engine.luck_kernels.rollouts`, ...). Here they are compiled for the players:

- a policy without a fast path is passed as a first-class function
  (``engine.interface.POLICY_TYPE``), so one compiled kernel serves all of them (the expert,
  the searches, the exerciser, Python players, the hygiene recorder, a user's compiled
  policy);
- the baseline, the cheapest policy, whose calls are the largest share of its games, gets
  kernels of their own in which numba calls it directly (:data:`FAST`); a baseline run compiles
  no function-pointer path. A fast path pays only where it wins play speed enough to be worth
  its compile (``dev/benchmarks/fast_paths.py`` measures it; the heuristic gains nothing from
  one, so it shares the function-pointer kernels).

A mixed pair (``policies.Pair``) is one policy function compiled around its two players'
(:func:`pair_function`): it plays on the function-pointer kernels, never on a fast path.

Each kernel has one signature, compiles on its first call (or loads from the on-disk cache)
and refuses other types, as an eager ``@njit(signature)`` would. Importing this module compiles
nothing.
"""
import functools
from typing import NamedTuple

from numba import types
import numpy as np

from ..core import compiling
from ..core.layout import S_OUTCOME, S_ROUND
from ..engine import game, luck_kernels
from ..engine.interface import OBSERVE, PARAMS_TYPE, POLICY_SIGNATURE, POLICY_TYPE, observed
from ..engine.lazy import closure_njit, lazy_njit
from ..policies import Pair, baseline

_I, _ST, _PAR = types.int64, types.int64[::1], PARAMS_TYPE
#: cfg, params, seed, first game, records, held streams, repeats
_CHUNK = (_ST, _PAR, _I, _I, types.int32[:, ::1], _I, _I)
#: base state, params, position, seed, first play-out, outcomes
_ROLLOUTS = (_ST, _PAR, _ST, _I, _I, types.int8[::1])


class Kernels(NamedTuple):
    """The kernels of one kind of player: its ``chunk`` and ``rollouts`` kernels, and the
    first-class policy function they take first (``None`` when the policy is compiled in).

    :meth:`chunk` plays games in parallel (:func:`engine.game.simulate_chunk`), :meth:`rollouts`
    plays a position out (:func:`engine.luck_kernels.rollouts` on a fast path, else the one
    point of :func:`engine.luck_kernels.decision_rollouts`), both with the policy bound.
    """

    chunk_kernel: object
    rollouts_kernel: object
    policy: object = None
    #: the policy function compiled into the kernels (a fast path), else ``None``
    compiled_in: object = None

    def _bound(self):
        return () if self.policy is None else (self.policy,)

    def chunk(self, cfg, params, seed, game0, records, held=0, repeats=1):
        """Games ``game0 .. game0 + len(records) - 1`` into ``records``."""
        self.chunk_kernel(*self._bound(), cfg, params, seed, game0, records, held, repeats)

    def rollouts(self, base, params, pos, seed, first, out):
        """Play-outs ``first .. first + len(out) - 1`` of the position into ``out``."""
        self.rollouts_kernel(*self._bound(), base, params, pos, seed, first, out)


# --- any policy, called through its function pointer -----------------------------------------
@lazy_njit(types.void(POLICY_TYPE, *_CHUNK), cache=True)
def chunk(policy, cfg, params, seed, game0, records, held, repeats):
    """:func:`engine.game.simulate_chunk` for a policy passed as a first-class function."""
    game.simulate_chunk(policy, cfg, params, seed, game0, records, held, repeats)



@lazy_njit(types.int64(POLICY_TYPE, _ST, _PAR, _ST), cache=True)
def continue_as_is(policy, st, params, pos):
    """:func:`engine.luck_kernels.continue_as_is`: a position played on, nothing redrawn."""
    return luck_kernels.continue_as_is(policy, st, params, pos)


@lazy_njit(types.int64(POLICY_TYPE, _ST, _PAR), cache=True)
def play_on(policy, st, params):
    """:func:`engine.game.play_rounds`: a game played on in place from between two rounds, its
    streams as they are in ``st`` (the solver's first tries, a recorded game). Returns the
    outcome code."""
    game.play_rounds(policy, st, params)
    return st[S_OUTCOME]


@lazy_njit(types.void(POLICY_TYPE, _ST, _PAR, _I, _I, types.int32[:, ::1], _ST), cache=True)
def play_games(policy, cfg, params, seed, game0, records, st):
    """:func:`engine.game.play_games`: games one after another in the caller's state (a Python
    player's view lives after it)."""
    game.play_games(policy, cfg, params, seed, game0, records, st)


_M = types.int64[:, ::1]


@lazy_njit(types.void(POLICY_TYPE, _M, _M, _M, _M, _ST, _ST, _M, _ST, _PAR, _I, _I,
                      types.int8[:, :, ::1]), cache=True)
def decision_rollouts(policy, bases, poses, views, scripts, script_at, decided, answers,
                      n_answers, params, seed, first, out):
    """:func:`engine.luck_kernels.decision_rollouts` for a policy passed as a first-class
    function (one that answers from the script first: :func:`scripted_function`)."""
    luck_kernels.decision_rollouts(policy, bases, poses, views, scripts, script_at, decided,
                                   answers, n_answers, params, seed, first, out)


class _PositionRollouts:
    """The play-outs of one position for a policy passed as a first-class function: those of
    :func:`decision_rollouts` for one point with no decision (the same redraws and play as
    :func:`engine.luck_kernels.rollouts`, outcome for outcome), so that one kernel serves
    the luck analyses and the equity view."""

    _view = np.array([[-1, 0, 0, 0]], dtype=np.int64)
    _script = np.zeros((1, 2), dtype=np.int64)
    _at = np.zeros(2, dtype=np.int64)
    _undecided = np.full(1, -1, dtype=np.int64)
    _answers = np.zeros((1, 1), dtype=np.int64)
    _none = np.zeros(1, dtype=np.int64)

    def compile(self):
        decision_rollouts.compile()

    def __call__(self, policy, base, params, pos, seed, first, out):
        decision_rollouts(policy, np.ascontiguousarray(base).reshape(1, -1),
                          np.ascontiguousarray(pos).reshape(1, -1), self._view, self._script,
                          self._at, self._undecided, self._answers, self._none, params, seed,
                          first, out[None, None, :])


rollouts = _PositionRollouts()


@functools.cache
def scripted_function(decide):
    """The policy ``decide`` behind a script (the equity view's play-outs,
    :func:`engine.luck_kernels.decision_rollouts`): while the script in the state's slots
    ``X_*`` lasts, each decision is answered from it, after the player was asked too (so that
    its memory and stream go on as if it had answered); a decision other than the script's
    next marks the play-out astray. Past the script the player answers. With a tape's address
    in ``X_TAPE`` it also writes each position it is shown and each decision with its answer
    (``runner.recorded.record_moments``)."""
    from .tape import write_moment
    inner = as_function(decide)
    x_next, x_astray = luck_kernels.X_NEXT, luck_kernels.X_ASTRAY
    x_length, x_script, x_tape = luck_kernels.X_LENGTH, luck_kernels.X_SCRIPT, \
        luck_kernels.X_TAPE

    @closure_njit(POLICY_SIGNATURE)
    def scripted(decision, player, arg, st, params):
        if decision == OBSERVE:
            if st[x_tape] != 0:
                turns, pending, extra_done = observed(arg)
                write_moment(st, st[x_tape], np.int64(0), player, st[S_ROUND], turns,
                             pending, extra_done)
            return np.int64(0)
        k = st[x_next]
        if k >= st[x_length]:
            answer = inner(decision, player, arg, st, params)
            if st[x_tape] != 0:
                write_moment(st, st[x_tape], np.int64(1), decision, player, arg, answer,
                             st[S_ROUND])
            return answer
        inner(decision, player, arg, st, params)
        st[x_next] = k + 1
        if st[x_script + 2 * k] != decision * 2 + player:
            st[x_astray] = 1
        return st[x_script + 2 * k + 1]

    return scripted


# --- the fast paths: the policy compiled into the kernel -------------------------------------
@lazy_njit(types.void(*_CHUNK), cache=True)
def chunk_baseline(cfg, params, seed, game0, records, held, repeats):
    """:func:`engine.game.simulate_chunk` for the baseline."""
    game.simulate_chunk(baseline.decide, cfg, params, seed, game0, records, held, repeats)


@lazy_njit(types.void(*_ROLLOUTS), cache=True)
def rollouts_baseline(base, params, pos, seed, first, out):
    """:func:`engine.luck_kernels.rollouts` for the baseline."""
    luck_kernels.rollouts(baseline.decide, base, params, pos, seed, first, out)


#: registered policy name -> its kernels with the policy compiled in (the registry entries
#: marked ``fast``)
FAST = {
    "baseline": Kernels(chunk_baseline, rollouts_baseline, compiled_in=baseline.decide),
}


def kernels_for(name, decide):
    """The :class:`Kernels` of registered policy ``name`` whose function is ``decide``: its
    fast path if it has one, else the kernels that call ``decide`` (compiled here for
    ``engine.interface.POLICY_SIGNATURE``) through its function pointer."""
    fast = FAST.get(name)
    if fast is not None and decide is fast.compiled_in:
        return fast
    return Kernels(chunk, rollouts, as_function(decide))


def as_function(decide):
    """The jitted policy ``decide`` compiled for ``engine.interface.POLICY_SIGNATURE`` (its cached
    compilation loaded), ready to be passed as a first-class function; a mixed pair
    (``policies.Pair``) as its one compiled policy (:func:`pair_function`)."""
    if isinstance(decide, Pair):
        return pair_function(decide.seat0, decide.seat1, int(decide.n0))
    if hasattr(decide, "overloads") and POLICY_SIGNATURE.args not in decide.overloads:
        compiling.announce()
        decide.compile(POLICY_SIGNATURE)
    return decide


@functools.cache
def pair_function(decide0, decide1, n0):
    """The policy function of a mixed pair: seat 0's decisions go to ``decide0`` with the first
    ``n0`` parameters, seat 1's to ``decide1`` with the rest. Every decision the engine asks
    names the seat it asks (``player``), and each seat's random stream and memory are its own
    already (:func:`engine.interface.ask`), so each player plays exactly as it would beside a
    partner of its own kind. ``OBSERVE`` is shown to recorders only (its ``player`` is a
    position's kind, not a seat): a pair answers it 0 and shows neither player. Compiled once
    per pair of functions (and loaded from the on-disk cache after)."""
    f0, f1 = as_function(decide0), as_function(decide1)
    n0 = np.int64(n0)

    @closure_njit(POLICY_SIGNATURE)
    def pair(decision, player, arg, st, params):
        if decision == OBSERVE:
            return np.int64(0)
        if player == 0:
            return f0(decision, player, arg, st, params[:n0])
        return f1(decision, player, arg, st, params[n0:])

    return pair


def compile_part(name):
    """Compile the part named ``name`` (:func:`slashersim.policies.compile_part`) into the
    on-disk cache: what a helper process runs when a command's parts compile side by side. A
    kernel's part includes :func:`engine.game.aggregate`, which sums the records of every
    kernel."""
    from ..policies import compile_part as part_named
    from ..policies import get_policy
    part = part_named(name)
    if part.stem == "kernels":
        globals()[part.function].compile()
        game.aggregate.compile()
    else:
        as_function(get_policy(name).decide)
