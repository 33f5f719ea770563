"""The API's functions (:mod:`slashersim.api` names them): each checks its inputs with
:mod:`.checks`, plays, and returns a result from :mod:`.results`."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
import os
from pathlib import Path
import tempfile
from typing import Any

import numpy as np
import pandas as pd

from ..analysis.bench import policy_speed, run_bench
from ..analysis.compare import (
    check_comparison,
    check_variants,
    compare_policies,
    compare_variants,
)
from ..analysis.luck import (
    STREAM_NAMES,
    add_winnable,
    check_sources,
    fact_configs,
    fact_values,
    first_fact_effects,
    killer_configs,
    killer_position_effects,
    killer_positions,
    killer_runs,
    variance_sources,
)
from ..analysis.playouts import timeline, timeline_playouts, win_probability
from ..analysis.position import Position, load_position, parse_position
from ..analysis.records import RecordFile, load_record, read_record, record_game, record_json
from ..analysis.sweeps import SweepSpec, changed_cells, load_spec, parse_spec, run_sweep
from ..analysis.sweeps import cells as spec_cells
from ..analysis.sweeps import checkpoint_dir as checkpoint_dir
from ..analysis.tune import check_knobs, check_search, planned_games
from ..analysis.tune import tune as run_tune
from ..analysis.winnable import FIRST_TRIES, Winnability, solve_game, solve_games
from ..core import compiling, rules
from ..core import layout as L
from ..core.config import GameConfig
from ..core.errors import ConfigError
from ..core.inputs import (
    check_backend,
    check_count,
    check_output,
    check_positive,
    check_progress,
    check_report_paths,
    check_seed,
    check_threads,
    check_workers,
)
from ..core.progress import bar
from ..policies import DEFAULT_SKILL, compile_parts, pair_name
from ..policies.choice import check_params, check_policy, parse_names, parse_policy_list
from ..runner import games_per_second as games_per_second
from ..runner import play_side_by_side, prepare
from ..runner import simulate as run_simulation
from ..runner.backends import make_backend
from ..runner.backends.local import LocalBackend
from ..runner.tables import load_table, table_info
from .checks import (
    check_seconds,
    config_of,
    every,
    policy_params,
    run_inputs,
    simulate_inputs,
    winnable_inputs,
)
from .results import Comparison, LuckResult, Simulation, VariantComparison

__all__ = ["simulate", "compare", "sweep", "luck", "luck_fact", "luck_sources", "luck_state",
           "luck_timeline", "record", "tune", "bench", "policy_speeds", "report", "table_info",
           "winnable", "Winnability", "Simulation", "Comparison", "VariantComparison",
           "LuckResult", "ConfigError", "GameConfig", "side_by_side", "position",
           "load_table", "why", "why_inputs"]

#: ``False``/``None`` (no bar), ``True`` (a tqdm bar on stderr) or ``progress(done, total)``
Progress = bool | None | Callable[[int, int], Any]
#: a policy name or skill level, or a policy object handed to the engine unchanged
PolicyLike = str | Any


# --- input checks (nothing here compiles) ----------------------------------------------------

@contextmanager
def _progress(progress: Progress, total: int, policies: Iterable[Any] = (),
              kernels: Sequence[str] = ("engine",)) -> Iterator[tuple[Callable | None, Any]]:
    """``(progress(done, total) or None, the tqdm bar or None)`` for a run of ``total``
    games of ``policies``: a bar on stderr for ``True`` (closed on leaving), the callable
    itself, or nothing. A kernel compiled on the way is reported on stderr
    (:func:`slashersim.core.compiling.session`)."""
    with _session(progress, total, compile_parts(policies, kernels)) as shown:
        yield shown


@contextmanager
def _session(progress, total, parts):
    """:func:`_progress` of a run that compiles ``parts``."""
    with compiling.session(parts):
        yield from _bar_or_callback(progress, total)


def _bar_or_callback(progress, total):
    if progress is True:
        with bar(total, terminal_only=False) as b:
            def show(done, _total):
                if done > b.n:
                    b.update(done - b.n)
            yield show, b
    elif progress:
        yield progress, None
    else:
        yield None, None


def _steps(progress: Callable | None, total: int) -> Callable[[int], None] | None:
    """A ``step(n)`` callback (games just played) that calls ``progress(done, total)``."""
    if progress is None:
        return None
    done = 0

    def step(n):
        nonlocal done
        done += n
        progress(done, total)
    return step


# --- the functions -----------------------------------------------------------------------------

def simulate(config: GameConfig | None = None, *, policy: PolicyLike = DEFAULT_SKILL,
             games: int = 10_000, seed: int = 0, threads: int | None = None,
             progress: Progress = False, params: Mapping[str | int, float] | Sequence[float]
             | np.ndarray | None = None, records: bool = False, first_game: int = 0,
             **knobs: Any) -> Simulation:
    """Play ``games`` games of one configuration under one policy.

    Parameters
    ----------
    config : GameConfig, optional
        The rules (default: the rulebook defaults, ``GameConfig()``); a mapping of knobs is
        read with :meth:`GameConfig.from_dict`.
    policy : str or policy object, default "expert"
        A registered policy name (:func:`slashersim.policies.policy_names`: ``baseline``,
        ``exerciser``, ``heuristic``, ``expert``, ``search``, ``omniscient``, ``belief``,
        ``open_hands``, and any a user registers) or skill level (``novice``, ``casual``,
        ``expert``); or a mixed pair, seat 0's player then seat 1's, as ``"novice+expert"``
        or ``("novice", "expert")`` (its parameters are named ``seat0.NAME`` and
        ``seat1.NAME``). Anything else is a Python player, handed to
        :func:`slashersim.runner.simulate`.
    games : int, default 10_000
        Games to play, at least 1.
    seed : int, default 0
        The run seed, ``0 <= seed < 2**63``; game ``g`` depends on ``(seed, g)`` only, so the
        result does not depend on ``threads``.
    threads : int, optional
        Numba threads, ``1..`` the cores numba may use (default: all).
    progress : bool or callable, default False
        ``True`` shows a tqdm bar on stderr (games, rate, time left); a callable is called as
        ``progress(done, total)`` after each kernel call.
    params : mapping or sequence of float, optional
        The policy's parameters: ``{name or index: value}`` over its defaults, or the whole
        vector; each value is checked against the parameter's type and range
        (:func:`slashersim.policies.param_specs`).
    records : bool, default False
        Also keep one row per game in ``result.records`` (a DataFrame).
    first_game : int, default 0
        Play games ``first_game .. first_game + games - 1`` of ``seed``, so that a run can be
        played in parts: the parts' ``counts`` add up to the whole run's exactly.
    **knobs
        Fields of :class:`GameConfig` (``health=5``, ``hideaway=True``,
        ``edition="instructions"``, ...) and ``difficulty`` (a preset of the edition whose
        knobs the other keywords override), applied on top of ``config``.

    Returns
    -------
    Simulation
        A :class:`~slashersim.runner.SimulationResult` with ``to_frame()``.

    Raises
    ------
    ConfigError
        (a ``ValueError``) for an unknown knob or policy, or a value out of range; raised
        before anything compiles or plays.

    Examples
    --------
    >>> r = simulate(health=5, policy="casual", games=2_000, seed=1)  # doctest: +SKIP
    >>> r.win_rate, r.win_ci                                          # doctest: +SKIP
    """
    run = simulate_inputs(config, policy=policy, games=games, seed=seed, threads=threads,
                          params=params, first_game=first_game, progress=progress,
                          records=records, **knobs)
    with _session(progress, run.games, run.parts) as (callback, _):
        result = run_simulation(run.config, run.policy, games=run.games, seed=run.seed,
                                threads=run.threads, keep_records=bool(records),
                                progress=callback, params=run.params,
                                first_game=run.first_game)
    return Simulation.of(result)


def winnable(config: GameConfig | None = None, *, games: int = 100, seed: int = 0,
             first_game: int = 0, seconds: float = 10.0, progress: Progress = False,
             **knobs: Any) -> Winnability:
    """Could each game have been won? The exact solver's answer for games ``first_game ..
    first_game + games - 1`` of ``seed`` (the games ``simulate`` plays with that seed).

    A game is *winnable* when some sequence of both players' decisions, each seeing every
    card, wins it (its :class:`~slashersim.analysis.winnable.Solution` carries the winning
    line), *unwinnable* when none does, *undecided* when ``seconds`` ran out first. Games are
    solved one at a time; ``config`` and ``**knobs`` are read as by :func:`simulate`.
    """
    config = config_of(config, knobs)
    games = check_count("games", games)
    seed = check_seed(seed)
    first_game = check_seed(first_game, "first_game")
    check_seconds("seconds", seconds)
    with _progress(progress, games, kernels=()) as (show, _):
        step = None if show is None else (lambda done: show(done, games))
        return solve_games(config, seed, first_game, games, float(seconds), step)


def compare(config: GameConfig | None = None, *,
            policies: Sequence[PolicyLike] | str = ("novice", "casual", "expert"),
            games: int | Mapping[str | None, int] = 10_000, seed: int = 0,
            threads: int | None = None, progress: Progress = False,
            params: Mapping[str, Mapping[str | int, float]] | None = None,
            variants: Mapping[str, Mapping[str, Any]] | None = None,
            **knobs: Any) -> Comparison | VariantComparison:
    """Players side by side on the same games (common random numbers): each one's win rate
    and every pair's paired difference; with ``variants``, rules against rules: how much each
    variant changes each player's win rate, and whether it helps one player more than another.

    Parameters
    ----------
    config : GameConfig, optional
        The rules (default: the rulebook defaults).
    policies : sequence of str or policy objects, default ("novice", "casual", "expert")
        Policy names or skill levels (or a comma-separated string of them), each row labelled
        as named; a name may repeat (rows ``name``, ``name#2``, ...). A row may be a mixed
        pair, ``"novice+expert"`` or ``("novice", "expert")``. Other entries that are not
        ``str`` are handed to :func:`slashersim.analysis.compare.compare_policies` unchanged.
    games : int or mapping, default 10_000
        Games per player, or ``{policy name or row label: games}`` with an optional ``None``
        key for the others; player ``i`` plays games ``0 .. n_i - 1`` of ``seed`` and a pair
        is compared over the games both played.
    seed : int, default 0
        The run seed shared by every player.
    threads : int, optional
        Numba threads (default: all); results do not depend on it.
    progress : bool or callable, default False
        ``True`` shows a tqdm bar on stderr; a callable is called as ``progress(done,
        total)``, games of all players together.
    params : mapping, optional
        ``{policy name or row label: {parameter: value}}``.
    variants : mapping, optional
        ``{name: {rule: value}}``: each variant is the rules as set with those rules changed
        (e.g. ``{"no cursed object": {"cursed_object": False}}``), played by every player on
        the same games as the rules as set.
    **knobs
        Fields of :class:`GameConfig` and ``difficulty``, applied on top of ``config``.

    Returns
    -------
    Comparison or VariantComparison
        ``.policies`` (one row per player), ``.pairs`` (one row per pair), ``.summary()``;
        with ``variants``, ``.changes`` (one row per variant and player), ``.contrasts`` (one
        row per variant and pair of players), ``.summary()``.

    Raises
    ------
    ConfigError
        (a ``ValueError``) for bad input, before anything compiles or plays.
    """
    config = config_of(config, knobs)
    if isinstance(policies, str):
        policies = parse_names(policies)
    names = [pair_name(p) for p in policies]
    for p in names:
        if p == "":
            raise ConfigError(f"policies {names!r} has an empty name at position "
                              f"{names.index('') + 1}")
        check_policy(p)
    seed = check_seed(seed)
    threads = check_threads(threads)
    check_progress(progress)
    _, _, _, counts = check_comparison(names, games, params)
    if variants is not None:
        try:
            check_variants(config, dict(variants))
        except (TypeError, ValueError) as e:
            raise ConfigError(str(e)) from None
        total = sum(counts) * (len(variants) + 1)
        with _progress(progress, total, names) as (callback, _):
            result = compare_variants(config, names, dict(variants), games=games, seed=seed,
                                      threads=threads, params=params,
                                      step=_steps(callback, total))
        return VariantComparison(result)
    total = sum(counts)
    with _progress(progress, total, names) as (callback, _):
        result = compare_policies(config, names, games=games, seed=seed, threads=threads,
                                  params=params, step=_steps(callback, total))
    return Comparison(result)


def luck(config: GameConfig | None = None, *, policy: PolicyLike = "expert",
         games: int = 100_000, seed: int = 0, threads: int | None = None,
         positions: int | Iterable[int] | None = None, progress: Progress = False,
         params: Mapping[str | int, float] | Sequence[float] | np.ndarray | None = None,
         winnable: int | None = None, winnable_seconds: float = 10.0,
         **knobs: Any) -> LuckResult:
    """How much the Killer's starting position in the first item deck decides: the win rate
    of each position and its effect (its win rate minus the average over all positions), on
    the same games for every position.

    Parameters
    ----------
    config : GameConfig, optional
        The rules (default: the rulebook defaults); its ``killer_position`` is ignored.
    policy : str or policy object, default "expert"
        A policy name or skill level; anything else is passed through unchanged.
    games : int, default 100_000
        Games per position (every position plays them, whatever is reported).
    seed : int, default 0
        The run seed shared by every position.
    threads : int, optional
        Numba threads (default: all); results do not depend on it.
    positions : int or iterable of int, optional
        The positions to report, 1 = top (default: all).
    progress : bool or callable, default False
        ``True`` shows a tqdm bar on stderr; a callable is called as ``progress(done,
        total)``, games of all positions together.
    params : mapping or sequence of float, optional
        The policy's parameters, as for :func:`simulate`.
    winnable : int, optional
        Also decide exactly whether each of the first ``winnable`` games of every reported
        position could have been won (:func:`winnable`, ``winnable_seconds`` per game): each
        position's row gains ``"winnable"``, the counts and the share.
    **knobs
        Fields of :class:`GameConfig` and ``difficulty``, applied on top of ``config``.

    Returns
    -------
    LuckResult
        ``to_frame()``: one row per reported position; ``.average``; ``summary()``.

    Raises
    ------
    ConfigError
        (a ``ValueError``) for bad input (e.g. a position outside ``1..`` the positions of
        the configuration), before anything compiles or plays.
    """
    config = config_of(config, knobs)
    policy = check_policy(policy)
    games = check_count("games", games)
    seed = check_seed(seed)
    threads = check_threads(threads)
    params = check_params(policy, params)
    check_progress(progress)
    if isinstance(positions, (int, np.integer)) and not isinstance(positions, bool):
        positions = [int(positions)]
    elif positions is not None:
        positions = list(positions)
    reported = killer_positions(config, positions)
    solved = winnable_inputs(winnable, winnable_seconds) * len(reported)
    total = games * killer_runs(config, positions) + solved
    with _progress(progress, total, [policy]) as (callback, _):
        step = _steps(callback, total)
        result = killer_position_effects(config, policy, games=games, seed=seed,
                                         threads=threads, positions=positions, step=step,
                                         params=params)
        if solved:
            add_winnable(result, "positions",
                         killer_configs(config.replace(killer_position=None), reported),
                         winnable, float(winnable_seconds), step)
    return LuckResult(result)


def _spec(spec: Any):
    """``(SweepSpec, spec file or None)`` from a spec, a path to a TOML spec or a mapping in
    the spec's TOML structure (tuples and ranges of axis values taken as lists)."""
    if isinstance(spec, SweepSpec):
        return spec, None
    if isinstance(spec, (str, os.PathLike)):
        return load_spec(spec), spec
    if isinstance(spec, Mapping):
        data = {k: dict(v) if isinstance(v, Mapping) else v for k, v in spec.items()}
        if isinstance(data.get("axes"), dict):
            data["axes"] = {k: list(v) if isinstance(v, (tuple, range)) else v
                            for k, v in data["axes"].items()}
        sweep_table = data.get("sweep")
        if isinstance(sweep_table, dict) and isinstance(sweep_table.get("policies"), tuple):
            sweep_table["policies"] = list(sweep_table["policies"])
        return parse_spec(data), None
    raise TypeError(f"spec must be a path to a TOML spec or a mapping, got "
                    f"{type(spec).__name__}")


def sweep(spec: str | os.PathLike | Mapping[str, Any], *, out: str | os.PathLike | None = None,
          threads: int | None = None, progress: Progress = False,
          restart_changed: bool = False) -> pd.DataFrame:
    """Play every cell of a sweep spec's grid × every policy into a table.

    Parameters
    ----------
    spec : path or mapping
        A TOML sweep spec (docs/reference/formats.md, "Sweep specs"), or a mapping in the same
        structure: ``{"sweep": {"games": 20_000, "seed": 0, "policies": ["casual"]},
        "base": {...}, "axes": {"health": [7, 5, 3]}}``.
    out : path, optional
        The parquet table to write (checkpointed while it runs, so an interrupted sweep on
        the same ``out`` resumes); default: none kept (it is played in a temporary folder).
    threads : int, optional
        Numba threads (default: all); results do not depend on it.
    progress : bool or callable, default False
        ``True`` shows a tqdm bar on stderr (games, and cells done); a callable is called as
        ``progress(done, total)``, games of all cells.
    restart_changed : bool, default False
        Resuming ``out``: play anew the cells whose rules changed since their checkpoints were
        played (a card file edited); without it such checkpoints are refused.

    Returns
    -------
    pandas.DataFrame
        One row per cell × policy, as :func:`slashersim.runner.tables.load_table` reads the table:
        the knobs of the axes and base, ``policy``, ``cell``, the counts, ``win_rate``,
        ``win_ci_low``, ``win_ci_high``, ``mean_rounds``, ``trap_rate_<area>``;
        ``df.attrs["slashersim"]`` holds its provenance.

    Raises
    ------
    ConfigError
        (a ``ValueError``) for a bad spec or output path, before anything compiles or plays.
    """
    spec, spec_file = _spec(spec)
    threads = check_threads(threads)
    check_progress(progress)
    if out is not None:
        out = check_output(out, "out", inputs=sweep_inputs(spec, spec_file))
        if out.suffix.lower() not in (".parquet", ".pq"):
            raise ConfigError(f"out {str(out)!r} must be a .parquet file")
        resume_check(spec, out, restart_changed)
    return load_table(play_sweep(spec, out, threads=threads, progress=progress,
                                 spec_file=spec_file, restart_changed=restart_changed))


def sweep_inputs(spec: SweepSpec, spec_file: str | os.PathLike | None = None) -> list[str]:
    """The files a sweep reads: its spec file and every card file its cells name, which no
    output may be."""
    cards = {config.cards for _, config in spec_cells(spec) if config.cards is not None}
    return ([] if spec_file is None else [os.fspath(spec_file)]) + sorted(cards)


def resume_check(spec: SweepSpec, out: str | os.PathLike,
                 restart_changed: bool = False) -> dict[int, list[str]]:
    """Before a sweep resumes ``out``: the cells whose checkpoints were played under other
    rules (:func:`slashersim.analysis.sweeps.changed_cells`); without ``restart_changed`` a
    :class:`ConfigError` names the change (each card file with both hashes)."""
    return changed_cells(spec, checkpoint_dir(out), restart_changed=restart_changed)


def play_sweep(spec: SweepSpec, out: Path | None, threads: int | None = None,
               progress: Progress = False, csv: bool = False, backend: Any = None,
               command: str | None = None, spec_file: str | os.PathLike | None = None,
               cells: Callable[[int, int], Any] | None = None,
               restart_changed: bool = False) -> pd.DataFrame:
    """Play a checked :class:`~slashersim.analysis.sweeps.SweepSpec` (:func:`load_spec`) into
    ``out`` (a checked path, or ``None``: a temporary folder); the table as
    :func:`slashersim.analysis.sweeps.run_sweep` returns it. ``progress`` counts games;
    ``cells(done, total)`` is called with the cells done. The command line's ``sweep`` plays
    through here with its ``backend`` (:func:`sweep_backend`), ``csv`` and ``command``."""
    total = spec.n_cells * sum(spec.games_of(p) for p in spec.policies)
    local = backend is None or isinstance(backend, LocalBackend)
    folder = tempfile.TemporaryDirectory(prefix="slashersim-sweep-") if out is None \
        else nullcontext()
    with _progress(progress, total, spec.policies) as (callback, shown), folder as tmp:
        done = 0

        def on_chunk(cells_done, cells_total, games_done, games_total):
            nonlocal done
            if callback is not None and games_done > done:
                done = games_done
                callback(done, total)
            if shown is not None:
                shown.set_postfix_str(f"{cells_done}/{cells_total} cells", refresh=False)
            if cells is not None:
                cells(cells_done, cells_total)

        def on_step(n):
            nonlocal done
            done += n
            callback(done, total)

        return run_sweep(spec, Path(tmp) / "sweep.parquet" if out is None else out,
                         threads=threads, csv=csv, backend=backend, progress=on_chunk,
                         step=on_step if local and callback is not None else None,
                         command=command, spec_file=spec_file,
                         restart_changed=restart_changed)


# --- the other questions of the command line ---------------------------------------------------
# Each command of ``slashersim`` calls one function here; the checks it runs before playing
# (to name every bad option in one line) are the ones these functions run themselves.

def sweep_backend(backend: str | None = None, threads: int | None = None,
                  scheduler: str | None = None, workers: int | None = None) -> Any:
    """The backend :func:`play_sweep` plays on (:func:`check_backend`); a ``dask`` one needs
    ``dask.distributed`` installed, and starts nothing until it plays."""
    return make_backend(check_backend(backend, threads, scheduler, workers), threads=threads,
                        scheduler=scheduler, workers=workers)


def sweep_cells(spec: SweepSpec) -> Iterator[tuple[dict, GameConfig]]:
    """``(knobs, GameConfig)`` of each cell of a spec, in the spec's order."""
    return spec_cells(spec)


def compare_games(policies: Sequence[PolicyLike], games: int | Mapping[str | None, int],
                  params: Mapping[str, Mapping[str | int, float]] | None = None) -> int:
    """The games :func:`compare` plays without ``variants`` (every player's together), its
    players, games and parameters checked without playing anything."""
    return sum(check_comparison(list(policies), games, params)[3])


def luck_games(question: str = "killer", config: GameConfig | None = None, *,
               games: int = 100_000, values: Iterable[Any] | None = None, player: int = 0,
               repeats: int = 8, winnable: int | None = None) -> int:
    """The games a luck question plays (and, with ``winnable``, solves), its inputs checked
    without playing anything: ``killer`` (:func:`luck`, ``values`` the positions reported),
    ``area``, ``trump`` or ``yellows`` (:func:`luck_fact`), ``sources`` (:func:`luck_sources`)."""
    config = config_of(config)
    if question == "sources":
        groups, repeats = check_sources(games, repeats)
        return 2 * len(STREAM_NAMES) * groups * repeats
    games = check_count("games", games)
    solved = winnable_inputs(winnable, 0.0)
    if question == "killer":
        values = None if values is None else list(values)
        return games * killer_runs(config, values) + \
            solved * len(killer_positions(config, values))
    _, allowed, wanted, _ = fact_values(question, config, values, player)
    return games * len(allowed) + solved * len(wanted)


def tune_games(knobs: Sequence[str], stages: Sequence[int], keep: int = 12) -> int:
    """At most how many games :func:`tune` plays, its ``knobs`` checked."""
    check_knobs(tuple(knobs))
    return planned_games(tuple(knobs), tuple(stages), keep)


def record(config: GameConfig | None = None, *, policy: PolicyLike = DEFAULT_SKILL,
           game: int = 0, seed: int = 0, params: Any = None,
           winnable_seconds: float | None = None, **knobs: Any) -> dict:
    """Game ``game`` of a :func:`simulate` run replayed, as the JSON-ready game record that
    ``simulate --record-out`` writes (configuration, policy, seed, outcome, events). With
    ``winnable_seconds``, the record also says whether the game could have been won and how
    (``"winnable"``: :meth:`Solution.summary`, the exact solver given that many seconds)."""
    config = config_of(config, knobs)
    policy = check_policy(policy)
    params = check_params(policy, params)
    if winnable_seconds is not None:
        winnable_inputs(None, winnable_seconds)
    with compiling.session(compile_parts([policy], ("engine", "record"))):
        rec = record_json(record_game(config, policy, seed, game, params))
    if winnable_seconds is not None:
        rec["winnable"] = solve_game(config.to_array(), seed, game,
                                     float(winnable_seconds)).summary()
    return rec


def luck_fact(fact: str, config: GameConfig | None = None, *, policy: PolicyLike = "expert",
              games: int = 100_000, seed: int = 0, threads: int | None = None,
              values: Iterable[str] | None = None, player: int = 0, progress: Progress = False,
              params: Any = None, winnable: int | None = None, winnable_seconds: float = 10.0,
              **knobs: Any) -> dict:
    """How much a set-up fact of round 1 decides, on the same games for every value: the win
    rate and effect of each first area card (``fact="area"``), first trump suit (``trump``)
    or count of yellows in ``player``'s first hand (``yellows``, weighted by their chances);
    ``values`` those reported (default all). The JSON-ready object of ``slashersim luck
    FACT --json`` (:func:`slashersim.analysis.luck.first_fact_effects`). ``winnable``: also
    the exact solver's answer for the first ``winnable`` games of each reported value, as in
    :func:`luck`."""
    config, policy, seed, threads, params = run_inputs(config, knobs, policy, seed, threads,
                                                        params, progress)
    values = None if values is None else list(values)
    _, allowed, wanted, _ = fact_values(fact, config, values, player)
    solved = winnable_inputs(winnable, winnable_seconds) * len(wanted)
    total = check_count("games", games) * len(allowed) + solved
    with _progress(progress, total, [policy]) as (callback, _):
        step = _steps(callback, total)
        result = first_fact_effects(fact, config, policy, games=games, seed=seed,
                                    threads=threads, values=values, player=player, step=step,
                                    params=params)
        if solved:
            add_winnable(result, "values", fact_configs(fact, config, wanted, player),
                         winnable, float(winnable_seconds), step)
    return result


def luck_sources(config: GameConfig | None = None, *, policy: PolicyLike = "expert",
                 games: int = 160_000, repeats: int = 8, seed: int = 0,
                 threads: int | None = None, progress: Progress = False, params: Any = None,
                 **knobs: Any) -> dict:
    """How much of the outcome's variance each random stream explains (first-order and
    total shares, with bootstrap intervals), from groups of ``repeats`` games sharing a
    stream. The JSON-ready object of ``slashersim luck sources --json``
    (:func:`slashersim.analysis.luck.variance_sources`)."""
    config, policy, seed, threads, params = run_inputs(config, knobs, policy, seed, threads,
                                                        params, progress)
    total = luck_games("sources", games=games, repeats=repeats)
    with _progress(progress, total, [policy], ("engine", "held")) as (callback, _):
        return variance_sources(config, policy, games=games, repeats=repeats, seed=seed,
                                threads=threads, step=_steps(callback, total), params=params)


def luck_state(position: str | os.PathLike | Position, *, policy: PolicyLike = "expert",
               games: int = 20_000, seed: int = 0, threads: int | None = None,
               params: Any = None, progress: Progress = False) -> dict:
    """The win probability of a described position, played out ``games`` times: ``position``
    is a position file (docs/reference/formats.md, "Position files") or its
    :class:`~slashersim.analysis.position.Position`. The JSON-ready object of ``slashersim
    luck state --json``."""
    policy = check_policy(policy)
    params = check_params(policy, params)
    threads = check_threads(threads)
    games = check_count("games", games)
    seed = check_seed(seed)
    check_progress(progress)
    if not isinstance(position, Position):
        position = load_position(position)
    with _progress(progress, games, [policy], ("rollouts",)) as (callback, _):
        return win_probability(position, policy, games, seed, threads, params,
                               step=_steps(callback, games))


def luck_timeline(record: str | os.PathLike | RecordFile, *, games: int = 4000, seed: int = 0,
                  threads: int | None = None, progress: Progress = False,
                  winnable_seconds: float | None = None) -> dict:
    """The win probability before and after each random event of a recorded game, each
    position played out ``games`` times: ``record`` is a game record file (``simulate
    --record-out``) or what :func:`read_record` read of it. The JSON-ready object of
    ``slashersim luck timeline --json`` (:func:`slashersim.analysis.playouts.timeline`); with
    ``winnable_seconds``, its ``"winnable"`` says whether the game could have been won and how
    (the exact solver, given that many seconds)."""
    threads = check_threads(threads)
    games = check_count("games", games)
    seed = check_seed(seed)
    check_progress(progress)
    if winnable_seconds is not None:
        winnable_inputs(None, winnable_seconds)
    if not isinstance(record, RecordFile):
        record = read_record(record)
    with compiling.session(compile_parts([record.policy], ("engine", "record", "rollouts"))):
        rec = load_record(record)
        total = timeline_playouts(rec, games)
        with contextmanager(_bar_or_callback)(progress, total) as (callback, _):
            t = timeline(rec, games, seed, threads, step=_steps(callback, total))
    if winnable_seconds is not None:
        t["winnable"] = solve_game(record.config.to_array(), record.seed, record.game,
                                   float(winnable_seconds)).summary()
    return t


def tune(target: float, config: GameConfig | None = None, *, policy: PolicyLike = "expert",
         knobs: Sequence[str] = rules.DIFFICULTY_KNOBS, tolerance: float = 0.02,
         stages: Sequence[int] = (20_000, 200_000, 1_000_000), keep: int = 12, seed: int = 0,
         threads: int | None = None, progress: Progress = False) -> pd.DataFrame:
    """The settings of ``knobs`` whose win rate is nearest ``target``, best first: every
    setting plays ``stages[0]`` games, the ``keep`` best go on to each next stage; the rest
    of the rules are ``config``'s. A setting meets the target when its 95 % interval lies
    within ``target +- tolerance`` (:func:`slashersim.analysis.tune.tune`)."""
    config = config_of(config)
    policy = check_policy(policy)
    check_search(target, tolerance, list(stages), keep)
    total = tune_games(knobs, stages, keep)
    seed = check_seed(seed)
    threads = check_threads(threads)
    check_progress(progress)
    with _progress(progress, total, [policy]) as (callback, _):
        return run_tune(target, policy, tuple(knobs), config, tolerance, tuple(stages), seed,
                        threads, keep, step=_steps(callback, total))


#: the solver's budget per game of :func:`why` (``analysis.fatal.BUDGET``, kept here so that
#: reading the API loads no solver)
WHY_BUDGET = 4000
#: the fair player asked at each fatal decision (``analysis.fatal.FAIR``)
WHY_FAIR = "belief"
#: play-outs per estimate of the equity view (``analysis.equity.ESTIMATE``)
WHY_PLAYOUTS = 64


def why_inputs(config: GameConfig | None = None, *, policy: PolicyLike = DEFAULT_SKILL,
               games: int = 1000, seed: int = 0, budget: int = WHY_BUDGET,
               where: str | None = None, workers: int | None = None,
               threads: int | None = None, params: Any = None, progress: Progress = False,
               playouts: int = WHY_PLAYOUTS, **knobs: Any) -> tuple:
    """The inputs of :func:`why`, every one checked and every refusal named in one
    :class:`ConfigError`; nothing is compiled or played."""
    from ..analysis.why import check_where
    config, (policy, params), games, seed, budget, where, workers, threads, _, _ = every(
        lambda: config_of(config, knobs), lambda: _registered(policy, params),
        lambda: check_count("games", games), lambda: check_seed(seed),
        lambda: check_count("budget", budget), lambda: check_where(where, config),
        lambda: None if workers is None else check_workers(workers),
        lambda: check_threads(threads), lambda: check_progress(progress),
        lambda: check_count("playouts", playouts))
    return config, policy, games, seed, budget, where, workers, threads, params


def _registered(policy, params):
    """A registered policy (a name, a skill level or a pair) and its parameters: the fatal
    decisions replay the game's every decision, which a Python player's games cannot."""
    if not isinstance(policy, str):
        raise ConfigError("why needs a registered policy or skill level (a Python player's "
                          "games are not replayed decision by decision)")
    return policy_params(policy, params)


def why(config: GameConfig | None = None, *, policy: PolicyLike = DEFAULT_SKILL,
        games: int = 1000, seed: int = 0, budget: int = WHY_BUDGET, where: str | None = None,
        workers: int | None = None, threads: int | None = None, params: Any = None,
        ceilings: bool = False, equity: bool = False, playouts: int = WHY_PLAYOUTS,
        progress: Progress = False, **knobs: Any):
    """Why and where the games are lost: play ``games`` games of ``seed`` (the games
    ``simulate`` plays) and walk each lost one back with the exact solver to the decision that
    lost it (:mod:`slashersim.analysis.fatal`).

    Returns a :class:`~slashersim.analysis.why.WhyResult` whose methods return DataFrames:
    ``profile()`` (won; lost at the deal; lost by a decision the best fair player would have
    avoided; lost by one only hindsight could; undecided — each with its 95 % interval),
    ``hazard_by_round()``, ``hazard_by_area()``, ``decisions()``; ``table`` holds one row per
    game, and ``summary()`` the JSON answer. ``where`` (a pandas query over ``table``'s
    columns, e.g. ``"round == 2"`` for the games lost in round 2, ``"killer_start == 2"``)
    asks about a subset. ``budget`` bounds the rounds the solver expands per game (a game
    past it is undecided); ``workers`` processes share the lost games (default: up to 2, one
    for fewer than 8); the answer does not depend on ``workers`` or ``threads``.
    ``ceilings`` also plays the same games with ``belief`` and ``open_hands``. ``policy`` may
    be a pair (``"novice+expert"``).

    ``equity`` also sees every game with the future unknown
    (:mod:`slashersim.analysis.equity`): ``table`` gains each game's ``start`` (its chance
    before anything happened), its luck by kind (``luck_area``, ``luck_deal``, ``luck_draw``,
    ``luck_killer``, ``luck_reshuffle``, ``luck_none``) and its decisions' ``cost``, which add
    up to its outcome, and ``luck_and_costs()`` the share of the outcome's variance each
    explains; ``playouts`` per estimate (more: less noise, slower).
    """
    config, policy, games, seed, budget, where, workers, threads, params = why_inputs(
        config, policy=policy, games=games, seed=seed, budget=budget, where=where,
        workers=workers, threads=threads, params=params, progress=progress,
        playouts=playouts, **knobs)
    from ..analysis.why import why as run_why
    parts = compile_parts([policy, WHY_FAIR, *FIRST_TRIES], ("engine", "record"))
    with _session(progress, games, parts) as (callback, _):
        eq = None
        if equity:
            from ..analysis.equity import choose_for
            eq = {"choose": choose_for(int(playouts)), "estimate": int(playouts)}
        return run_why(config, policy, games, seed, budget, where, workers, threads, params,
                       bool(ceilings), callback, eq)


def bench(policy: str = "baseline", *, games: int = 2_000_000) -> dict:
    """The engine's speed and memory: ``policy``'s games per second on one thread and on
    all, and the peak memory of runs of ``games`` and ``games // 10`` games
    (:func:`slashersim.analysis.bench.run_bench`)."""
    policy = check_policy(policy)
    games = check_count("games", games)
    with compiling.session(compile_parts([policy])):
        return run_bench(games=games, policy=policy)


def policy_speeds(policies: str | Sequence[str] = "all", *, seconds: float = 2.0) -> list[dict]:
    """Each policy's games per second on one thread and on all, timed about ``seconds`` a
    run, with its speed target (:func:`slashersim.analysis.bench.policy_speed`); ``all``: every
    registered policy."""
    check_positive("seconds", seconds)
    names = parse_policy_list(policies) if isinstance(policies, str) else \
        [check_policy(p) for p in policies]
    with compiling.session(compile_parts(names)):
        return [policy_speed(name, seconds=seconds) for name in names]


def report(table: str | os.PathLike, out: str | os.PathLike, *,
           heatmap: Sequence[str] | None = None, title: str | None = None,
           wrote: Callable[[Path], Any] | None = None) -> Path:
    """Write the report of a sweep table into the folder ``out``: ``report.md`` and its
    figures (``heatmap``: the two knobs of the heatmap, default the first two that vary);
    ``wrote(path)`` is called with each file written. Returns the path of ``report.md``."""
    check_report_paths(table, out, "out")
    if heatmap is not None and len(heatmap) != 2:
        raise ConfigError(f"heatmap needs two knobs, got {list(heatmap)!r}")
    from ..analysis.report import write_report  # draws with matplotlib: loaded when asked
    return write_report(table, out, heatmap_knobs=None if heatmap is None else tuple(heatmap),
                        title=title, wrote=wrote)


# --- what the page plays as it refines its answers --------------------------------------------

def side_by_side(runs: Sequence[tuple[GameConfig, PolicyLike]], games: int, seed: int = 0, *,
                 step: Callable[[int], Any] | None = None,
                 on_chunk: Callable[[int, list, list], Any] | None = None) -> None:
    """Play each ``(config, policy)`` of ``runs`` on games ``0 .. games - 1`` of ``seed``, the
    same games for every run (common random numbers), chunk by chunk: ``on_chunk(start, won,
    counts)`` after each chunk, ``won`` per run a boolean array of the chunk's games (game
    ``start + i`` won), ``counts`` per run its counts so far (what :class:`Simulation`
    reads); ``step(n)`` between two kernel calls, with the games just played. The counts
    after the last chunk are those of :func:`simulate` with the same games and seed."""
    players = [(config_of(config), prepare(check_policy(policy))) for config, policy in runs]

    def chunk(start, records, counts):
        on_chunk(start, [r[:, L.R_OUTCOME] == rules.WIN for r in records], counts)

    play_side_by_side(players, check_count("games", games), check_seed(seed), step=step,
                      on_chunk=None if on_chunk is None else chunk)


def position(data: Mapping[str, Any]) -> Position:
    """The position a mapping describes, in the format of a position file
    (docs/reference/formats.md, "Position files"); a :class:`ConfigError` names the first
    fault. :func:`luck_state` plays it out."""
    return parse_position(data)


for _name in __all__:
    if getattr(globals()[_name], "__module__", None) == __name__:
        globals()[_name].__module__ = "slashersim.api"  # the name users import it by
