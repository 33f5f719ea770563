"""The checks of the API's inputs, kept apart from its runs so that they load nothing that
compiles: the command line runs them first and refuses bad input at once, and each API
function runs the same ones before it plays. A check returns the value checked (a name
resolved, a count as an ``int``) and raises :class:`ConfigError` (a ``ValueError``) in one line
naming the value and what is allowed; :func:`simulate_inputs` names every bad input of a run in
that line, not only the first.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numpy as np

from ..core.config import GameConfig
from ..core.errors import ConfigError
from ..core.inputs import check_count, check_progress, check_seconds, check_seed, check_threads
from ..policies import DEFAULT_SKILL
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


def config_of(config: GameConfig | Mapping[str, Any] | None,
              knobs: Mapping[str, Any] = None) -> GameConfig:
    """``config`` (default: the rulebook defaults; a mapping is read as knobs) with the knob
    keywords applied on top (:meth:`GameConfig.updated`: a ``difficulty`` sets its preset's
    knobs first, the other keywords override them; every refused knob is named)."""
    if isinstance(config, Mapping):
        config = GameConfig.from_dict(config)
    elif config is not None and not isinstance(config, GameConfig):
        raise TypeError(f"config must be a GameConfig, a mapping of knobs or None, got "
                        f"{type(config).__name__}")
    config = config or GameConfig()
    return config.updated(knobs) if knobs else config


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


def simulate_inputs(config: GameConfig | None = None, *, policy: Any = DEFAULT_SKILL,
                    games: int = 10_000, seed: int = 0, threads: int | None = None,
                    params: Any = None, first_game: int = 0, progress: Any = False,
                    records: bool = False, winnable: int | None = None,
                    winnable_seconds: float = 10.0, **knobs: Any) -> SimulateInputs:
    """The inputs of :func:`slashersim.api.simulate` (and, with ``winnable``, of the games
    :func:`slashersim.api.winnable` then solves), every one checked and every refusal named in
    one :class:`ConfigError`; nothing is compiled or played."""
    if not isinstance(records, (bool, np.bool_)):
        raise TypeError(f"records must be True or False, got {records!r}")
    chosen, config, games, seed, first_game, threads, _, solved = every(
        lambda: policy_params(policy, params), lambda: config_of(config, knobs),
        lambda: check_count("games", games), lambda: check_seed(seed),
        lambda: check_seed(first_game, "first_game"), lambda: check_threads(threads),
        lambda: check_progress(progress), lambda: winnable_inputs(winnable, winnable_seconds))
    if first_game + games > 1 << 63:
        raise ConfigError(f"games {first_game:,}..{first_game + games - 1:,} go past 2**63")
    return SimulateInputs(config, chosen[0], games, seed, threads, chosen[1], first_game,
                          solved)
