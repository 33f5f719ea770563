"""Policies side by side on common random numbers.

Game ``g`` of a seed has the same deals, area deck, item deck and policy random stream whatever
the policy (every stream depends on ``(seed, g)`` only), so two policies' win rates are compared
through the paired per-game differences ``d_g = win_b(g) - win_a(g)``, whose spread is far
smaller than that of independent runs when the policies often win or lose the same deals. Each
policy may play its own number of games (slow search policies fewer); a pair is compared over
the games both played, the first ``min(n_a, n_b)``.
"""
from itertools import combinations

import numpy as np

from ..core import layout as L
from ..core import rules
from ..core.config import GameConfig
from ..core.errors import ConfigError
from ..core.inputs import check_count
from ..core.stats import mean_interval, unpaired_difference_interval
from ..policies import get_policy, pair_name, param_specs, param_vector, resolve
from ..policies.python import answerer, policy_label
from ..runner import DEFAULT_CHUNK, SimulationResult, play_side_by_side, prepare

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
    names = [pair_name(p) for p in policies]
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
            "rules_id": config.rules_id.digest, "seed": int(seed)}


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


# --- rules against rules ----------------------------------------------------------------------
#: the label of the rules every variant is compared with
BASE_LABEL = "as set"


def check_variants(config, variants):
    """``[(label, changes, GameConfig)]`` of ``variants`` (``{label: {rule: value}}``), each
    the base ``config`` with its changes (any knob, ``difficulty`` and ``cards``, a card file
    or ``"printed"``), checked (a :class:`ConfigError` names the bad one)."""
    if not variants:
        raise ValueError("no variants to compare; give at least one, e.g. "
                         "{'no cursed object': {'cursed_object': False}}")
    out = []
    for label, changes in variants.items():
        if not isinstance(label, str) or not label.strip() or label == BASE_LABEL:
            raise ValueError(f"a variant needs a name of its own, got {label!r}")
        if not isinstance(changes, dict) or not changes:
            raise ValueError(f"variant {label!r} changes no rule; give NAME=VALUE pairs")
        try:
            out.append((label, dict(changes), config.updated(changes)))
        except (TypeError, ValueError) as e:
            raise ConfigError(f"variant {label!r}: {e}") from None
    return out


def compare_variants(config=None, policies=("novice", "expert"), variants=None, games=100_000,
                     seed=0, threads=None, params=None, chunk_size=DEFAULT_CHUNK, step=None):
    """How each rule variant changes each player's win rate, on the same games.

    Every player plays the base rules ``config`` and each variant (``{label: {rule: value}}``,
    the base with those rules changed) on games ``0 .. n - 1`` of ``seed`` (common random
    numbers: the same deals, decks and streams). Per variant and player, the change in win
    rate is the mean of the paired per-game differences ``win_variant(g) - win_base(g)``; per
    variant and pair of players ``a`` before ``b``, the difference of their changes is the
    mean of ``(win_variant_b - win_base_b) - (win_variant_a - win_base_a)`` over the games both
    played: does the variant help ``b`` more than ``a``? Each with its 95 % interval.

    Returns
    -------
    dict
        JSON-ready: ``players`` (row labels), ``variants`` (each ``label``, ``changes`` and
        its resolved ``config``), ``rows`` (per rules and player: ``rules``, ``player``,
        ``policy`` and the :data:`POLICY_KEYS`), ``changes`` (per variant and player:
        ``variant``, ``player``, ``games``, ``win_rate_base``, ``win_rate_variant``,
        ``difference``, ``difference_ci``), ``contrasts`` (per variant and pair: ``variant``,
        ``a``, ``b``, ``games``, ``difference`` = change of ``b`` - change of ``a``,
        ``difference_ci``), ``config`` (the base) and ``seed``. Sums are integers, so chunking
        cannot change any figure.
    """
    config = config or GameConfig()
    names, row_labels, vectors, counts_n = check_comparison(policies, games, params)
    chunk_size = check_count("chunk_size", chunk_size)
    rules_of = [(BASE_LABEL, {}, config)] + check_variants(config, variants)
    k = len(names)
    players = [prepare(_policy(name) if isinstance(name, str) else name, vector)
               for name, vector in zip(names, vectors)]
    runs = [(c, p) for _, _, c in rules_of for p in players]
    player_pairs = list(combinations(range(k), 2))
    # per variant and player: wins under the base, under the variant, games only the base
    # won, only the variant won
    change = np.zeros((len(rules_of) - 1, k, 4), dtype=np.int64)
    # per variant and pair: sum and sum of squares of the per-game difference of changes
    contrast = np.zeros((len(rules_of) - 1, len(player_pairs), 2), dtype=np.int64)

    def on_chunk(start, chunk, counts):
        won = [None if rec is None else (rec[:, L.R_OUTCOME] == rules.WIN).astype(np.int64)
               for rec in chunk]
        for v in range(1, len(rules_of)):
            d = [None] * k
            for i in range(k):
                base, var = won[i], won[v * k + i]
                if base is None:
                    continue
                d[i] = var - base
                change[v - 1, i] += (base.sum(), var.sum(), (d[i] < 0).sum(), (d[i] > 0).sum())
            for p, (i, j) in enumerate(player_pairs):
                n = min(counts_n[i], counts_n[j]) - start
                if n <= 0:
                    continue
                e = d[j][:n] - d[i][:n]
                contrast[v - 1, p] += (e.sum(), (e * e).sum())

    counts, elapsed = play_side_by_side(runs, [counts_n[r % k] for r in range(len(runs))], seed,
                                        threads=threads, cap=chunk_size, step=step,
                                        on_chunk=on_chunk)
    rows = []
    for r, (rules_label, _, c) in enumerate(rules_of):
        for i, name in enumerate(names):
            s = SimulationResult(c, _policy(name), int(seed), counts[r * k + i],
                                 elapsed[r * k + i]).summary()
            rows.append({"rules": rules_label, "player": row_labels[i], "policy": _policy(name),
                         **{key: s[key] for key in POLICY_KEYS}})
    changes, contrasts = [], []
    for v, (label, _, _) in enumerate(rules_of[1:]):
        for i in range(k):
            n = counts_n[i]
            wb, wv, only_base, only_var = (int(x) for x in change[v, i])
            difference, ci = mean_interval(only_var - only_base, only_var + only_base, n)
            changes.append({"variant": label, "player": row_labels[i], "games": n,
                            "win_rate_base": wb / n, "win_rate_variant": wv / n,
                            "difference": difference, "difference_ci": ci})
        for p, (i, j) in enumerate(player_pairs):
            n = min(counts_n[i], counts_n[j])
            total, total_sq = (int(x) for x in contrast[v, p])
            difference, ci = mean_interval(total, total_sq, n)
            contrasts.append({"variant": label, "a": row_labels[i], "b": row_labels[j],
                              "games": n, "difference": difference, "difference_ci": ci})
    return {"players": row_labels,
            "variants": [{"label": label, "changes": {key: (list(x) if isinstance(x, tuple)
                                                            else x) for key, x in ch.items()},
                          "config": c.describe(), "rules_id": c.rules_id.digest}
                         for label, ch, c in rules_of[1:]],
            "rows": rows, "changes": changes, "contrasts": contrasts,
            "config": config.describe(), "rules_id": config.rules_id.digest, "seed": int(seed)}
