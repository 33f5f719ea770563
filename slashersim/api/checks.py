"""The checks of the API's inputs, kept apart from its runs so that they load nothing that
compiles: the command line runs them first and refuses bad input at once, and each API
function runs the same ones before it plays. A check returns the value checked (a name
resolved, a count as an ``int``) and raises :class:`ConfigError` (a ``ValueError``) in one line
naming the value and what is allowed; :func:`simulate_inputs` names every bad input of a run in
that line, not only the first.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from ..core.compiling import KINDS
from ..core.config import GameConfig
from ..core.errors import ConfigError
from ..core.inputs import check_count, check_progress, check_seconds, check_seed, check_threads
from ..core.presets import overrides
from ..policies import DEFAULT_SKILL, compile_parts
from ..policies.choice import check_params, check_policy

__all__ = ["SimulateInputs", "check_policy", "check_seconds", "check_threads", "config_of", "every",
           "policy_params", "run_inputs", "simulate_inputs", "winnable_inputs"]


def every(*checks: Callable[[], Any]) -> list:
    """The results of ``checks`` run in turn; when any refuses, one :class:`ConfigError` names
    every refusal (each once), not only the first."""
    found, results = [], []
    for check in checks:
        try:
            results.append(check())
        except ValueError as e:
            found.append(str(e))
            results.append(None)
    if found:
        raise ConfigError("; ".join(dict.fromkeys(found)))
    return results


#: ``config`` (a :class:`GameConfig`, a mapping of knobs or ``None``) with knob keywords on top
config_of = GameConfig.of


def policy_params(policy: Any, params: Any = None) -> tuple[Any, np.ndarray]:
    """``(policy, parameter vector)``: a policy name or skill level resolved, and its
    parameters (``{name or index: value}`` over its defaults, or the whole vector) checked
    against each parameter's type and range."""
    policy = check_policy(policy)
    return policy, check_params(policy, params)


def winnable_inputs(games: int | None, seconds: Any) -> int:
    """The games the solver decides (0 for none, ``games=None``), its seconds per game
    checked."""
    check_seconds("winnable_seconds", seconds)
    return 0 if games is None else check_count("winnable", games)


def run_inputs(config, knobs, policy, seed, threads, params, progress):
    """``(config, policy, seed, threads, params)`` of a run that plays one policy, each checked
    in turn."""
    config = config_of(config, knobs)
    policy, params = policy_params(policy, params)
    seed = check_seed(seed)
    threads = check_threads(threads)
    check_progress(progress)
    return config, policy, seed, threads, params


class SimulateInputs(NamedTuple):
    """A :func:`slashersim.api.simulate` run's inputs, checked."""

    config: GameConfig
    policy: Any
    games: int
    seed: int
    threads: int | None
    params: np.ndarray
    first_game: int
    winnable: int
    #: the knobs given over a ``difficulty`` preset's own, which win over it
    #: (:class:`~slashersim.core.presets.Override`; a command line says so)
    overrides: list = []
    #: what the run compiles (:func:`slashersim.policies.compile_parts`)
    parts: list = []


def simulate_inputs(config: GameConfig | None = None, *, policy: Any = DEFAULT_SKILL,
                    games: int = 10_000, seed: int = 0, threads: int | None = None,
                    params: Any = None, first_game: int = 0, progress: Any = False,
                    records: bool = False, winnable: int | None = None,
                    winnable_seconds: float = 10.0, kernels: Sequence[str] = ("engine",),
                    **knobs: Any) -> SimulateInputs:
    """The inputs of :func:`slashersim.api.simulate` (and, with ``winnable``, of the games
    :func:`slashersim.api.winnable` then solves), every one checked and every refusal named in
    one :class:`ConfigError`; nothing is compiled or played. ``kernels``: the kernel kinds the
    run plays on (``engine``; ``record`` when a game is recorded too), whose compile parts the
    result names."""
    if not isinstance(records, (bool, np.bool_)):
        raise TypeError(f"records must be True or False, got {records!r}")
    chosen, config, games, seed, first_game, threads, _, solved = every(
        lambda: _played(policy, params, kernels), lambda: config_of(config, knobs),
        lambda: check_count("games", games), lambda: check_seed(seed),
        lambda: check_seed(first_game, "first_game"), lambda: check_threads(threads),
        lambda: check_progress(progress), lambda: winnable_inputs(winnable, winnable_seconds))
    if first_game + games > 1 << 63:
        raise ConfigError(f"games {first_game:,}..{first_game + games - 1:,} go past 2**63")
    return SimulateInputs(config, chosen[0], games, seed, threads, chosen[1], first_game,
                          solved, overrides(knobs), chosen[2])


def _played(policy, params, kernels):
    """``(policy, parameters, compile parts)`` of a run of ``policy`` on ``kernels``."""
    policy, params = policy_params(policy, params)
    unknown = [k for k in kernels if k not in KINDS]
    if unknown:
        raise ConfigError(f"unknown kernel kind {unknown[0]!r}; expected one of: "
                          f"{', '.join(KINDS)}")
    return policy, params, compile_parts([policy], kernels)
