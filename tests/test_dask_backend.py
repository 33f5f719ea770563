"""``slashersim sweep --backend dask``: the same table as the local backend, on a real
``distributed.LocalCluster``, and resume across backends."""
import sys

from helpers import parquet_equals
import pytest

from slashersim.analysis.sweeps import checkpoint_dir, load_spec, run_sweep
from slashersim.cli import main
from slashersim.core.config import ConfigError, GameConfig
from slashersim.runner.backends import Unit
from slashersim.runner.backends.local import LocalBackend

distributed = pytest.importorskip("distributed")
from slashersim.runner.backends.dask import MISSING, DaskBackend, split_tasks  # noqa: E402

SMALL = """
[sweep]
games = 6000
seed = 5
policies = ["baseline"]
chunk_games = 2000
[base]
edition = "rulebook"
[axes]
health = [7, 4]
"""


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0")
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture
def spec(tmp_path):
    path = tmp_path / "spec.toml"
    path.write_text(SMALL)
    return load_spec(path)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    path = tmp_path_factory.mktemp("ref") / "spec.toml"
    path.write_text(SMALL)
    return run_sweep(load_spec(path), path.with_name("out.parquet"))


def test_dask_table_is_identical_to_local(client, spec, reference, tmp_path):
    out = tmp_path / "dask" / "out.parquet"
    seen = []
    df = run_sweep(spec, out, backend=DaskBackend(client=client, min_task_games=4000),
                   progress=lambda *a: seen.append(a))
    assert df.equals(reference)
    assert parquet_equals(out, reference)
    assert seen[0] == (0, 2, 0, 12000) and seen[-1] == (2, 2, 12000, 12000)
    assert len(seen) == 1 + 6
    assert not checkpoint_dir(out).exists()


def test_local_interrupted_then_finished_on_dask(client, spec, reference, tmp_path):
    out = tmp_path / "out.parquet"

    def crash(cells_done, cells_total, games_done, games_total):
        if games_done > 0:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(spec, out, progress=crash)
    ckpt = checkpoint_dir(out)
    assert len(list(ckpt.glob("*.npy"))) == 1 and not out.exists()
    seen = []
    df = run_sweep(spec, out, backend=DaskBackend(client=client, min_task_games=1),
                   progress=lambda *a: seen.append(a))
    assert seen[0] == (0, 2, 2000, 12000) and len(seen) == 1 + 5
    assert df.equals(reference)
    assert not ckpt.exists()


def test_dask_interrupted_then_finished_locally(client, spec, reference, tmp_path):
    out = tmp_path / "out.parquet"

    def crash(cells_done, cells_total, games_done, games_total):
        if games_done >= 4000:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(spec, out, backend=DaskBackend(client=client, min_task_games=1),
                  progress=crash)
    assert len(list(checkpoint_dir(out).glob("*.npy"))) == 2
    assert run_sweep(spec, out, backend=LocalBackend()).equals(reference)


def test_cli_scheduler_address(client, tmp_path, reference, capsys):
    path = tmp_path / "spec.toml"
    path.write_text(SMALL)
    out = tmp_path / "out.parquet"
    assert main(["sweep", str(path), "--out", str(out), "--scheduler",
                 client.scheduler.address]) == 0
    assert "2 rows" in capsys.readouterr().out
    assert parquet_equals(out, reference)
    assert client.status == "running"


@pytest.mark.parametrize("args, needle", [
    (["--backend", "local", "--scheduler", "tcp://x:1"],
     "--scheduler needs --backend dask, not --backend local"),
    (["--backend", "local", "--workers", "2"], "--workers needs --backend dask"),
    (["--scheduler", "tcp://x:1", "--workers", "2"], "cannot be used with --scheduler"),
    (["--backend", "dask", "--threads", "1"], "--threads is for --backend local"),
    (["--workers", "0"], "workers must be at least 1"),
])
def test_cli_bad_backend_options_are_one_line_and_exit_2(tmp_path, capsys, args, needle):
    path = tmp_path / "spec.toml"
    path.write_text(SMALL)
    out = tmp_path / "out.parquet"
    rc = main(["sweep", str(path), "--out", str(out), *args])
    assert rc == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err
    assert not out.exists() and not checkpoint_dir(out).exists()


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def test_missing_dask_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    path = tmp_path / "spec.toml"
    path.write_text(SMALL)
    out = tmp_path / "out.parquet"
    assert main(["sweep", str(path), "--out", str(out), "--backend", "dask"]) == 2
    assert capsys.readouterr().err == f"slashersim: error: {MISSING}\n"
    with pytest.raises(ConfigError, match="pip install 'slashersim\\[dask\\]'"):
        DaskBackend()


def _units(cell, policy, sizes, first=0):
    out = []
    for j, n in enumerate(sizes):
        out.append(Unit(cell, policy, j, first, n, 0, GameConfig()))
        first += n
    return out


def test_split_tasks_honours_min_task_games():
    units = _units(0, "baseline", [100] * 10) + _units(1, "baseline", [100] * 2) \
        + _units(2, "baseline", [250, 250, 250])
    tasks = split_tasks(units, min_task_games=300)
    assert [u for t in tasks for u in t] == units
    for t in tasks:
        assert len({(u.cell, u.policy) for u in t}) == 1
    sizes = [(t[0].cell, sum(u.games for u in t)) for t in tasks]
    assert sizes == [(0, 300), (0, 300), (0, 400), (1, 200), (2, 750)]
    # a task has at least min_task_games, unless it is all of a cell × policy
    for cell, games in sizes:
        whole = sum(u.games for u in units if u.cell == cell)
        assert games >= 300 or games == whole
    assert [len(t) for t in split_tasks(units, 1)] == [1] * len(units)
    assert len(split_tasks(units, 10**9)) == 3
    assert split_tasks([], 5) == []


def test_cli_own_local_cluster(tmp_path, reference, capsys):
    path = tmp_path / "spec.toml"
    path.write_text(SMALL)
    out = tmp_path / "out.parquet"
    assert main(["sweep", str(path), "--out", str(out), "--backend", "dask",
                 "--workers", "1"]) == 0
    assert parquet_equals(out, reference)
