"""``pip install .`` (not editable) gives a working product: the wheel built from this checkout,
installed into a folder of its own and run from a working folder outside the repository (the
checkout not importable), answers the command line, makes a sweep and reports it, and the page's
precomputed grid is found in the package's data.

The installed copy is kept between runs, one per checkout in the temporary folder, and replaced
only when the wheel's files change. Its commands run with numba's compiler off
(``NUMBA_DISABLE_JIT=1``) and the novice, whose games are quick in plain Python: what is tested
here is what the wheel holds and where the product finds it; the compiled kernels are the rest
of the suite's (numba's cache is keyed by the installed sources' paths, so compiling them here
would take a minute more).
"""
import hashlib
import os
from pathlib import Path
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: what the build reads: the package, and the files pyproject.toml names
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "slashersim")
#: the files the product reads besides its modules, as the wheel holds them
DATA = ("slashersim/core/cards/printed.toml", "slashersim/core/presets/difficulty.toml",
        "slashersim/data/difficulty.parquet", "slashersim/data/presets_study.parquet",
        "slashersim/data/compile_seconds.json")
#: a sweep small enough to play in a second in plain Python
SPEC = """[sweep]
games = 200
seed = 3
policies = ["novice"]

[base]
edition = "rulebook"

[axes]
health = [7, 5]
"""


def _backend_here():
    """Whether this environment's setuptools is the one pyproject.toml's build-system asks for
    (then the build needs no index); otherwise pip builds in an isolated environment with one
    from the configured index."""
    from importlib.metadata import PackageNotFoundError, version
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    wanted = next(int(m[1]) for r in requires if (m := re.fullmatch(r"setuptools>=(\d+)", r)))
    try:
        return int(version("setuptools").split(".")[0]) >= wanted
    except (PackageNotFoundError, ValueError):
        return False


def _copy_sources(src):
    """The build's sources copied to ``src`` (the build writes its ``build/`` and egg-info
    there, not in the checkout); the package data's links keep pointing at copies of their
    files of ``results/``."""
    src.mkdir()
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, symlinks=True, ignore=skip)
        else:
            shutil.copy2(ROOT / name, src / name)
    for link in [p for p in (src / "slashersim").rglob("*") if p.is_symlink()]:
        target = Path(os.path.normpath(link.parent / os.readlink(link)))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / target.relative_to(src), target)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wheel")
    _copy_sources(tmp / "src")
    cmd = [sys.executable, "-m", "pip", "wheel", str(tmp / "src"), "--no-deps", "-q",
           "-w", str(tmp / "dist")]
    if _backend_here():
        cmd.append("--no-build-isolation")
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp)
    assert p.returncode == 0, p.stdout + p.stderr
    (built,) = (tmp / "dist").glob("slashersim-*.whl")
    return built


@pytest.fixture(scope="module")
def site(wheel):
    """The wheel installed (``pip install --target``) into this checkout's kept folder: the
    copy there is reused when it holds the same files (the wheel's RECORD: every file's hash)."""
    with zipfile.ZipFile(wheel) as z:
        record = next(n for n in z.namelist() if n.endswith(".dist-info/RECORD"))
        digest = hashlib.sha256(z.read(record)).hexdigest()
    home = Path(tempfile.gettempdir()) / \
        f"slashersim-wheel-{hashlib.sha1(str(ROOT).encode()).hexdigest()[:10]}"
    stamp = home / "wheel.sha256"
    if not (stamp.is_file() and stamp.read_text() == digest):
        shutil.rmtree(home, ignore_errors=True)
        fresh = Path(tempfile.mkdtemp(prefix=f"{home.name}.", dir=home.parent))
        p = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q",
                            "--target", str(fresh / "site"), str(wheel)],
                           capture_output=True, text=True)
        assert p.returncode == 0, p.stdout + p.stderr
        (fresh / "wheel.sha256").write_text(digest)
        try:
            fresh.rename(home)
        except OSError:      # another run installed the same wheel meanwhile
            shutil.rmtree(fresh, ignore_errors=True)
    assert stamp.read_text() == digest
    return home / "site"


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """A working folder outside the repository."""
    folder = tmp_path_factory.mktemp("work")
    assert not folder.resolve().is_relative_to(ROOT)
    return folder


def run(site, work, *args):
    """``python ARGS`` with only the installed wheel on the path, in ``work``."""
    env = dict(os.environ, PYTHONPATH=str(site), NUMBA_DISABLE_JIT="1")
    p = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                       cwd=work)
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout


def test_the_wheel_holds_the_files_the_product_reads(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        assert set(DATA) <= names
        # the grid's tables are the committed ones, whole (not links)
        for name in ("difficulty.parquet", "presets_study.parquet"):
            assert z.read(f"slashersim/data/{name}") == (ROOT / "results" / name).read_bytes()


def test_the_installed_package_is_the_wheel_s(site, work):
    where = run(site, work, "-c", "import slashersim; print(slashersim.__file__)").strip()
    assert Path(where).resolve().is_relative_to(site.resolve()), where
    from slashersim import __version__
    assert run(site, work, "-m", "slashersim", "--version").strip() == \
        f"slashersim {__version__}"
    # the console script of the wheel's entry points
    assert run(site, work, str(site / "bin" / "slashersim"), "--version").strip() == \
        f"slashersim {__version__}"


def test_simulate(site, work):
    out = run(site, work, "-m", "slashersim", "simulate", "--skill", "novice", "--games", "200",
              "--quiet")
    assert "200 games, seed 0" in out and "win rate" in out


def test_sweep_report_and_info(site, work):
    (work / "tiny.toml").write_text(SPEC)
    run(site, work, "-m", "slashersim", "sweep", "tiny.toml", "--out", "tiny.parquet")
    run(site, work, "-m", "slashersim", "report", "tiny.parquet", "--out", "tiny_report")
    assert (work / "tiny_report" / "report.md").read_text().startswith(
        "# Sweep report: tiny.parquet")
    info = run(site, work, "-m", "slashersim", "info", "tiny.parquet")
    assert info.startswith("tiny.parquet: sweep table") and "not a git checkout" in info


def test_the_page_s_grid_is_found_in_the_installed_package(site, work):
    """What ``slashersim serve`` loads, loaded in the installed package (no server)."""
    out = run(site, work, "-c", """if True:
        from slashersim.serve.grid import GRID_TABLES, grid
        from slashersim.serve.settings import parse_settings
        for t in GRID_TABLES:
            print(t)
        g = grid()
        print(len(g.rows))
        a = g.lookup(parse_settings({"health": 5, "skill": "novice"}))
        print(a.source, a.games)
        print(g.lookup(parse_settings({"difficulty": "hard"})).source)
        """).splitlines()
    assert [Path(t) for t in out[:2]] == [site / "slashersim" / "data" / n
                                         for n in ("difficulty.parquet", "presets_study.parquet")]
    assert int(out[2]) > 0
    assert out[3:] == ["results/difficulty.parquet 1000000", "results/presets_study.parquet"]


def test_the_package_data_is_the_committed_results():
    """One copy: each table of ``slashersim/data/`` links to the table of ``results/`` of the
    same name, which its sweep regenerates (``results/README.md``); beside them are only the
    measured compile times (``compile_seconds.json``)."""
    files = sorted((ROOT / "slashersim" / "data").iterdir())
    assert [p.name for p in files] == ["compile_seconds.json", "difficulty.parquet",
                                       "presets_study.parquet"]
    data = files[1:]
    for p in data:
        assert p.is_symlink() and p.resolve() == (ROOT / "results" / p.name).resolve()
