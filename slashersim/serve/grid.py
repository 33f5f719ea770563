"""The precomputed grid: the committed sweep tables the page answers a setting from at once
(:func:`grid`, :class:`Grid`), and the win rate by starting health drawn from them
(:func:`health_curves`). Pure Python, like :mod:`.settings`."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from ..api import load_table
from ..core import rules
from ..core.config import GameConfig
from ..policies import SKILLS

#: the package's data (``slashersim/data/``, package data of the wheel), found with
#: importlib.resources wherever the package is installed. In the repository each file there
#: is a link to the committed table of ``results/`` of the same name, its one copy.
DATA = resources.files("slashersim") / "data"
#: the committed precomputed grid (``slashersim sweep experiments/difficulty.toml``)
GRID_TABLE = DATA / "difficulty.parquet"
#: the difficulty presets of both editions for every skill level
#: (``slashersim sweep experiments/presets_study.toml``), read when it exists
PRESETS_TABLE = DATA / "presets_study.parquet"
#: the tables of the precomputed grid, in order: a setting in two of them is the first's
GRID_TABLES = (GRID_TABLE, PRESETS_TABLE)
#: a table of the grid: a path, or a file of the package's data
Table = str | Path | Traversable


# --- the precomputed grid ------------------------------------------------------------------

def _freeze(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def config_key(config: GameConfig) -> tuple:
    """Every rule of ``config`` with the edition's values filled in, hashable: two settings
    with the same key play the same games."""
    return tuple(sorted((k, _freeze(v)) for k, v in config.resolved().items()))


@dataclass(frozen=True)
class GridAnswer:
    """A precomputed row of the grid: its counts and rates, the games and seed it was played
    with, and where it comes from."""

    games: int
    seed: int
    wins: int
    win_rate: float
    win_ci: tuple[float, float]
    loss_health: float
    loss_traps: float
    timeout: float
    trap_rate_by_area: dict
    source: str

    def label(self) -> str:
        return f"precomputed: {self.games:,} games, seed {self.seed}"


@dataclass(frozen=True)
class GridTable:
    """One table of the grid, from its provenance: file name, seed, games per cell of each
    policy and the spec's axes."""

    name: str
    seed: int
    games_by_policy: dict
    axes: tuple[str, ...]

    def games_text(self) -> str:
        """Its games per cell: one number, or one per skill level when they differ."""
        games = set(self.games_by_policy.values())
        if len(games) == 1:
            return f"{games.pop():,} games per cell"
        return "games per cell: " + ", ".join(
            f"{_skill_of(p)} {n:,}" for p, n in self.games_by_policy.items())


def _skill_of(policy: str) -> str:
    return next((k for k, v in SKILLS.items() if v == policy), policy)


class Grid:
    """The precomputed grid of one or more sweep tables: ``lookup(settings)`` answers a
    setting whose rules and policy are a cell of a table (``None`` otherwise).

    A cell is matched on its fully resolved rules (the provenance's configuration of each
    cell), not on the table's columns: a table whose axis is ``difficulty`` answers a preset
    and the same knobs set by hand alike. A setting in two tables is answered by the first.
    """

    def __init__(self, tables: Table | Sequence[Table] = GRID_TABLES):
        if not isinstance(tables, (list, tuple)):
            tables = (tables,)
        self.rows: dict[tuple, GridAnswer] = {}
        self.tables: list[GridTable] = []
        for table in tables:
            self._read(_traversable(table))

    def _read(self, path: Traversable) -> None:
        with resources.as_file(path) as file:
            df = load_table(file)
        prov = df.attrs.get("slashersim") or {}
        seed = prov.get("seed")
        if seed is None:
            return
        configs = {c["cell"]: GameConfig(**c["config"]) for c in prov.get("cells", ())}
        axes = tuple((prov.get("spec") or {}).get("axes", {}))
        self.tables.append(GridTable(_shown_path(path), int(seed),
                                     dict(prov.get("games_by_policy") or {}), axes))
        for row in df.to_dict("records"):
            config = configs.get(row["cell"])
            if config is None:
                continue
            g = int(row["games"])
            areas = config.card_set.slots
            answer = GridAnswer(
                games=g, seed=int(seed), wins=int(row["wins"]), win_rate=float(row["win_rate"]),
                win_ci=(float(row["win_ci_low"]), float(row["win_ci_high"])),
                loss_health=int(row["loss_health"]) / g, loss_traps=int(row["loss_traps"]) / g,
                timeout=int(row["timeout"]) / g,
                trap_rate_by_area={a: _nan_none(row.get(f"trap_rate_{a}")) for a in areas},
                source=_shown_path(path))
            self.rows.setdefault((config_key(config), row["policy"]), answer)

    def answer(self, config: GameConfig, policy: str) -> GridAnswer | None:
        """The precomputed answer for ``config`` played by ``policy``, if the grid has it."""
        return self.rows.get((config_key(config), policy))

    def lookup(self, settings: Any) -> GridAnswer | None:
        """The precomputed answer for the rules and policy of ``settings`` (a
        :class:`~.settings.Settings`), if the grid has it."""
        return self.answer(settings.config(), settings.policy)

    def covers(self) -> str:
        """What the grid covers, one table at a time: ``difficulty.parquet (edition ×
        health × ...)``."""
        return "; ".join(f"{t.name} ({' × '.join(t.axes)})" for t in self.tables)

    def table(self, name: str) -> GridTable | None:
        return next((t for t in self.tables if t.name == name), None)


def _traversable(table: Table) -> Traversable:
    """A table given as a path (``str`` or :class:`~pathlib.Path`) or as the package's data."""
    return Path(table) if isinstance(table, str) else table


def _shown_path(path: Traversable) -> str:
    """A table's name on the page: one the package ships (or the file of ``results/`` in the
    repository it links to) by the committed file it is, ``results/difficulty.parquet``; any
    other by its file name."""
    for shipped in GRID_TABLES:
        if path == shipped or _same_file(path, shipped):
            return f"results/{shipped.name}"
    return path.name


def _same_file(a: Traversable, b: Traversable) -> bool:
    try:
        return isinstance(a, Path) and isinstance(b, Path) and a.samefile(b)
    except OSError:
        return False


def _nan_none(value: Any) -> float | None:
    if value is None or value != value:
        return None
    return float(value)


@cache
def grid(tables: tuple[Table, ...] = GRID_TABLES) -> Grid | None:
    """The grid of those of ``tables`` that exist (by default the committed
    ``results/difficulty.parquet`` and ``results/presets_study.parquet``, which the package
    ships as its data), loaded once; ``None`` when none is there."""
    present = [t for t in map(_traversable, tables) if t.is_file()]
    if not present:
        return None
    return Grid(present)


# --- the figure designers look for first ----------------------------------------------------

@dataclass(frozen=True)
class HealthCurves:
    """Win rate by starting health for every skill level, from the grid: ``points[skill]``
    is a list of ``(health, win_rate, ci_low, ci_high)``; ``title``, the axis labels and the
    ``caption`` (the tables' seed and games per cell, from their provenance) name the rest."""

    title: str
    x_label: str
    y_label: str
    caption: str
    points: dict


def health_curves(g: Grid, edition: str, hideaway: bool, cursed_object: bool) -> HealthCurves:
    """The win rate of each skill level by starting health 1..7 under ``edition``'s own rules
    with the areas chosen (Hideaway, Cursed Object) in or out, with their 95 % intervals
    (the tables' ``win_ci_low`` and ``win_ci_high``); a health the grid lacks is left out."""
    points: dict[str, list] = {}
    sources: set[str] = set()
    for skill, policy in SKILLS.items():
        points[skill] = []
        for health in range(1, rules.MAX_HEALTH + 1):
            a = g.answer(GameConfig(edition=edition, health=health, hideaway=hideaway,
                                    cursed_object=cursed_object), policy)
            if a is not None:
                points[skill].append((health, a.win_rate, *a.win_ci))
                sources.add(a.source)
    c = GameConfig(edition=edition).resolved()
    areas = (f"Hideaway {'in' if hideaway else 'out'}, Cursed Object "
             f"{'in' if cursed_object else 'out'}")
    made = [t for t in g.tables if t.name in sources]
    caption = ("; ".join(f"From {t.name}: seed {t.seed}, {t.games_text()}" for t in made)
               or "The precomputed grid has no cell of these rules")
    caption += (f". The {edition} edition's own rules otherwise ({c['escapes_needed']} "
                f"escapes needed, {c['traps']} traps lose); bars: 95 % intervals.")
    return HealthCurves(
        title=f"Win rate by starting health: {edition}, {areas}",
        x_label=f"starting health ({edition}, {areas})",
        y_label="win rate (95 % interval)", caption=caption, points=points)
