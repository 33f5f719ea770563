"""Figures of a sweep results table (one row per cell × policy), all in one style.

Every function takes the table (a DataFrame as :func:`slashersim.sweep.run_sweep` writes it, or
as :func:`load_table` reads it back from parquet or CSV) and returns a
:class:`matplotlib.figure.Figure` drawn on the Agg canvas; nothing goes through ``pyplot``, so no
figure stays open and no GUI backend is touched. Save one with ``fig.savefig(path)``.

Win rates over several rows are always pooled from the counts (``sum(wins) / sum(games)``),
never averaged; only the per-area trap rates, which the table holds as rates, are averaged
(weighted by games), and the figure says so.
"""
import json
import math
import os

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
import numpy as np
import pandas as pd

from .. import rules
from ..stats import wilson_interval

#: dots per inch of every figure, on screen and saved
DPI = 120

#: the one style of every figure, applied with ``matplotlib.rc_context``
STYLE = {
    "figure.dpi": DPI,
    "savefig.dpi": DPI,
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
    "figure.constrained_layout.use": True,
    "font.size": 10,
    "axes.titlesize": 12,
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": matplotlib.cycler(color=matplotlib.colormaps["tab10"].colors),
}

AREAS = tuple(rules.AREA_NAMES)
COUNT_COLUMNS = ("games", "wins", "loss_health", "loss_traps", "timeout")
#: columns every table must have
REQUIRED_COLUMNS = ("policy", *COUNT_COLUMNS, "win_rate", "win_ci_low", "win_ci_high",
                    "mean_rounds")
TRAP_COLUMNS = tuple(f"trap_rate_{a}" for a in AREAS)
#: columns that are results, not knobs; every other column is a knob
ITEM_COLUMNS = tuple(f"{kind}_{i}" for kind in ("used", "kept") for i in rules.ITEM_STAT_NAMES) \
    + ("killer_draws", "cabins_extra_draws", "gifts")
RESULT_COLUMNS = frozenset((*REQUIRED_COLUMNS, *TRAP_COLUMNS, *ITEM_COLUMNS, "rounds_hist",
                            "invariant_violations"))
#: trap rates are pooled over at most this many rows per figure before they are averaged
MAX_TRAP_ROWS = 8

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


class FigureUnavailable(ValueError):
    """The table cannot give this figure (e.g. it has no health axis); the message says why."""


def knob_words(name):
    """A knob's name in plain words, e.g. ``"health"`` -> ``"Starting health"``."""
    return KNOB_WORDS.get(name, name.replace("_", " ").capitalize())


def area_words(area):
    return area.replace("_", " ").capitalize()


# --- reading and checking the table ----------------------------------------------------------

def _hashable(value):
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    return value


def _parse_hist(value, i):
    if isinstance(value, str):
        text = value.strip()
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            # numpy's repr "[0 3 5]"; refuse its "..." abbreviation rather than lose rounds
            body = text.strip("[]").replace(",", " ").split()
            if "..." in body:
                raise ValueError(f"rounds_hist of row {i} is abbreviated ('...'): {value!r}") \
                    from None
            try:
                value = [int(v) for v in body]
            except ValueError:
                raise ValueError(f"rounds_hist of row {i} is not a list of integers: "
                                 f"{value!r}") from None
    elif value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    arr = np.asarray(value)
    if arr.ndim != 1 or (arr.size and not np.issubdtype(arr.dtype, np.number)):
        raise ValueError(f"rounds_hist of row {i} is not a list of integers: {value!r}")
    if arr.size and (np.any(arr < 0) or np.any(arr != np.round(arr))):
        raise ValueError(f"rounds_hist of row {i} has a negative or fractional count")
    return [int(v) for v in arr]


def check_table(df):
    """Raise ``ValueError`` naming the first required column that is missing or not numeric."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame, got {type(df).__name__}")
    for col in REQUIRED_COLUMNS:
        if col not in df.columns:
            raise ValueError(f"the table has no column {col!r} (required: "
                             f"{', '.join(REQUIRED_COLUMNS)})")
    for col in (*REQUIRED_COLUMNS[1:], *[c for c in TRAP_COLUMNS if c in df.columns]):
        if not pd.api.types.is_numeric_dtype(df[col]):
            raise ValueError(f"column {col!r} must be numeric, got {df[col].dtype}")
    for col in COUNT_COLUMNS:
        if df[col].isna().any() or (df[col] < 0).any():
            raise ValueError(f"column {col!r} must hold counts (whole numbers >= 0)")
    if (df["games"] <= 0).any():
        raise ValueError("column 'games' must be at least 1 in every row")
    if len(df) == 0:
        raise ValueError("the table has no rows")


def load_table(table):
    """The sweep table as a checked DataFrame, from a DataFrame or a ``.parquet`` / ``.csv`` path.

    ``rounds_hist`` becomes a list of ints per row (CSV holds it as JSON text); list-valued
    knobs (e.g. ``red_knives``) become tuples so that they can be grouped. The input frame is
    not modified.
    """
    if isinstance(table, pd.DataFrame):
        df = table.copy()
    elif isinstance(table, (str, os.PathLike)):
        path = os.fspath(table)
        suffix = os.path.splitext(path)[1].lower()
        if suffix == ".csv":
            df = pd.read_csv(path)
        elif suffix in (".parquet", ".pq"):
            df = pd.read_parquet(path)
        else:
            raise ValueError(f"cannot read {path!r}: expected a .parquet or .csv file")
    else:
        raise TypeError(f"expected a DataFrame or a path, got {type(table).__name__}")
    check_table(df)
    df = df.reset_index(drop=True)
    for col in knob_columns(df):
        if df[col].dtype == object:
            df[col] = df[col].map(_hashable)
    if "rounds_hist" in df.columns:
        df["rounds_hist"] = [_parse_hist(v, i) for i, v in enumerate(df["rounds_hist"])]
    for col in COUNT_COLUMNS:
        df[col] = df[col].astype(np.int64)
    return df


def knob_columns(df):
    """The knob columns of the table, in table order: every column that is not a result."""
    return [c for c in df.columns if c not in RESULT_COLUMNS]


def varying_knobs(df):
    """The knob columns with more than one distinct value, in table order."""
    return [c for c in knob_columns(df) if df[c].nunique(dropna=False) > 1]


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


# --- pooling ------------------------------------------------------------------------------------

def pool_counts(df, by):
    """Pool the count columns of the rows sharing the values of ``by`` (a list of columns).

    Returns one row per group (``by`` columns first, in order of first appearance) with the
    summed ``games``, ``wins``, ``loss_health``, ``loss_traps``, ``timeout``, ``rows`` (rows
    pooled), the pooled ``win_rate = wins / games`` and its Wilson interval
    ``win_ci_low`` / ``win_ci_high`` (a single row keeps the table's own interval). With
    ``by = []`` everything is pooled into one row.
    """
    by = list(by)
    for col in by:
        if col not in df.columns:
            raise ValueError(f"the table has no column {col!r}")
    work = df.assign(_one=1)
    if by:
        groups = work.groupby(by, sort=False, dropna=False)
        pooled = groups[list(COUNT_COLUMNS)].sum()
        pooled["rows"] = groups["_one"].sum()
        first = groups[["win_ci_low", "win_ci_high"]].first()
        pooled = pooled.reset_index()
        first = first.reset_index(drop=True)
    else:
        pooled = pd.DataFrame([{c: int(work[c].sum()) for c in COUNT_COLUMNS}])
        pooled["rows"] = len(work)
        first = work[["win_ci_low", "win_ci_high"]].iloc[:1].reset_index(drop=True)
    pooled["win_rate"] = pooled["wins"] / pooled["games"]
    ci = [wilson_interval(int(w), int(g)) for w, g in zip(pooled["wins"], pooled["games"])]
    single = (pooled["rows"] == 1).to_numpy()
    pooled["win_ci_low"] = np.where(single, first["win_ci_low"], [c[0] for c in ci])
    pooled["win_ci_high"] = np.where(single, first["win_ci_high"], [c[1] for c in ci])
    return pooled


def pool_rounds_hist(df):
    """The element-wise sum of the rows' ``rounds_hist`` lists (shorter ones padded with 0)."""
    if "rounds_hist" not in df.columns:
        raise FigureUnavailable("the table has no 'rounds_hist' column")
    hists = list(df["rounds_hist"])
    if any(h is None for h in hists):
        raise FigureUnavailable("some rows have no rounds_hist")
    hists = [_parse_hist(h, i) if not isinstance(h, list) else h for i, h in enumerate(hists)]
    total = np.zeros(max(len(h) for h in hists), dtype=np.int64)
    for h in hists:
        total[:len(h)] += np.asarray(h, dtype=np.int64)
    return total


def weighted_trap_rates(df, by=()):
    """Trap rate per area averaged over the rows of each ``by`` group, weighted by games.

    A row whose area was never played (NaN) is left out of that area's average. Returns a
    frame with the ``by`` columns and one ``trap_rate_<area>`` column per area in the table.
    """
    cols = [c for c in TRAP_COLUMNS if c in df.columns]
    by = list(by)
    groups = df.groupby(by, sort=False, dropna=False) if by else [((), df)]
    out = []
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        row = dict(zip(by, key))
        for c in cols:
            ok = g[c].notna()
            w = g.loc[ok, "games"].astype(float)
            row[c] = float(np.average(g.loc[ok, c], weights=w)) if ok.any() else np.nan
        out.append(row)
    return pd.DataFrame(out, columns=[*by, *cols])


# --- figures ------------------------------------------------------------------------------------

def _new_figure(width=7.0, height=4.5):
    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig


def _legend(ax, n):
    if n > 10:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), ncols=1 if n <= 25 else 2)
    elif n > 1:
        ax.legend(loc="best")


def win_rate_by_health(df):
    """Win rate against starting health, one line per combination of the other varying knobs,
    with the 95 % Wilson interval as a shaded band; one panel per policy when there are
    several (the same settings keep the same colour and line style in every panel).

    Raises ``ValueError`` (:class:`FigureUnavailable`) when the table has no ``health``
    column with more than one value.
    """
    df = load_table(df)
    if "health" not in df.columns or df["health"].nunique(dropna=False) < 2:
        raise FigureUnavailable("the table has no 'health' axis (a 'health' column with more "
                                "than one value)")
    others = [k for k in varying_knobs(df) if k != "health"]
    policies = list(dict.fromkeys(df["policy"]))
    pooled = pool_counts(df, [*others, "policy", "health"])
    settings = [()]
    if others:
        by = others[0] if len(others) == 1 else others
        settings = [s if isinstance(s, tuple) else (s,)
                    for s in pooled.groupby(by, sort=False, dropna=False).groups]
    colours = matplotlib.colormaps["tab10"].colors
    styles = ("-", "--", ":", "-.")
    with matplotlib.rc_context(STYLE):
        n = len(policies)
        fig = _new_figure(width=4.2 * n + 3.0 if n > 1 else 7.0, height=4.5)
        axes = fig.subplots(1, n, sharey=True, squeeze=False)[0]
        for ax, policy in zip(axes, policies):
            sub_p = pooled[pooled["policy"] == policy]
            for i, setting in enumerate(settings):
                sub = sub_p
                for k, v in zip(others, setting):
                    sub = sub[sub[k].isna()] if v is None or v != v else sub[sub[k] == v]
                if sub.empty:
                    continue
                sub = sub.sort_values("health")
                label = ", ".join(f"{k}={format_value(v)}" for k, v in zip(others, setting)) \
                    or str(policy)
                x = sub["health"].to_numpy(dtype=float)
                colour = colours[i % len(colours)]
                style = styles[(i // len(colours)) % len(styles)]
                ax.plot(x, sub["win_rate"], marker="o", color=colour, linestyle=style,
                        label=label)
                ax.fill_between(x, sub["win_ci_low"].to_numpy(dtype=float),
                                sub["win_ci_high"].to_numpy(dtype=float), color=colour,
                                alpha=0.2, linewidth=0)
            ax.set_xticks(ordered_values(df["health"]))
            ax.set_xlabel("Starting health")
            if n > 1:
                ax.set_title(f"policy {policy}")
        axes[0].set_ylabel("Win rate")
        axes[0].set_ylim(bottom=0)
        fig.suptitle("Win rate by starting health")
        if n > 1 and others:
            axes[-1].legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
        else:
            _legend(axes[-1], len(settings) if others else 1)
    return fig


def heatmap_table(df, x, y, policy=None):
    """The pooled win rate over knobs ``x`` (columns) and ``y`` (rows) as a DataFrame:
    ``sum(wins) / sum(games)`` over every other knob (and policy, unless one is chosen)."""
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
    pooled = pool_counts(df, [y, x])
    grid = pooled.pivot(index=y, columns=x, values="win_rate")
    return grid.reindex(index=ordered_values(df[y]), columns=ordered_values(df[x]))


def heatmap(df, x, y, policy=None):
    """Win rate over two knobs (``x`` across, ``y`` up), annotated, other knobs pooled from the
    counts; ``policy`` picks one policy (default: every policy of the table, pooled)."""
    df = load_table(df)
    grid = heatmap_table(df, x, y, policy)
    pooled_over = [k for k in varying_knobs(df) if k not in (x, y)]
    policies = [policy] if policy is not None else list(pd.unique(df["policy"]))
    values = grid.to_numpy(dtype=float)
    with matplotlib.rc_context(STYLE):
        nx, ny = grid.shape[1], grid.shape[0]
        fig = _new_figure(max(5.0, 1.0 * nx + 2.5), max(3.5, 0.6 * ny + 2.0))
        ax = fig.add_subplot()
        ax.grid(False)
        finite = values[np.isfinite(values)]
        lo, hi = (finite.min(), finite.max()) if finite.size else (0.0, 1.0)
        if hi - lo < 1e-9:
            lo, hi = max(0.0, lo - 0.05), min(1.0, hi + 0.05)
        cmap = matplotlib.colormaps["viridis"]
        norm = matplotlib.colors.Normalize(lo, hi)
        im = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, norm=norm, origin="lower",
                       aspect="auto")
        for i in range(ny):
            for j in range(nx):
                v = values[i, j]
                if not np.isfinite(v):
                    continue
                r, g, b, _ = cmap(norm(v))
                dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.55
                ax.text(j, i, f"{v:.3f}", ha="center", va="center", fontsize=9,
                        color="white" if dark else "black")
        ax.set_xticks(range(nx), [format_value(v) for v in grid.columns])
        ax.set_yticks(range(ny), [format_value(v) for v in grid.index])
        ax.set_xlabel(knob_words(x))
        ax.set_ylabel(knob_words(y))
        for side in ("top", "right"):
            ax.spines[side].set_visible(True)
        title = f"Win rate by {knob_words(x).lower()} and {knob_words(y).lower()}"
        notes = []
        if len(policies) == 1:
            notes.append(f"policy {policies[0]}")
        else:
            notes.append(f"{len(policies)} policies pooled")
        if pooled_over:
            notes.append(", ".join(pooled_over) + " pooled")
        ax.set_title(title + "\n(" + "; ".join(notes) + ")")
        fig.colorbar(im, ax=ax, label="Win rate")
    return fig


def loss_causes(df):
    """Stacked horizontal bars of the share of games won, lost by health, lost by traps and
    timed out, one bar per row of the table (labelled by its varying knobs and policy)."""
    df = load_table(df)
    labels = row_labels(df)
    shares = {c: (df[c] / df["games"]).to_numpy() for c in OUTCOMES}
    with matplotlib.rc_context(STYLE):
        n = len(df)
        fig = _new_figure(8.0, max(2.5, 0.32 * n + 1.6))
        ax = fig.add_subplot()
        ax.grid(axis="y", visible=False)
        ypos = np.arange(n)
        left = np.zeros(n)
        for col, (words, colour) in OUTCOMES.items():
            ax.barh(ypos, shares[col], left=left, color=colour, label=words, height=0.75)
            left += shares[col]
        ax.set_yticks(ypos, labels)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_xlabel("Share of games")
        ax.set_title("How games end")
        fig.legend(loc="outside lower center", ncols=len(OUTCOMES))
    return fig


def trap_rate_by_area(df):
    """Grouped bars of traps set off per round played in each area (areas never played are
    left out), one bar per row; over :data:`MAX_TRAP_ROWS` rows, the rows of each policy are
    averaged, weighted by games (the table holds rates, not counts), and the title says so."""
    df = load_table(df)
    cols = [c for c in TRAP_COLUMNS if c in df.columns and df[c].notna().any()]
    if not cols:
        raise FigureUnavailable("the table has no trap rate of any area (no trap_rate_<area> "
                                "column with a value)")
    title = "Traps set off per round played, by area"
    if len(df) > MAX_TRAP_ROWS:
        rates = weighted_trap_rates(df, ["policy"])
        labels = [str(p) for p in rates["policy"]]
        title += f"\n(each policy averaged over its {len(df) // max(1, len(rates))} " \
                 "cells, weighted by games)" \
            if df.groupby("policy").size().nunique() == 1 else \
            "\n(each policy averaged over its cells, weighted by games)"
    else:
        rates = df
        labels = row_labels(df)
    areas = [c[len("trap_rate_"):] for c in cols]
    with matplotlib.rc_context(STYLE):
        n = len(rates)
        fig = _new_figure(min(11.0, max(7.0, 0.9 * len(areas) + 0.1 * n * len(areas))), 4.8)
        ax = fig.add_subplot()
        ax.grid(axis="x", visible=False)
        width = 0.8 / n
        xpos = np.arange(len(areas))
        for i, (label, (_, row)) in enumerate(zip(labels, rates.iterrows())):
            ax.bar(xpos - 0.4 + width * (i + 0.5), [row[c] for c in cols], width=width,
                   label=label)
        ax.set_xticks(xpos, [area_words(a) for a in areas])
        ax.set_xlabel("Area")
        ax.set_ylabel("Traps set off per round played")
        ax.set_title(title)
        if n > 1:
            fig.legend(loc="outside lower center", ncols=min(n, 3 if n > 4 else n))
    return fig


def rounds_distribution(df):
    """The share of games that ended in each round, pooled from ``rounds_hist`` per policy."""
    df = load_table(df)
    if "rounds_hist" not in df.columns:
        raise FigureUnavailable("the table has no 'rounds_hist' column")
    policies = list(pd.unique(df["policy"]))
    hists = {p: pool_rounds_hist(df[df["policy"] == p]) for p in policies}
    # cut the x axis where 99.9 % of every policy's games have ended; say what lies beyond
    last, beyond = 0, 0.0
    for h in hists.values():
        if h.sum():
            cum = np.cumsum(h) / h.sum()
            last = max(last, int(np.searchsorted(cum, 0.999)))
    for h in hists.values():
        if h.sum():
            beyond = max(beyond, h[last + 1:].sum() / h.sum())
    with matplotlib.rc_context(STYLE):
        fig = _new_figure()
        ax = fig.add_subplot()
        for p, h in hists.items():
            share = h[:last + 1] / max(1, h.sum())
            ax.step(np.arange(last + 1), share, where="mid", label=str(p))
        ax.set_xlim(-0.5, last + 0.5)
        ax.set_ylim(bottom=0)
        ax.set_xlabel("Round the game ended")
        ax.set_ylabel("Share of games")
        title = "When games end"
        if df["policy"].nunique() == 1 and len(df) > 1:
            title += f" (all {len(df)} cells pooled)"
        elif len(df) > len(policies):
            title += " (cells of each policy pooled)"
        if beyond > 0:
            title += f"\n(rounds after {last} not shown: at most {beyond:.2%} of games)"
        ax.set_title(title)
        _legend(ax, len(policies))
    return fig
