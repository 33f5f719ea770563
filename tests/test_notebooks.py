"""The analysis notebooks run top to bottom on a fresh small sweep and draw figures, and
experiments/make_notebooks.py writes exactly the committed notebooks."""
import json
import os
from pathlib import Path
import shutil
import subprocess
import sys

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parent.parent
SWEEP_NOTEBOOKS = ("difficulty_overview.ipynb", "area_balance.ipynb",
                   "policy_comparison.ipynb")
NOTEBOOKS = (*SWEEP_NOTEBOOKS, "luck.ipynb")
KERNEL = "slashersim-test"


@pytest.fixture(scope="module")
def kernel_env(tmp_path_factory):
    """A kernelspec that runs this interpreter (whatever kernels the user has installed), and
    the environment of the notebooks: a fresh small sweep of 2,000 games per cell."""
    jupyter = tmp_path_factory.mktemp("jupyter")
    spec = jupyter / "kernels" / KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "slashersim test", "language": "python"}))
    mp = pytest.MonkeyPatch()
    mp.setenv("JUPYTER_PATH", str(jupyter))
    mp.setenv("SLASHERSIM_NOTEBOOK_FRESH", "1")
    mp.setenv("SLASHERSIM_NOTEBOOK_GAMES", "2000")
    mp.setenv("MPLBACKEND", "Agg")
    mp.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT),
                                                          os.environ.get("PYTHONPATH")])))
    yield
    mp.undo()


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs(name, kernel_env, tmp_path):
    work = tmp_path / "notebooks"
    shutil.copytree(ROOT / "notebooks", work, ignore=shutil.ignore_patterns("__pycache__"))
    nb = nbformat.read(work / name, as_version=4)
    assert all(c.get("outputs", []) == [] for c in nb.cells if c.cell_type == "code"), \
        f"{name} is stored with outputs"
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name=KERNEL,
                                     resources={"metadata": {"path": str(work)}})
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), f"{name} drew no figure"
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert ("played a small sweep" if name in SWEEP_NOTEBOOKS else "was decided by") in text


def test_make_notebooks_regenerates_committed(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "experiments" / "make_notebooks.py"),
                    "--out", str(tmp_path)], check=True, capture_output=True)
    for name in NOTEBOOKS:
        made = nbformat.read(tmp_path / name, as_version=4)
        committed = nbformat.read(ROOT / "notebooks" / name, as_version=4)
        assert [(c.cell_type, c.source) for c in made.cells] == \
            [(c.cell_type, c.source) for c in committed.cells], \
            f"notebooks/{name} differs from what experiments/make_notebooks.py writes; rerun it"
        assert (tmp_path / name).read_text() == (ROOT / "notebooks" / name).read_text()
