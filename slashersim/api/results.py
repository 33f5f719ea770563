"""The results of the public API's functions (:mod:`slashersim.api`): each holds the
JSON-ready answer of its command and turns into a pandas DataFrame with ``to_frame()``."""
from __future__ import annotations

from collections.abc import Sequence
import copy
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..analysis.compare import pair
from ..core import rules
from ..core.config import GameConfig
from ..policies.python import policy_label
from ..present.text import (
    config_line,
    format_comparison,
    format_killer_effects,
    format_summary,
    format_variants,
)
from ..runner import SimulationResult
from ..runner.result import item_cards
from ..runner.tables import (
    TABLE_COLUMNS,
    TRAP_RATE_COLUMNS,
    added_columns,
    derive_rates,
    row_from_counts,
)


def _ci(value: Sequence[float] | None) -> tuple[float, float]:
    return (np.nan, np.nan) if value is None else (float(value[0]), float(value[1]))


# --- results ---------------------------------------------------------------------------------

def _knob_columns(config: GameConfig) -> dict[str, Any]:
    """The knobs of a one-row frame: the edition and the difficulty knobs (docs/rules.md,
    "The difficulty knobs", with the edition's values filled in), then every other field that
    differs from the edition's defaults."""
    values = config.resolved()
    defaults = GameConfig(edition=config.edition).resolved()
    out = {"edition": values["edition"], **{k: values[k] for k in rules.DIFFICULTY_KNOBS}}
    for key, value in values.items():
        if key not in out and value != defaults[key]:
            out[key] = value
    return out


@dataclass(repr=False, eq=False)
class Simulation(SimulationResult):
    """The result of :func:`simulate`: a :class:`~slashersim.runner.SimulationResult` (its
    ``win_rate``, ``win_ci``, ``games``, ``wins``, ``summary()``, ``counts``, ``records``,
    ...) that also turns into a DataFrame.

    ``records`` is one row per game (a DataFrame) when the run asked for ``records=True``,
    else ``None``.
    """

    @classmethod
    def of(cls, result: SimulationResult) -> Simulation:
        """``result`` as a :class:`Simulation` (the same attributes, not copied)."""
        out = cls.__new__(cls)
        out.__dict__.update(result.__dict__)
        return out

    def to_frame(self) -> pd.DataFrame:
        """The run as one tidy row, in the columns of a sweep table row
        (:mod:`slashersim.runner.tables`): the knobs (``edition``, ``health``, ``hideaway``,
        ``cursed_object``, ``escapes_needed``, ``traps``, then any other knob set away from
        the edition's value), ``policy``, ``seed``, the counts (``games``, ``wins``,
        ``loss_health``, ..., ``rounds_hist``, the item totals), ``win_rate`` with its 95 %
        Wilson interval ``win_ci_low`` / ``win_ci_high``, ``mean_rounds`` and
        ``trap_rate_<area>`` (NaN where never played). Rows of several runs concatenate with
        :func:`pandas.concat` and pool with :func:`slashersim.runner.tables.pool_counts`."""
        knobs = _knob_columns(self.config)
        row = row_from_counts(knobs, {}, policy_label(self.policy), self.counts,
                              areas=self.areas, items=item_cards(self.config))
        row["seed"] = self.seed
        df = derive_rates(pd.DataFrame([row]))
        added = added_columns(df.columns)
        columns = [*knobs, "policy", "seed", *(c for c in TABLE_COLUMNS if c not in
                                                 ("policy", "cell")), *added,
                   *TRAP_RATE_COLUMNS, *(f"trap_rate_{c[len('traps_'):]}" for c in added
                                         if c.startswith("traps_"))]
        return df[columns]

    def __repr__(self) -> str:
        return format_summary(self.summary())


@dataclass(frozen=True, repr=False)
class _Answer:
    """A command's JSON-ready answer (``result``), with its seed, configuration and a copy."""

    result: dict

    @property
    def seed(self) -> int:
        return self.result["seed"]

    @property
    def config(self) -> GameConfig:
        """The configuration played."""
        return GameConfig(**self.result["config"])

    def summary(self) -> dict:
        """The JSON-ready object of the command's ``--json`` output (a copy)."""
        return copy.deepcopy(self.result)


@dataclass(frozen=True, repr=False)
class Comparison(_Answer):
    """The result of :func:`compare`: players side by side on the same games.

    Attributes
    ----------
    result : dict
        The JSON-ready object of ``slashersim compare --json``
        (:func:`slashersim.analysis.compare.compare_policies`).
    """

    result: dict

    @property
    def policies(self) -> pd.DataFrame:
        """One row per player: ``label`` (the policy, ``name#2`` for its second row),
        ``policy``, ``games``, ``wins``, ``win_rate``, ``win_ci_low``, ``win_ci_high``
        (95 % Wilson), ``loss_health``, ``loss_traps``, ``timeout`` (fractions of games),
        ``mean_rounds``, ``invariant_violations``, ``omniscient``, ``params`` (the parameter
        vector), ``elapsed_s`` and ``trap_rate_<area>`` (NaN where never played)."""
        rows = []
        for r in self.result["policies"]:
            low, high = _ci(r["win_ci"])
            rows.append({"label": r["label"], "policy": policy_label(r["policy"]),
                         "games": r["games"], "wins": r["wins"], "win_rate": r["win_rate"],
                         "win_ci_low": low, "win_ci_high": high,
                         "loss_health": r["loss_health"], "loss_traps": r["loss_traps"],
                         "timeout": r["timeout"], "mean_rounds": r["mean_rounds"],
                         "invariant_violations": r["invariant_violations"],
                         "omniscient": r["omniscient"], "params": list(r["params"]),
                         "elapsed_s": r["elapsed_s"],
                         **{f"trap_rate_{a}": np.nan if v is None else v
                            for a, v in r["trap_rate_by_area"].items()}})
        return pd.DataFrame(rows)

    @property
    def pairs(self) -> pd.DataFrame:
        """One row per pair of players ``a`` before ``b``: ``games`` both played,
        ``win_rate_a``, ``win_rate_b`` (over those games), ``difference`` = ``win_rate_b -
        win_rate_a`` with its paired 95 % interval ``difference_ci_low`` /
        ``difference_ci_high`` (NaN for one game), the interval independent samples would
        give, ``unpaired_ci_low`` / ``unpaired_ci_high``, and the discordant games
        ``only_a_won``, ``only_b_won``."""
        columns = ["a", "b", "games", "win_rate_a", "win_rate_b", "difference",
                   "difference_ci_low", "difference_ci_high", "unpaired_ci_low",
                   "unpaired_ci_high", "only_a_won", "only_b_won"]
        rows = []
        for p in self.result["pairs"]:
            d_low, d_high = _ci(p["difference_ci"])
            u_low, u_high = _ci(p["unpaired_ci"])
            rows.append({**{k: p[k] for k in ("a", "b", "games", "win_rate_a", "win_rate_b",
                                              "difference")},
                         "difference_ci_low": d_low, "difference_ci_high": d_high,
                         "unpaired_ci_low": u_low, "unpaired_ci_high": u_high,
                         "only_a_won": p["only_a_won"], "only_b_won": p["only_b_won"]})
        return pd.DataFrame(rows, columns=columns)

    def pair(self, a: str, b: str) -> dict | None:
        """The pair of rows ``a`` and ``b`` (labels) as ``b - a``, a dict; ``None`` if either
        is missing."""
        return pair(self.result, a, b)

    def to_frame(self) -> pd.DataFrame:
        """One row per player: :attr:`policies`."""
        return self.policies

    def __repr__(self) -> str:
        return format_comparison(self.result, config_line(self.result["config"]))


@dataclass(frozen=True, repr=False)
class VariantComparison(_Answer):
    """The result of :func:`compare` with ``variants``: how much each rule variant changes
    each player's win rate, on the same games.

    Attributes
    ----------
    result : dict
        The JSON-ready object of ``slashersim compare --variant ... --json``
        (:func:`slashersim.analysis.compare.compare_variants`).
    """

    result: dict

    @property
    def changes(self) -> pd.DataFrame:
        """One row per variant and player: ``variant``, ``player``, ``games``,
        ``win_rate_base``, ``win_rate_variant``, ``difference`` (the variant's win rate minus
        the base's, game by game) and its 95 % interval ``difference_ci_low`` /
        ``difference_ci_high``."""
        return _with_ci(self.result["changes"])

    @property
    def contrasts(self) -> pd.DataFrame:
        """One row per variant and pair of players ``a`` before ``b``: ``games`` both played,
        ``difference`` (``b``'s change minus ``a``'s: does the variant help ``b`` more?) and
        its 95 % interval ``difference_ci_low`` / ``difference_ci_high``."""
        return _with_ci(self.result["contrasts"])

    def to_frame(self) -> pd.DataFrame:
        """One row per variant and player: :attr:`changes`."""
        return self.changes

    def __repr__(self) -> str:
        return format_variants(self.result, config_line(self.result["config"]))


def _with_ci(rows: list[dict]) -> pd.DataFrame:
    out = []
    for row in rows:
        low, high = _ci(row["difference_ci"])
        out.append({**{k: v for k, v in row.items() if k != "difference_ci"},
                    "difference_ci_low": low, "difference_ci_high": high})
    return pd.DataFrame(out)


@dataclass(frozen=True, repr=False)
class LuckResult(_Answer):
    """The result of :func:`luck`: the win rate and effect of each starting position of the
    Killer in the first item deck (1 = top).

    Attributes
    ----------
    result : dict
        The JSON-ready object of ``slashersim luck killer --json``
        (:func:`slashersim.analysis.luck.killer_position_effects`).
    """

    result: dict

    @property
    def average(self) -> float:
        """The average of the per-position win rates (every position played)."""
        return self.result["average"]

    @property
    def invariant_violations(self) -> int:
        return self.result["invariant_violations"]

    @property
    def policy(self) -> str:
        return policy_label(self.result["policy"])


    def to_frame(self) -> pd.DataFrame:
        """One row per reported position: ``position`` (1 = top), ``games``, ``win_rate``,
        ``win_ci_low``, ``win_ci_high`` (95 % Wilson), ``effect`` (the win rate minus
        :attr:`average`) and its paired 95 % interval ``effect_ci_low`` /
        ``effect_ci_high`` (NaN for one game)."""
        rows = []
        for k, p in self.result["positions"].items():
            low, high = _ci(p["win_ci"])
            e_low, e_high = _ci(p["effect_ci"])
            rows.append({"position": int(k), "games": p["games"], "win_rate": p["win_rate"],
                         "win_ci_low": low, "win_ci_high": high, "effect": p["effect"],
                         "effect_ci_low": e_low, "effect_ci_high": e_high})
        return pd.DataFrame(rows, columns=["position", "games", "win_rate", "win_ci_low",
                                           "win_ci_high", "effect", "effect_ci_low",
                                           "effect_ci_high"])

    def __repr__(self) -> str:
        return format_killer_effects(self.result)
