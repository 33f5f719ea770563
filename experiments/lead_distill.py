"""Leads valued by a model fitted to the expert's rollouts, against the rollouts themselves.

    python experiments/lead_distill.py [--train-games N] [--test-games N] [--ref-rollouts R]
        [--games N] [--seed S] [--seconds S] --out results/lead_distill.md

Issue 11 names distillation among the ways to a fast expert: fit a compact evaluator to a slow
strong player and check it on games it never saw (``PLAYERS.md``). The expert's lead rollouts
take most of its time (``results/expert_budget.md``), so this script fits models of what they
measure and plays them in their place. The player with the model is the patch
``experiments/variants/lead_model.patch`` (features :func:`lead_features`, parameter
``lead_model``; the model file named by ``SLASHERSIM_LEAD_MODEL``), applied to commit
``expert_variants.BASE`` in a temporary worktree as ``experiments/expert_variants.py`` does.

1. **Data**: every searched lead (more than one legal card, before the exact tricks 7-8) of
   the expert at its defaults, rulebook defaults: ``--train-games`` games of seed 11 to fit,
   ``--test-games`` games of seed 12 to test. For each class of leads that the expert rolls
   out (:func:`expert.lead_card`'s classes left after pruning): its closed-form cost, its mean
   rollout cost over 64 rollouts (to fit) or ``--ref-rollouts`` (to test, the reference) on a
   random stream of its own, and its features; and the lead the expert picks with 0, 4, 8,
   16 and 24 rollouts.
2. **Models** of the rollout cost, fitted on the costs centred per lead (only differences
   between a lead's classes matter): least squares over the features (``linear``), and
   scikit-learn's gradient-boosted trees (``HistGradientBoostingRegressor``, no early
   stopping, ``random_state`` 0) over the features, the features centred per lead and the
   centred closed-form cost, 50 trees of depth 4 (``small trees``) and 300 of depth 6
   (``large trees``).
3. **Offline**, on the test leads: the regret of each way to pick (the closed-form cost plus
   the reference cost of the class picked, less the least of the lead's classes), its mean and
   the share of leads not picked best; and each model's R² of the centred reference costs.
4. **In play**: each model in place of the rollouts (``lead_samples 0``, ``lead_model 1``),
   speed and strength against the expert's defaults as ``expert_variants.py`` measures them
   (each model in a numba cache of its own: numba freezes the model into the compiled code).

Needs scikit-learn: ``pip install -e .[experiments]``. Measure on an idle machine.
"""
import argparse
from datetime import date
import json
from pathlib import Path
import subprocess
import sys
import time

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import expert_variants as ev  # noqa: E402

PATCH = "lead_model.patch"
#: the expert's pick with this many rollouts, compared offline
ROLLOUTS = (0, 4, 8, 16, 24)
FIT_ROLLOUTS = 64
TRAIN_SEED, TEST_SEED = 11, 12
#: (name, trees, depth, learning rate)
TREES = (("small trees", 50, 4, 0.2), ("large trees", 300, 6, 0.1))
MODELS = ("linear",) + tuple(name for name, *_ in TREES)
IN_PLAY = {"lead_samples": 0, "lead_model": 1}
#: the rows of the in-play table without a model (in the run that measures the defaults)
REFERENCE = (("no rollouts", {"lead_samples": 0}), ("8 rollouts", {"lead_samples": 8}))


def lab_kernel():
    """The compiled data step (defined here because it needs the patched tree's expert)."""
    from numba import njit

    from slashersim.engine.bits import lowest_bit
    from slashersim.policies import expert as E

    @njit
    def lab(states, players, legal, params, nref, ks, rows, picks):
        """Per lead i: ``picks[i, j]``, the expert's lead with ``ks[j]`` rollouts; per class
        of live leads a row of ``rows``: i, the class's lead, its closed-form cost, its mean
        rollout cost over ``nref`` rollouts, its features. Returns the rows written."""
        nr = 0
        st = np.empty(states.shape[1], dtype=np.int64)
        pk = params.copy()
        feats = np.empty((20, E.NFEAT))
        for i in range(states.shape[0]):
            player = players[i]
            for j in range(ks.size):
                st[:] = states[i]
                pk[E.LEAD_SAMPLES] = ks[j]
                picks[i, j] = E.lead_card(st, player, legal[i], pk)
            st[:] = states[i]
            fl = np.empty(E.F_DT + 32)
            E.zero(fl, E.F_OUT, E.F_PC)
            ints = np.empty(E.I_SIZE, dtype=np.int64)
            x, _, live = E.lead_classes(st, player, legal[i], params, fl, ints)
            if not live & (live - 1):
                continue
            best_of = fl[E.F_RACE + 72:E.F_RACE + 92]
            card_of = ints[E.I_CARD:E.I_CARD + 20]
            n, _ = E.lead_rollouts(st, player, live, params, fl, ints,
                                   E.lcg_next(x + np.int64(i) * np.int64(7919)), nref)
            E.lead_features(st, player, live, card_of, params, fl, ints, feats)
            m = live
            while m:
                c = lowest_bit(m)
                m &= m - 1
                rows[nr, 0] = i
                rows[nr, 1] = card_of[c]
                rows[nr, 2] = best_of[c]
                rows[nr, 3] = fl[E.F_EFF + c] / n
                rows[nr, 4:] = feats[c]
                nr += 1
        return nr

    return lab


def lead_data(games, seed, nref):
    """``(rows, picks)`` of :func:`lab_kernel` for the searched leads of ``games`` games."""
    from slashersim.config import GameConfig
    from slashersim.engine import api
    from slashersim.engine.layout import S_LED, S_TRAP_ROUND, S_TRICK
    from slashersim.policies import expert as E
    from slashersim.policies import param_vector
    from slashersim.rules import TRICKS_PER_ROUND
    from slashersim.testing import POINT_HEADER, decision_points
    pts = decision_points("expert", GameConfig(), games, seed=seed,
                          rates={api.PLAY_CARD: 1.0}, capacity=100 * games)
    st = pts[:, POINT_HEADER:]
    legal = pts[:, 2]
    keep = (pts[:, 0] == api.PLAY_CARD) & ((legal & (legal - 1)) != 0) & (st[:, S_LED] < 0) \
        & ~((st[:, S_TRICK] == TRICKS_PER_ROUND - 2) & (st[:, S_TRAP_ROUND] == 0))
    pts = pts[keep]
    rows = np.zeros((8 * len(pts), 4 + E.NFEAT))
    picks = np.zeros((len(pts), len(ROLLOUTS)), dtype=np.int64)
    n = lab_kernel()(np.ascontiguousarray(pts[:, POINT_HEADER:]), pts[:, 1].copy(),
                     pts[:, 2].copy(), param_vector("expert"), nref,
                     np.array(ROLLOUTS, dtype=np.float64), rows, picks)
    default = ROLLOUTS.index(int(param_vector("expert")[E.LEAD_SAMPLES]))
    if not np.array_equal(picks[:, default], pts[:, 3]):
        raise SystemExit("the leads replayed at the defaults differ from the games' leads")
    return rows[:n], picks


def lead_index(rows):
    """Each row's lead as 0, 1, ... (rows come grouped by lead)."""
    return np.cumsum(np.r_[0, np.diff(rows[:, 0]) != 0])


def centred(values, lead):
    """``values`` less their mean over each lead's rows."""
    return values - (np.bincount(lead, values) / np.bincount(lead))[lead]


def tree_inputs(rows, lead):
    """The trees' inputs: the features, the features centred per lead, the centred
    closed-form cost (the order :func:`expert.lead_model` builds them in)."""
    f = rows[:, 4:]
    return np.column_stack([f] + [centred(f[:, j], lead)[:, None] for j in range(f.shape[1])]
                           + [centred(rows[:, 2], lead)[:, None]])


def regret(rows, lead, picked):
    """Mean regret and share of leads not picked best, ``picked`` a boolean per row with one
    row per lead."""
    true = rows[:, 2] + rows[:, 3]
    least = np.full(lead[-1] + 1, np.inf)
    np.minimum.at(least, lead, true)
    r = true[picked] - least[lead[picked]]
    assert r.size == least.size
    return float(r.mean()), float(np.mean(r > 1e-9))


def argmin_rows(score, lead):
    """A boolean per row: the row of least ``score`` of its lead."""
    order = np.lexsort((score, lead))
    first = order[np.r_[0, np.nonzero(np.diff(lead[order]))[0] + 1]]
    picked = np.zeros(lead.size, dtype=bool)
    picked[first] = True
    return picked


def save_trees(model, path):
    """The fitted trees of ``model`` as :func:`expert.load_lead_model` reads them."""
    nodes = [pred.nodes for (pred,) in model._predictors]
    roots = np.cumsum([0] + [len(n) for n in nodes[:-1]])
    allnodes = np.concatenate(nodes)
    offset = np.repeat(roots, [len(n) for n in nodes])
    leaf = allnodes["is_leaf"].astype(bool)
    np.savez(path, roots=roots.astype(np.int64),
             f=np.where(leaf, -1, allnodes["feature_idx"]).astype(np.int64),
             t=allnodes["num_threshold"].astype(np.float64),
             l=(allnodes["left"] + offset).astype(np.int64),
             r=(allnodes["right"] + offset).astype(np.int64),
             v=allnodes["value"].astype(np.float64))


def fit(args, folder):
    """In the patched tree: the data, the models (written to ``folder``) and the offline
    table, as a JSON-ready dict."""
    from sklearn.ensemble import HistGradientBoostingRegressor
    started = time.perf_counter()
    train, _ = lead_data(args.train_games, TRAIN_SEED, FIT_ROLLOUTS)
    test, picks = lead_data(args.test_games, TEST_SEED, args.ref_rollouts)
    print(f"  data: {len(train):,} and {len(test):,} classes "
          f"({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
    lt, ls = lead_index(train), lead_index(test)
    target, truth = centred(train[:, 3], lt), centred(test[:, 3], ls)
    x = np.column_stack([centred(train[:, 4 + j], lt) for j in range(train.shape[1] - 4)])
    w = np.linalg.lstsq(x, target, rcond=None)[0]
    np.savez(folder / "linear.npz", w=w)
    predicted = {"linear": test[:, 4:] @ w}
    xt, xs = tree_inputs(train, lt), tree_inputs(test, ls)
    for name, n, depth, rate in TREES:
        model = HistGradientBoostingRegressor(max_iter=n, max_depth=depth, learning_rate=rate,
                                              early_stopping=False, random_state=0)
        model.fit(xt, target)
        save_trees(model, folder / f"{name.replace(' ', '_')}.npz")
        predicted[name] = model.predict(xs)
    offline = []
    ids = test[:, 0].astype(np.int64)
    for j, k in enumerate(ROLLOUTS):
        label = "closed-form costs only (0 rollouts)" if k == 0 else f"{k} rollouts"
        own = test[:, 1].astype(np.int64) == picks[ids, j]
        offline.append([label, *regret(test, ls, own), None])
    for name in MODELS:
        p = predicted[name]
        r2 = 1.0 - np.sum((truth - centred(p, ls)) ** 2) / np.sum(truth ** 2)
        offline.append([f"{name} model", *regret(test, ls, argmin_rows(test[:, 2] + p, ls)),
                        float(r2)])
    return {"train_classes": len(train), "train_leads": int(lt[-1] + 1),
            "test_classes": len(test), "test_leads": int(ls[-1] + 1), "offline": offline}


def worker(args):
    """The ``--worker`` steps, run in the patched tree."""
    import slashersim
    if not Path(slashersim.__file__).resolve().is_relative_to(Path(args.tree).resolve()):
        raise SystemExit(f"slashersim imported from {slashersim.__file__}, not {args.tree}")
    if args.worker == "fit":
        return fit(args, Path(args.folder))
    settings = REFERENCE if args.worker == "reference" else (("model", IN_PLAY),)
    return ev.measure(settings, args.games, args.seed, args.seconds)


def run(tree, tmp, args, step, cache, model=None):
    """One ``--worker`` step in ``tree``; its JSON result."""
    env = ev.tree_env(tree, tmp / cache)
    if model:
        env["SLASHERSIM_LEAD_MODEL"] = str(model)
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", step, "--tree", str(tree),
           "--folder", str(tmp)] + [f"--{k.replace('_', '-')}={getattr(args, k)}" for k in
                                    ("train_games", "test_games", "ref_rollouts", "games",
                                     "seed", "seconds")]
    out = subprocess.run(cmd, env=env, check=True, stdout=subprocess.PIPE, text=True)
    return json.loads(out.stdout)


def report(args, offline, reference, played, seconds):
    """The report's lines."""
    command = "python experiments/lead_distill.py" + "".join(
        f" {a}" for a in args.argv)
    base = reference["speed"][0]
    lines = [
        "# Leads valued by a model fitted to the rollouts (distillation)", "",
        f"Generated {date.today().isoformat()} by `{command}` in {seconds:,.0f} s. Player: "
        f"`expert` of commit `{ev.BASE[:7]}` with `experiments/variants/{PATCH}` (see the "
        "script's docstring), rulebook defaults unless named.", "",
        "## Offline: the picks against a reference", "",
        f"Fitted on {offline['train_leads']:,} leads ({offline['train_classes']:,} classes, "
        f"{FIT_ROLLOUTS} rollouts each) of {args.train_games:,} games of seed {TRAIN_SEED}; "
        f"tested on {offline['test_leads']:,} leads ({offline['test_classes']:,} classes) of "
        f"{args.test_games:,} games of seed {TEST_SEED}, each class's reference cost the mean "
        f"of {args.ref_rollouts} rollouts on a stream of its own. Regret: the closed-form "
        "plus reference cost of the class picked less the least of the lead's classes (in the "
        "expert's cost units, a game won is worth 100).", "",
        "| picked by | mean regret | share not best | R² of the centred reference |",
        "| --- | ---: | ---: | ---: |"]
    for label, mean, share, r2 in offline["offline"]:
        lines.append(f"| {label} | {mean:.3f} | {share:.3f} | "
                     f"{'' if r2 is None else f'{r2:.3f}'} |")
    lines += [
        "", "## In play: each model in place of the rollouts", "",
        "Speed: games per second at the rulebook defaults, best of 3 runs sized to about "
        f"{args.seconds:g} s, seed {ev.SPEED_SEED}; per core: the lesser of the one-thread "
        "rate and the all-threads rate per core. Strength: each setting minus the expert's "
        f"defaults on the same games, {args.games:,} games of seed {args.seed} per "
        "configuration, with the 95 % interval of the paired per-game differences.", ""]
    rows = [("defaults (16 rollouts)", base, None)]
    rows += [(name, reference["speed"][i + 1],
              [reference["strength"][t][i] for t, _ in ev.CONFIGS])
             for i, (name, _) in enumerate(REFERENCE)]
    rows += [(f"no rollouts, {name} model", played[name]["speed"][1],
              [played[name]["strength"][t][0] for t, _ in ev.CONFIGS]) for name in MODELS]
    lines += ev.table(rows, base)
    return lines + [""]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--train-games", type=int, default=4000)
    ap.add_argument("--test-games", type=int, default=1000)
    ap.add_argument("--ref-rollouts", type=int, default=512)
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--worker", choices=("fit", "reference", "model"), help=argparse.SUPPRESS)
    ap.add_argument("--tree", help=argparse.SUPPRESS)
    ap.add_argument("--folder", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    args.argv = argv if argv is not None else sys.argv[1:]
    for name, least in (("train_games", 10), ("test_games", 10), ("ref_rollouts", 1),
                        ("games", 2)):
        if getattr(args, name) < least:
            ap.error(f"--{name.replace('_', '-')} must be at least {least}, "
                     f"got {getattr(args, name)}")
    if not args.seconds > 0:
        ap.error(f"--seconds must be positive, got {args.seconds}")
    if args.worker:
        print(json.dumps(worker(args)))
        return
    if args.out is None:
        ap.error("--out is required")
    if not args.out.parent.is_dir():
        ap.error(f"--out: no such folder: {args.out.parent}")
    try:
        import sklearn  # noqa: F401
    except ImportError:
        ap.error("needs scikit-learn: pip install -e .[experiments]")
    started = time.perf_counter()
    with ev.patched_tree(PATCH) as (tree, tmp):
        offline = run(tree, tmp, args, "fit", "cache-fit")
        reference = run(tree, tmp, args, "reference", "cache-reference")
        played = {name: run(tree, tmp, args, "model", f"cache-{k}",
                            tmp / f"{name.replace(' ', '_')}.npz")
                  for k, name in enumerate(MODELS)}
    args.out.write_text("\n".join(report(args, offline, reference, played,
                                         time.perf_counter() - started)))
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
