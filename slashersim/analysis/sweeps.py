"""Parameter sweeps: every cell of a TOML spec's grid × every policy, resumable, into parquet.

A spec names the games per cell, the seed, the policies, the knobs shared by every cell
(``[base]``) and the knobs that vary (``[axes]``, whose cartesian product is the cells). Every
cell × policy plays the same games of the same seed (common random numbers), in chunks of
``chunk_games`` whose counts are checkpointed, so an interrupted sweep resumes where it stopped
and ends with the same table as an uninterrupted one. A lock file beside the output keeps a
second sweep from writing the same output at the same time.
"""
from dataclasses import dataclass, field
import itertools
import json
import math
import os
from pathlib import Path
import shutil

import numpy as np
import pandas as pd

from ..core import layout as L
from ..core.config import GameConfig
from ..core.errors import ConfigError
from ..core.files import read_toml
from ..core.identity import RulesId
from ..core.inputs import OutputLock, check_seconds, check_seed
from ..core.presets import overrides as preset_overrides
from ..core.provenance import now, software
from ..policies import (
    DEFAULT_SKILL,
    is_omniscient,
    is_pair,
    param_specs,
    policy_names,
    resolve,
    unknown_policy,
)
from ..runner.backends import Unit
from ..runner.backends.local import LocalBackend
from ..runner.result import area_names, item_cards
from ..runner.tables import (  # noqa: F401
    FORMAT,
    ITEM_COLUMNS,
    TABLE_COLUMNS,
    WINNABLE_COLUMNS,
    added_columns,
    derive_rates,
    fill_added,
    row_from_counts,
    write_table,
)

DEFAULT_CHUNK_GAMES = 1_048_576
SWEEP_KEYS = ("games", "seed", "policies", "chunk_games", "policy_games", "winnable",
              "winnable_seconds")
TABLES = ("sweep", "base", "axes")
#: the columns after the knobs (see :mod:`slashersim.runner.tables`)
COUNT_COLUMNS = TABLE_COLUMNS


@dataclass(frozen=True)
class SweepSpec:
    """A validated sweep spec; ``axes`` keeps the spec's order (it fixes the cell order)."""

    games: int
    seed: int = 0
    policies: tuple = (DEFAULT_SKILL,)
    chunk_games: int = DEFAULT_CHUNK_GAMES
    base: dict = field(default_factory=dict)
    axes: dict = field(default_factory=dict)
    #: games per cell of the policies named here (the others play ``games``)
    policy_games: dict = field(default_factory=dict)
    #: the first games of each cell the exact solver decides (0: none), each within
    #: ``winnable_seconds``
    winnable: int = 0
    winnable_seconds: float = 10.0

    def games_of(self, policy):
        """Games per cell that ``policy`` plays: the first that many games of the seed."""
        return self.policy_games.get(policy, self.games)

    @property
    def n_cells(self):
        return math.prod(len(v) for v in self.axes.values())

    def notes(self):
        """One line per knob that overrides a difficulty preset in some cell: an explicit knob
        always wins over the preset's value."""
        seen = {}
        names = list(self.axes)
        for combo in itertools.product(*(self.axes[n] for n in names)):
            values = {**self.base, **dict(zip(names, combo))}
            for found in preset_overrides(values):
                seen[found.knob] = seen.get(found.knob, 0) + 1
        where = lambda k: "[axes]" if k in self.axes else "[base]"  # noqa: E731
        return [f"note: {knob} in {where(knob)} overrides the difficulty preset's {knob} in "
                f"{n} of {self.n_cells} cells (an explicit knob wins over a preset)"
                for knob, n in seen.items()]

    def fingerprint(self):
        """The spec as canonical JSON text, with the layout of the counts its checkpoints hold;
        checkpoints of another fingerprint are refused."""
        return json.dumps({"format": 3, "games": self.games, "seed": self.seed,
                           "policy_games": self.policy_games,
                           "policies": list(self.policies), "chunk_games": self.chunk_games,
                           "base": self.base, "axes": [[k, v] for k, v in self.axes.items()],
                           "counts": [*L.COUNT_FIELDS, *L.OPEN_COUNTS],
                           **self._winnable_keys()},
                          sort_keys=True, default=str)

    def _winnable_keys(self):
        """The solver's keys of the spec, when it asks for the solver."""
        return {"winnable": self.winnable, "winnable_seconds": self.winnable_seconds} \
            if self.winnable else {}


def _int_key(name, value, low):
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ConfigError(f"{name} must be an integer of at least {low}, got {value!r}")
    return value


def _cell_config(values, where):
    try:
        return GameConfig.from_dict(values)
    except ConfigError as e:
        raise ConfigError(f"{where}: {e}") from None
    except (TypeError, ValueError) as e:
        raise ConfigError(f"{where}: bad value ({e})") from None


def _describe_cell(knobs):
    return "cell " + (", ".join(f"{k}={v!r}" for k, v in knobs.items()) or "(base only)")


def _table(data, name):
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise ConfigError(f"[{name}] must be a table, got {value!r}")
    return value


def parse_spec(data):
    """Validate a parsed TOML mapping into a :class:`SweepSpec`; raises :class:`ConfigError`.

    Every cell's :class:`GameConfig` is built here, so a bad value fails before anything runs.
    """
    for key in data:
        if key not in TABLES:
            raise ConfigError(f"unknown table [{key}]; expected one of: {', '.join(TABLES)}")
    sweep, base, axes = (_table(data, t) for t in TABLES)
    for key in sweep:
        if key not in SWEEP_KEYS:
            raise ConfigError(f"unknown key {key!r} in [sweep]; expected one of: "
                              f"{', '.join(SWEEP_KEYS)}")
    if "games" not in sweep:
        raise ConfigError("missing key 'games' in [sweep]")
    games = _int_key("games", sweep["games"], 1)
    seed = _int_key("seed", sweep.get("seed", 0), 0)
    check_seed(seed)
    chunk_games = _int_key("chunk_games", sweep.get("chunk_games", DEFAULT_CHUNK_GAMES), 1)
    policies = sweep.get("policies", [DEFAULT_SKILL])
    if not isinstance(policies, list) or not policies \
            or not all(isinstance(p, str) for p in policies):
        raise ConfigError(f"policies must be a non-empty list of names, got {policies!r}")
    policies = [resolve(p) for p in policies]
    policy_games = sweep.get("policy_games", {})
    if not isinstance(policy_games, dict):
        raise ConfigError(f"policy_games must be a table of policy = games, got {policy_games!r}")
    policy_games = {resolve(k): _int_key(f"policy_games.{k}", v, 1)
                    for k, v in policy_games.items()}
    for p in policy_games:
        if p not in policies:
            raise ConfigError(f"policy_games names {p!r}, which is not in policies "
                              f"{', '.join(policies)}")
    for p in policies:
        if p not in policy_names() and not is_pair(p):
            raise ConfigError(unknown_policy(p))
    if len(set(policies)) != len(policies):
        raise ConfigError(f"policies lists a policy twice: {policies!r}")
    known = ("difficulty",) + GameConfig.knob_names()
    for where, table in (("[base]", base), ("[axes]", axes)):
        for key in table:
            if key not in known:
                raise ConfigError(f"{where} unknown knob {key!r}; expected one of: "
                                  f"{', '.join(known)}")
    for key, values in axes.items():
        if not isinstance(values, list) or not values:
            raise ConfigError(f"axis {key!r} must be a non-empty list, got {values!r}")
        if key in base:
            raise ConfigError(f"knob {key!r} is in both [base] and [axes]")
        seen = set()
        for v in values:
            marker = json.dumps(v, sort_keys=True, default=str)
            if marker in seen:
                raise ConfigError(f"axis {key!r} lists {v!r} twice; each value plays one cell")
            seen.add(marker)
    _cell_config(base, "[base]")
    winnable = _int_key("winnable", sweep.get("winnable", 0), 0)
    seconds = sweep.get("winnable_seconds", 10.0)
    check_seconds("winnable_seconds", seconds)
    spec = SweepSpec(games=games, seed=seed, policies=tuple(policies), chunk_games=chunk_games,
                     policy_games=policy_games,
                     base=dict(base), axes=dict(axes), winnable=winnable,
                     winnable_seconds=float(seconds))
    list(cells(spec))
    return spec


def load_spec(path):
    """Read and validate the TOML sweep spec at ``path``; see :func:`parse_spec`."""
    return parse_spec(read_toml(path, "spec file")[1])


def cells(spec):
    """Yield ``(knobs, GameConfig)`` for each cell: the axes' cartesian product, in spec order
    (the last axis varies fastest); ``knobs`` maps each axis knob to its value."""
    names = list(spec.axes)
    for combo in itertools.product(*(spec.axes[n] for n in names)):
        knobs = dict(zip(names, combo))
        yield knobs, _cell_config({**spec.base, **knobs}, _describe_cell(knobs))


def _winnable_path(ckpt, cell):
    return ckpt / f"cell{cell}.winnable.json"


def _cell_winnable(spec, ckpt, cell, config, progress=None):
    """The exact solver's answers for the first ``spec.winnable`` games of a cell (the games
    its players played), as its :data:`WINNABLE_COLUMNS`; kept in the checkpoint folder, so a
    resumed sweep does not solve a cell twice. ``progress(done)`` after each game solved."""
    from .winnable import solve_games  # the solver loads when a cell is solved
    path = _winnable_path(ckpt, cell)
    if path.exists():
        return json.loads(path.read_text())
    w = solve_games(config, spec.seed, 0, spec.winnable, spec.winnable_seconds,
                    progress).summary()
    row = {"solved": w["games"], "winnable": w["winnable"], "unwinnable": w["unwinnable"],
           "undecided": w["undecided"], "winnable_share": w["share"],
           "winnable_ci_low": w["ci"][0], "winnable_ci_high": w["ci"][1]}
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(row))
    tmp.replace(path)
    return row


def checkpoint_dir(out):
    """The checkpoint folder of output ``out``: ``OUT.ckpt`` next to it."""
    out = Path(out)
    return out.with_name(out.name + ".ckpt")


def _chunk_path(ckpt, cell, policy, chunk):
    return ckpt / f"cell{cell:05d}_{policy}_chunk{chunk:06d}.npy"


def _save_atomic(path, counts):
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.save(f, counts)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _load_chunk(path, size, games):
    try:
        counts = np.load(path)
    except (OSError, ValueError, EOFError):
        return None
    if counts.shape != (size,) or counts.dtype != np.int64 or counts[L.K_GAMES] != games:
        return None
    return counts


#: the rules each cell's checkpoints were played under, by content
RULES_FILE = "rules.json"


def _open_checkpoints(spec, ckpt, grid, restart_changed=False):
    """Open (or make) the checkpoint folder of a sweep: refuse one of another spec, and one
    whose cells were played under other rules (a card file edited since) unless
    ``restart_changed``, which removes those cells' checkpoints so that they are played anew."""
    changed = changed_cells(spec, ckpt, grid, restart_changed)
    for cell in changed:
        for path in [*ckpt.glob(f"cell{cell:05d}_*.npy"), _winnable_path(ckpt, cell)]:
            path.unlink(missing_ok=True)
    marker = ckpt / "spec.json"
    if not marker.exists():
        ckpt.mkdir(parents=True, exist_ok=True)
        tmp = marker.with_name("spec.json.tmp")
        tmp.write_text(spec.fingerprint())
        os.replace(tmp, marker)
    tmp = ckpt / (RULES_FILE + ".tmp")
    tmp.write_text(json.dumps({str(i): {"rules": config.rules_id.rules,
                                        "cards": config.rules_id.cards}
                               for i, (_, config) in enumerate(grid)}))
    os.replace(tmp, ckpt / RULES_FILE)


def changed_cells(spec, ckpt, grid=None, restart_changed=False):
    """The cells whose checkpoints in ``ckpt`` were played under other rules than the
    spec's cells now (a card file whose content changed since), ``{cell: [change, ...]}``.

    Refuses (:class:`ConfigError`, one line) checkpoints of another spec, and, unless
    ``restart_changed``, checkpoints of changed cells: the line names what changed (each card
    file with both hashes) and how to go on. Nothing is read but the folder's two small files.
    """
    ckpt = Path(ckpt)
    marker = ckpt / "spec.json"
    if not marker.exists():
        if ckpt.exists() and any(ckpt.glob("*.npy")):
            raise ConfigError(f"checkpoint folder {ckpt} has no spec.json; remove it or choose "
                              f"another --out")
        return {}
    written = marker.read_text()
    if written != spec.fingerprint():
        older = json.loads(written).get("format") != json.loads(spec.fingerprint())["format"]
        raise ConfigError(f"checkpoint folder {ckpt} was written "
                          + ("by an older slashersim" if older else "for a different spec")
                          + "; remove it or choose another --out")
    grid = list(cells(spec)) if grid is None else grid
    path = ckpt / RULES_FILE
    stored = json.loads(path.read_text()) if path.exists() else {}
    changed = {}
    for i, (_, config) in enumerate(grid):
        before = stored.get(str(i))
        if before is None:
            changed[i] = ["the rules (not recorded with the checkpoints)"]
            continue
        then = RulesId(before["rules"], tuple(tuple(c) for c in before["cards"]))
        found = config.rules_id.changes(then)
        if found:
            changed[i] = found
    played = {int(p.name[4:9]) for p in ckpt.glob("cell*_chunk*.npy")} \
        | {int(p.name[4:p.name.index(".")]) for p in ckpt.glob("cell*.winnable.json")}
    changed = {i: found for i, found in changed.items() if i in played}
    if changed and not restart_changed:
        what = sorted({c for found in changed.values() for c in found})
        raise ConfigError(f"the rules changed since the checkpoints in {ckpt} were played "
                          f"({'; '.join(what)}) in {len(changed)} of {len(grid)} cells; run "
                          f"again with --restart-changed (Python: restart_changed=True) to "
                          f"play those cells anew, or remove the folder")
    return changed


def spec_dict(spec):
    """The spec as plain data, ``{"sweep": {...}, "base": {...}, "axes": {...}}``, axes in order."""
    return {"sweep": {"games": spec.games, "seed": spec.seed, "policies": list(spec.policies),
                      "chunk_games": spec.chunk_games, "policy_games": dict(spec.policy_games),
                      **spec._winnable_keys()},
            "base": dict(spec.base), "axes": dict(spec.axes)}


def table_provenance(spec, grid, command=None, spec_file=None):
    """How a sweep table is made, JSON-ready (the ``slashersim`` metadata of the table): the
    table ``format``, ``software`` (:func:`slashersim.core.provenance.software`), ``created``,
    ``command`` and ``spec_file`` (when known), the ``spec``, ``seed``, ``games`` per cell
    (``games_by_policy`` per player), ``policies`` (each with its parameters and whether it
    is omniscient) and ``cells``: per cell its number, its axis knobs and its full resolved
    configuration, every knob included, set or not (:meth:`GameConfig.describe`)."""
    return {
        "format": FORMAT,
        "kind": "sweep",
        "software": software(),
        "created": now(),
        "command": command,
        "spec_file": None if spec_file is None else str(spec_file),
        "spec": json.loads(json.dumps(spec_dict(spec), default=str)),
        "seed": spec.seed,
        "games": spec.games,
        "games_by_policy": {p: spec.games_of(p) for p in spec.policies},
        "policies": [{"name": p, "omniscient": is_omniscient(p),
                      "params": {q.name: q.default for q in param_specs(p)}}
                     for p in spec.policies],
        "cells": [{"cell": i, "knobs": json.loads(json.dumps(knobs, default=str)),
                   "config": config.describe(), "rules_id": config.rules_id.digest,
                   **_cards_provenance(config)}
                  for i, (knobs, config) in enumerate(grid)],
    }


def _cards_provenance(config):
    """A cell's card file, its content hash, what it changes and its warnings (when it has
    any); nothing for the printed cards."""
    if config.cards is None:
        return {}
    cards = config.card_set
    warned = {"warnings": list(cards.warnings)} if cards.warnings else {}
    return {"cards": {"file": cards.file, "sha256": cards.sha256, "changed": list(cards.changed),
                      **warned}}


def run_sweep(spec, out, threads=None, progress=None, csv=False, backend=None, step=None,
              command=None, spec_file=None, restart_changed=False):
    """Play every cell × policy of ``spec`` and write the table to ``out`` (parquet).

    Parameters
    ----------
    spec : SweepSpec
    out : str or Path
        The parquet file; checkpoints go to ``OUT.ckpt/`` and are removed once it is written.
    threads : int, optional
        Numba threads of the default local backend (results do not depend on it).
    progress : callable, optional
        Called as ``progress(cells_done, cells_total, games_done, games_total)`` once before
        the first chunk played and after each chunk played (skipped chunks count as done).
    step : callable, optional
        Called with the games just played, as they are played (the local backend calls it
        within a chunk, the dask backend per task).
    csv : bool
        Also write the table as CSV, next to ``out`` with the suffix ``.csv``, and its
        provenance beside it as ``NAME.csv.json``.
    backend : optional
        Where the chunks are played: an object with ``run(units, on_done)`` (see
        :mod:`slashersim.runner.backends`), e.g. ``DaskBackend()``; default: this process
        (``LocalBackend(threads)``). Checkpoints and the table do not depend on it.
    command, spec_file : str, optional
        The command line and the spec file, recorded in the table's provenance.
    restart_changed : bool
        Checkpoints of cells whose rules changed since they were played (a card file edited:
        every cell's rules are named by content, :class:`~slashersim.core.identity.RulesId`)
        are refused with a :class:`ConfigError` naming the file and both hashes; with
        ``restart_changed`` those cells are played anew and the others resumed.

    While it runs, ``OUT.lock`` holds its pid; another sweep on the same output is refused
    with a :class:`ConfigError` (a lock left by a process that is gone is taken over).

    Returns
    -------
    pandas.DataFrame
        One row per cell × policy: the axis and base knobs, then the
        :data:`slashersim.runner.tables.TABLE_COLUMNS` (counts, and the win rate, its interval and
        the mean rounds derived from them); ``rounds_hist`` is the list of games that ended
        in round 0, 1, ... (trailing zeros cut). ``df.attrs["slashersim"]`` holds the
        provenance written into the file (:func:`table_provenance`).
    """
    if backend is None:
        backend = LocalBackend(threads=threads)
    out = Path(out)
    grid = list(cells(spec))
    out.parent.mkdir(parents=True, exist_ok=True)
    with OutputLock(out):
        return _run_locked(spec, out, grid, backend, progress, csv, step,
                           table_provenance(spec, grid, command, spec_file), restart_changed)


def _run_locked(spec, out, grid, backend, progress, csv, step, provenance, restart_changed):
    ckpt = checkpoint_dir(out)
    _open_checkpoints(spec, ckpt, grid, restart_changed)
    units = [(i, knobs, config, policy) for i, (knobs, config) in enumerate(grid)
             for policy in spec.policies]
    plan = {}
    pending = []
    for i, _, config, policy in units:
        size = L.counts_size(config.resolved()["max_rounds"])
        chunks = []
        games = spec.games_of(policy)
        for j in range(-(-games // spec.chunk_games)):
            first = j * spec.chunk_games
            n = min(spec.chunk_games, games - first)
            counts = _load_chunk(_chunk_path(ckpt, i, policy, j), size, n)
            chunks.append(counts)
            if counts is None:
                pending.append(Unit(i, policy, j, first, n, spec.seed, config))
        plan[i, policy] = chunks
    solve = [i for i in range(len(grid)) if spec.winnable and
             not _winnable_path(ckpt, i).exists()]
    total_games = sum(spec.games_of(policy) for *_, policy in units) + \
        spec.winnable * len(grid)
    done_games = total_games - sum(u.games for u in pending) - spec.winnable * len(solve)
    done_cells = sum(all(c is not None for c in chunks) for chunks in plan.values())
    if progress is not None and done_cells < len(units):
        progress(done_cells, len(units), done_games, total_games)

    def on_done(unit, counts):
        nonlocal done_games, done_cells
        chunks = plan[unit.cell, unit.policy]
        if chunks[unit.chunk] is not None:
            return
        counts = np.asarray(counts, dtype=np.int64)
        _save_atomic(_chunk_path(ckpt, unit.cell, unit.policy, unit.chunk), counts)
        chunks[unit.chunk] = counts
        done_games += unit.games
        if all(c is not None for c in chunks):
            done_cells += 1
        if progress is not None:
            progress(done_cells, len(units), done_games, total_games)

    if pending:
        if step is None:
            backend.run(pending, on_done)
        else:
            backend.run(pending, on_done, step=step)
    def solved_one(done):
        nonlocal done_games
        done_games += 1
        if step is not None:
            step(1)
        if progress is not None:
            progress(done_cells, len(units), done_games, total_games)

    solved = {i: _cell_winnable(spec, ckpt, i, config, solved_one)
              for i, (_, config) in enumerate(grid)} if spec.winnable else {}
    rows = []
    for i, knobs, config, policy in units:
        chunks = plan[i, policy]
        missing = sum(c is None for c in chunks)
        if missing:
            raise RuntimeError(f"the backend left {missing} chunks of cell {i}, {policy} unplayed")
        total = np.zeros_like(chunks[0])
        for c in chunks:
            total += c
        rows.append({**row_from_counts(knobs, spec.base, policy, total, cell=i,
                                       areas=area_names(config), items=item_cards(config)),
                     **solved.get(i, {})})
    df = derive_rates(fill_added(pd.DataFrame(rows)))
    df = df[[*spec.axes, *spec.base, *TABLE_COLUMNS, *added_columns(df.columns),
             *(WINNABLE_COLUMNS if spec.winnable else ())]]
    write_table(df, out, provenance)
    if csv:
        write_table(df, out.with_suffix(".csv"), provenance, csv=True)
    shutil.rmtree(ckpt, ignore_errors=True)
    df.attrs["slashersim"] = provenance
    return df
