"""Every matplotlib figure of the product, in one style: the report's figures of a sweep table
and the figures of an answer (``--png`` of ``compare``, ``luck`` and ``luck timeline``).

Each figure function takes a JSON-ready result, a sweep table (a DataFrame, or a ``.parquet`` /
``.csv`` path read by :func:`slashersim.runner.tables.load_table`) or the dict an analysis returns
(what its command's ``--json`` prints), and returns a :class:`matplotlib.figure.Figure` drawn
on the Agg canvas; nothing goes through ``pyplot``, so no figure stays open and no GUI backend
is touched. Save one with ``fig.savefig(path)``.

- :mod:`.style`: the one style (:data:`STYLE`), the size limits and the blank figure;
- :mod:`.sweep_table`: the figures of a sweep table and the words of their titles;
- :mod:`.answers`: the figures of an answer.

The page's own figures (Bokeh) stay with the page, in :mod:`slashersim.serve`.
"""
from .answers import (
    comparison_figure,
    effect_rows_figure,
    effects_figure,
    hazard_figure,
    timeline_figure,
    variants_figure,
)
from .style import DPI, MAX_INCHES, MAX_LEGEND, STYLE, legend_entries, new_figure
from .sweep_table import (
    AREAS,
    KNOB_WORDS,
    OUTCOMES,
    SUMMARY_KNOBS,
    FigureUnavailable,
    area_words,
    configuration_words,
    format_value,
    games_words,
    heatmap,
    heatmap_table,
    knob_words,
    loss_causes,
    ordered_values,
    players_words,
    pooled_words,
    resolved_configs,
    rounds_distribution,
    row_labels,
    setting_words,
    tick_words,
    trap_rate_by_area,
    win_rate_by_health,
    x_knob,
)

__all__ = [
    # the figures of a sweep table (the report's)
    "win_rate_by_health", "heatmap", "loss_causes", "trap_rate_by_area", "rounds_distribution",
    # the figures of an answer
    "comparison_figure", "variants_figure", "effects_figure", "effect_rows_figure",
    "timeline_figure", "hazard_figure",
    # the style and the frame
    "DPI", "MAX_INCHES", "MAX_LEGEND", "STYLE", "new_figure", "legend_entries",
    "FigureUnavailable",
    # the words of a sweep table's figures, and what they draw
    "AREAS", "KNOB_WORDS", "OUTCOMES", "SUMMARY_KNOBS", "area_words", "configuration_words",
    "format_value", "games_words", "heatmap_table", "knob_words", "ordered_values",
    "players_words", "pooled_words", "resolved_configs", "row_labels", "setting_words",
    "tick_words", "x_knob",
]
