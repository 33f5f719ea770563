"""Policies side by side on common random numbers.

Game ``g`` of a seed has the same deals, area deck, item deck and policy random stream whatever
the policy (every stream depends on ``(seed, g)`` only), so two policies' win rates are compared
through the paired per-game differences ``d_g = win_b(g) - win_a(g)``, whose spread is far
smaller than that of independent runs when the policies often win or lose the same deals. Each
policy may play its own number of games (slow search policies fewer); a pair is compared over
the games both played, the first ``min(n_a, n_b)``.
"""
from itertools import combinations
import textwrap

import matplotlib
import numpy as np

from .. import rules
from ..config import GameConfig
from ..engine import layout as L
from ..inputs import check_count
from ..policies import get_policy, param_specs, param_vector, resolve
from ..policies.python import answerer, policy_label
from ..runner import DEFAULT_CHUNK, SimulationResult, play_side_by_side, prepare
from ..stats import mean_interval, unpaired_difference_interval
from .plots import STYLE, _new_figure

#: the per-policy figures copied from ``SimulationResult.summary()``
POLICY_KEYS = ("games", "wins", "win_rate", "win_ci", "loss_health", "loss_traps", "timeout",
               "mean_rounds", "trap_rate_by_area", "rounds_by_area", "invariant_violations")


def _label(policy):
    """A player's name in tables as given: a policy name or skill level (a Python policy's:
    :func:`.python.policy_label`)."""
    if isinstance(policy, str):
        return policy
    return policy_label(policy)


def _policy(policy):
    """The policy a player is: a skill level resolved to its policy (``casual`` ->
    ``heuristic``); a Python policy's label."""
    return resolve(policy) if isinstance(policy, str) else policy_label(policy)


def _keys(name, label):
    """The keys that may name a row in ``params`` or ``games``: its label and name as given
    and with the skill level resolved (``casual#2``, ``casual``, ``heuristic#2``,
    ``heuristic``)."""
    _, sep, rest = label.partition("#")
    return (label, _label(name), _policy(name) + sep + rest, _policy(name))


def labels(policies):
    """Unique row labels: the policy name, and ``name#k`` for its k-th repetition (k >= 2)."""
    seen = {}
    out = []
    for name in map(_label, policies):
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


def check_comparison(policies, games, params=None):
    """``(names, labels, vectors, games per row)`` of a comparison, every input checked
    without compiling anything (see :func:`compare_policies`)."""
    names = list(policies)
    if not names:
        raise ValueError("no policies to compare")
    for name in names:
        if isinstance(name, str):
            param_specs(name)
        else:
            answerer(name)
    row_labels = labels(names)
    params = params or {}
    known = {k for name, label in zip(names, row_labels) for k in _keys(name, label)}
    for name in params:
        if name not in known:
            raise ValueError(f"parameters given for {name!r}, which is not compared; "
                             f"compared: {', '.join(row_labels)}")
    for name, label in zip(names, row_labels):
        if not isinstance(name, str) and label in params:
            raise ValueError(f"parameters given for {label!r}, a Python policy (it has none)")
    vectors = [param_vector(name, {k: v for key in reversed(_keys(name, label))
                                   for k, v in params.get(key, {}).items()})
               if isinstance(name, str) else None for name, label in zip(names, row_labels)]
    return names, row_labels, vectors, _resolve_games(games, names, row_labels)


def _resolve_games(games, names, row_labels):
    if not isinstance(games, dict):
        return [check_count("games", games)] * len(names)
    known = {k for name, label in zip(names, row_labels) for k in _keys(name, label)}
    for key in games:
        if key is not None and key not in known:
            raise ValueError(f"games given for {key!r}, which is not compared; compared: "
                             f"{', '.join(row_labels)}")
    out = []
    for name, label in zip(names, row_labels):
        n = next((games[k] for k in _keys(name, label) if k in games), games.get(None))
        if n is None:
            raise ValueError(f"no game count for policy {name!r}")
        out.append(check_count("games", n))
    return out


def compare_policies(config=None, policies=("baseline",), games=100_000, seed=0, threads=None,
                     params=None, chunk_size=DEFAULT_CHUNK, step=None):
    """Win rates of ``policies`` on common random numbers, and their paired differences.

    Parameters
    ----------
    config : GameConfig, optional
        The rules (default: the rulebook defaults).
    policies : sequence of str or Python policies
        Registered policy names or skill levels (a row is labelled as its player was named:
        ``novice``, not ``baseline``), or Python policies (:mod:`slashersim.policies.python`,
        labelled by their ``policy_label``, played on one thread); a name may repeat (rows are
        labelled ``name#2``, ...).
    games : int or dict
        Games per policy: one count, or ``{policy name or label: count}`` with an optional
        ``None`` key for the others (see :func:`parse_games`). Policy ``i`` plays games
        ``0..n_i - 1`` of ``seed``.
    seed : int
        The run seed shared by every policy.
    threads : int, optional
        Numba threads (default: all); results do not depend on it.
    params : dict, optional
        ``{policy name: {parameter name or index: value}}`` (see :func:`param_vector`).
    chunk_size : int
        Games held in memory at once per policy; results do not depend on it.
    step : callable, optional
        Called with the games just played (the sum of the game counts in all).

    Returns
    -------
    dict
        JSON-ready: ``policies``, one dict per row (``label``, ``policy``, ``omniscient``,
        ``params`` and the :data:`POLICY_KEYS`); ``pairs``, one dict per pair of rows ``i < j``
        (``a``, ``b``, ``games`` in common, ``win_rate_a`` and ``win_rate_b`` over them,
        ``difference`` = ``win_rate_b - win_rate_a`` with its paired 95 % interval
        ``difference_ci`` (``None`` for 1 game) and, for scale, ``unpaired_ci``, the interval
        independent samples of that size would give; ``only_a_won`` and ``only_b_won`` count
        the discordant games); ``config`` and ``seed``. Sums are integers, so chunking cannot
        change any figure.
    """
    config = config or GameConfig()
    names, row_labels, vectors, counts_n = check_comparison(policies, games, params)
    chunk_size = check_count("chunk_size", chunk_size)
    omniscient = [isinstance(name, str) and get_policy(name).omniscient for name in names]
    pairs = list(combinations(range(len(names)), 2))
    # per pair: wins of a, wins of b, games only a won, games only b won (all integers)
    tally = np.zeros((len(pairs), 4), dtype=np.int64)

    def on_chunk(start, chunk, counts):
        won = [None if rec is None else rec[:, L.R_OUTCOME] == rules.WIN for rec in chunk]
        for p, (i, j) in enumerate(pairs):
            k = min(counts_n[i], counts_n[j]) - start
            if k <= 0:
                continue
            a, b = won[i][:k], won[j][:k]
            tally[p] += (a.sum(), b.sum(), (a & ~b).sum(), (b & ~a).sum())

    players = [prepare(_policy(name) if isinstance(name, str) else name,
                       None if vector is None else vector)
               for name, vector in zip(names, vectors)]
    counts, elapsed = play_side_by_side([(config, p) for p in players], counts_n, seed,
                                        threads=threads, cap=chunk_size, step=step,
                                        on_chunk=on_chunk)
    rows = []
    for i, name in enumerate(names):
        s = SimulationResult(config, _policy(name), int(seed), counts[i], elapsed[i]).summary()
        rows.append({"label": row_labels[i], "policy": _policy(name),
                     "omniscient": bool(omniscient[i]),
                     "params": [] if vectors[i] is None else [float(x) for x in vectors[i]],
                     **{k: s[k] for k in POLICY_KEYS}, "elapsed_s": elapsed[i]})
    out_pairs = []
    for p, (i, j) in enumerate(pairs):
        n = min(counts_n[i], counts_n[j])
        wa, wb, only_a, only_b = (int(x) for x in tally[p])
        # d_g is -1, 0 or 1, so sum(d) = only_b - only_a and sum(d^2) = only_a + only_b
        difference, ci = mean_interval(only_b - only_a, only_a + only_b, n)
        out_pairs.append({"a": row_labels[i], "b": row_labels[j], "games": n,
                          "win_rate_a": wa / n, "win_rate_b": wb / n,
                          "difference": difference, "difference_ci": ci,
                          "unpaired_ci": unpaired_difference_interval(wa, n, wb, n),
                          "only_a_won": only_a, "only_b_won": only_b})
    return {"policies": rows, "pairs": out_pairs, "config": config.describe(),
            "seed": int(seed)}


def pair(result, a, b):
    """The pair of ``result`` with rows ``a`` and ``b`` (labels), as ``b - a``; ``None`` if
    either row is missing."""
    for p in result["pairs"]:
        if (p["a"], p["b"]) == (a, b):
            return p
        if (p["a"], p["b"]) == (b, a):
            ci = p["difference_ci"]
            return {**p, "a": b, "b": a, "win_rate_a": p["win_rate_b"],
                    "win_rate_b": p["win_rate_a"], "difference": -p["difference"],
                    "difference_ci": None if ci is None else [-ci[1], -ci[0]],
                    "unpaired_ci": [-p["unpaired_ci"][1], -p["unpaired_ci"][0]],
                    "only_a_won": p["only_b_won"], "only_b_won": p["only_a_won"]}
    return None


def comparison_figure(r, config_line):
    """Which player wins more, and by how much? Left: each row's win rate with its 95 % Wilson
    interval; right: each pair's paired difference ``b - a`` with its 95 % interval (on the
    games both played). Titled with ``config_line`` (the configuration), the seed and the
    games per player."""
    rows, pairs = r["policies"], r["pairs"]
    n = max(len(rows), len(pairs))
    with matplotlib.rc_context(STYLE):
        fig = _new_figure(10.0 if pairs else 6.0, min(20.0, max(3.2, 0.35 * n + 2.2)))
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
