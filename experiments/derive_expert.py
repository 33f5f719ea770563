"""The experiment behind the ``expert`` policy: where the heuristic loses against search, what
each part of the expert is worth, and the tuning of its parameters, all on common random
numbers (game g is the same deal for every policy and parameter setting).

    python experiments/derive_expert.py [--threads T] [--quick]

1. Where the heuristic loses (rulebook defaults, seed 7): heuristic and search side by side
   (win rate, loss causes, traps per round by area, damage per game), search with the
   item-phase terms of its cost switched off (``damage = death = 0``: it then values the
   cards won at nothing), and search's card play only in some places, the heuristic's
   elsewhere (``search_in``, a policy defined here: Tent site / Lodge only, everywhere else,
   leads only, tricks 1-4 only).
2. The expert's parts (seed 7, 20,000 games each, paired against the expert as shipped): the
   cards won valued in closed form (``expert.CLOSED_FORM``), no rollouts for leads, no value
   of the cards won for answers, no exact area checks, fewer rollouts, and the untuned
   parameters.
3. The tuning of the closed-form expert (``expert.CLOSED_FORM``): a paired coordinate search
   (seed 100, 20,000 games per candidate; a move is kept when the paired difference exceeds
   twice its standard error) from the untuned parameters, three sweeps over the grids below,
   in order.
4. From the closed-form expert to ``expert.DEFAULT_PARAMS`` (seed 100, 20,000 games per step,
   in the three configurations of issue 11): the item-phase model (``item_model``) and the
   settings chosen with it, one step at a time, each paired against the step before. Every
   setting one at a time around the defaults, and the defaults against search, are in
   ``experiments/expert_items.py``.

``--quick`` divides every game count by 10 (for a smoke test; the figures are then noisy and
the tuning does not reproduce the defaults). On two cores the whole run takes about 20
minutes.
"""
import argparse
import time

from numba import njit
import numpy as np

from slashersim import rules
from slashersim.config import GameConfig
from slashersim.engine import api
from slashersim.engine.layout import S_AREA, S_LED, S_TRICK
from slashersim.policies import POLICIES, Policy, param_vector
from slashersim.policies import expert as E
from slashersim.policies import heuristic as H
from slashersim.policies import search as S
from slashersim.runner import simulate

SEED = 7
TUNE_SEED = 100
WIN = rules.OUTCOME_NAMES.index("win")
#: the expert's parameters before tuning: the heuristic's defaults and the expert's own, the
#: cards won valued in closed form
UNTUNED = {**E.CLOSED_FORM, "death": 60.0, "draw_over": 0.0, "cabins_gain": 0.0,
           "follow_weight": 1.0}
#: section 4: the steps from the closed-form expert to the defaults
ITEM_STEPS = (("item model", {"item_model": 1.0}),
              ("draw_over 0, death 200", {"draw_over": 0.0, "death": 200.0}),
              ("win_value 100", {"win_value": 100.0}),
              ("no Hideaway plan", {"hideaway_plan": 0.0}),
              ("16 rollouts per lead class", {"lead_samples": 16.0}))
ITEM_CONFIGS = (("rulebook defaults", GameConfig()), ("health 5", GameConfig(health=5)),
                ("instructions defaults", GameConfig(edition="instructions")))
#: the coordinate search's sweeps, in order
SWEEPS = (
    {"breach": [70, 150, 200], "keep_flexible": [20, 60], "wrong_winner": [15, 60],
     "lead_weight": [0.7, 1.4], "follow_weight": [0.7, 1.4], "damage": [14, 28],
     "death": [30, 120]},
    {"death": [180, 250], "damage": [28, 40], "follow_weight": [2.0],
     "lead_weight": [1.4, 2.0], "keep_flexible": [20, 30], "breach": [70, 85],
     "wrong_winner": [15], "target_draws": [2], "draw_under": [5], "draw_over": [5]},
    {"draw_over": [10, 20], "target_draws": [2, 0], "draw_under": [5], "death": [250],
     "follow_weight": [2.0], "keep_flexible": [30], "aid_large_below": [4, 6],
     "aid_small_below": [5], "cabins_gain": [-1, 0.1], "killer_cost": [0.5, 2],
     "flashlight_risk": [0.2], "backpack_min": [0, 10]},
)

# --- search's card play in some places only ------------------------------------------------------
N_SEARCH = len(S.DEFAULT_PARAMS)
SEARCH_IN_NAMES = S.PARAM_NAMES + ("area_mask", "trick_from", "trick_to", "roles")


@njit(api.POLICY_SIGNATURE, cache=True)
def search_in(decision, player, arg, st, params):
    """Search's card play in the areas of bitmask ``area_mask``, in tricks ``trick_from`` ..
    ``trick_to`` (0-based) and for the roles of bitmask ``roles`` (1 lead, 2 answer); the
    heuristic's everywhere else."""
    if decision == api.PLAY_CARD:
        role = 1 if st[S_LED] < 0 else 2
        if (int(params[N_SEARCH]) >> st[S_AREA]) & 1 and \
                params[N_SEARCH + 1] <= st[S_TRICK] <= params[N_SEARCH + 2] and \
                int(params[N_SEARCH + 3]) & role:
            return S.search_card(st, player, arg, params)
        return H.choose_card(st, player, arg, params)
    return H.decide(decision, player, arg, st, params)


POLICIES["search_in"] = Policy("search_in", search_in,
                               np.concatenate([S.DEFAULT_PARAMS, [127.0, 0.0, 7.0, 3.0]]),
                               False, 0, SEARCH_IN_NAMES)
AREAS = {a: 1 << i for i, a in enumerate(rules.AREA_NAMES)}


def describe(label, r):
    s = r.summary()
    traps = " ".join(f"{a[:5]} {v:.3f}" for a, v in s["trap_rate_by_area"].items()
                     if v is not None)
    print(f"  {label:<38} {r.games:>7,} games  win {s['win_rate']:.4f}  loss by health "
          f"{s['loss_health']:.3f}  by traps {s['loss_traps']:.3f}  damage/game "
          f"{s['mean_damage']:.2f}  traps/round: {traps}  ({r.games / r.elapsed_s:,.0f} "
          f"games/s)", flush=True)


def wins(policy, games, seed, threads, params, config=None):
    """The run and its per-game wins (``config`` defaults to the rulebook defaults)."""
    r = simulate(config or GameConfig(), policy, games=games, seed=seed, threads=threads,
                 params=params, keep_records=True)
    return r, r.records["outcome"].cat.codes.to_numpy() == WIN


def paired(a, b):
    """Mean of b - a and its standard error (a, b: per-game wins on the same games)."""
    d = b.astype(float) - a.astype(float)
    return d.mean(), d.std() / np.sqrt(len(d))


def where_the_heuristic_loses(games, threads):
    print(f"1. Where the heuristic loses (rulebook defaults, seed {SEED})", flush=True)
    describe("heuristic", simulate(GameConfig(), "heuristic", games=20 * games, seed=SEED,
                                   threads=threads))
    describe("search (24 samples)", simulate(GameConfig(), "search", games=games, seed=SEED,
                                             threads=threads))
    describe("search, cards won valued at 0",
             simulate(GameConfig(), "search", games=games, seed=SEED, threads=threads,
                      params=param_vector("search", {"damage": 0, "death": 0})))
    tent_lodge = AREAS["tent_site"] | AREAS["lodge"]
    for label, over in (("search in Tent site / Lodge only", {"area_mask": tent_lodge}),
                        ("search everywhere else", {"area_mask": 127 & ~tent_lodge}),
                        ("search for leads only", {"roles": 1}),
                        ("search for answers only", {"roles": 2}),
                        ("search in tricks 1-4 only", {"trick_to": 3}),
                        ("search in tricks 5-8 only", {"trick_from": 4})):
        describe(label, simulate(GameConfig(), "search_in", games=games, seed=SEED,
                                 threads=threads, params=param_vector("search_in", over)))


def expert_parts(games, threads):
    print(f"\n2. The expert's parts (seed {SEED}; paired difference from the expert as shipped, "
          f"± its standard error)", flush=True)
    base, base_w = wins("expert", games, SEED, threads, None)
    describe("expert", base)
    for label, policy, over in (
            ("heuristic", "heuristic", None),
            ("cards won valued in closed form", "expert", E.CLOSED_FORM),
            ("no rollouts for leads", "expert", {"lead_samples": 0}),
            ("cards won not valued for answers", "expert", {"follow_weight": 0}),
            ("no exact Tent site / Lodge checks", "expert", {"dd_from": 8}),
            ("2 rollouts per lead class", "expert", {"lead_samples": 2}),
            ("4 rollouts per lead class", "expert", {"lead_samples": 4}),
            ("8 rollouts per lead class", "expert", {"lead_samples": 8}),
            ("untuned parameters", "expert", UNTUNED)):
        params = None if over is None else param_vector(policy, over)
        r, w = wins(policy, games, SEED, threads, params)
        d, se = paired(base_w, w)
        describe(label, r)
        print(f"  {'':<38} difference from the expert {d:+.4f} ± {se:.4f}", flush=True)


def tune(games, threads):
    print(f"\n3. The tuning (seed {TUNE_SEED}, {games:,} games per candidate)", flush=True)
    current = dict(UNTUNED)
    t0 = time.perf_counter()
    _, best = wins("expert", games, TUNE_SEED, threads, param_vector("expert", current))
    print(f"  start {best.mean():.4f} {current}", flush=True)
    for k, grid in enumerate(SWEEPS):
        for name, values in grid.items():
            for v in values:
                if current.get(name) == v:
                    continue
                candidate = dict(current, **{name: float(v)})
                _, w = wins("expert", games, TUNE_SEED, threads,
                            param_vector("expert", candidate))
                d, se = paired(best, w)
                kept = d > 2 * se
                print(f"    {name} = {v}: {w.mean():.4f}, paired {d:+.4f} ± {se:.4f}"
                      f"{'  kept' if kept else ''}", flush=True)
                if kept:
                    current, best = candidate, w
        print(f"  after sweep {k + 1}: {best.mean():.4f} {current}", flush=True)
    tuned = param_vector("expert", current)
    target = param_vector("expert", E.CLOSED_FORM)
    same = np.array_equal(tuned, target)
    print(f"  tuned parameters {'are' if same else 'are NOT'} expert.CLOSED_FORM "
          f"({time.perf_counter() - t0:.0f} s)", flush=True)
    if not same:
        for name, a, b in zip(E.PARAM_NAMES, tuned, target):
            if a != b:
                print(f"    {name}: tuned {a}, closed form {b}")


def item_model(games, threads):
    print(f"\n4. From the closed-form expert to the defaults (seed {TUNE_SEED}, {games:,} games "
          "per step; paired difference from the step before, ± its standard error)",
          flush=True)
    for title, config in ITEM_CONFIGS:
        current = dict(E.CLOSED_FORM)
        _, before = wins("expert", games, TUNE_SEED, threads,
                         param_vector("expert", current), config)
        print(f"  {title}: closed form {before.mean():.4f}", flush=True)
        for label, step in ITEM_STEPS:
            current.update(step)
            _, w = wins("expert", games, TUNE_SEED, threads, param_vector("expert", current),
                        config)
            d, se = paired(before, w)
            print(f"    + {label:<30} {w.mean():.4f}, paired {d:+.4f} ± {se:.4f}", flush=True)
            before = w
    same = np.array_equal(param_vector("expert", current), E.DEFAULT_PARAMS)
    print(f"  the last step {'is' if same else 'is NOT'} expert.DEFAULT_PARAMS", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--threads", type=int, default=None, help="numba threads (default: all)")
    ap.add_argument("--quick", action="store_true", help="a tenth of the games (smoke test)")
    args = ap.parse_args()
    scale = 10 if args.quick else 1
    t0 = time.perf_counter()
    where_the_heuristic_loses(3000 // scale, args.threads)
    expert_parts(20_000 // scale, args.threads)
    tune(20_000 // scale, args.threads)
    item_model(20_000 // scale, args.threads)
    print(f"\ntotal {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
