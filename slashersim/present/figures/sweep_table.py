"""The figures of a sweep results table (one row per cell × policy): the report's figures,
and the words of their titles.

Every figure takes the table (a DataFrame as :func:`slashersim.analysis.sweeps.run_sweep` writes
it, or a ``.parquet`` / ``.csv`` path, read by :func:`slashersim.runner.tables.load_table`) and
returns a :class:`matplotlib.figure.Figure` drawn on the Agg canvas; nothing goes through
``pyplot``, so no figure stays open and no GUI backend is touched. Save one with
``fig.savefig(path)``.

Each figure answers one question. Its title says which, and a second line names the
configuration the numbers hold for (the knobs every cell shares, the knobs pooled), the players
(policies) and the games behind it. Editions and policies are never pooled: they get a panel
each (small multiples with shared axes). A figure is at most 2400 px a side and at most 3:1,
and has at most :data:`MAX_LEGEND` legend entries; knobs that would need more lines are pooled
from the counts, and the title says so. Rates over several rows are always pooled from the
counts (``sum(wins) / sum(games)``, ``sum(traps) / sum(rounds)``), never averaged.
"""
import math
import textwrap

import matplotlib
import numpy as np
import pandas as pd

from ...core import rules
from ...core.config import GameConfig
from ...core.errors import ConfigError
from ...core.stats import wilson_arrays
from ...runner.tables import (
    TRAP_COUNT_COLUMNS,
    cells_played,
    knob_columns,
    load_table,
    pool_counts,
    pool_rounds_hist,
    table_areas,
    varying_knobs,
)
from .style import MAX_INCHES, MAX_LEGEND, STYLE, new_figure

AREAS = tuple(rules.AREA_NAMES)

#: outcome column -> (plain words, colour)
OUTCOMES = {
    "wins": ("Win", "#2a9d5c"),
    "loss_health": ("Loss by health", "#c8373b"),
    "loss_traps": ("Loss by traps", "#e8953a"),
    "timeout": ("Timeout", "#8f8f8f"),
}

KNOB_WORDS = {
    "edition": "Edition",
    "health": "Starting health",
    "hideaway": "Hideaway in play",
    "cursed_object": "Cursed object in play",
    "escapes_needed": "Escapes needed",
    "traps": "Traps that lose",
    "max_rounds": "Round limit",
    "areas_used": "Areas in play",
    "policy": "Policy",
}
#: knobs the configuration line of a title names in words, in this order
SUMMARY_KNOBS = ("edition", "difficulty", "health", "hideaway", "cursed_object",
                 "escapes_needed", "traps")


class FigureUnavailable(ValueError):
    """The table cannot give this figure (e.g. it has no health axis); the message says why."""


def knob_words(name):
    """A knob's name in plain words, e.g. ``"health"`` -> ``"Starting health"``."""
    return KNOB_WORDS.get(name, name.replace("_", " ").capitalize())


def area_words(area):
    return area.replace("_", " ").capitalize()


def ordered_values(series):
    """The distinct values of ``series`` sorted (numbers and booleans by value)."""
    values = list(pd.unique(series))
    try:
        return sorted(values)
    except TypeError:
        return sorted(values, key=lambda v: (type(v).__name__, str(v)))


def format_value(value):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "default"
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    if isinstance(value, tuple):
        return "(" + ", ".join(format_value(v) for v in value) + ")"
    return str(value)


def row_labels(df, knobs=None, policy=True):
    """A readable label per row: the varying knobs as ``name=value`` and the policy."""
    knobs = varying_knobs(df) if knobs is None else knobs
    labels = []
    for _, row in df.iterrows():
        parts = [f"{k}={format_value(row[k])}" for k in knobs]
        if policy:
            parts.append(str(row["policy"]))
        labels.append(", ".join(parts) if parts else "all games")
    return labels


def setting_words(knob, value):
    """A knob's value in a designer's words: ``health 3``, ``Hideaway in``, ``4 escapes``."""
    if knob == "edition":
        return f"{value} edition"
    if knob == "hideaway":
        return "Hideaway " + ("in" if value else "out")
    if knob == "cursed_object":
        return "Cursed Object " + ("in" if value else "out")
    if knob == "escapes_needed":
        return f"{format_value(value)} escape" + ("" if value == 1 else "s")
    if knob == "traps":
        return f"{format_value(value)} " + ("trap loses" if value == 1 else "traps lose")
    if knob in ("health", "difficulty"):
        return f"{knob} {format_value(value)}"
    return f"{knob}={format_value(value)}"


def _equal(column, value):
    if value is None or (isinstance(value, float) and value != value):
        return column.isna()
    return column == value


# --- what a figure holds, in its title ---------------------------------------------------------

def games_words(df):
    """``"1,000,000 games per cell and player"`` (or a range), and the total."""
    games = sorted(set(int(g) for g in df["games"]))
    each = f"{games[0]:,}" if len(games) == 1 else f"{games[0]:,} to {games[-1]:,}"
    return f"{each} games per cell and player ({int(df['games'].sum()):,} in all)"


def resolved_configs(df):
    """The full resolved configuration of each row (a list of dicts), from the table's
    provenance (its ``cells``, through the ``cell`` column) or else from the row's knobs;
    ``None`` when neither gives it."""
    prov = df.attrs.get("slashersim") or {}
    cells = {c.get("cell"): c.get("config") for c in prov.get("cells") or []}
    if cells and "cell" in df.columns and all(c in cells for c in df["cell"]):
        return [cells[c] for c in df["cell"]]
    knobs = knob_columns(df)
    out = []
    try:
        for row in df[knobs].itertuples(index=False):
            values = {k: (list(v) if isinstance(v, tuple) else v)
                      for k, v in zip(knobs, row) if v is not None and v == v}
            out.append(GameConfig.from_dict(values).describe())
    except (ConfigError, TypeError, ValueError):
        return None
    return out


def pooled_words(knob, values):
    """Knob ``knob`` pooled over ``values``, in words: ``Hideaway in and out``."""
    if knob == "hideaway":
        return "Hideaway in and out"
    if knob == "cursed_object":
        return "Cursed Object in and out"
    ints = [v for v in values if isinstance(v, (int, np.integer)) and not isinstance(v, bool)]
    if len(ints) == len(values) > 2 and sorted(ints) == list(range(min(ints), max(ints) + 1)):
        return f"{knob_words(knob).lower()} {min(ints)}–{max(ints)}"
    return f"{knob_words(knob).lower()} " + ", ".join(format_value(v) for v in values)


def tick_words(knob, value):
    """A knob's value as an axis tick: ``in``/``out`` for the Hideaway and the Cursed Object."""
    if knob in ("hideaway", "cursed_object") and isinstance(value, (bool, np.bool_)):
        return "in" if value else "out"
    return format_value(value)


def configuration_words(df, shown=()):
    """The configuration a figure of ``df`` holds for: the main knobs every row shares, set or
    not (from the resolved configurations, in words), the other knob columns every row
    shares, then the varying knobs the figure does not show (``shown``: the knobs it has an
    axis, line or panel for), which it pools from the counts."""
    knobs = knob_columns(df)
    varying = varying_knobs(df)
    configs = resolved_configs(df)
    parts = []
    for k in SUMMARY_KNOBS:
        if k in varying:
            continue
        if configs and k in configs[0]:
            values = {repr(c.get(k)) for c in configs}
            if len(values) == 1 and configs[0][k] is not None:
                parts.append(setting_words(k, configs[0][k]))
        elif k in knobs:
            parts.append(setting_words(k, df[k].iloc[0]))
    parts += [setting_words(k, df[k].iloc[0]) for k in knobs
              if k not in varying and k not in SUMMARY_KNOBS]
    pooled = [k for k in varying if k not in shown and k != "policy"]
    text = ", ".join(parts) if parts else "every cell of the table"
    if pooled:
        text += "; pooled over " + ", ".join(pooled_words(k, ordered_values(df[k]))
                                             for k in pooled)
    return text


def players_words(df):
    policies = list(dict.fromkeys(df["policy"]))
    return ("player " if len(policies) == 1 else "players ") + ", ".join(map(str, policies))


def _titles(fig, question, df, shown, width_in):
    """The figure's title: the question, then the configuration, players and games."""
    detail = f"{configuration_words(df, shown)} · {players_words(df)} · {games_words(df)}"
    chars = max(40, int(width_in * 14))
    fig.suptitle(question + "\n" + "\n".join(textwrap.wrap(detail, chars)),
                 fontsize=10, linespacing=1.4)


def _facets(df):
    """The panels of a figure: one per edition (when it varies) and policy, in table order,
    as ``[(edition or None, policy, rows)]``, and the number of panel columns."""
    editions = list(dict.fromkeys(df["edition"])) if "edition" in varying_knobs(df) else [None]
    policies = list(dict.fromkeys(df["policy"]))
    out = []
    for ed in editions:
        for p in policies:
            sub = df[df["policy"] == p]
            if ed is not None:
                sub = sub[sub["edition"] == ed]
            if len(sub):
                out.append((ed, p, sub))
    n = len(out)
    ncols = len(policies) if len(policies) <= 4 and n > 1 else math.ceil(math.sqrt(n))
    if n <= 3:
        ncols = n
    return out, max(1, min(ncols, n))


def _panel_title(edition, policy):
    return (f"{edition} · " if edition is not None else "") + f"player {policy}"


def _grid(n, ncols, panel_w=3.8, panel_h=2.9, extra_h=1.5, extra_w=0.6):
    """A figure of ``n`` panels in ``ncols`` columns, within :data:`MAX_INCHES` and 3:1;
    returns the figure and the flat list of its ``n`` axes (the rest removed)."""
    nrows = math.ceil(n / ncols)
    panel_w = min(panel_w, (MAX_INCHES - extra_w) / ncols)
    panel_h = min(panel_h, (MAX_INCHES - extra_h) / nrows)
    width, height = ncols * panel_w + extra_w, nrows * panel_h + extra_h
    fig = new_figure(width, max(height, width / 3))
    axes = fig.subplots(nrows, ncols, squeeze=False, sharex=True, sharey=True).ravel()
    for ax in axes[n:]:
        ax.remove()
    return fig, list(axes[:n])


def _line_knobs(df, skip, limit=MAX_LEGEND):
    """The varying knobs, other than ``skip``, that get a line each: as many as fit within
    ``limit`` combinations, in table order; the rest are pooled."""
    chosen = []
    for k in varying_knobs(df):
        if k in skip:
            continue
        combos = len(df.drop_duplicates(subset=[*chosen, k]))
        if combos <= limit:
            chosen.append(k)
    return chosen


def _settings(df, knobs):
    if not knobs:
        return [()]
    return list(dict.fromkeys(tuple(r) for r in df[knobs].itertuples(index=False)))


def _select(df, knobs, setting):
    for k, v in zip(knobs, setting):
        df = df[_equal(df[k], v)]
    return df


# --- figures ------------------------------------------------------------------------------------

def win_rate_by_health(df):
    """How does the win rate change with starting health? Lines with 95 % Wilson bands, one
    panel per edition and player; a line per setting of the other varying knobs (at most
    :data:`MAX_LEGEND`; knobs beyond that are pooled from the counts).

    Raises :class:`FigureUnavailable` when the table has no ``health`` column with more than
    one value.
    """
    df = load_table(df)
    if "health" not in df.columns or df["health"].nunique(dropna=False) < 2:
        raise FigureUnavailable("the table has no 'health' axis (a 'health' column with more "
                                "than one value)")
    lines = _line_knobs(df, ("health", "edition", "policy"))
    settings = _settings(df, lines)
    colours = matplotlib.colormaps["tab10"].colors
    facets, ncols = _facets(df)
    with matplotlib.rc_context(STYLE):
        fig, axes = _grid(len(facets), ncols)
        top = 0.0
        for ax, (ed, policy, sub) in zip(axes, facets):
            pooled = pool_counts(sub, [*lines, "health"])
            top = max(top, float(pooled["win_ci_high"].max()))
            for i, setting in enumerate(settings):
                part = _select(pooled, lines, setting).sort_values("health")
                if part.empty:
                    continue
                label = ", ".join(setting_words(k, v) for k, v in zip(lines, setting)) \
                    or "all cells"
                x = part["health"].to_numpy(dtype=float)
                ax.plot(x, part["win_rate"], marker="o", markersize=3.5, color=colours[i],
                        label=label if ax is axes[0] else None)
                ax.fill_between(x, part["win_ci_low"].to_numpy(dtype=float),
                                part["win_ci_high"].to_numpy(dtype=float), color=colours[i],
                                alpha=0.2, linewidth=0)
            ax.set_title(_panel_title(ed, policy))
            ax.set_xticks(ordered_values(df["health"]))
        axes[0].set_ylim(0, min(1.0, 1.06 * top))
        for ax in axes:
            if ax.get_subplotspec().is_last_row():
                ax.set_xlabel("Starting health")
            if ax.get_subplotspec().is_first_col():
                ax.set_ylabel("Win rate")
        _titles(fig, "Win rate by starting health (shaded: 95 % interval)", df,
                ("health", "edition", *lines), fig.get_figwidth())
        if len(settings) > 1:
            fig.legend(loc="outside lower center", ncols=2 if len(settings) == 4
                       else min(len(settings), 3))
    return fig


def heatmap_table(df, x, y, policy=None, edition=None):
    """The pooled win rate over knobs ``x`` (columns) and ``y`` (rows) as a DataFrame:
    ``sum(wins) / sum(games)`` over every other knob; ``policy`` and ``edition`` pick one
    (default: pooled over them, which the figure never does)."""
    df = load_table(df)
    knobs = knob_columns(df)
    for name in (x, y):
        if name not in df.columns:
            raise ValueError(f"the table has no column {name!r}")
        if name not in knobs:
            raise ValueError(f"column {name!r} is a result, not a knob")
    if x == y:
        raise ValueError(f"the heatmap needs two different knobs, got {x!r} twice")
    if policy is not None:
        if policy not in set(df["policy"]):
            raise ValueError(f"the table has no policy {policy!r}; it has: "
                             f"{', '.join(map(str, pd.unique(df['policy'])))}")
        df = df[df["policy"] == policy]
    if edition is not None:
        df = df[df["edition"] == edition]
    pooled = pool_counts(df, [y, x])
    grid = pooled.pivot(index=y, columns=x, values="win_rate")
    return grid.reindex(index=ordered_values(df[y]), columns=ordered_values(df[x]))


def heatmap(df, x, y, policy=None):
    """What is the win rate over two knobs (``x`` across, ``y`` up)? One annotated panel per
    edition and player (``policy`` picks one player), a shared colour scale, every other knob
    pooled from the counts."""
    df = load_table(df)
    heatmap_table(df.iloc[:1], x, y)                    # check the knobs
    if policy is not None:
        heatmap_table(df, x, y, policy)
        df = df[df["policy"] == policy]
    facets, ncols = _facets(df)
    if "edition" in (x, y):
        facets = [(None, p, df[df["policy"] == p]) for p in dict.fromkeys(df["policy"])]
        ncols = min(len(facets), 3)
    grids = [heatmap_table(sub, x, y) for _, _, sub in facets]
    finite = np.concatenate([g.to_numpy(dtype=float).ravel() for g in grids])
    finite = finite[np.isfinite(finite)]
    lo, hi = (finite.min(), finite.max()) if finite.size else (0.0, 1.0)
    if hi - lo < 1e-9:
        lo, hi = max(0.0, lo - 0.05), min(1.0, hi + 0.05)
    cmap = matplotlib.colormaps["viridis"]
    norm = matplotlib.colors.Normalize(lo, hi)
    nx, ny = grids[0].shape[1], grids[0].shape[0]
    with matplotlib.rc_context(STYLE):
        fig, axes = _grid(len(facets), ncols, panel_w=max(2.6, 0.75 * nx + 1.3),
                          panel_h=max(2.2, 0.32 * ny + 1.0), extra_w=1.4)
        for ax, (ed, p, _), grid in zip(axes, facets, grids):
            values = grid.to_numpy(dtype=float)
            ax.grid(False)
            im = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, norm=norm, origin="lower",
                           aspect="auto")
            for i in range(values.shape[0]):
                for j in range(values.shape[1]):
                    v = values[i, j]
                    if not np.isfinite(v):
                        continue
                    r, g, b, _ = cmap(norm(v))
                    dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.55
                    ax.text(j, i, f"{v:.3f}", ha="center", va="center", fontsize=8,
                            color="white" if dark else "black")
            ax.set_xticks(range(values.shape[1]), [tick_words(x, v) for v in grid.columns])
            ax.set_yticks(range(values.shape[0]), [tick_words(y, v) for v in grid.index])
            for side in ("top", "right"):
                ax.spines[side].set_visible(True)
            ax.set_title(_panel_title(ed, p))
            if ax.get_subplotspec().is_last_row():
                ax.set_xlabel(knob_words(x))
            if ax.get_subplotspec().is_first_col():
                ax.set_ylabel(knob_words(y))
        fig.colorbar(im, ax=axes, label="Win rate", shrink=0.9)
        _titles(fig, f"Win rate by {knob_words(x).lower()} and {knob_words(y).lower()}", df,
                (x, y, "edition"), fig.get_figwidth())
    return fig


def x_knob(df):
    """The knob across a small-multiples bar chart: health when it varies, else the first
    varying knob other than the edition; ``None`` when nothing else varies."""
    varying = [k for k in varying_knobs(df) if k not in ("edition", "policy")]
    if "health" in varying:
        return "health"
    return varying[0] if varying else None


def loss_causes(df):
    """How do games end? Stacked bars of the share of games won, lost by health, lost by traps
    and timed out, across starting health (or the first varying knob), one panel per edition
    and player; the other knobs pooled from the counts."""
    df = load_table(df)
    x = x_knob(df)
    facets, ncols = _facets(df)
    values = ordered_values(df[x]) if x else [None]
    with matplotlib.rc_context(STYLE):
        fig, axes = _grid(len(facets), ncols, panel_w=max(3.2, 0.38 * len(values) + 1.4))
        for ax, (ed, policy, sub) in zip(axes, facets):
            pooled = pool_counts(sub, [x] if x else [])
            ax.grid(axis="x", visible=False)
            pos = np.arange(len(values))
            bottom = np.zeros(len(values))
            for col, (words, colour) in OUTCOMES.items():
                share = np.full(len(values), np.nan)
                for i, v in enumerate(values):
                    row = _select(pooled, [x], [v]) if x else pooled
                    if len(row):
                        share[i] = row[col].iloc[0] / row["games"].iloc[0]
                ax.bar(pos, np.nan_to_num(share), bottom=bottom, color=colour, width=0.8,
                       label=words if ax is axes[0] else None)
                bottom += np.nan_to_num(share)
            ax.set_xticks(pos, [tick_words(x, v) for v in values] if x else ["all cells"])
            ax.set_ylim(0, 1)
            ax.set_title(_panel_title(ed, policy))
            if ax.get_subplotspec().is_last_row() and x:
                ax.set_xlabel(knob_words(x))
            if ax.get_subplotspec().is_first_col():
                ax.set_ylabel("Share of games")
        _titles(fig, "How games end", df, (x, "edition"), fig.get_figwidth())
        fig.legend(loc="outside lower center", ncols=len(OUTCOMES))
    return fig


def trap_rate_by_area(df):
    """Which areas set off traps most? Traps set off per round played in each area, pooled
    from the counts (``sum(traps) / sum(rounds)``) with 95 % Wilson intervals (at most one
    trap goes off a round), a bar per player, one panel per edition. Areas never played are
    left out; an area played in only some cells says in how many.

    Raises :class:`FigureUnavailable` for a table without trap counts (written before table
    format 2), saying how to regenerate it.
    """
    df = load_table(df)
    if not all(c in df.columns for c in TRAP_COUNT_COLUMNS):
        raise FigureUnavailable(df.attrs.get("missing")
                                or "the table has no trap counts (traps_<area> columns)")
    editions = list(dict.fromkeys(df["edition"])) if "edition" in varying_knobs(df) else [None]
    policies = list(dict.fromkeys(df["policy"]))
    if len(policies) > MAX_LEGEND:
        raise FigureUnavailable(f"{len(policies)} players are more than {MAX_LEGEND} bars per "
                                f"area; draw it for fewer players")
    all_areas = table_areas(df.columns)
    if not (df[[f"rounds_{a}" for a in all_areas]].to_numpy().sum() > 0):
        raise FigureUnavailable("no area was played")
    with matplotlib.rc_context(STYLE):
        fig, axes = _grid(len(editions), min(len(editions), 2), panel_w=6.2, panel_h=3.4)
        for ax, ed in zip(axes, editions):
            sub = df if ed is None else df[df["edition"] == ed]
            pooled = pool_counts(sub, ["policy"]).set_index("policy")
            areas = [a for a in all_areas if pooled[f"rounds_{a}"].sum() > 0]
            played = {a: cells_played(sub, a) for a in areas}
            width = 0.8 / len(policies)
            pos = np.arange(len(areas))
            top = 0.0
            for i, p in enumerate(policies):
                if p not in pooled.index:
                    continue
                traps = pooled.loc[p, [f"traps_{a}" for a in areas]].to_numpy(dtype=np.int64)
                rounds = pooled.loc[p, [f"rounds_{a}" for a in areas]].to_numpy(dtype=np.int64)
                rate = np.where(rounds > 0, traps / np.maximum(rounds, 1), np.nan)
                low, high = wilson_arrays(traps, rounds)
                ax.bar(pos - 0.4 + width * (i + 0.5), rate, width=width,
                       yerr=[rate - low, high - rate], capsize=2, ecolor="#333333",
                       color=f"C{i}", label=f"player {p}" if ax is axes[0] else None)
                top = max(top, float(np.nanmax(high)))
            labels = []
            for a in areas:
                n, total = played[a]
                labels.append(area_words(a) + ("" if n == total else f"\n{n} of {total} cells"))
            ax.set_xticks(pos, labels, fontsize=8)
            ax.grid(axis="x", visible=False)
            ax.set_ylim(0, min(1.0, max(0.05, 1.12 * top)))
            if ed is not None:
                ax.set_title(f"{ed} edition")
            if ax.get_subplotspec().is_first_col():
                ax.set_ylabel("Traps set off per round played")
        _titles(fig, "Traps set off per round played, by area (bars: 95 % interval)", df,
                ("edition", "policy"), fig.get_figwidth())
        if len(policies) > 1:
            fig.legend(loc="outside lower center", ncols=len(policies))
    return fig


def rounds_distribution(df):
    """When do games end? The share of games that ended in each round, pooled from
    ``rounds_hist``, a line per player, one panel per edition."""
    df = load_table(df)
    if "rounds_hist" not in df.columns:
        raise FigureUnavailable("the table has no 'rounds_hist' column")
    editions = list(dict.fromkeys(df["edition"])) if "edition" in varying_knobs(df) else [None]
    policies = list(dict.fromkeys(df["policy"]))
    if len(policies) > MAX_LEGEND:
        raise FigureUnavailable(f"{len(policies)} players are more than {MAX_LEGEND} lines; "
                                f"draw it for fewer players")
    hists = {}
    for ed in editions:
        for p in policies:
            sub = df[(df["policy"] == p) & (_equal(df["edition"], ed) if ed is not None
                                            else True)]
            if len(sub):
                hists[ed, p] = pool_rounds_hist(sub)
    # cut the x axis where 99.9 % of every line's games have ended; say what lies beyond
    last, beyond = 0, 0.0
    for h in hists.values():
        if h.sum():
            last = max(last, int(np.searchsorted(np.cumsum(h) / h.sum(), 0.999)))
    for h in hists.values():
        if h.sum():
            beyond = max(beyond, h[last + 1:].sum() / h.sum())
    with matplotlib.rc_context(STYLE):
        fig, axes = _grid(len(editions), min(len(editions), 2), panel_w=5.0, panel_h=3.4)
        for ax, ed in zip(axes, editions):
            for i, p in enumerate(policies):
                h = hists.get((ed, p))
                if h is None:
                    continue
                share = np.zeros(last + 1)
                share[:min(last + 1, h.size)] = h[:last + 1] / max(1, h.sum())
                ax.step(np.arange(last + 1), share, where="mid", color=f"C{i}",
                        label=f"player {p}" if ax is axes[0] else None)
            ax.set_xlim(-0.5, last + 0.5)
            ax.set_ylim(bottom=0)
            ax.set_xlabel("Round the game ended")
            if ed is not None:
                ax.set_title(f"{ed} edition")
            if ax.get_subplotspec().is_first_col():
                ax.set_ylabel("Share of games")
        question = "When games end"
        if beyond > 0:
            question += f" (rounds after {last} not shown: at most {beyond:.2%} of games)"
        _titles(fig, question, df, ("edition",), fig.get_figwidth())
        if len(policies) > 1:
            fig.legend(loc="outside lower center", ncols=len(policies))
    return fig
