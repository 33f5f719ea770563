"""The sweep report: figures and report.md from a small synthetic table (no simulation)."""
import json

import numpy as np
import pandas as pd
import pytest

from slashersim import rules
from slashersim.analysis import plots
from slashersim.analysis.plots import (heatmap_table, load_table, pool_counts, pool_rounds_hist,
                                       varying_knobs, weighted_trap_rates)
from slashersim.analysis.report import FIGURES, knob_effects, write_report
from slashersim.stats import wilson_interval

PNG = b"\x89PNG\r\n\x1a\n"
MAX_ROUNDS = 30


def _row(health, hideaway, policy, games, seed):
    """One consistent row: outcome counts summing to games, a rounds_hist summing to games."""
    rng = np.random.default_rng(seed)
    p_win = 0.05 + 0.04 * health + (0.03 if hideaway else 0.0) + (0.02 if policy == "b" else 0)
    probs = np.array([p_win, (1 - p_win) * 0.6, (1 - p_win) * 0.39, (1 - p_win) * 0.01])
    wins, loss_health, loss_traps, timeout = rng.multinomial(games, probs / probs.sum())
    ends = np.clip(rng.poisson(9 + health, size=games - timeout), 1, MAX_ROUNDS - 1)
    hist = np.bincount(ends, minlength=MAX_ROUNDS + 1)
    hist[MAX_ROUNDS] += timeout
    low, high = wilson_interval(int(wins), games)
    row = {"health": health, "hideaway": hideaway, "edition": "rulebook", "policy": policy,
           "games": games, "wins": int(wins), "win_rate": wins / games, "win_ci_low": low,
           "win_ci_high": high, "loss_health": int(loss_health), "loss_traps": int(loss_traps),
           "timeout": int(timeout), "mean_rounds": float((hist * np.arange(hist.size)).sum())
           / games}
    for a, area in enumerate(rules.AREA_NAMES):
        row[f"trap_rate_{area}"] = np.nan if area == "hideaway" and not hideaway \
            else 0.1 + 0.02 * a + 0.01 * health
    row["rounds_hist"] = [int(v) for v in hist]
    return row


def make_table(policies=("baseline",), games=2000):
    rows, seed = [], 0
    for health in (7, 5, 3):
        for hideaway in (False, True):
            for policy in policies:
                rows.append(_row(health, hideaway, policy, games + 37 * seed, seed))
                seed += 1
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def table():
    return make_table()


@pytest.fixture(scope="module")
def report_dir(table, tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "nested" / "out"
    path = write_report(table, out)
    assert path == out / "report.md"
    return out


def test_every_figure_is_a_png(report_dir):
    for name in FIGURES:
        data = (report_dir / name).read_bytes()
        assert data.startswith(PNG), name
        assert len(data) > 5000, name


def test_report_mentions_every_row_and_figure(table, report_dir):
    text = (report_dir / "report.md").read_text()
    assert text.startswith("# Sweep report\n")
    for name in FIGURES:
        assert f"]({name})" in text, name
    assert "Not drawn" not in text
    lines = text.splitlines()
    rows = [l for l in lines if l.startswith("| ") and "baseline" in l]
    assert len(rows) == len(table)
    for _, r in table.iterrows():
        ci = f"{r['win_rate']:.4f} [{r['win_ci_low']:.4f}, {r['win_ci_high']:.4f}]"
        hits = [l for l in rows if ci in l]
        assert len(hits) == 1, ci
        cells = [c.strip() for c in hits[0].strip("|").split("|")]
        assert cells[:3] == [str(r["health"]), str(r["hideaway"]), "baseline"]
        assert cells[5] == f"{r['loss_health'] / r['games']:.4f}"
    assert f"{int(table['games'].sum()):,} games in all" in text
    assert "6 cells × 1 policy" in text
    assert "edition = rulebook" in text
    best = table.loc[table["win_rate"].idxmax()]
    assert f"Easiest: health={best['health']}, hideaway={best['hideaway']}" in text
    assert "Effect of health" in text and "Effect of hideaway" in text


def test_pool_counts_sums_counts(table):
    pooled = pool_counts(table, ["hideaway"])
    for hideaway in (False, True):
        sub = table[table["hideaway"] == hideaway]
        got = pooled[pooled["hideaway"] == hideaway].iloc[0]
        assert got["games"] == sub["games"].sum() and got["wins"] == sub["wins"].sum()
        assert got["win_rate"] == sub["wins"].sum() / sub["games"].sum()
        # games differ per row, so the mean of the rates is not the pooled rate
        assert got["win_rate"] != pytest.approx(sub["win_rate"].mean(), abs=1e-9)
        low, high = wilson_interval(int(sub["wins"].sum()), int(sub["games"].sum()))
        assert (got["win_ci_low"], got["win_ci_high"]) == (low, high)
    everything = pool_counts(table, [])
    assert everything["wins"].iloc[0] == table["wins"].sum()
    single = pool_counts(table, ["health", "hideaway"])
    assert (single["win_ci_low"].to_numpy() == table["win_ci_low"].to_numpy()).all()


def test_heatmap_values_are_pooled_counts():
    df = make_table(policies=("baseline", "b"))
    grid = heatmap_table(df, "hideaway", "health")
    assert list(grid.index) == [3, 5, 7] and list(grid.columns) == [False, True]
    for health in (3, 5, 7):
        for hideaway in (False, True):
            sub = df[(df["health"] == health) & (df["hideaway"] == hideaway)]
            assert grid.loc[health, hideaway] == sub["wins"].sum() / sub["games"].sum()
    one = heatmap_table(df, "hideaway", "health", policy="b")
    sub = df[(df["health"] == 5) & (df["hideaway"]) & (df["policy"] == "b")]
    assert one.loc[5, True] == sub["wins"].sum() / sub["games"].sum()
    with pytest.raises(ValueError, match="nope"):
        heatmap_table(df, "hideaway", "health", policy="nope")


def test_knob_effects_pool_counts():
    df = make_table(policies=("baseline", "b"))
    effects = knob_effects(df)
    assert set(effects) == {"health", "hideaway", "policy"}
    h = effects["health"].set_index("value")
    for health in (7, 5, 3):
        sub = df[df["health"] == health]
        assert h.loc[health, "win_rate"] == sub["wins"].sum() / sub["games"].sum()
    assert h.loc[7, "diff"] == 0 and h.loc[3, "diff"] == h.loc[3, "win_rate"] - h.loc[7, "win_rate"]


def test_csv_input_with_json_rounds_hist(table, tmp_path):
    csv = tmp_path / "sweep.csv"
    out = table.assign(rounds_hist=[json.dumps(h) for h in table["rounds_hist"]])
    out.to_csv(csv, index=False)
    df = load_table(csv)
    assert df["rounds_hist"].tolist() == table["rounds_hist"].tolist()
    assert varying_knobs(df) == ["health", "hideaway"]
    report = write_report(csv, tmp_path / "rep", title="From CSV")
    text = report.read_text()
    assert text.startswith("# From CSV\n")
    assert (tmp_path / "rep" / "rounds_distribution.png").read_bytes().startswith(PNG)


def test_parquet_input(table, tmp_path):
    path = tmp_path / "sweep.parquet"
    table.to_parquet(path, index=False)
    df = load_table(path)
    assert df["rounds_hist"].tolist() == table["rounds_hist"].tolist()
    assert pool_rounds_hist(df).sum() == table["games"].sum()


@pytest.mark.parametrize("column", ["wins", "policy", "win_ci_high"])
def test_missing_column_is_named(table, tmp_path, column):
    with pytest.raises(ValueError, match=column):
        write_report(table.drop(columns=[column]), tmp_path)


def test_unknown_heatmap_knob_is_named(table, tmp_path):
    with pytest.raises(ValueError, match="escapes_needed"):
        write_report(table, tmp_path, heatmap_knobs=("health", "escapes_needed"))


def test_win_rate_by_health_needs_a_health_axis(table):
    with pytest.raises(ValueError, match="health"):
        plots.win_rate_by_health(table[table["health"] == 7])
    with pytest.raises(ValueError, match="health"):
        plots.win_rate_by_health(table.drop(columns=["health"]))


def test_figures_that_cannot_be_drawn_are_skipped(table, tmp_path):
    one = table[table["health"] == 7].drop(columns=["rounds_hist"])
    report = write_report(one, tmp_path)
    text = report.read_text()
    assert "Not drawn (win_rate_by_health.png)" in text
    assert "Not drawn (heatmap.png): fewer than two knobs vary" in text
    assert "Not drawn (rounds_distribution.png)" in text and "rounds_hist" in text
    assert not (tmp_path / "win_rate_by_health.png").exists()
    assert (tmp_path / "loss_causes.png").read_bytes().startswith(PNG)


def test_trap_rates_weighted_by_games_over_many_rows(tmp_path):
    df = make_table(policies=("baseline", "b"))
    assert len(df) > plots.MAX_TRAP_ROWS
    rates = weighted_trap_rates(df, ["policy"]).set_index("policy")
    sub = df[(df["policy"] == "b") & df["hideaway"]]
    want = (sub["trap_rate_hideaway"] * sub["games"]).sum() / sub["games"].sum()
    assert rates.loc["b", "trap_rate_hideaway"] == pytest.approx(want)
    fig = plots.trap_rate_by_area(df)
    assert "weighted by games" in fig.axes[0].get_title()
    report = write_report(df, tmp_path)
    assert "policy b" in report.read_text() or "| b |" in report.read_text()


def test_areas_never_played_are_left_out(table):
    df = table.assign(trap_rate_fire_pit=np.nan)
    fig = plots.trap_rate_by_area(df)
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert "Fire pit" not in labels and "Lodge" in labels


def test_items_used_and_kept_per_game_by_player(tmp_path):
    """The Items section pools the item counts of each policy's rows and divides by its games;
    a table without item columns has no such section."""
    df = make_table(policies=("a", "b"), games=1000)
    for i, item in enumerate(rules.ITEM_STAT_NAMES):
        df[f"used_{item}"] = [(i + 1) * (1 if p == "a" else 2) for p in df["policy"]]
        df[f"kept_{item}"] = 3
    df["killer_draws"], df["cabins_extra_draws"], df["gifts"] = 5, 0, 7
    text = write_report(df, tmp_path / "r").read_text()
    assert "## Items" in text
    games = df.groupby("policy")["games"].sum()
    line = next(l for l in text.splitlines() if l.startswith("| flashlight |"))
    cells = [c.strip() for c in line.strip("|").split("|")][1:]
    # 6 rows per policy; the flashlight (item 7) is used 8 times a row by a, 16 by b
    assert cells == [f"{6 * 8 / games['a']:.3f}", f"{6 * 3 / games['a']:.3f}",
                     f"{6 * 16 / games['b']:.3f}", f"{6 * 3 / games['b']:.3f}"]
    assert "flashlight" not in plots.knob_columns(df)
    plain = write_report(make_table(), tmp_path / "p").read_text()
    assert "## Items" not in plain
