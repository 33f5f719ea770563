"""The sweep report: figures and report.md from a small synthetic table (no simulation)."""
import json

import numpy as np
import pandas as pd
import pytest

from slashersim.analysis.report import (
    FIGURES,
    health_step_lines,
    health_steps,
    knob_effects,
    write_report,
)
from slashersim.core import rules
from slashersim.core.stats import wilson_interval
from slashersim.present import figures
from slashersim.present.figures import heatmap_table
from slashersim.runner.tables import (
    cells_played,
    derive_rates,
    knob_columns,
    load_table,
    pool_counts,
    pool_rounds_hist,
    varying_knobs,
)

PNG = b"\x89PNG\r\n\x1a\n"
MAX_ROUNDS = 30


def _row(health, hideaway, policy, games, seed, edition="rulebook", cursed_object=True):
    """One consistent row of counts: outcomes summing to games, a rounds_hist summing to
    games, traps per area at most the rounds played there (none in the Hideaway when out)."""
    rng = np.random.default_rng(seed)
    p_win = 0.05 + 0.04 * health + (0.03 if hideaway else 0.0) + (0.02 if policy == "b" else 0)
    probs = np.array([p_win, (1 - p_win) * 0.6, (1 - p_win) * 0.39, (1 - p_win) * 0.01])
    wins, loss_health, loss_traps, timeout = rng.multinomial(games, probs / probs.sum())
    ends = np.clip(rng.poisson(9 + health, size=games - timeout), 1, MAX_ROUNDS - 1)
    hist = np.bincount(ends, minlength=MAX_ROUNDS + 1)
    hist[MAX_ROUNDS] += timeout
    rounds = int((hist * np.arange(hist.size)).sum())
    row = {"health": health, "hideaway": hideaway, "edition": edition,
           "cursed_object": cursed_object, "policy": policy, "games": games,
           "wins": int(wins), "loss_health": int(loss_health), "loss_traps": int(loss_traps),
           "timeout": int(timeout), "rounds": rounds, "damage": 3 * games}
    share = rng.dirichlet(np.ones(len(rules.AREA_NAMES)))
    for a, area in enumerate(rules.AREA_NAMES):
        played = 0 if area == "hideaway" and not hideaway else int(rounds * share[a])
        row[f"traps_{area}"] = int(rng.binomial(played, min(0.9, 0.1 + 0.02 * a
                                                             + 0.01 * health)))
        row[f"rounds_{area}"] = played
    row["rounds_hist"] = [int(v) for v in hist]
    return row


def make_table(policies=("baseline",), games=2000, editions=("rulebook",), healths=(7, 5, 3),
               cursed=(True,)):
    rows, seed = [], 0
    for edition in editions:
        for health in healths:
            for hideaway in (False, True):
                for c in cursed:
                    for policy in policies:
                        rows.append(_row(health, hideaway, policy, games + 37 * seed, seed,
                                         edition, c))
                        seed += 1
    df = pd.DataFrame(rows)
    if df["cursed_object"].nunique() == 1:
        df = df.drop(columns=["cursed_object"])
    return derive_rates(df).drop(columns=[f"trap_rate_{a}" for a in rules.AREA_NAMES])


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
    rows = [row for row in lines if row.startswith("| ") and "baseline" in row]
    assert len(rows) == len(table)
    for _, r in table.iterrows():
        ci = f"{r['win_rate']:.4f} [{r['win_ci_low']:.4f}, {r['win_ci_high']:.4f}]"
        hits = [row for row in rows if ci in row]
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
        assert got["win_rate"] != pytest.approx((sub["wins"] / sub["games"]).mean(), abs=1e-9)
        low, high = wilson_interval(int(sub["wins"].sum()), int(sub["games"].sum()))
        assert (got["win_ci_low"], got["win_ci_high"]) == (low, high)
    everything = pool_counts(table, [])
    assert everything["wins"].iloc[0] == table["wins"].sum()
    single = pool_counts(load_table(table), ["health", "hideaway"])
    assert (single["win_ci_low"].to_numpy() == load_table(table)["win_ci_low"].to_numpy()).all()


def test_pooled_trap_rate_is_sum_of_traps_over_sum_of_rounds():
    """Pooling adds counts: a trap rate over several cells is all their traps over all their
    rounds there, not a games-weighted mean of the cells' rates."""
    df = make_table(policies=("baseline", "b"))
    pooled = pool_counts(df, ["policy"]).set_index("policy")
    for area in rules.AREA_NAMES:
        sub = df[df["policy"] == "b"]
        want = sub[f"traps_{area}"].sum() / sub[f"rounds_{area}"].sum()
        assert pooled.loc["b", f"trap_rate_{area}"] == want
        weighted = np.average(sub[f"traps_{area}"] / sub[f"rounds_{area}"].replace(0, np.nan),
                              weights=sub["games"].where(sub[f"rounds_{area}"] > 0, 0))
        if area != "hideaway":
            assert want != pytest.approx(weighted, abs=1e-12)


def test_hideaway_cells_are_counted_once_per_cell():
    """The cells where the Hideaway was played: distinct knob settings with rounds there,
    whatever the number of players (rows), so 3 of 6 cells, not 6 of 12 rows."""
    df = make_table(policies=("baseline", "b"))
    assert len(df) == 12
    assert cells_played(df, "hideaway") == (3, 6)
    assert cells_played(df, "lodge") == (6, 6)
    per = cells_played(df, "hideaway", by=["policy"])
    assert per == {"baseline": (3, 6), "b": (3, 6)}
    fig = figures.trap_rate_by_area(df)
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert "Hideaway\n3 of 6 cells" in labels and "Lodge" in labels


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
    assert df.attrs["slashersim"] is None
    report = write_report(csv, tmp_path / "rep", title="From CSV")
    text = report.read_text()
    assert text.startswith("# From CSV\n")
    assert "carries no provenance" in text
    assert (tmp_path / "rep" / "rounds_distribution.png").read_bytes().startswith(PNG)


def test_parquet_input(table, tmp_path):
    path = tmp_path / "sweep.parquet"
    table.to_parquet(path, index=False)
    df = load_table(path)
    assert df["rounds_hist"].tolist() == table["rounds_hist"].tolist()
    assert pool_rounds_hist(df).sum() == table["games"].sum()


@pytest.mark.parametrize("column", ["wins", "policy", "games"])
def test_missing_column_is_named(table, tmp_path, column):
    with pytest.raises(ValueError, match=column):
        write_report(table.drop(columns=[column]), tmp_path)


def test_unknown_heatmap_knob_is_named(table, tmp_path):
    with pytest.raises(ValueError, match="escapes_needed"):
        write_report(table, tmp_path, heatmap_knobs=("health", "escapes_needed"))


def test_win_rate_by_health_needs_a_health_axis(table):
    with pytest.raises(ValueError, match="health"):
        figures.win_rate_by_health(table[table["health"] == 7])
    with pytest.raises(ValueError, match="health"):
        figures.win_rate_by_health(table.drop(columns=["health"]))


def test_figures_that_cannot_be_drawn_are_skipped(table, tmp_path):
    one = table[table["health"] == 7].drop(columns=["rounds_hist"])
    report = write_report(one, tmp_path)
    text = report.read_text()
    assert "Not drawn (win_rate_by_health.png)" in text
    assert "Not drawn (heatmap.png): fewer than two knobs vary" in text
    assert "Not drawn (rounds_distribution.png)" in text and "rounds_hist" in text
    assert not (tmp_path / "win_rate_by_health.png").exists()
    assert (tmp_path / "loss_causes.png").read_bytes().startswith(PNG)


def test_areas_never_played_are_left_out(table):
    df = table.assign(rounds_fire_pit=0, traps_fire_pit=0)
    fig = figures.trap_rate_by_area(df)
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert "Fire pit" not in labels and "Lodge" in labels


def test_items_used_and_kept_per_game_by_player(tmp_path):
    """The Items section pools the item counts of each policy's rows and divides by its games;
    a table without item columns has no such section."""
    df = make_table(policies=("a", "b"), games=1000)
    for i, item in enumerate(rules.ITEM_STAT_NAMES):
        df[f"used_{item}"] = [(i + 1) * (1 if p == "a" else 2) for p in df["policy"]]
        df[f"kept_{item}"] = 3
    df["killer_draws"], df["extra_draws"], df["gifts"] = 5, 0, 7
    text = write_report(df, tmp_path / "r").read_text()
    assert "## Items" in text
    games = df.groupby("policy")["games"].sum()
    line = next(row for row in text.splitlines() if row.startswith("| flashlight |"))
    cells = [c.strip() for c in line.strip("|").split("|")][1:]
    # 6 rows per policy; the flashlight (item 7) is used 8 times a row by a, 16 by b
    assert cells == [f"{6 * 8 / games['a']:.3f}", f"{6 * 3 / games['a']:.3f}",
                     f"{6 * 16 / games['b']:.3f}", f"{6 * 3 / games['b']:.3f}"]
    assert "flashlight" not in knob_columns(df)
    plain = write_report(make_table(), tmp_path / "p").read_text()
    assert "## Items" not in plain


# --- figures a person can read -------------------------------------------------------------------

@pytest.fixture(scope="module")
def study():
    """A table shaped like the difficulty study: 2 editions x health 1..7 x Hideaway x Cursed
    Object x 2 players = 112 rows."""
    return make_table(policies=("baseline", "heuristic"), editions=("rulebook", "instructions"),
                      healths=range(7, 0, -1), cursed=(True, False), games=3000)


def _png_size(path):
    from PIL import Image
    with Image.open(path) as im:
        return im.size


def test_every_figure_fits_a_page(study, tmp_path):
    """No figure over 2400 px a side or 3:1, at most 5 legend entries, a title naming the
    players and the games, and a panel per edition and player (never pooled)."""
    write_report(study, tmp_path, heatmap_knobs=("health", "hideaway"))
    for name in FIGURES:
        w, h = _png_size(tmp_path / name)
        assert max(w, h) <= 2400 and max(w, h) / min(w, h) <= 3, (name, w, h)
    for make in (figures.win_rate_by_health, figures.loss_causes, figures.trap_rate_by_area,
                 figures.rounds_distribution, lambda d: figures.heatmap(d, "health", "hideaway")):
        fig = make(study)
        assert figures.legend_entries(fig) <= figures.MAX_LEGEND
        title = fig._suptitle.get_text().replace("\n", " ")
        assert "players baseline, heuristic" in title and "games per cell and player" in title
    titles = {ax.get_title() for ax in figures.loss_causes(study).axes}
    assert {"rulebook · player baseline", "instructions · player heuristic"} <= titles
    heat = [ax.get_title() for ax in figures.heatmap(study, "health", "hideaway").axes
            if ax.get_title()]
    assert len(heat) == 4


def test_too_many_line_settings_are_pooled_and_said():
    """Three varying knobs besides health would need 8 lines: the last is pooled from the
    counts and the title says so."""
    df = make_table(policies=("a",), healths=(7, 4, 1), cursed=(True, False))
    df = pd.concat([df.assign(traps=3), df.assign(traps=2)], ignore_index=True)
    fig = figures.win_rate_by_health(df)
    assert figures.legend_entries(fig) == 4
    assert "pooled over traps that lose 2, 3" in fig._suptitle.get_text().replace("\n", " ")


def test_health_steps_explain_a_flat_step():
    """A table where health 4 wins less than health 3 under instructions: the report names the
    step, the white colours of the configuration (red at 3, yellow at 4) and the Killer draws
    per game that the counts give."""
    df = make_table(policies=("a",), editions=("instructions",), healths=(3, 4))
    df = df[df["hideaway"]].copy()
    df.loc[df["health"] == 4, "wins"] = df.loc[df["health"] == 3, "wins"].iloc[0] // 2
    df["killer_draws"] = np.where(df["health"] == 4, 2 * df["games"], df["games"])
    for item in rules.ITEM_STAT_NAMES:
        df[f"used_{item}"], df[f"kept_{item}"] = 1, 1
    df["extra_draws"], df["gifts"] = 0, 0
    steps = health_steps(df)
    assert len(steps) == 1
    step = steps.iloc[0]
    assert (step["white"], step["white_next"]) == ("red", "yellow") and not step["helps"]
    assert step["killer_draws"] == 1 and step["killer_draws_next"] == 2
    text = "\n".join(health_step_lines(df))
    assert "health 4 wins less than health 3" in text
    assert "Whites turn from red at health 3 to yellow at health 4" in text
    assert "drew the Killer 2.00 times a game against 1.00 (+100%)" in text
