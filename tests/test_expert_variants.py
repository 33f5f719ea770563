"""experiments/expert_variants.py and lead_distill.py: their patches still apply to their commit,
add parameters only, leave the expert's play at its defaults unchanged and know every setting
the scripts measure; bad input to expert_variants.py is refused (lead_distill.py's:
test_lead_distill.py)."""
import importlib.util
import json
import os
from pathlib import Path
import subprocess
import sys

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "experiments" / "expert_variants.py"
spec = importlib.util.spec_from_file_location("expert_variants", SCRIPT)
ev = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ev)
spec = importlib.util.spec_from_file_location("lead_distill", SCRIPT.with_name("lead_distill.py"))
ld = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ld)
#: every patch of the folder and the settings its script measures
PATCHES = dict(ev.SETTINGS) | {ld.PATCH: (("model", ld.IN_PLAY),) + ld.REFERENCE}

#: run in a tree, without JIT: the expert's parameter names and defaults, whether each override
#: of the script's settings is a parameter, and the counts of a few games at the defaults
PROBE = """
import json, sys
from slashersim.analysis.compare import param_vector
from slashersim.config import GameConfig
from slashersim.policies import expert
from slashersim.runner import simulate
bad = []
for over in json.loads(sys.argv[1]):
    try:
        param_vector("expert", over)
    except Exception as e:
        bad.append(str(e))
counts = [simulate(GameConfig(**kw), "expert", games=3, seed=11, threads=1).counts.tolist()
          for kw in ({}, {"health": 5}, {"edition": "instructions"})]
print(json.dumps({"names": list(expert.PARAM_NAMES),
                  "defaults": param_vector("expert", {}).tolist(),
                  "bad": bad, "counts": counts}))
"""


def _git(*args, env=None):
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, env=env,
                          capture_output=True, text=True)


def _tree(tmp_path, name, patch=None):
    """The files of commit BASE (with ``patch`` applied) written under ``tmp_path / name``."""
    env = dict(os.environ, GIT_INDEX_FILE=str(tmp_path / f"{name}.index"))
    _git("read-tree", ev.BASE, env=env)
    if patch:
        _git("apply", "--cached", str(ev.VARIANTS / patch), env=env)
    _git("checkout-index", "-a", f"--prefix={tmp_path / name}/", env=env)
    return tmp_path / name


def _probe(tree, overrides=()):
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", PROBE, json.dumps(list(overrides))], env=env,
                         check=True, capture_output=True, text=True, cwd=tree)
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    try:
        _git("cat-file", "-e", ev.BASE + "^{commit}")
    except (subprocess.CalledProcessError, FileNotFoundError):
        pytest.skip(f"needs the git history holding commit {ev.BASE[:7]}")
    tmp = tmp_path_factory.mktemp("variants")
    return tmp, _probe(_tree(tmp, "base"))


def test_every_patch_of_the_folder_is_measured():
    assert sorted(p.name for p in ev.VARIANTS.glob("*.patch")) == sorted(PATCHES)


@pytest.mark.parametrize("patch", sorted(PATCHES))
def test_a_patch_adds_parameters_and_keeps_the_defaults_play(base, patch):
    tmp, before = base
    settings = PATCHES[patch]
    after = _probe(_tree(tmp, patch.removesuffix(".patch"), patch),
                   [over for _, over in settings])
    n = len(before["names"])
    assert after["names"][:n] == before["names"] and len(after["names"]) > n
    assert after["defaults"][:n] == before["defaults"]
    assert after["bad"] == []
    assert after["counts"] == before["counts"]
    new = set(after["names"][n:])
    assert all(set(over) & new or set(over) <= {"lead_samples"} for _, over in settings)


@pytest.mark.parametrize("argv, message", [
    (["--games", "1", "--out", "x.md"], "--games must be at least 2, got 1"),
    (["--seconds", "0", "--out", "x.md"], "--seconds must be positive, got 0.0"),
    ([], "--out is required"),
    (["--out", "no/such/folder/x.md"], "--out: no such folder: no/such/folder"),
])
def test_bad_input_is_refused(argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        ev.main(argv)
    assert e.value.code == 2
    assert message in capsys.readouterr().err
