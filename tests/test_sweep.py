"""``slashersim sweep``: spec validation, the table, checkpoints and resume."""
import hashlib
import json
import os
from pathlib import Path
import signal
import subprocess
import sys
import time

from helpers import assert_one_line_error, parquet_equals, run_cli
import pandas as pd
import pyarrow.parquet as pq
import pytest

from slashersim import __version__
from slashersim.analysis.sweeps import (
    SweepSpec,
    cells,
    checkpoint_dir,
    load_spec,
    parse_spec,
    run_sweep,
)
from slashersim.cli import main
from slashersim.core import rules
from slashersim.core.config import ConfigError, GameConfig
from slashersim.runner import simulate
from slashersim.runner.tables import (
    FORMAT,
    LIST_COLUMNS,
    TABLE_COLUMNS,
    knob_columns,
    load_table,
)

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT))

SMALL = """
[sweep]
games = 3000
seed = 11
policies = ["baseline"]
chunk_games = 1000
[base]
edition = "rulebook"
[axes]
health = [7, 4]
hideaway = [false, true]
"""


def _spec(tmp_path, text, name="spec.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_example_spec_parses():
    spec = load_spec(ROOT / "experiments" / "example_sweep.toml")
    assert spec.games == 20000 and spec.seed == 7 and spec.policies == ("baseline",)
    assert spec.base == {"edition": "rulebook"}
    assert spec.axes == {"health": [7, 5, 3], "hideaway": [False, True]}
    grid = list(cells(spec))
    assert [k for k, _ in grid] == [{"health": h, "hideaway": w}
                                    for h in (7, 5, 3) for w in (False, True)]
    assert grid[3][1] == GameConfig(edition="rulebook", health=5, hideaway=True)


def test_defaults(tmp_path):
    spec = load_spec(_spec(tmp_path, "[sweep]\ngames = 5\n"))
    assert spec == SweepSpec(games=5)
    assert [k for k, _ in cells(spec)] == [{}]


BAD = [
    ("[sweep]\ngmes = 5\n",
     "unknown key 'gmes' in [sweep]; expected one of: games, seed, policies, chunk_games"),
    ("[sweep]\ngames = 5\n[axis]\nhealth = [1]\n",
     "unknown table [axis]; expected one of: sweep, base, axes"),
    ("[sweep]\ngames = 5\n[base]\nhelth = 3\n", "[base] unknown knob 'helth'; expected one of: "
                                                "difficulty, edition, health"),
    ("[sweep]\ngames = 5\n[axes]\nhelth = [3]\n", "[axes] unknown knob 'helth'"),
    ("[sweep]\ngames = 5\n[axes]\nhealth = 3\n", "axis 'health' must be a non-empty list, got 3"),
    ("[sweep]\ngames = 5\n[axes]\nhealth = []\n", "axis 'health' must be a non-empty list, got []"),
    ("[sweep]\ngames = 5\n[axes]\nhealth = [7, 0]\nhideaway = [true]\n",
     "cell health=0, hideaway=True: health must be 1..7, got 0"),
    ("[sweep]\ngames = 5\n[base]\nedition = \"deluxe\"\n",
     "[base]: unknown edition 'deluxe'; expected one of: rulebook, instructions"),
    ("[sweep]\ngames = 5\npolicies = [\"genius\"]\n",
     "unknown policy 'genius'; expected one of: baseline"),
    ("[sweep]\ngames = 0\n", "games must be an integer of at least 1, got 0"),
    ("[sweep]\nseed = 1\n", "missing key 'games' in [sweep]"),
    ("[sweep]\ngames = 5\nchunk_games = 0\n", "chunk_games must be an integer of at least 1"),
    ("[sweep]\ngames = 5\n[base]\nhealth = 5\n[axes]\nhealth = [3]\n",
     "knob 'health' is in both [base] and [axes]"),
    ("[sweep\ngames = 5\n", "spec.toml: not a TOML file ("),
    ("[sweep]\ngames = 5\nwinnable = -1\n", "winnable must be an integer of at least 0, got -1"),
    ("[sweep]\ngames = 5\nwinnable = 2\nwinnable_seconds = \"x\"\n",
     "winnable_seconds must be a number >= 0, got 'x'"),
]


@pytest.mark.parametrize("text, needle", BAD)
def test_bad_spec_is_refused_by_load_spec(tmp_path, text, needle):
    with pytest.raises(ConfigError) as e:
        load_spec(_spec(tmp_path, text))
    message = str(e.value)
    assert needle in message and "\n" not in message


def test_malformed_spec_names_the_file(tmp_path):
    path = _spec(tmp_path, "[sweep\n")
    with pytest.raises(ConfigError, match=r"^spec file .*spec\.toml: not a TOML file "):
        load_spec(path)


def test_missing_spec_file():
    with pytest.raises(ConfigError, match=r"^spec file 'x\.toml' does not exist$"):
        load_spec("x.toml")


@pytest.mark.parametrize("text, needle", [BAD[0], BAD[6], BAD[-1]])
def test_bad_spec_leaves_the_output_untouched(tmp_path, capsys, text, needle):
    out = tmp_path / "out.parquet"
    out.write_bytes(b"previous result")
    assert main(["sweep", str(_spec(tmp_path, text)), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("slashersim: error: ") and needle in err
    assert out.read_bytes() == b"previous result"
    assert not checkpoint_dir(out).exists()


def test_table_rows_equal_direct_simulations(tmp_path):
    spec = load_spec(_spec(tmp_path, SMALL))
    df = run_sweep(spec, tmp_path / "out.parquet")
    assert list(df.columns) == ["health", "hideaway", "edition", *TABLE_COLUMNS]
    assert not [c for c in df.columns if c.startswith("trap_rate_")]
    assert len(df) == 4
    back = pd.read_parquet(tmp_path / "out.parquet")
    assert LIST_COLUMNS == ("rounds_hist", "lost_round_hist")
    assert back.drop(columns=list(LIST_COLUMNS)).equals(df.drop(columns=list(LIST_COLUMNS)))
    for col in LIST_COLUMNS:
        assert [list(h) for h in back[col]] == list(df[col])
    assert not checkpoint_dir(tmp_path / "out.parquet").exists()
    for row, (knobs, config) in zip(df.itertuples(index=False), cells(spec)):
        assert {k: getattr(row, k) for k in knobs} == knobs
        s = simulate(config, "baseline", games=3000, seed=11).summary()
        assert row.games == s["games"] == 3000
        assert row.wins == s["wins"]
        assert row.win_rate == s["win_rate"]
        assert [row.win_ci_low, row.win_ci_high] == s["win_ci"]
        for name in ("loss_health", "loss_traps", "timeout"):
            assert getattr(row, name) == s["outcomes"][name]
        assert row.mean_rounds == s["mean_rounds"] and row.rounds == s["rounds"]
        assert row.damage == s["damage"] and row.rounds_hist == s["rounds_hist"]
        assert row.lost_round_hist == s["losses"]["lost_round_hist"]
        for area in rules.AREA_NAMES:
            assert getattr(row, f"traps_{area}") == s["traps_by_area"][area]
            assert getattr(row, f"rounds_{area}") == s["rounds_by_area"][area]
        items = s["item_stats"]
        for item in rules.ITEM_STAT_NAMES:
            assert getattr(row, f"used_{item}") == items["used"][item]
            assert getattr(row, f"kept_{item}") == items["kept"][item]
        for name in ("killer_draws", "extra_draws", "gifts"):
            assert getattr(row, name) == items[name]
    assert (df["rounds_hideaway"] == 0).tolist() == [True, False, True, False]
    assert df["cell"].tolist() == [0, 1, 2, 3]


def test_the_table_says_how_it_was_made(tmp_path):
    """The parquet schema metadata holds the provenance: format, software, seed, games, each
    policy with its parameters, and every cell's full resolved configuration."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    spec = load_spec(_spec(tmp_path, SMALL))
    out = tmp_path / "out.parquet"
    df = run_sweep(spec, out, command="slashersim sweep spec.toml --out out.parquet")
    schema = pq.read_schema(out)
    assert schema.field("rounds_hist").type == pa.list_(pa.int64())
    prov = json.loads(schema.metadata[b"slashersim"])
    assert df.attrs["slashersim"] == prov
    assert prov["format"] == FORMAT == 3 and prov["kind"] == "sweep"
    assert prov["software"]["slashersim"] == __version__
    assert prov["command"] == "slashersim sweep spec.toml --out out.parquet"
    assert (prov["seed"], prov["games"]) == (11, 3000)
    assert prov["spec"]["axes"] == {"health": [7, 4], "hideaway": [False, True]}
    assert [p["name"] for p in prov["policies"]] == ["baseline"]
    assert len(prov["cells"]) == 4
    for cell, (knobs, config) in zip(prov["cells"], cells(spec)):
        assert cell["knobs"] == knobs and cell["config"] == config.describe()
        for knob in ("escapes_needed", "traps", "max_rounds", "red_knives", "item_timing",
                     "white_colours"):
            assert knob in cell["config"]
    loaded = load_table(out)
    assert loaded.attrs["slashersim"] == prov and loaded.attrs["format"] == 3


def test_csv(tmp_path, capsys):
    out = tmp_path / "out.parquet"
    assert main(["sweep", str(_spec(tmp_path, SMALL)), "--out", str(out), "--csv"]) == 0
    assert "4 rows" in capsys.readouterr().out
    a, b = pd.read_parquet(out), pd.read_csv(tmp_path / "out.csv")
    assert (a["wins"] == b["wins"]).all() and list(a.columns) == list(b.columns)
    assert json.loads(b["rounds_hist"][0]) == list(a["rounds_hist"][0])
    side = json.loads((tmp_path / "out.csv.json").read_text())
    assert side["command"].startswith("slashersim sweep ") and side["command"].endswith("--csv")
    assert side == json.loads(pq.read_schema(out).metadata[b"slashersim"])
    pa_, csv_ = load_table(out), load_table(tmp_path / "out.csv")
    assert csv_.attrs["slashersim"] == pa_.attrs["slashersim"]
    assert csv_["rounds_hist"].tolist() == pa_["rounds_hist"].tolist()
    assert (csv_["traps_lodge"] == pa_["traps_lodge"]).all()


def test_interrupted_sweep_resumes_to_the_same_table(tmp_path):
    spec = load_spec(_spec(tmp_path, SMALL))
    reference = run_sweep(spec, tmp_path / "ref" / "out.parquet")
    out = tmp_path / "run" / "out.parquet"
    calls = []

    def crash(cells_done, cells_total, games_done, games_total):
        calls.append(games_done)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(spec, out, progress=crash)
    ckpt = checkpoint_dir(out)
    assert not out.exists()
    assert len(list(ckpt.glob("*.npy"))) == 2 and (ckpt / "spec.json").exists()
    seen = []
    df = run_sweep(spec, out, progress=lambda *a: seen.append(a))
    assert seen[0] == (0, 4, 2000, 12000) and seen[-1] == (4, 4, 12000, 12000)
    assert len(seen) == 1 + 10
    assert df.equals(reference)
    assert parquet_equals(out, reference)
    assert not ckpt.exists()


def test_checkpoints_of_another_spec_are_refused(tmp_path):
    spec = load_spec(_spec(tmp_path, SMALL))
    out = tmp_path / "out.parquet"

    def crash(*args):
        if args[2] > 0:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(spec, out, progress=crash)
    other = load_spec(_spec(tmp_path, SMALL.replace("seed = 11", "seed = 12"), "other.toml"))
    with pytest.raises(ConfigError, match=r"checkpoint folder .*out\.parquet\.ckpt was written "
                                          r"for a different spec"):
        run_sweep(other, out)
    assert len(list(checkpoint_dir(out).glob("*.npy"))) == 1


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_killed_or_interrupted_then_rerun_gives_the_same_table(tmp_path, sig):
    """SIGKILL or Ctrl-C (SIGINT) mid-sweep: every finished chunk stays checkpointed, Ctrl-C
    stops the run within a second (exit status 130, one line saying how to resume), and
    the same command then finishes the same table."""
    text = SMALL.replace("games = 3000", "games = 50000").replace("chunk_games = 1000",
                                                                   "chunk_games = 5000")
    spec_path = _spec(tmp_path, text)
    out = tmp_path / "run" / "out.parquet"
    out.parent.mkdir()
    ckpt = checkpoint_dir(out)
    cmd = [sys.executable, "-m", "slashersim", "sweep", str(spec_path), "--out", str(out),
           "--threads", "1"]
    p = subprocess.Popen(cmd, env=ENV, cwd=ROOT, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    sent = None
    try:
        while p.poll() is None and time.monotonic() < deadline:
            if ckpt.exists() and any(ckpt.glob("*.npy")):
                p.send_signal(sig)
                sent = time.monotonic()
                break
            time.sleep(0.002)
    finally:
        if p.poll() is None and time.monotonic() >= deadline:
            p.kill()
        err = p.communicate()[1]
        stopped = time.monotonic()
    if sent is None or p.returncode == 0:
        pytest.skip("the sweep finished before it could be stopped")
    if sig == signal.SIGKILL:
        assert p.returncode == -signal.SIGKILL
    else:
        assert p.returncode == 130 and stopped - sent < 1.5, (p.returncode, stopped - sent, err)
        assert "interrupted" in err and "resume" in err and "Traceback" not in err
    assert not out.exists()
    assert any(ckpt.glob("*.npy"))
    assert not (out.parent / "out.parquet.lock").exists() or sig == signal.SIGKILL
    assert subprocess.run(cmd, env=ENV, cwd=ROOT, capture_output=True).returncode == 0
    assert not ckpt.exists()
    reference = run_sweep(load_spec(spec_path), tmp_path / "ref" / "out.parquet")
    assert load_table(out).drop(columns="rounds_hist").equals(
        load_table(reference).drop(columns="rounds_hist"))
    assert load_table(out)["rounds_hist"].tolist() == reference["rounds_hist"].tolist()


@pytest.mark.parametrize("text, needle", [
    (None, "spec file 'missing.toml' does not exist"),
    ("[sweep]\ngames = 5\n[axes]\nhealth = [9]\n", "cell health=9: health must be 1..7, got 9"),
    ("[sweep\n", "not a TOML file"),
])
def test_cli_bad_spec_is_one_line_and_exit_2(tmp_path, text, needle):
    spec = "missing.toml" if text is None else str(_spec(tmp_path, text))
    assert_one_line_error(run_cli("sweep", spec, "--out", str(tmp_path / "o.parquet"),
                                  cwd=tmp_path), needle)
    assert not (tmp_path / "o.parquet").exists()


def test_progress_counts_every_game_once(tmp_path, monkeypatch):
    """The CLI's bar gets the games within each chunk as they are played, and the per-chunk
    callback never counts them again."""
    import slashersim.cli as cli
    seen = []

    class Bar:
        n = 0

        def __init__(self, total, **kw):
            self.total = total

        def update(self, n):
            self.n += n
            seen.append(self.n)

        def set_postfix_str(self, *a, **k):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass

    monkeypatch.setattr(cli, "bar", Bar)
    out = tmp_path / "out.parquet"
    assert main(["sweep", str(_spec(tmp_path, SMALL)), "--out", str(out)]) == 0
    assert seen[-1] == 12000 and seen == sorted(seen) and len(seen) > 4


def test_policy_games_give_a_player_its_own_game_count(tmp_path):
    """``policy_games`` lets a slow player play fewer games per cell: its rows hold exactly the
    first games of the seed, the same as a plain run of that many."""
    spec = parse_spec({"sweep": {"games": 3000, "seed": 4, "policies": ["novice", "casual"],
                                 "policy_games": {"casual": 1000}, "chunk_games": 700},
                       "axes": {"health": [7, 3]}})
    assert spec.games_of("baseline") == 3000 and spec.games_of("heuristic") == 1000
    df = run_sweep(spec, tmp_path / "out.parquet")
    assert list(df["games"]) == [3000, 1000, 3000, 1000]
    for row, (_, config) in zip(df[df["policy"] == "heuristic"].itertuples(),
                                list(cells(spec))):
        assert row.wins == simulate(config, "heuristic", games=1000, seed=4).wins
    with pytest.raises(ConfigError, match="policy_games names 'search', which is not in"):
        parse_spec({"sweep": {"games": 10, "policy_games": {"search": 5}}})


def test_winnable_adds_each_cells_exact_answers(tmp_path):
    """``winnable = N``: every row of a cell gains the solver's answers for the cell's first N
    games, those the players played, and a resumed sweep reads them from its checkpoint."""
    from slashersim.analysis.winnable import solve_games
    spec = parse_spec({"sweep": {"games": 50, "seed": 2026, "policies": ["novice", "casual"],
                                 "winnable": 2, "winnable_seconds": 2},
                       "axes": {"health": [7, 1]}})
    df = run_sweep(spec, tmp_path / "out.parquet")
    for (_, config), (_, rows) in zip(cells(spec), df.groupby("cell")):
        expected = solve_games(config, 2026, 0, 2, 2).counts
        assert (rows["solved"] == 2).all() and rows["winnable"].nunique() == 1
        assert rows.iloc[0][["winnable", "unwinnable", "undecided"]].to_dict() == expected
    assert df.attrs["slashersim"]["spec"]["sweep"]["winnable"] == 2
    assert "winnable" not in load_table(tmp_path / "out.parquet").pipe(knob_columns)
    from slashersim.analysis.report import write_report
    text = write_report(tmp_path / "out.parquet", tmp_path / "report").read_text()
    row = df.iloc[-1]
    assert "could be won [95% CI]" in text
    assert f"{row['winnable_share']:.4f} [{row['winnable_ci_low']:.4f}" in text


# --- a card file edited between an interrupted sweep and its resume --------------------------
BOG = (ROOT / "examples" / "bog.toml").read_text()
BOG_EDITED = BOG.replace("draw_reduction = 1", "draw_reduction = 2")
CARDS_SPEC = """
[sweep]
games = 2000
seed = 5
policies = ["baseline"]
chunk_games = 1000
[axes]
cards = ["bog.toml", "printed"]
health = [7, 5]
"""


def _interrupted(spec, out):
    """Play ``spec`` into ``out`` until three chunks are done, then stop as Ctrl-C does."""
    def crash(cells_done, cells_total, games_done, games_total):
        if games_done >= 3000:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(spec, out, progress=crash)


def test_a_resume_under_an_edited_card_file_is_refused_naming_both_hashes(tmp_path,
                                                                          monkeypatch):
    import hashlib
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bog.toml").write_text(BOG)
    spec = load_spec(_spec(tmp_path, CARDS_SPEC))
    out = tmp_path / "out.parquet"
    _interrupted(spec, out)
    kept = sorted(p.name for p in checkpoint_dir(out).iterdir())
    (tmp_path / "bog.toml").write_text(BOG_EDITED)
    old, new = (hashlib.sha256(t.encode()).hexdigest()[:12] for t in (BOG, BOG_EDITED))
    with pytest.raises(ConfigError, match=rf"card file bog\.toml: sha256 {old}… then, sha256 "
                                          rf"{new}… now\) in 2 of 4 cells; run again with "
                                          rf"--restart-changed"):
        run_sweep(load_spec(tmp_path / "spec.toml"), out)
    assert sorted(p.name for p in checkpoint_dir(out).iterdir()) == kept
    assert not out.exists()
    r = run_cli("sweep", "spec.toml", "--out", "out.parquet", cwd=tmp_path)
    assert_one_line_error(r, f"card file bog.toml: sha256 {old}… then, sha256 {new}… now")
    assert sorted(p.name for p in checkpoint_dir(out).iterdir()) == kept


def test_restart_changed_plays_the_changed_cells_as_a_fresh_run_of_the_edited_file(tmp_path,
                                                                                   monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bog.toml").write_text(BOG)
    spec = load_spec(_spec(tmp_path, CARDS_SPEC))
    original = run_sweep(spec, tmp_path / "original" / "out.parquet")
    out = tmp_path / "out.parquet"
    _interrupted(spec, out)
    (tmp_path / "bog.toml").write_text(BOG_EDITED)
    edited = load_spec(tmp_path / "spec.toml")
    resumed = run_sweep(edited, out, restart_changed=True)
    fresh = run_sweep(edited, tmp_path / "fresh" / "out.parquet")
    assert resumed.drop(columns="rounds_hist").equals(fresh.drop(columns="rounds_hist"))
    assert resumed["rounds_hist"].tolist() == fresh["rounds_hist"].tolist()
    sha = hashlib.sha256(BOG_EDITED.encode()).hexdigest()
    assert [c["cards"]["sha256"] for c in resumed.attrs["slashersim"]["cells"]
            if "cards" in c] == [sha, sha]
    bog = original["cards"] == "bog.toml"
    assert original.loc[bog, "wins"].tolist() != fresh.loc[bog, "wins"].tolist()
    assert original.loc[~bog, "wins"].tolist() == fresh.loc[~bog, "wins"].tolist()
