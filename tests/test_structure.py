"""The package's structure cannot drift back unseen: its layers only look down (the
import-linter contract in ``pyproject.toml``), the code passes ruff with the rules chosen there,
and no module grows past 900 lines."""
import os
from pathlib import Path
import subprocess
import sys

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_layers_only_look_down():
    from importlinter.cli import lint_imports
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        assert lint_imports(config_filename=str(ROOT / "pyproject.toml")) == 0
    finally:
        os.chdir(cwd)


def test_ruff_passes():
    p = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "slashersim",
                        "tests", "experiments", "dev", "examples", "notebooks"],
                       cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr


@pytest.mark.parametrize("path", sorted((ROOT / "slashersim").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_over_900_lines(path):
    assert len(path.read_text().splitlines()) <= 900


def test_the_thread_limit_is_numbas():
    """``inputs.max_threads`` reads numba's rule without importing numba."""
    import numba

    from slashersim.core.inputs import max_threads
    assert max_threads() == numba.config.NUMBA_NUM_THREADS


def test_importing_the_package_changes_nothing(tmp_path):
    """``import slashersim`` loads no numba and leaves the environment as it was; the engine's
    import points numba's cache at the package's folder for these sources."""
    code = ("import os, sys; before = dict(os.environ); import slashersim; "
            "assert 'numba' not in sys.modules, 'numba loaded'; "
            "assert dict(os.environ) == before, 'environment changed'; "
            "import slashersim.engine, numba; print(numba.config.CACHE_DIR)")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(PYTHONPATH=str(Path(__file__).resolve().parents[1]),
               SLASHERSIM_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True).stdout
    assert Path(out.strip()).parent == tmp_path and Path(out.strip()).name.startswith("numba-")
