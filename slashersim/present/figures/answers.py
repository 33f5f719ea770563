"""The figures of an answer: a comparison of players (``compare``), of rule variants
(``compare --variant``), the effects of a set-up fact (``luck killer``, ``luck area``,
``luck trump``, ``luck yellows``) and a game's luck timeline (``luck timeline``).

Each takes the JSON-ready result of its command's ``--json`` (the dict its analysis returns)
and returns a :class:`matplotlib.figure.Figure` on the Agg canvas. A title's configuration line
(:func:`slashersim.present.text.config_line`) is given by the caller.
"""
import math
import textwrap

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
import numpy as np

from .style import MAX_INCHES, STYLE, new_figure

# --- players side by side (compare) -------------------------------------------------------------

def comparison_figure(r, config_line):
    """Which player wins more, and by how much? Left: each row's win rate with its 95 % Wilson
    interval; right: each pair's paired difference ``b - a`` with its 95 % interval (on the
    games both played). Titled with ``config_line`` (the configuration), the seed and the
    games per player."""
    rows, pairs = r["policies"], r["pairs"]
    n = max(len(rows), len(pairs))
    with matplotlib.rc_context(STYLE):
        fig = new_figure(10.0 if pairs else 6.0, min(20.0, max(3.2, 0.35 * n + 2.2)))
        axes = fig.subplots(1, 2 if pairs else 1, squeeze=False)[0]
        ax = axes[0]
        y = np.arange(len(rows))
        rate = np.array([row["win_rate"] for row in rows])
        ci = np.array([row["win_ci"] for row in rows])
        ax.errorbar(rate, y, xerr=[rate - ci[:, 0], ci[:, 1] - rate], fmt="o", capsize=3,
                    color="C0")
        ax.set_yticks(y, [f"{row['label']}\n{row['games']:,} games" for row in rows])
        ax.set_ylim(len(rows) - 0.4, -0.6)
        ax.set_xlabel("Win rate (95 % interval)")
        ax.set_title("Win rate of each player")
        ax.grid(axis="y", visible=False)
        if pairs:
            ax = axes[1]
            y = np.arange(len(pairs))
            d = np.array([p["difference"] for p in pairs])
            lo = np.array([p["difference"] if p["difference_ci"] is None
                           else p["difference_ci"][0] for p in pairs])
            hi = np.array([p["difference"] if p["difference_ci"] is None
                           else p["difference_ci"][1] for p in pairs])
            ax.errorbar(d, y, xerr=[d - lo, hi - d], fmt="o", capsize=3, color="C1")
            ax.axvline(0, color="#555555", linewidth=0.8)
            ax.set_yticks(y, [f"{p['b']} − {p['a']}\n{p['games']:,} games" for p in pairs])
            ax.set_ylim(len(pairs) - 0.4, -0.6)
            ax.set_xlabel("Paired difference of win rates (95 % interval)")
            ax.set_title("Difference on the same games")
            ax.grid(axis="y", visible=False)
        detail = f"{config_line} · seed {r['seed']} · players on the same games"
        fig.suptitle("Which player wins more, and by how much?\n"
                     + "\n".join(textwrap.wrap(detail, 110)), fontsize=10, linespacing=1.4)
    return fig


def variants_figure(r, config_line):
    """How much does each variant change each player's win rate? One row per variant, one
    point per player: the paired change with its 95 % interval. Titled with ``config_line``
    (the base rules), the seed and the games per player."""
    changes = r["changes"]
    variants = [v["label"] for v in r["variants"]]
    players = r["players"]
    base = next(row["rules"] for row in r["rows"] if row["rules"] not in variants)
    with matplotlib.rc_context(STYLE):
        fig = new_figure(8.0, min(20.0, max(3.2, 0.6 * len(variants) * len(players) + 2.0)))
        ax = fig.subplots()
        y0 = np.arange(len(variants)) * (len(players) + 1)
        for j, player in enumerate(players):
            rows = [next(c for c in changes if c["variant"] == v and c["player"] == player)
                    for v in variants]
            d = np.array([c["difference"] for c in rows])
            lo = np.array([c["difference"] if c["difference_ci"] is None
                           else c["difference_ci"][0] for c in rows])
            hi = np.array([c["difference"] if c["difference_ci"] is None
                           else c["difference_ci"][1] for c in rows])
            ax.errorbar(d, y0 + j, xerr=[d - lo, hi - d], fmt="o", capsize=3,
                        color=f"C{j}", label=player)
        ax.axvline(0, color="#555555", linewidth=0.8)
        ax.set_yticks(y0 + (len(players) - 1) / 2, variants)
        ax.set_ylim(y0[-1] + len(players) - 0.4, -0.6)
        ax.set_xlabel(f"Change in win rate against the rules {base} (same games; "
                      f"95 % interval)")
        ax.legend(loc="best", fontsize=8)
        ax.grid(axis="y", visible=False)
        games = ", ".join(f"{c['player']} {c['games']:,}" for c in changes[:len(players)])
        detail = f"{config_line} · seed {r['seed']} · games per player: {games}"
        fig.suptitle("How much does each rule change help each player?\n"
                     + "\n".join(textwrap.wrap(detail, 110)), fontsize=10, linespacing=1.4)
    return fig


# --- luck: the effect of a set-up fact, a game's timeline ---------------------------------------

def effect_rows_figure(rows, question, xlabel, config_line, note=None):
    """Effects with 95 % intervals, one horizontal point-and-bar per row (the figure of a luck
    answer, :func:`effects_figure`). ``rows`` is ``[(label, value, [low, high] or None)]``,
    top first; ``config_line`` names the configuration, player and games behind it; ``note``
    adds a line (e.g. the average)."""
    n = len(rows)
    with matplotlib.rc_context(STYLE):
        fig = new_figure(7.5, min(MAX_INCHES, max(3.2, 0.32 * n + 2.0)))
        ax = fig.add_subplot()
        y = np.arange(n)
        values = np.array([r[1] for r in rows], dtype=float)
        lows = np.array([r[1] if r[2] is None else r[2][0] for r in rows], dtype=float)
        highs = np.array([r[1] if r[2] is None else r[2][1] for r in rows], dtype=float)
        ax.errorbar(values, y, xerr=[values - lows, highs - values], fmt="o", color="C0",
                    ecolor="C0", capsize=3, markersize=5)
        ax.axvline(0, color="#555555", linewidth=0.8)
        ax.set_yticks(y, [str(r[0]) for r in rows])
        ax.set_ylim(n - 0.4, -0.6)
        ax.set_xlabel(xlabel)
        ax.grid(axis="y", visible=False)
        detail = config_line + (f" · {note}" if note else "")
        fig.suptitle(question + "\n" + "\n".join(textwrap.wrap(detail, 100)), fontsize=10,
                     linespacing=1.4)
    return fig


def effects_figure(r, key, column, config_line):
    """How much does a set-up fact change the win rate? Each value's effect (its win rate
    minus the average) with its paired 95 % interval, from a
    :func:`~slashersim.analysis.luck.killer_position_effects` (``key="positions"``) or
    :func:`~slashersim.analysis.luck.first_fact_effects` (``key="values"``) result; titled
    with ``config_line``, the player, the games per value and the seed."""
    items = list(r[key].items())
    games = items[0][1]["games"] if items else 0
    rows = [(f"{k}: win rate {v['win_rate']:.3f}", v["effect"], v["effect_ci"])
            for k, v in items]
    return effect_rows_figure(rows, f"Effect of the {column} on the win rate",
                              "Effect: win rate minus the average (paired 95 % interval)",
                              f"{config_line} · player {r['policy']} · {games:,} games per "
                              f"value, seed {r['seed']}",
                              note=f"average win rate {r['average']:.4f}")


def timeline_figure(t):
    """The timeline as a Figure: win probability after each event, with its 95 % band (at most
    14 inches wide, so within 2400 px and 3:1; a long game labels every k-th event)."""
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(min(14.0, max(6.0, 0.32 * len(t["events"]) + 2)), 4.8))
        FigureCanvasAgg(fig)
        ax = fig.subplots()
        points = [t["start"]] + [{"win_rate": e["after"], "win_ci": e["after_ci"]}
                                 for e in t["events"]]
        x = np.arange(len(points))
        y = np.array([p["win_rate"] for p in points])
        lo = np.array([p["win_ci"][0] for p in points])
        hi = np.array([p["win_ci"][1] for p in points])
        ax.fill_between(x, lo, hi, step="post", alpha=0.25, color="C0", label="95% interval")
        ax.step(x, y, where="post", color="C0", label="win probability")
        killers = [j + 1 for j, ev in enumerate(t["events"])
                   if ev["event"] == "draw" and ev["killer"]]
        for j, k in enumerate(killers):
            ax.axvline(k, color="C3", alpha=0.5, linestyle=":",
                       label="Killer drawn" if j == 0 else None)
        labels = ["start"] + [e["label"] if len(e["label"]) <= 40 else e["label"][:39] + "…"
                              for e in t["events"]]
        every = max(1, math.ceil(len(labels) / 38))
        ax.set_xticks(x[::every])
        ax.set_xticklabels(labels[::every], rotation=75, ha="right", fontsize=7)
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("after event")
        ax.set_ylabel("win probability")
        c = t["config"]
        ax.set_title(f"Luck timeline: game {t['game']} of seed {t['seed']} "
                     f"({c['edition']}, policy {t['policy']}), {t['outcome']}")
        ax.legend(loc="upper left")
    return fig


def hazard_figure(answers, title_line):
    """The hazard by round of one or more ``why`` answers (their ``summary()``), one line per
    answer named by its player: the share of the games still winnable at the start of each
    round that are lost during it, with its 95 % band; titled with ``title_line``."""
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(8.0, 4.8), layout="constrained")
        FigureCanvasAgg(fig)
        ax = fig.subplots()
        for i, a in enumerate(answers):
            rows = [r for r in a["hazard_by_round"] if r["at_risk"] >= 20]
            if not rows:
                continue
            x = np.array([r["round"] for r in rows])
            ax.plot(x, [r["hazard"] for r in rows], marker="o", color=f"C{i}",
                    label=a.get("label") or a["policy"])
            ax.fill_between(x, [r["ci_low"] for r in rows], [r["ci_high"] for r in rows],
                            alpha=0.2, color=f"C{i}")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("round")
        ax.set_ylabel("hazard: share of the games still winnable at\nthe round's start that "
                      "are lost during it")
        ax.set_ylim(bottom=0)
        ax.set_title(f"Where games are lost: the hazard by round\n{title_line}", fontsize=9)
        ax.legend(title="player (95 % band; rounds with 20 games or more)", fontsize=8,
                  title_fontsize=8)
    return fig
