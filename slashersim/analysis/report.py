"""A sweep table as a folder: the figures of :mod:`.plots` as PNGs and ``report.md``.

``write_report("results/example.parquet", "results/example_report")`` writes
``report.md`` (what the table holds, every row, highlights computed from the data, the figures
with captions) next to ``win_rate_by_health.png``, ``heatmap.png``, ``loss_causes.png``,
``trap_rate_by_area.png`` and ``rounds_distribution.png``. A figure the table cannot give (no
health axis, fewer than two varying knobs, no ``rounds_hist``) is left out and ``report.md``
says why.
"""
from pathlib import Path

import pandas as pd

from . import plots
from .. import rules
from .plots import (DPI, ITEM_COLUMNS, FigureUnavailable, format_value, knob_columns, load_table, pool_counts,
                    varying_knobs)

#: file name -> (title, caption) of each figure, in report order
FIGURES = {
    "win_rate_by_health.png": (
        "Win rate by starting health",
        "Win rate against starting health; the shaded band is the 95 % Wilson interval."),
    "heatmap.png": (
        "Win rate over two knobs",
        "Win rate over {x} and {y}; every other knob is pooled from the counts."),
    "loss_causes.png": (
        "How games end",
        "Share of games won, lost by health, lost by traps and timed out, per row."),
    "trap_rate_by_area.png": (
        "Traps set off per round played, by area",
        "Traps set off per round played in each area; areas never played are left out."),
    "rounds_distribution.png": (
        "When games end",
        "Share of games that ended in each round, pooled over the cells of each policy."),
}


def _md(text):
    return str(text).replace("|", "\\|")


def _ci(rate, low, high):
    return f"{rate:.4f} [{low:.4f}, {high:.4f}]"


def _knob_text(row, knobs):
    return ", ".join(f"{k}={format_value(row[k])}" for k in knobs)


def _row_text(row, knobs):
    text = _knob_text(row, knobs)
    return f"{text}, policy {row['policy']}" if text else f"policy {row['policy']}"


def _games_per_cell(df):
    games = sorted(set(int(g) for g in df["games"]))
    if len(games) == 1:
        return f"{games[0]:,}"
    return f"{games[0]:,} to {games[-1]:,}"


def _default_heatmap_knobs(varying):
    return tuple(varying[:2]) if len(varying) >= 2 else None


def _heatmap_knobs(df, heatmap_knobs, varying):
    if heatmap_knobs is None:
        return _default_heatmap_knobs(varying)
    if isinstance(heatmap_knobs, str) or len(heatmap_knobs) != 2:
        raise ValueError(f"heatmap_knobs must name two knobs, got {heatmap_knobs!r}")
    knobs = knob_columns(df)
    for k in heatmap_knobs:
        if k not in df.columns:
            raise ValueError(f"the table has no column {k!r} (knobs: {', '.join(knobs)})")
        if k not in knobs:
            raise ValueError(f"column {k!r} is a result, not a knob")
    if heatmap_knobs[0] == heatmap_knobs[1]:
        raise ValueError(f"heatmap_knobs must name two different knobs, got {heatmap_knobs!r}")
    return tuple(heatmap_knobs)


def knob_effects(df, knobs=None):
    """For each varying knob (and the policy, when there are several): its values in table
    order with the win rate pooled over everything else, ``sum(wins) / sum(games)``.

    Returns ``{knob: DataFrame(value, games, wins, win_rate, diff)}`` where ``diff`` is the
    pooled win rate minus that of the knob's first value.
    """
    df = load_table(df)
    knobs = varying_knobs(df) if knobs is None else list(knobs)
    if df["policy"].nunique() > 1 and "policy" not in knobs:
        knobs = [*knobs, "policy"]
    out = {}
    for k in knobs:
        pooled = pool_counts(df, [k]).rename(columns={k: "value"})
        pooled["diff"] = pooled["win_rate"] - pooled["win_rate"].iloc[0]
        out[k] = pooled[["value", "games", "wins", "win_rate", "diff"]]
    return out


def _highlights(df, varying):
    lines = []
    if len(df) > 1:
        order = df["win_rate"].to_numpy()
        best, worst = df.iloc[order.argmax()], df.iloc[order.argmin()]
        lines.append(f"- Easiest: {_md(_row_text(best, varying))}, win rate "
                     f"{_ci(best['win_rate'], best['win_ci_low'], best['win_ci_high'])}.")
        lines.append(f"- Hardest: {_md(_row_text(worst, varying))}, win rate "
                     f"{_ci(worst['win_rate'], worst['win_ci_low'], worst['win_ci_high'])}.")
    else:
        row = df.iloc[0]
        lines.append(f"- One row only: win rate "
                     f"{_ci(row['win_rate'], row['win_ci_low'], row['win_ci_high'])}.")
    for k, eff in knob_effects(df, varying).items():
        base = eff.iloc[0]
        parts = [f"{format_value(base['value'])}: {base['win_rate']:.4f}"]
        for _, r in eff.iloc[1:].iterrows():
            parts.append(f"{format_value(r['value'])}: {r['win_rate']:.4f} "
                         f"({r['diff']:+.4f})")
        spread = eff["win_rate"].max() - eff["win_rate"].min()
        lines.append(f"- Effect of {_md(k)} (win rate pooled over everything else; change from "
                     f"{_md(format_value(base['value']))}): {_md('; '.join(parts))}"
                     + (f"; spread {spread:.4f}." if len(eff) > 2 else "."))
    return lines


def _rows_table(df, varying):
    head = [*varying, "policy", "games", "win rate [95% CI]", "loss by health",
            "loss by traps", "timeout", "mean rounds"]
    lines = ["| " + " | ".join(_md(h) for h in head) + " |",
             "|" + "|".join("---" if i < len(varying) + 1 else "---:"
                            for i in range(len(head))) + "|"]
    for _, r in df.iterrows():
        g = r["games"]
        cells = [format_value(r[k]) for k in varying] + [
            r["policy"], f"{int(g):,}", _ci(r["win_rate"], r["win_ci_low"], r["win_ci_high"]),
            f"{r['loss_health'] / g:.4f}", f"{r['loss_traps'] / g:.4f}",
            f"{r['timeout'] / g:.4f}", f"{r['mean_rounds']:.2f}"]
        lines.append("| " + " | ".join(_md(c) for c in cells) + " |")
    return lines


def _items_table(df):
    """Items used and kept per game, and the other item counts per game, pooled by policy
    (sums of counts over sums of games); empty for a table without item columns."""
    if not all(c in df.columns for c in ITEM_COLUMNS):
        return []
    pooled = df.groupby("policy", sort=False)[["games", *ITEM_COLUMNS]].sum()
    policies = list(pooled.index)
    lines = ["| per game | " + " | ".join(f"{_md(p)} used | {_md(p)} kept" for p in policies)
             + " |", "|---|" + "---:|---:|" * len(policies)]
    for item in rules.ITEM_STAT_NAMES:
        cells = []
        for p in policies:
            g = pooled.loc[p, "games"]
            cells += [f"{pooled.loc[p, f'used_{item}'] / g:.3f}",
                      f"{pooled.loc[p, f'kept_{item}'] / g:.3f}"]
        lines.append(f"| {item} | " + " | ".join(cells) + " |")
    for name in ("killer_draws", "cabins_extra_draws", "gifts"):
        cells = []
        for p in policies:
            cells += [f"{pooled.loc[p, name] / pooled.loc[p, 'games']:.3f}", ""]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def write_report(table, out_dir, heatmap_knobs=None, title=None):
    """Write the figures and ``report.md`` of a sweep table into ``out_dir``; return the
    path of ``report.md``.

    Parameters
    ----------
    table : DataFrame or str or Path
        The sweep table, or a ``.parquet`` / ``.csv`` file of it.
    out_dir : str or Path
        Created if missing; existing files of the same names are replaced.
    heatmap_knobs : (str, str), optional
        The knobs across and up the heatmap (default: the first two knob columns that vary).
    title : str, optional
        The report's title (default: "Sweep report", with the file name when given a path).

    Raises
    ------
    ValueError
        Naming the column, when a required column is missing or ``heatmap_knobs`` names a
        column the table lacks.
    """
    df = load_table(table)
    varying = varying_knobs(df)
    knobs_xy = _heatmap_knobs(df, heatmap_knobs, varying)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if title is None:
        title = "Sweep report" if isinstance(table, pd.DataFrame) \
            else f"Sweep report: {Path(table).name}"

    drawn, skipped = [], []
    jobs = [("win_rate_by_health.png", lambda: plots.win_rate_by_health(df))]
    if knobs_xy is None:
        skipped.append(("heatmap.png", "fewer than two knobs vary"
                        + (f" (only {varying[0]})" if varying else "")))
    else:
        jobs.append(("heatmap.png", lambda: plots.heatmap(df, *knobs_xy)))
    jobs += [("loss_causes.png", lambda: plots.loss_causes(df)),
             ("trap_rate_by_area.png", lambda: plots.trap_rate_by_area(df)),
             ("rounds_distribution.png", lambda: plots.rounds_distribution(df))]
    for name, make in jobs:
        path = out / name
        try:
            fig = make()
        except FigureUnavailable as e:
            skipped.append((name, str(e)))
            path.unlink(missing_ok=True)
            continue
        fig.savefig(path, dpi=DPI)
        drawn.append(name)
    for name, _ in skipped:
        (out / name).unlink(missing_ok=True)

    knobs = knob_columns(df)
    fixed = [k for k in knobs if k not in varying]
    cells = len(df.drop_duplicates(subset=knobs)) if knobs else 1
    policies = list(pd.unique(df["policy"]))
    lines = [f"# {_md(title)}", "", "## What the table holds", ""]
    lines.append(f"- {len(df)} rows: {cells} cell{'s' * (cells != 1)} × {len(policies)} "
                 f"polic{'ies' if len(policies) != 1 else 'y'} ({_md(', '.join(map(str, policies)))}).")
    lines.append(f"- {_games_per_cell(df)} games per cell and policy; "
                 f"{int(df['games'].sum()):,} games in all.")
    if varying:
        lines.append("- Knobs that vary: " + "; ".join(
            f"{_md(k)} ({_md(', '.join(format_value(v) for v in pd.unique(df[k])))})"
            for k in varying) + ".")
    else:
        lines.append("- No knob varies.")
    if fixed:
        lines.append("- Fixed knobs: " + ", ".join(
            f"{_md(k)} = {_md(format_value(df[k].iloc[0]))}" for k in fixed) + ".")
    lines += ["", "## Results", "",
              "Win rate with its 95 % Wilson interval; loss causes and timeouts as shares of "
              "the games.", ""]
    lines += _rows_table(df, varying)
    items = _items_table(df)
    if items:
        lines += ["", "## Items", "", "Items used and kept per game by each player (policy), "
                  "pooled over the table's cells; a Cursed Object counts as used when drawn. "
                  "Killer draws, Cabins' extra cards and Fire pit gifts per game below.", ""]
        lines += items
    lines += ["", "## Highlights", ""]
    lines += _highlights(df, varying)
    lines += ["", "## Figures", ""]
    for name in FIGURES:
        fig_title, caption = FIGURES[name]
        if name == "heatmap.png" and knobs_xy is not None:
            caption = caption.format(x=knobs_xy[0], y=knobs_xy[1])
        if name in drawn:
            lines += [f"### {fig_title}", "", f"![{fig_title}]({name})", "", f"*{caption}*", ""]
        else:
            reason = dict(skipped).get(name, "not drawn")
            lines += [f"### {fig_title}", "", f"Not drawn ({name}): {_md(reason)}.", ""]
    report = out / "report.md"
    report.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    return report
