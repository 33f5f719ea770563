"""experiments/lead_distill.py: the regret of a pick, hand-worked; the exported trees read back
as scikit-learn predicts; bad input refused before anything slow."""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "experiments" / "lead_distill.py"
spec = importlib.util.spec_from_file_location("lead_distill", SCRIPT)
ld = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ld)


def rows_of(leads):
    """Rows (lead, card, closed-form cost, reference cost) of ``[(closed, reference), ...]``
    per lead."""
    return np.array([[i, k, c, r] for i, lead in enumerate(leads)
                     for k, (c, r) in enumerate(lead)], dtype=np.float64)


def test_regret_of_picks_by_hand():
    # true costs: lead 0 -> 3, 5; lead 1 -> 1, 0, 2
    rows = rows_of([[(1, 2), (0, 5)], [(0, 1), (0, 0), (2, 0)]])
    lead = ld.lead_index(rows)
    assert lead.tolist() == [0, 0, 1, 1, 1]
    assert np.allclose(ld.centred(rows[:, 3], lead), [-1.5, 1.5, 2 / 3, -1 / 3, -1 / 3])
    # the closed form alone picks the second of lead 0 (regret 2) and the first of lead 1
    # (a tie with the second, the first in row order; regret 1)
    picked = ld.argmin_rows(rows[:, 2], lead)
    assert picked.tolist() == [False, True, True, False, False]
    assert ld.regret(rows, lead, picked) == (1.5, 1.0)
    assert ld.regret(rows, lead, ld.argmin_rows(rows[:, 2] + rows[:, 3], lead)) == (0.0, 0.0)


def walk(trees, x):
    """The sum of the trees' leaf values for the input ``x``, as ``expert.lead_model`` walks
    them in the patch."""
    total = 0.0
    for root in trees["roots"]:
        node = root
        while trees["f"][node] >= 0:
            node = trees["l"][node] if x[trees["f"][node]] <= trees["t"][node] \
                else trees["r"][node]
        total += trees["v"][node]
    return total


def test_saved_trees_read_back_as_scikit_learn_predicts(tmp_path):
    from sklearn.ensemble import HistGradientBoostingRegressor
    rng = np.random.default_rng(3)
    x = rng.normal(size=(400, 5))
    y = np.sin(3 * x[:, 0]) + x[:, 1] * x[:, 2] + 0.1 * rng.normal(size=400)
    model = HistGradientBoostingRegressor(max_iter=20, max_depth=3, early_stopping=False,
                                          random_state=0).fit(x, y)
    ld.save_trees(model, tmp_path / "trees.npz")
    trees = np.load(tmp_path / "trees.npz")
    assert trees["roots"].size == 20
    probe = rng.normal(size=(50, 5))
    walked = np.array([walk(trees, p) for p in probe])
    assert np.allclose(walked + model._baseline_prediction.ravel()[0], model.predict(probe))


@pytest.mark.parametrize("argv, message", [
    (["--train-games", "5", "--out", "x.md"], "--train-games must be at least 10, got 5"),
    (["--test-games", "0", "--out", "x.md"], "--test-games must be at least 10, got 0"),
    (["--ref-rollouts", "0", "--out", "x.md"], "--ref-rollouts must be at least 1, got 0"),
    (["--games", "1", "--out", "x.md"], "--games must be at least 2, got 1"),
    (["--seconds", "-1", "--out", "x.md"], "--seconds must be positive, got -1.0"),
    ([], "--out is required"),
    (["--out", "no/such/folder/x.md"], "--out: no such folder: no/such/folder"),
])
def test_bad_input_is_refused(argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        ld.main(argv)
    assert e.value.code == 2
    assert message in capsys.readouterr().err
