"""Sweep tables on disk: provenance written and read back, ``slashersim info``, and tables of
the old format (rates, no provenance) loaded as far as counts allow. No games are played."""
import json
import os
from pathlib import Path
import subprocess
import sys
from types import SimpleNamespace

from helpers import assert_one_line_error, run_cli, run_main
import numpy as np
import pandas as pd
import pytest
from test_report import make_table

from slashersim.analysis.report import write_report
from slashersim.cli import main
from slashersim.core.config import GameConfig
from slashersim.present import figures
from slashersim.runner.tables import (
    FORMAT,
    TableError,
    knob_columns,
    load_table,
    pool_counts,
    read_provenance,
    sidecar_path,
    write_table,
)

ROOT = Path(__file__).resolve().parents[1]
#: a copy of the difficulty table as committed before table format 2
OLD = ROOT / "tests" / "data" / "difficulty.parquet"
#: a small table of format 2 (novice and casual, health 7 and 4, 300 games each), written by
#: the code of that format, whose column ``cabins_extra_draws`` is ``extra_draws`` since
FORMAT_2 = ROOT / "tests" / "data" / "table_format2.parquet"

PROVENANCE = {"format": FORMAT, "kind": "sweep", "created": "2026-12-03T00:00:00+00:00",
              "software": {"slashersim": "0.1.0", "git": {"commit": "a" * 40, "dirty": False},
                           "source_sha1": "b" * 40, "python": "3.11", "numpy": "2",
                           "numba": "0.6"},
              "command": "slashersim sweep spec.toml --out t.parquet", "spec_file": "spec.toml",
              "spec": {"sweep": {"games": 2000, "seed": 1, "policies": ["baseline"],
                                 "chunk_games": 2000},
                       "base": {}, "axes": {"health": [7, 5, 3], "hideaway": [False, True]}},
              "seed": 1, "games": 2000,
              "policies": [{"name": "baseline", "omniscient": False, "params": {}}],
              "cells": [{"cell": i, "knobs": {"health": h, "hideaway": w},
                         "config": {"edition": "rulebook", "health": h, "hideaway": w,
                                    "escapes_needed": 4, "traps": 3, "max_rounds": 200,
                                    "item_timing": "item_phase"}}
                        for i, (h, w) in enumerate((h, w) for h in (7, 5, 3)
                                                   for w in (False, True))]}


@pytest.fixture
def written(tmp_path):
    df = make_table().assign(cell=range(6))
    write_table(df, tmp_path / "t.parquet", PROVENANCE)
    write_table(df, tmp_path / "t.csv", PROVENANCE, csv=True)
    return tmp_path


def test_provenance_round_trip(written):
    for name in ("t.parquet", "t.csv"):
        prov, columns = read_provenance(written / name)
        assert prov == PROVENANCE and "traps_lodge" in columns
        df = load_table(written / name)
        assert df.attrs == {"slashersim": PROVENANCE, "format": FORMAT}
        assert df["rounds_hist"].tolist() == make_table()["rounds_hist"].tolist()
    assert sidecar_path(written / "t.csv") == written / "t.csv.json"


def test_info_prints_how_the_table_was_made(written, capsys):
    assert main(["info", str(written / "t.parquet")]) == 0
    out = capsys.readouterr().out
    for needle in (f"sweep table, format {FORMAT}, 6 rows (6 cells x 1 policies)",
                   "git " + "a" * 40,
                   "command      slashersim sweep spec.toml --out t.parquet", "seed         1",
                   "2,000 per cell and policy", "policy       baseline (novice): no parameters",
                   "escapes_needed = 4", "item_timing    = item_phase",
                   "cell 5: health=3, hideaway=true"):
        assert needle in out, needle
    assert main(["info", str(written / "t.csv"), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["provenance"] == PROVENANCE and info["rows"] == 6


def test_info_refusals_are_one_line(written, tmp_path, capsys, monkeypatch):
    """Each refusal is one line and exit status 2: the first from the shell, the others in
    this process (the same ``main``)."""
    assert_one_line_error(run_cli("info", "missing.parquet", cwd=ROOT),
                          "table 'missing.parquet' not found")
    monkeypatch.chdir(ROOT)
    (tmp_path / "bad.parquet").write_text("not parquet")
    (written / "t.csv.json").unlink()
    for args, needle in (
            ([str(tmp_path / "bad.parquet")], "as a parquet table"),
            ([str(ROOT / "README.md")], "expected a .parquet or .csv sweep table"),
            ([str(written / "t.csv")], "its sidecar"),
            ([str(OLD)], "has no provenance (written before table format 2); regenerate it "
                         "with: slashersim sweep ")):
        code, out, err = run_main(capsys, "info", *args)
        assert_one_line_error(SimpleNamespace(returncode=code, stdout=out, stderr=err), needle)


def test_info_compiles_nothing(written):
    """``info`` reads the footer only: no numba kernel is imported."""
    code = ("import sys\nfrom slashersim.cli import main\n"
            f"assert main(['info', {str(written / 't.parquet')!r}]) == 0\n"
            "print(sorted(m for m in sys.modules if m.startswith(('slashersim.engine.', "
            "'slashersim.policies.')) and m.rsplit('.', 1)[1] not in ('layout', 'positions', "
            "'decisions', 'params', 'python', 'choice', 'reach')))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[-1] == "[]"


def test_a_newer_format_is_refused(tmp_path):
    write_table(make_table(), tmp_path / "n.parquet", {**PROVENANCE, "format": FORMAT + 1})
    with pytest.raises(TableError, match=f"format {FORMAT + 1}, newer than this slashersim reads"):
        load_table(tmp_path / "n.parquet")


# --- format 2: a column under its old name -------------------------------------------------------

def test_a_table_of_format_2_loads_under_the_new_names(tmp_path):
    """The committed table of format 2 counts the extra cards drawn as ``cabins_extra_draws``
    (the casual player's 27 at health 7 and 4 at health 4, the novice's none): it loads with
    them in ``extra_draws``, not as a knob, pools and reports them."""
    raw = pd.read_parquet(FORMAT_2)
    assert "cabins_extra_draws" in raw.columns and "extra_draws" not in raw.columns
    assert read_provenance(FORMAT_2)[0]["format"] == 2
    df = load_table(FORMAT_2)
    assert df.attrs["format"] == 2 and "missing" not in df.attrs
    assert "cabins_extra_draws" not in df.columns
    assert df["policy"].tolist() == ["baseline", "heuristic", "baseline", "heuristic"]
    assert df["extra_draws"].tolist() == [0, 27, 0, 4]
    assert df["gifts"].tolist() == [0, 26, 0, 7]
    assert knob_columns(df) == ["health"]
    pooled = pool_counts(df, ["policy"]).set_index("policy")
    assert pooled.loc["heuristic", "extra_draws"] == 31
    text = write_report(FORMAT_2, tmp_path / "r").read_text()
    assert "| extra_draws | 0.000 |  | 0.052 |  |" in text


def test_a_table_in_memory_with_the_old_name_loads_under_the_new_one():
    df = pd.read_parquet(FORMAT_2)
    loaded = load_table(df)
    assert loaded.attrs["format"] == 2
    assert loaded["extra_draws"].tolist() == df["cabins_extra_draws"].tolist()


# --- the old format: rates, no provenance --------------------------------------------------------

def test_the_committed_old_table_loads_its_counts():
    """The old difficulty table predates format 2: its outcome counts are exact and load;
    rounds come back from rounds_hist; its trap rates cannot become counts, so they are
    dropped and the trap figure is refused with the command that regenerates the table."""
    raw = pd.read_parquet(OLD)
    assert "trap_rate_lodge" in raw.columns and "traps_lodge" not in raw.columns
    df = load_table(OLD)
    assert df.attrs["format"] == 1 and df.attrs["slashersim"] is None
    assert "regenerate it with: slashersim sweep experiments/difficulty.toml --out " \
           "tests/data/difficulty.parquet" in df.attrs["missing"].replace(str(ROOT) + "/", "")
    assert (df["wins"] == raw["wins"]).all()
    assert np.allclose(df["mean_rounds"], raw["mean_rounds"], rtol=0, atol=1e-12)
    assert np.allclose(df["win_rate"], raw["win_rate"], rtol=0, atol=1e-15)
    assert not [c for c in df.columns if c.startswith("trap_rate_")]
    with pytest.raises(figures.FigureUnavailable, match="regenerate it with: slashersim sweep"):
        figures.trap_rate_by_area(df)


def test_an_old_csv_report_says_what_it_cannot_show(tmp_path):
    old = make_table()
    for area in ("lodge", "hideaway"):
        old[f"trap_rate_{area}"] = old[f"traps_{area}"] / old[f"rounds_{area}"].replace(0, np.nan)
    old = old.drop(columns=[c for c in old.columns if c.startswith(("traps_", "rounds_"))
                            and c != "rounds_hist"] + ["rounds"])
    old["rounds_hist"] = [json.dumps(h) for h in old["rounds_hist"]]
    old["mean_rounds"] = 2.5
    old.to_csv(tmp_path / "old.csv", index=False)
    df = load_table(tmp_path / "old.csv")
    want = [sum(r * n for r, n in enumerate(json.loads(h))) for h in old["rounds_hist"]]
    assert df["rounds"].tolist() == want
    text = write_report(tmp_path / "old.csv", tmp_path / "rep").read_text()
    assert "Not drawn (trap_rate_by_area.png): it was written before table format 2" in text
    assert "regenerate it with: slashersim sweep SPEC.toml --out" in text
    assert "carries no provenance" in text


def test_the_report_gives_each_players_games_when_they_differ(tmp_path):
    """A spec's ``policy_games`` plays a slow player fewer games a cell: the report's
    provenance says how many each player played, not one count for all."""
    from slashersim.analysis.report import provenance_lines
    df = make_table(policies=("baseline", "heuristic"))
    df.attrs["slashersim"] = {**PROVENANCE, "games": 2000,
                              "games_by_policy": {"baseline": 2000, "heuristic": 500}}
    text = "\n".join(provenance_lines(df))
    assert "games per cell: baseline 2,000, heuristic 500" in text
    df.attrs["slashersim"] = {**PROVENANCE, "games_by_policy": {"baseline": 2000}}
    assert "2,000 games per cell and player" in "\n".join(provenance_lines(df))


def test_info_names_each_card_file_with_its_hash(tmp_path, capsys, monkeypatch):
    from slashersim.analysis.sweeps import load_spec, run_sweep
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bog.toml").write_text((ROOT / "examples" / "bog.toml").read_text())
    (tmp_path / "spec.toml").write_text('[sweep]\ngames = 30\npolicies = ["novice"]\n[axes]\n'
                                        'cards = ["printed", "bog.toml"]\n')
    run_sweep(load_spec(tmp_path / "spec.toml"), tmp_path / "t.parquet")
    capsys.readouterr()
    assert main(["info", "t.parquet"]) == 0
    sha = GameConfig(cards="bog.toml").cards_sha256
    assert f"  card file    bog.toml, sha256 {sha} (cells 1): bog in place of cabins" in \
        capsys.readouterr().out.splitlines()
