"""The analysis notebooks: their jupytext sources (``notebooks/NAME.py``, percent format) run top
to bottom on a fresh small sweep and draw figures, and each ``.ipynb`` is the pair of its
source (same cells, stored without outputs)."""
import json
import os
from pathlib import Path
import shutil
import sys

import pytest

jupytext = pytest.importorskip("jupytext")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parent.parent
SWEEP_NOTEBOOKS = ("difficulty_overview", "area_balance", "policy_comparison")
NOTEBOOKS = (*SWEEP_NOTEBOOKS, "luck", "your_own_player")
#: a sentence each notebook prints once it has its answer
MARKERS = {**{name: "played a small sweep" for name in SWEEP_NOTEBOOKS},
           "luck": "was decided by", "your_own_player": "fair at all"}
KERNEL = "slashersim-test"


@pytest.fixture(scope="module")
def kernel_env(tmp_path_factory):
    """A kernelspec that runs this interpreter (whatever kernels the user has installed), and
    the environment of the notebooks: a fresh small sweep of 200 games per cell."""
    jupyter = tmp_path_factory.mktemp("jupyter")
    spec = jupyter / "kernels" / KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "slashersim test", "language": "python"}))
    mp = pytest.MonkeyPatch()
    mp.setenv("JUPYTER_PATH", str(jupyter))
    mp.setenv("SLASHERSIM_NOTEBOOK_FRESH", "1")
    mp.setenv("SLASHERSIM_NOTEBOOK_GAMES", "200")
    mp.setenv("MPLBACKEND", "Agg")
    mp.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT),
                                                          os.environ.get("PYTHONPATH")])))
    yield
    mp.undo()


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs(name, kernel_env, tmp_path):
    work = tmp_path / "notebooks"
    shutil.copytree(ROOT / "notebooks", work, ignore=shutil.ignore_patterns("__pycache__"))
    nb = jupytext.read(work / f"{name}.py")
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name=KERNEL,
                                     resources={"metadata": {"path": str(work)}})
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), f"{name} drew no figure"
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert MARKERS[name] in text


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_ipynb_is_the_pair_of_its_source(name):
    """``notebooks/NAME.ipynb`` holds the cells of ``NAME.py``, without outputs; after an edit
    of the source, ``jupytext --sync notebooks/NAME.py`` makes them agree again."""
    source = jupytext.read(ROOT / "notebooks" / f"{name}.py")
    paired = jupytext.read(ROOT / "notebooks" / f"{name}.ipynb")
    assert [(c.cell_type, c.source) for c in paired.cells] == \
        [(c.cell_type, c.source) for c in source.cells], \
        f"notebooks/{name}.ipynb differs from {name}.py; run jupytext --sync notebooks/{name}.py"
    assert all(c.get("outputs", []) == [] for c in paired.cells if c.cell_type == "code"), \
        f"{name}.ipynb is stored with outputs"
    assert "ipynb,py:percent" in (ROOT / "notebooks" / "jupytext.toml").read_text()
