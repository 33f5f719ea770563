"""A sweep table as a folder: its figures (:mod:`slashersim.present.figures`) as PNGs and
``report.md``.

``write_report("results/example.parquet", "results/example_report")`` writes ``report.md``
next to ``win_rate_by_health.png``, ``heatmap.png``, ``loss_causes.png``,
``trap_rate_by_area.png`` and ``rounds_distribution.png``. The report opens with how the table
was made (its provenance), then what it holds, every row with its interval, the items each
player used and kept, highlights, the health steps where more starting health does not help
(with the evidence the table holds for why), and the figures with captions. Every number is
computed from the table's counts. A figure the table cannot give (no health axis, fewer than
two varying knobs, no ``rounds_hist``, no trap counts) is left out and ``report.md`` says why.
"""
from pathlib import Path

import numpy as np
import pandas as pd

from ..core import rules
from ..core.stats import unpaired_difference_interval
from ..present import figures
from ..present.figures import DPI, FigureUnavailable, format_value, resolved_configs, setting_words
from ..runner.tables import (
    ITEM_COLUMNS,
    ITEM_TOTALS,
    knob_columns,
    load_table,
    pool_counts,
    table_items,
    varying_knobs,
)

#: how a table made from Python names its command
_FROM_PYTHON = "slashersim.analysis.sweeps.run_sweep (Python)"
#: file name -> (title, caption) of each figure, in report order
FIGURES = {
    "win_rate_by_health.png": (
        "Win rate by starting health",
        "How the win rate changes with starting health: a panel per edition and player, a "
        "line per setting of the other knobs; the shaded band is the 95 % Wilson interval."),
    "heatmap.png": (
        "Win rate over two knobs",
        "The win rate over {x} and {y}, a panel per edition and player on one colour scale; "
        "every other knob is pooled from the counts."),
    "loss_causes.png": (
        "How games end",
        "The share of games won, lost by health, lost by traps and timed out, across {x}, "
        "a panel per edition and player; the other knobs pooled from the counts."),
    "trap_rate_by_area.png": (
        "Traps set off per round played, by area",
        "Traps set off per round played in each area (all traps there over all rounds played "
        "there), a bar per player with its 95 % interval; areas never played are left out, "
        "and an area played in only some cells says in how many."),
    "rounds_distribution.png": (
        "When games end",
        "The share of games that ended in each round, a line per player, a panel per "
        "edition."),
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


def _games_per_cell(df):  # noqa: D103
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


def _short(value):
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_short(v) for v in value) + "]"
    return "-" if value is None else str(value)


def _games_per_player(prov):
    """``"1,000,000 games per cell and player"``, or each player's count when they differ
    (a sweep spec's ``policy_games``)."""
    by = prov.get("games_by_policy") or {}
    if len(set(by.values())) > 1:
        return "games per cell: " + ", ".join(f"{p} {int(g):,}" for p, g in by.items())
    return f"{int(prov.get('games') or 0):,} games per cell and player"


def provenance_lines(df, source=None):
    """The "How this table was made" section: software, commit, date, command, seed, games,
    players and their parameters, and the configuration every cell shares (resolved: every
    knob, set or not), from the table's provenance; for a table without one, what it cannot
    say and how to regenerate it."""
    prov = df.attrs.get("slashersim")
    lines = ["## How this table was made", ""]
    if not prov:
        why = df.attrs.get("missing")
        lines.append("This table carries no provenance" + (
            f": {_md(why)}" if why else " (it was built in memory, or its CSV sidecar is "
                                        "missing), so it cannot say how it was made.") + "")
        configs = resolved_configs(df)
        if configs:
            lines += ["", "Its knobs resolve, by this version's rules, to the configuration "
                          "below (what the table itself does not record)."]
            lines += [""] + _shared_config(configs)
        return lines
    sw = prov.get("software") or {}
    git = sw.get("git")
    made = f"slashersim {sw.get('slashersim')}"
    if git:
        made += f", git commit `{git['commit'][:12]}`" + (" with uncommitted changes to the "
                                                          "package" if git.get("dirty") else "")
    else:
        made += f" (not a git checkout; sources sha1 `{str(sw.get('source_sha1'))[:12]}`)"
    lines += [f"- Made by {made}, on {prov.get('created')}.",
              f"- Command: `{prov.get('command') or _FROM_PYTHON}`"
              + (f" (spec `{prov['spec_file']}`)." if prov.get("spec_file") else "."),
              f"- Seed {prov.get('seed')}; {_games_per_player(prov)}, every cell and player "
              f"on the same games (common random numbers; a player with fewer plays the first "
              f"of them)."]
    for pol in prov.get("policies") or []:
        params = ", ".join(f"{k}={_short(v)}" for k, v in pol.get("params", {}).items())
        lines.append(f"- Player `{pol['name']}`" + (" (omniscient: sees hidden cards)"
                                                    if pol.get("omniscient") else "")
                     + (f", parameters: {params}." if params else ", no parameters."))
    axes = (prov.get("spec") or {}).get("axes") or {}
    if axes:
        lines.append("- Knobs that vary: " + "; ".join(f"{k} = {_short(v)}"
                                                       for k, v in axes.items()) + ".")
    configs = [c.get("config", {}) for c in prov.get("cells") or []]
    if configs:
        lines += ["", "The configuration every cell shares, resolved (every knob, set or not; "
                      "`slashersim info` prints each cell's):", ""]
        lines += _shared_config(configs)
    return lines


def _shared_config(configs):
    keys = list(dict.fromkeys(k for c in configs for k in c))
    same = [k for k in keys if all(repr(c.get(k)) == repr(configs[0].get(k)) for c in configs)]
    differ = [k for k in keys if k not in same]
    text = ", ".join(f"{k} = {_short(configs[0].get(k))}" for k in same)
    lines = [f"> {_md(text)}"]
    if differ:
        lines += ["", f"Differing between cells: {_md(', '.join(differ))}."]
    return lines


def _per_game(row, col):
    return row[col] / row["games"] if col in row.index else np.nan


def health_steps(df):
    """Every step from starting health ``h`` to ``h + 1`` of each edition, player and setting
    of the other varying knobs, with the counts that explain it.

    Returns a DataFrame, one row per step: ``edition``, ``policy``, ``setting`` (the other
    knobs in words), ``health`` (h), the win rates at h and h + 1, their difference with a 95 %
    interval (unpaired, so conservative: the cells share their games), ``helps`` (the interval
    lies above 0), the white colour at h and h + 1 (the configuration's ``white_colours``),
    and per game at h and h + 1: Killer draws, health lost to the Killer (``damage``), losses
    by health and by traps, rounds played, items kept. Empty when health does not vary.
    """
    df = load_table(df)
    if "health" not in df.columns or df["health"].nunique() < 2:
        return pd.DataFrame()
    configs = resolved_configs(df)
    whites = {}
    if configs:
        for (_, row), cfg in zip(df.iterrows(), configs):
            whites[row.name] = cfg.get("white_colours")
    others = [k for k in varying_knobs(df) if k not in ("health", "edition")]
    groups = ["edition"] if "edition" in df.columns else []
    kept_cols = [c for c in df.columns if c.startswith("kept_")]
    work = df.assign(_kept=df[kept_cols].sum(axis=1) if kept_cols else np.nan,
                     _white=[whites.get(i) for i in df.index])
    rows = []
    for key, sub in work.groupby([*groups, "policy", *others], sort=False, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        names = [*groups, "policy", *others]
        given = dict(zip(names, key))
        pooled = pool_counts(sub, ["health"]).set_index("health").sort_index()
        for col in ("_kept",):
            pooled[col] = sub.groupby("health")[col].sum()
        white = {h: w for h, w in zip(sub["health"], sub["_white"])}
        hs = list(pooled.index)
        for h0, h1 in zip(hs, hs[1:]):
            if h1 != h0 + 1:
                continue
            a, b = pooled.loc[h0], pooled.loc[h1]
            lo, hi = unpaired_difference_interval(int(a["wins"]), int(a["games"]),
                                                  int(b["wins"]), int(b["games"]))

            def colour(h, white=white):
                w = white.get(h)
                return w[int(h) - 1] if isinstance(w, (list, tuple)) and len(w) >= h else None

            rows.append({
                "edition": given.get("edition"), "policy": given["policy"],
                "setting": ", ".join(setting_words(k, given[k]) for k in others),
                "health": int(h0), "win_rate": a["win_rate"], "win_rate_next": b["win_rate"],
                "difference": b["win_rate"] - a["win_rate"], "difference_ci": (lo, hi),
                "helps": lo > 0, "white": colour(h0), "white_next": colour(h1),
                **{f"{name}{sfx}": _per_game(r, col) for sfx, r in (("", a), ("_next", b))
                   for name, col in (("killer_draws", "killer_draws"), ("damage", "damage"),
                                     ("loss_health", "loss_health"),
                                     ("loss_traps", "loss_traps"), ("rounds", "rounds"),
                                     ("kept", "_kept"))}})
    return pd.DataFrame(rows)


def _pct(a, b):
    return f"{(b - a) / a:+.0%}" if a else "n/a"


def health_step_lines(df):
    """The "Where more health does not help" section: the steps of :func:`health_steps` whose
    difference interval does not lie above 0, a table of their evidence, and for each a
    sentence computed from it (the white colours and what changed per game)."""
    steps = health_steps(df)
    if steps.empty:
        return []
    flat = steps[~steps["helps"]]
    lines = ["## Where more health does not help", "",
             "One more point of starting health should make the game easier. These are the "
             "steps from health h to h + 1 where the table cannot show that it does: the "
             "interval of the difference in win rate does not lie above 0 (an unpaired 95 % "
             "interval, conservative since the cells play the same games). The columns give "
             "what the table holds to explain it, per game at h → h + 1. The colour whites "
             "take is set by the holder's health (the configuration's `white_colours`): red "
             "whites are knives (more damage when the Killer is drawn), yellow whites are "
             "draws (more cards from the item deck, so more escape items and more Killers).",
             ""]
    if flat.empty:
        return lines[:2] + [f"Every one of the {len(steps)} steps from h to h + 1 raises the "
                            f"win rate (its interval lies above 0).", ""]
    has_items = not flat["killer_draws"].isna().all()
    head = ["edition", "player", "other knobs", "health", "win rate", "difference [95% CI]",
            "whites", "loss by health", "loss by traps"]
    if has_items:
        head += ["Killer draws", "damage", "items kept"]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * 3 + "---:|" * (len(head) - 3)]

    def pair(a, b, f):
        return f"{a:{f}} → {b:{f}}"

    for _, r in flat.iterrows():
        lo, hi = r["difference_ci"]
        cells = [format_value(r["edition"]), r["policy"], r["setting"] or "-",
                 f"{r['health']} → {r['health'] + 1}", pair(r["win_rate"], r["win_rate_next"],
                                                            ".4f"),
                 f"{r['difference']:+.4f} [{lo:+.4f}, {hi:+.4f}]",
                 f"{r['white'] or '?'} → {r['white_next'] or '?'}",
                 pair(r["loss_health"], r["loss_health_next"], ".3f"),
                 pair(r["loss_traps"], r["loss_traps_next"], ".3f")]
        if has_items:
            cells += [pair(r["killer_draws"], r["killer_draws_next"], ".2f"),
                      pair(r["damage"], r["damage_next"], ".2f"),
                      pair(r["kept"], r["kept_next"], ".2f")]
        lines.append("| " + " | ".join(_md(c) for c in cells) + " |")
    lines.append("")
    for _, r in flat.iterrows():
        h = r["health"]
        where = ", ".join(x for x in (f"{format_value(r['edition'])} edition"
                                      if r["edition"] is not None else "",
                                      f"player {r['policy']}", r["setting"]) if x)
        verb = "wins less" if r["difference_ci"][1] < 0 else \
            "wins no more, within the interval,"
        text = (f"- {where}: health {h + 1} {verb} than health {h} "
                f"({r['win_rate_next']:.4f} against {r['win_rate']:.4f}).")
        if r["white"] and r["white_next"] and r["white"] != r["white_next"]:
            text += (f" Whites turn from {r['white']} at health {h} to {r['white_next']} at "
                     f"health {h + 1}.")
        if has_items and not np.isnan(r["killer_draws"]):
            text += (f" At health {h + 1} the team drew the Killer {r['killer_draws_next']:.2f} "
                     f"times a game against {r['killer_draws']:.2f} "
                     f"({_pct(r['killer_draws'], r['killer_draws_next'])}), lost "
                     f"{r['damage_next']:.2f} health a game to it against {r['damage']:.2f}, "
                     f"and kept {r['kept_next']:.2f} items a game against {r['kept']:.2f}.")
        text += (f" Losses by health: {r['loss_health_next']:.1%} of games against "
                 f"{r['loss_health']:.1%}; by traps: {r['loss_traps_next']:.1%} against "
                 f"{r['loss_traps']:.1%}.")
        lines.append(text)
    return lines


def _rows_table(df, varying):
    solved = "winnable_share" in df.columns
    head = [*varying, "policy", "games", "win rate [95% CI]", "loss by health",
            "loss by traps", "timeout", "mean rounds",
            *(("could be won [95% CI]", "solved", "unwinnable", "undecided") if solved else ())]
    lines = ["| " + " | ".join(_md(h) for h in head) + " |",
             "|" + "|".join("---" if i < len(varying) + 1 else "---:"
                            for i in range(len(head))) + "|"]
    for _, r in df.iterrows():
        g = r["games"]
        cells = [format_value(r[k]) for k in varying] + [
            r["policy"], f"{int(g):,}", _ci(r["win_rate"], r["win_ci_low"], r["win_ci_high"]),
            f"{r['loss_health'] / g:.4f}", f"{r['loss_traps'] / g:.4f}",
            f"{r['timeout'] / g:.4f}",
            f"{r['mean_rounds']:.2f}" if "mean_rounds" in r.index else "-"]
        if solved:
            cells += [_ci(r["winnable_share"], r["winnable_ci_low"], r["winnable_ci_high"]),
                      f"{int(r['solved']):,}", f"{int(r['unwinnable']):,}",
                      f"{int(r['undecided']):,}"]
        lines.append("| " + " | ".join(_md(c) for c in cells) + " |")
    return lines


def _items_table(df):
    """Items used and kept per game, and the other item counts per game, pooled by policy
    (sums of counts over sums of games); empty for a table without item columns."""
    if not all(c in df.columns for c in ITEM_COLUMNS):
        return []
    items = table_items(df.columns)
    columns = [*ITEM_COLUMNS, *(f"{s}_{i}" for i in items[len(rules.ITEM_STAT_NAMES):]
                                for s in ("used", "kept"))]
    pooled = df.groupby("policy", sort=False)[["games", *columns]].sum()
    policies = list(pooled.index)
    lines = ["| per game | " + " | ".join(f"{_md(p)} used | {_md(p)} kept" for p in policies)
             + " |", "|---|" + "---:|---:|" * len(policies)]
    for item in items:
        cells = []
        for p in policies:
            g = pooled.loc[p, "games"]
            cells += [f"{pooled.loc[p, f'used_{item}'] / g:.3f}",
                      f"{pooled.loc[p, f'kept_{item}'] / g:.3f}"]
        lines.append(f"| {item} | " + " | ".join(cells) + " |")
    for name in ITEM_TOTALS:
        cells = []
        for p in policies:
            cells += [f"{pooled.loc[p, name] / pooled.loc[p, 'games']:.3f}", ""]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def write_report(table, out_dir, heatmap_knobs=None, title=None, wrote=None):
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
    wrote : callable, optional
        Called with the path of each file written, the figures first and ``report.md`` last
        (the command line names them on stderr).

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
    jobs = [("win_rate_by_health.png", lambda: figures.win_rate_by_health(df))]
    if knobs_xy is None:
        skipped.append(("heatmap.png", "fewer than two knobs vary"
                        + (f" (only {varying[0]})" if varying else "")))
    else:
        jobs.append(("heatmap.png", lambda: figures.heatmap(df, *knobs_xy)))
    jobs += [("loss_causes.png", lambda: figures.loss_causes(df)),
             ("trap_rate_by_area.png", lambda: figures.trap_rate_by_area(df)),
             ("rounds_distribution.png", lambda: figures.rounds_distribution(df))]
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
        if wrote is not None:
            wrote(path)
    for name, _ in skipped:
        (out / name).unlink(missing_ok=True)

    knobs = knob_columns(df)
    fixed = [k for k in knobs if k not in varying]
    cells = len(df.drop_duplicates(subset=knobs)) if knobs else 1
    policies = list(pd.unique(df["policy"]))
    lines = [f"# {_md(title)}", ""]
    lines += provenance_lines(df)
    lines += ["", "## What the table holds", ""]
    names = _md(", ".join(map(str, policies)))
    lines.append(f"- {len(df)} rows: {cells} cell{'s' * (cells != 1)} × {len(policies)} "
                 f"polic{'ies' if len(policies) != 1 else 'y'} ({names}).")
    lines.append(f"- {_games_per_cell(df)} games per cell and player; "
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
              "Win rate with its 95 % interval (Wilson's: the range the true rate lies in, 19 "
              "times out of 20); loss causes and timeouts as shares of the games. A player is "
              "named by its policy: baseline plays the novice, heuristic the casual player, "
              "expert the expert."
              + (" *Could be won*: the share of the cell's first *solved* games "
                              "that the exact solver showed some play of both players, each "
                              "seeing every card, wins (undecided games count as not "
                              "winnable)." if "winnable_share" in df.columns else ""), ""]
    lines += _rows_table(df, varying)
    items = _items_table(df)
    if items:
        lines += ["", "## Items", "", "Items used and kept per game by each player (policy), "
                  "pooled over the table's cells; a Cursed Object counts as used when drawn. "
                  "Killer draws, extra cards drawn and items given per game below.", ""]
        lines += items
    lines += ["", "## Highlights", ""]
    lines += _highlights(df, varying)
    steps = health_step_lines(df)
    if steps:
        lines += [""] + steps
    lines += ["", "## Figures", ""]
    for name in FIGURES:
        fig_title, caption = FIGURES[name]
        if name == "heatmap.png" and knobs_xy is not None:
            caption = caption.format(x=knobs_xy[0], y=knobs_xy[1])
        if name == "loss_causes.png":
            x = figures.x_knob(df)
            caption = caption.format(x=figures.knob_words(x).lower() if x else "the table")
        if name in drawn:
            lines += [f"### {fig_title}", "", f"![{fig_title}]({name})", "", f"*{caption}*", ""]
        else:
            reason = dict(skipped).get(name, "not drawn")
            lines += [f"### {fig_title}", "", f"Not drawn ({name}): {_md(reason)}.", ""]
    report = out / "report.md"
    report.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    if wrote is not None:
        wrote(report)
    return report
