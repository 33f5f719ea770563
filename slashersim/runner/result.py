"""What a run returns: its counts, named once, and its per-game records as a DataFrame.

A run reduces to one ``int64`` array of counts laid out by ``core.layout.K_*``. The counts
become named fields in one place, :func:`count_fields` (the columns of a sweep table and the
``simulate --json`` object both read from it), and :class:`SimulationResult` adds the rates a
reader wants, always computed from the counts.
"""
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core import layout as L
from ..core import rules
from ..core.config import GameConfig
from ..core.stats import wilson_interval

AREAS = tuple(rules.AREA_NAMES)
#: the printed item cards as answers count them: (name, item id)
ITEMS = tuple(zip(rules.ITEM_STAT_NAMES, rules.STANDARD_ITEMS))


def area_names(config):
    """The areas of ``config``'s cards, by area id, as answers name them: the printed seven,
    then any card added beside them."""
    return config.card_set.slots


def item_cards(config):
    """The item cards of ``config``'s cards as answers count them: ``(name, item id)`` for the
    twelve printed places, then for any item added beside them."""
    cards = config.card_set
    return tuple(zip(cards.item_slots, cards.item_ids))


def count_fields(counts, areas=AREAS, items=ITEMS):
    """The named integer totals of a run's ``counts`` (``core.layout.K_*``): ``games``,
    ``wins``, ``loss_health``, ``loss_traps``, ``timeout``, ``invariant_violations``,
    ``rounds``, ``damage``, ``traps_<area>``, ``rounds_<area>``, ``rounds_hist`` (games that
    ended in round 0, 1, ..., trailing zeros cut), ``used_<item>``, ``kept_<item>``,
    ``killer_draws``, ``cabins_extra_draws`` and ``gifts``: the count columns of a sweep table.
    ``areas`` names the areas by id (:func:`area_names`), ``items`` the item cards
    (:func:`item_cards`)."""
    c = [int(x) for x in counts]
    out = {"games": c[L.K_GAMES]}
    for name in rules.OUTCOME_NAMES[1:]:
        out["wins" if name == "win" else name] = c[L.K_OUTCOMES + rules.OUTCOME_NAMES.index(name)]
    out["invariant_violations"] = c[L.K_VIOLATIONS]
    out["rounds"] = c[L.K_ROUNDS]
    out["damage"] = c[L.K_DAMAGE]
    for a, area in enumerate(areas):
        out[f"traps_{area}"] = c[L.K_TRAPS_AREA + a]
        out[f"rounds_{area}"] = c[L.K_ROUNDS_AREA + a]
    hist = c[L.K_ROUNDS_HIST:]
    while hist and hist[-1] == 0:
        hist.pop()
    out["rounds_hist"] = hist
    for item, i in items:
        out[f"used_{item}"] = c[L.K_USED + i]
        out[f"kept_{item}"] = c[L.K_KEPT_ITEM + i]
    out["killer_draws"] = c[L.K_KILLER_DRAWS]
    out["cabins_extra_draws"] = c[L.K_CABINS_EXTRA]
    out["gifts"] = c[L.K_GIFTS]
    return out


def loss_fields(counts, areas=AREAS):
    """Why the games of ``counts`` were lost, as counts: ``health_by_area`` and
    ``traps_by_area`` (area -> games lost in a round played there), ``health_by_round``
    (``"1"``, ``"2"``, ... -> games in which the Killer took a last health in that round; the
    last key, ``"12+"``, counts that round and later) and ``timeout``. Not columns of a sweep
    table: a run's answer only."""
    c = [int(x) for x in counts]
    last = L.MAX_LOSS_ROUND
    return {
        "health_by_area": {a: c[L.K_LOSS_HEALTH_AREA + i] for i, a in enumerate(areas)},
        "health_by_round": {(f"{r}+" if r == last else str(r)): c[L.K_LOSS_HEALTH_ROUND + r]
                            for r in range(1, last + 1)},
        "traps_by_area": {a: c[L.K_LOSS_TRAPS_AREA + i] for i, a in enumerate(areas)},
        "timeout": c[L.K_OUTCOMES + rules.TIMEOUT],
    }


@dataclass
class SimulationResult:
    """Counts of a run (``counts`` laid out by ``layout.K_*``) and, on request, its records."""

    config: GameConfig
    policy: str
    seed: int
    counts: np.ndarray
    elapsed_s: float = 0.0
    records: pd.DataFrame | None = None
    params: dict = field(default_factory=dict)

    @property
    def fields(self):
        """The named totals of :func:`count_fields`."""
        return count_fields(self.counts, self.areas, item_cards(self.config))

    @property
    def areas(self):
        """The areas of the run's cards, by area id (:func:`area_names`)."""
        return area_names(self.config)

    @property
    def games(self):
        return int(self.counts[L.K_GAMES])

    def outcome(self, name):
        return int(self.counts[L.K_OUTCOMES + rules.OUTCOME_NAMES.index(name)])

    @property
    def wins(self):
        return self.outcome("win")

    @property
    def win_rate(self):
        return self.wins / self.games

    @property
    def win_ci(self):
        return wilson_interval(self.wins, self.games)

    def trap_rate_by_area(self):
        """Area name -> traps set off there per round played there (None if never played)."""
        f = self.fields
        return {a: f[f"traps_{a}"] / f[f"rounds_{a}"] if f[f"rounds_{a}"] else None
                for a in self.areas}

    def rounds_by_area(self):
        """Area name -> rounds played there, all games."""
        f = self.fields
        return {a: f[f"rounds_{a}"] for a in self.areas}

    def traps_by_area(self):
        """Area name -> traps set off there, all games (the counts behind
        :meth:`trap_rate_by_area`)."""
        f = self.fields
        return {a: f[f"traps_{a}"] for a in self.areas}

    def outcome_counts(self):
        """Games per outcome: ``win``, ``loss_health``, ``loss_traps``, ``timeout``."""
        return {name: self.outcome(name) for name in rules.OUTCOME_NAMES[1:]}

    def win_rate_by_killer_start(self):
        """"k" -> [games, win rate] for each starting position k of the Killer (1 = top)."""
        out = {}
        for k in range(1, L.MAX_KILLER_START + 1):
            n = int(self.counts[L.K_KILLER_GAMES + k])
            if n:
                out[str(k)] = [n, int(self.counts[L.K_KILLER_WINS + k]) / n]
        return out

    def item_stats(self):
        """Item totals over all games: ``used`` and ``kept`` (item name -> count; a Cursed
        Object counts as used when drawn), ``killer_draws``, ``cabins_extra_draws`` and
        ``gifts`` (items given in the Fire pit)."""
        f = self.fields
        return {
            "used": {n: f[f"used_{n}"] for n, _ in item_cards(self.config)},
            "kept": {n: f[f"kept_{n}"] for n, _ in item_cards(self.config)},
            "killer_draws": f["killer_draws"],
            "cabins_extra_draws": f["cabins_extra_draws"],
            "gifts": f["gifts"],
        }

    def rounds_histogram(self):
        """Games that ended in round r, for r = 0..max_rounds."""
        return self.counts[L.K_ROUNDS_HIST:].copy()

    def summary(self):
        """The run as one JSON-ready dict (the ``simulate --json`` object).

        Rates come with the counts they are made of, so runs can be pooled by adding:
        ``outcomes`` (games per outcome), ``rounds`` and ``damage`` (totals), ``traps_by_area``
        beside ``rounds_by_area``, and ``rounds_hist`` (games that ended in round 0, 1, ...,
        trailing zeros cut). ``config`` is every rule in force (with a card file, its content's
        hash) and ``rules_id`` names them by content
        (:class:`~slashersim.core.identity.RulesId`): runs may be pooled only when it agrees."""
        f = self.fields
        g = f["games"]
        low, high = self.win_ci
        return {
            "games": g,
            "wins": f["wins"],
            "win_rate": self.win_rate,
            "win_ci": [low, high],
            "loss_health": f["loss_health"] / g,
            "loss_traps": f["loss_traps"] / g,
            "timeout": f["timeout"] / g,
            "mean_rounds": f["rounds"] / g,
            "mean_damage": f["damage"] / g,
            "mean_items_kept": int(self.counts[L.K_KEPT]) / g,
            "mean_killer_draws": f["killer_draws"] / g,
            "trap_rate_by_area": self.trap_rate_by_area(),
            "rounds_by_area": self.rounds_by_area(),
            "traps_by_area": self.traps_by_area(),
            "outcomes": self.outcome_counts(),
            "rounds": f["rounds"],
            "damage": f["damage"],
            "rounds_hist": f["rounds_hist"],
            "win_rate_by_killer_start": self.win_rate_by_killer_start(),
            "item_stats": self.item_stats(),
            "losses": loss_fields(self.counts, self.areas),
            "invariant_violations": f["invariant_violations"],
            "config": self.config.describe(),
            "rules_id": self.config.rules_id.digest,
            "policy": self.policy,
            "policy_params": dict(self.params),
            "seed": self.seed,
            "elapsed_s": self.elapsed_s,
        }


def records_frame(records, first_game=None, areas=AREAS, items=ITEMS):
    """Per-game records ``ndarray(int32, (n, RECORD_SIZE))`` as a tidy DataFrame; with
    ``first_game``, a leading ``game`` column numbers them from it; ``areas`` names the areas
    by id (:func:`area_names`) and ``items`` the item cards (:func:`item_cards`)."""
    cols = {} if first_game is None else {
        "game": np.arange(first_game, first_game + len(records))}
    for name, off, n in L.RECORD_FIELDS:
        if n == 1:
            cols[name] = records[:, off]
        elif name in ("traps_area", "rounds_area"):
            stem = name.split("_")[0]
            for a, area in enumerate(areas):
                cols[f"{stem}_{area}"] = records[:, off + a]
        elif name in ("used", "kept_item"):
            stem = name.split("_")[0]
            for item, i in items:
                cols[f"{stem}_{item}"] = records[:, off + i]
        else:
            for p in range(n):
                cols[f"{name}_{p}"] = records[:, off + p]
    df = pd.DataFrame(cols)
    df["outcome"] = pd.Categorical.from_codes(df["outcome"], categories=rules.OUTCOME_NAMES)
    return df
