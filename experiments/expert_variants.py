"""Ideas for a faster or stronger expert that did not pay, each measured against its defaults.

    python experiments/expert_variants.py [--games N] [--seed S] [--seconds S]
        --out results/expert_variants.md

Issue 11 asks for an expert within 0.02 of ``search`` at 20,000 games/s per core; the lead
rollouts take most of its time (``results/expert_budget.md``). Each idea here changes how the
leads are valued and is kept as a patch in ``experiments/variants/``, not in the player, so
the player carries no setting that lost and the measurement stays reproducible:

- ``rollout_sampling.patch``: partner hands that leave out each card equally often
  (``balanced_hands``), and rollouts played by rank instead of by random priorities
  (``playout_order``);
- ``rollout_schedule.patch``: fewer rollouts for the later leads of a round
  (``late_samples`` from trick ``late_from`` on);
- ``lead_futures.patch``: leads valued by the answers' closed-form futures
  (``lead_futures``, its weight), with few rollouts or none.

The folder's ``lead_model.patch`` (leads valued by models fitted to the rollouts) is measured
by ``experiments/lead_distill.py``, which fits the models first.

Every patch was made against commit :data:`BASE` and its new parameters default to the
expert's play there. For each patch this script checks the commit out in a temporary git
worktree, applies the patch, and runs in that tree (its own numba cache):

1. **Speed**: games per second of the defaults and of each setting at the rulebook defaults,
   on one thread and on all (:func:`slashersim.bench.policy_speed`, sized to about
   ``--seconds`` per run, best of 3, seed 12345).
2. **Strength**: each setting minus the defaults on the same games (``--games`` games of seed
   ``--seed`` each) in the three configurations of issue 11, with the 95 % interval of the
   paired per-game differences. Seed 2026 is the seed of ``results/policies.md``, where the
   defaults stand against ``search``.

Measure on an idle machine: the speed columns are wall-clock rates.
"""
import argparse
from contextlib import contextmanager
from datetime import date
import json
import os
from pathlib import Path
import subprocess
import sys
import tempfile
import time

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ROOT / "experiments" / "variants"
#: the commit every patch of VARIANTS was made against
BASE = "f943a7b06e38a4d8df1dc50240de56ad300c534e"
#: (patch, [(setting, parameter overrides)]), each setting measured against the defaults
SETTINGS = (
    ("rollout_sampling.patch", (
        ("balanced partner hands", {"balanced_hands": 1}),
        ("8 rollouts", {"lead_samples": 8}),
        ("8 rollouts, balanced partner hands", {"lead_samples": 8, "balanced_hands": 1}),
        ("rollouts play low ranks first", {"playout_order": 1}),
        ("rollouts play high ranks first", {"playout_order": 2}))),
    ("rollout_schedule.patch", (
        ("24 rollouts, 8 from trick 4", {"lead_samples": 24, "late_samples": 8,
                                         "late_from": 3}),
        ("16 rollouts, 8 from trick 4", {"late_samples": 8, "late_from": 3}),
        ("16 rollouts, 4 from trick 4", {"late_samples": 4, "late_from": 3}),
        ("24 rollouts, 8 from trick 3", {"lead_samples": 24, "late_samples": 8,
                                         "late_from": 2}))),
    ("lead_futures.patch", (
        ("no rollouts", {"lead_samples": 0}),
        ("no rollouts, lead futures (weight 1)", {"lead_samples": 0, "lead_futures": 1}),
        ("no rollouts, lead futures (weight 2)", {"lead_samples": 0, "lead_futures": 2}),
        ("4 rollouts", {"lead_samples": 4}),
        ("4 rollouts, lead futures (weight 1)", {"lead_samples": 4, "lead_futures": 1}))),
)
CONFIGS = (("rulebook defaults", {}),
           ("health 5", {"health": 5}),
           ("instructions defaults", {"edition": "instructions"}))
SPEED_SEED = 12345


def measure(settings, games, seed, seconds):
    """In a patched tree (``slashersim`` imported from it): speed and paired strength of the
    defaults and of each ``(name, overrides)`` of ``settings``, as a JSON-ready dict."""
    import slashersim
    tree = Path(os.environ["PYTHONPATH"]).resolve()
    if not Path(slashersim.__file__).resolve().is_relative_to(tree):
        raise SystemExit(f"slashersim imported from {slashersim.__file__}, not from {tree}")
    from slashersim.analysis.compare import compare_policies, pair
    from slashersim.bench import policy_speed
    from slashersim.config import GameConfig
    from slashersim.policies import param_vector
    rows = [("defaults", {})] + list(settings)
    speed = []
    for name, over in rows:
        b = policy_speed("expert", seconds=seconds, seed=SPEED_SEED,
                         params=param_vector("expert", over))
        speed.append(b)
        print(f"  speed of {name} done", file=sys.stderr, flush=True)
    labels = ["expert"] + [f"expert#{k}" for k in range(2, len(rows) + 1)]
    params = {label: over for label, (_, over) in zip(labels[1:], settings)}
    strength = {}
    for title, kw in CONFIGS:
        r = compare_policies(GameConfig(**kw), ["expert"] * len(rows), games=games,
                             seed=seed, params=params)
        strength[title] = [[p["difference"], p["difference_ci"]]
                           for p in (pair(r, "expert", label) for label in labels[1:])]
        print(f"  strength at {title} done", file=sys.stderr, flush=True)
    return {"speed": speed, "strength": strength}


@contextmanager
def patched_tree(patch):
    """A temporary git worktree of :data:`BASE` with ``patch`` applied: ``(the tree, a scratch
    folder)``, both removed on exit."""
    with tempfile.TemporaryDirectory(prefix="expert-variant-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach",
                        str(tree), BASE], check=True)
        try:
            subprocess.run(["git", "-C", str(tree), "apply", str(VARIANTS / patch)],
                           check=True)
            yield tree, Path(tmp)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(tree)], check=True)


def tree_env(tree, cache):
    """The environment of a process that imports ``slashersim`` from ``tree``, with the numba
    cache ``cache``."""
    return dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(cache))


def run_patch(patch, games, seed, seconds):
    """:func:`measure` in a temporary worktree of :data:`BASE` with ``patch`` applied."""
    print(f"{patch}:", file=sys.stderr, flush=True)
    with patched_tree(patch) as (tree, tmp):
        out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker",
                              patch, "--games", str(games), "--seed", str(seed),
                              "--seconds", str(seconds)],
                             env=tree_env(tree, tmp / "numba-cache"), check=True,
                             stdout=subprocess.PIPE, text=True)
    return json.loads(out.stdout)


def per_core(b):
    """A :func:`slashersim.bench.policy_speed` result's rate per core: the lesser of the
    one-thread rate and the all-threads rate per core."""
    return min(b["games_per_s_1_thread"], b["games_per_s_per_core_all_threads"])


def table(rows, base):
    """A table of speed and paired strength: ``rows`` of ``(setting, its``
    :func:`slashersim.bench.policy_speed` ``result, its (difference, 95 % interval) to the
    defaults per configuration of CONFIGS or None for the defaults)``, ``base`` the defaults'
    speed."""
    from slashersim.present import format_ci
    lines = [f"| setting | 1 thread | {base['threads']} threads | per core | speed / defaults | "
             + " | ".join(f"{t}: − defaults | 95 % CI" for t, _ in CONFIGS) + " |",
             "| --- | ---: | ---: | ---: | ---: | "
             + " | ".join("---: | ---" for _ in CONFIGS) + " |"]
    for name, b, strength in rows:
        cells = ["0 | -" for _ in CONFIGS] if strength is None else [
            f"{d:+.4f} | {format_ci(ci, signed=True)}" for d, ci in strength]
        lines.append(f"| {name} | {b['games_per_s_1_thread']:,.0f} | "
                     f"{b['games_per_s_all_threads']:,.0f} | {per_core(b):,.0f} | "
                     f"{per_core(b) / per_core(base):.2f} | " + " | ".join(cells) + " |")
    return lines


def report(results):
    """The report's tables, one per patch: speed and paired strength of each setting."""
    lines = []
    for patch, settings in SETTINGS:
        res = results[patch]
        rows = [("defaults", res["speed"][0], None)] + [
            (name, res["speed"][i + 1], [res["strength"][t][i] for t, _ in CONFIGS])
            for i, (name, _) in enumerate(settings)]
        lines += [f"## `{patch}`", ""] + table(rows, res["speed"][0]) + [""]
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--worker", choices=[p for p, _ in SETTINGS], help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.games < 2:
        ap.error(f"--games must be at least 2, got {args.games}")
    if not args.seconds > 0:
        ap.error(f"--seconds must be positive, got {args.seconds}")
    if args.worker:
        print(json.dumps(measure(dict(SETTINGS)[args.worker], args.games, args.seed,
                                 args.seconds)))
        return
    if args.out is None:
        ap.error("--out is required")
    if not args.out.parent.is_dir():
        ap.error(f"--out: no such folder: {args.out.parent}")
    start = time.time()
    results = {patch: run_patch(patch, args.games, args.seed, args.seconds)
               for patch, _ in SETTINGS}
    command = "python experiments/expert_variants.py" + "".join(
        f" {a}" for a in (argv if argv is not None else sys.argv[1:]))
    head = ["# Ideas for the expert's leads that did not pay", "",
            f"Generated {date.today().isoformat()} by `{command}` in "
            f"{time.time() - start:,.0f} s. Player: `expert` at its defaults and in the "
            f"settings named, each idea a patch of `experiments/variants/` applied to commit "
            f"`{BASE[:7]}` (see the script's docstring).", "",
            "Speed: games per second at the rulebook defaults, best of 3 runs sized to about "
            "the same time, seed 12345; per core: the lesser of the one-thread rate and the "
            "all-threads rate per core. Strength: each setting minus the expert's defaults on "
            f"the same games, {args.games:,} games of seed {args.seed} per configuration, "
            "with the 95 % interval of the paired per-game differences. Where the defaults "
            "stand against `search` on the games of seed 2026: `results/policies.md`; issue "
            "11 asks for no worse than −0.02 there, at 20,000 games/s per core.", ""]
    args.out.write_text("\n".join(head + report(results)))
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
