"""What a run returns: its counts, named once, and its per-game records as a DataFrame.

A run reduces to one ``int64`` array of counts laid out by ``core.layout.K_*``. The counts
become named fields in one place, from the field registry (``core.fields.COUNTS``):
:func:`count_fields` (the columns of a sweep table) and :func:`answer_counts` (the counts of
the ``simulate --json`` object), and :class:`SimulationResult` adds the rates a reader wants,
always computed from the counts. The records' columns are the registry's too
(``core.fields.RECORDS``, :func:`records_frame`).
"""
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core import fields as F
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


def count_slots(count, counts, areas=AREAS, items=ITEMS):
    """The slots of the count ``count`` (a ``core.fields.Count``) in a run's ``counts``, as
    answers name them: one number; ``{name: number}`` for one per area (``areas``), item card
    (``items``: ``(name, item id)``), outcome (``win``, ``loss_health``, ...), round of a loss
    (``"1"``, ``"2"``, ..., the last ``"12+"``: that round or later) or place of the Killer
    (``"1"``, ...); or, for a histogram by round, a list from round 0 with trailing zeros cut."""
    if count.per == F.OPEN:
        hist = [int(x) for x in L.open_count(counts, count.name)]
        while hist and hist[-1] == 0:
            hist.pop()
        return hist
    at = L.COUNT_OFFSETS[count.name]
    c = [int(x) for x in counts[at:at + count.slots]]
    if count.per == F.AREA:
        return {a: c[i] for i, a in enumerate(areas)}
    if count.per == F.ITEM:
        return {item: c[i] for item, i in items}
    if count.per == F.OUTCOME:
        return dict(zip(rules.OUTCOME_NAMES[1:], c[1:]))
    if count.per == F.LOSS_ROUND:
        last = F.MAX_LOSS_ROUND
        return {(f"{r}+" if r == last else str(r)): c[r] for r in range(1, last + 1)}
    if count.per == F.KILLER_PLACE:
        return {str(k): c[k] for k in range(1, F.MAX_KILLER_START + 1)}
    return c[0] if count.per == F.GAME else c


def count_fields(counts, areas=AREAS, items=ITEMS):
    """The named integer totals of a run's ``counts`` (``core.layout.K_*``): the count columns
    of a sweep table, each count of the field registry that has a column (``core.fields``), in
    its order: ``games``, ``wins``, ``loss_health``, ``loss_traps``, ``timeout``,
    ``invariant_violations``, ``rounds``, ``damage``, ``traps_<area>``, ``rounds_<area>``,
    ``rounds_hist`` (games that ended in round 0, 1, ..., trailing zeros cut), ``used_<item>``,
    ``kept_<item>``, ... ``areas`` names the areas by id (:func:`area_names`), ``items`` the
    item cards (:func:`item_cards`)."""
    out = {}
    for count in F.COUNTS:
        if not count.column:
            continue
        value = count_slots(count, counts, areas, items)
        if count.per in (F.AREA, F.ITEM):
            out.update({f"{count.column}_{name}": n for name, n in value.items()})
        elif count.per == F.OUTCOME:
            out.update(zip(F.OUTCOME_COLUMNS, value.values()))
        else:
            out[count.column] = value
    return out


def answer_counts(counts, areas=AREAS, items=ITEMS):
    """The counts a run's answer shows (``summary()``): each count of the field registry with
    an ``answer``, at its dotted key (``item_stats.used``: ``{"item_stats": {"used": ...}}``),
    named as :func:`count_slots` names them."""
    out = {}
    for count in F.COUNTS:
        if count.answer:
            *path, key = count.answer.split(".")
            place = out
            for part in path:
                place = place.setdefault(part, {})
            place[key] = count_slots(count, counts, areas, items)
    return out


def loss_fields(counts, areas=AREAS):
    """Why the games of ``counts`` were lost, as counts: ``health_by_area`` and
    ``traps_by_area`` (area -> games lost in a round played there), ``health_by_round``
    (``"1"``, ``"2"``, ... -> games in which the Killer took a last health in that round; the
    last key, ``"12+"``, counts that round and later), the other counts of the registry under
    ``losses``, and ``timeout``. Not columns of a sweep table: a run's answer only."""
    return {**answer_counts(counts, areas).get("losses", {}),
            "timeout": int(counts[L.K_OUTCOMES + rules.TIMEOUT])}


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
        """Item totals over all games (the registry's counts under ``item_stats``): ``used``
        and ``kept`` (item name -> count; a Cursed Object counts as used when drawn),
        ``killer_draws``, ..."""
        return self.answer_counts()["item_stats"]

    def answer_counts(self):
        """The counts the answer shows (:func:`answer_counts`), named by the run's cards."""
        return answer_counts(self.counts, self.areas, item_cards(self.config))

    def rounds_histogram(self):
        """Games that ended in round r, for r = 0..max_rounds."""
        return L.open_count(self.counts, "rounds_hist").copy()

    def summary(self):
        """The run as one JSON-ready dict (the ``simulate --json`` object).

        Rates come with the counts they are made of, so runs can be pooled by adding: the
        counts of the field registry that answers show (``core.fields.COUNTS``: ``outcomes``
        (games per outcome), ``rounds`` and ``damage`` (totals), ``traps_by_area`` beside
        ``rounds_by_area``, ``rounds_hist`` (games that ended in round 0, 1, ..., trailing zeros
        cut), ``item_stats``, ``losses``, ...). ``config`` is every rule in force (with a card
        file, its content's hash) and ``rules_id`` names them by content
        (:class:`~slashersim.core.identity.RulesId`): runs may be pooled only when it agrees."""
        f = self.fields
        g = f["games"]
        low, high = self.win_ci
        counts = self.answer_counts()
        counts["losses"] = loss_fields(self.counts, self.areas)
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
            **counts,
            "win_rate_by_killer_start": self.win_rate_by_killer_start(),
            "config": self.config.describe(),
            "rules_id": self.config.rules_id.digest,
            "policy": self.policy,
            "policy_params": dict(self.params),
            "seed": self.seed,
            "elapsed_s": self.elapsed_s,
        }


def records_frame(records, first_game=None, areas=AREAS, items=ITEMS):
    """Per-game records ``ndarray(int32, (n, RECORD_SIZE))`` as a tidy DataFrame, one column per
    slot of each field of the field registry (``core.fields.RECORDS``): ``<name>``, one per
    player ``<name>_<p>``, one per area or item card ``<stem>_<name>``; with ``first_game``, a
    leading ``game`` column numbers them from it; ``areas`` names the areas by id
    (:func:`area_names`) and ``items`` the item cards (:func:`item_cards`)."""
    cols = {} if first_game is None else {
        "game": np.arange(first_game, first_game + len(records))}
    for rec in F.RECORDS:
        off = L.RECORD_OFFSETS[rec.name]
        if rec.per == F.GAME:
            cols[rec.name] = records[:, off]
        elif rec.per == F.AREA:
            for a, area in enumerate(areas):
                cols[f"{rec.column}_{area}"] = records[:, off + a]
        elif rec.per == F.ITEM:
            for item, i in items:
                cols[f"{rec.column}_{item}"] = records[:, off + i]
        else:
            for p in range(rec.slots):
                cols[f"{rec.name}_{p}"] = records[:, off + p]
    df = pd.DataFrame(cols)
    df["outcome"] = pd.Categorical.from_codes(df["outcome"], categories=rules.OUTCOME_NAMES)
    return df
