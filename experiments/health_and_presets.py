"""Why can health 3 beat health 4 under the instructions, and why does the instructions presets'
health not fall with the difficulty? Two small sweeps and the doc that reads them.

    python experiments/health_and_presets.py [--games 40000] [--seed 3]

1. ``results/health_steps.parquet``: the instructions edition, starting health 1..7, Hideaway
   in and out, players ``baseline`` and the presets' player; the health steps are read with
   :func:`slashersim.analysis.report.health_steps` (white colours, Killer draws, items kept).
2. ``results/presets_grid.parquet``: the instructions edition (Hideaway in, Cursed Object in,
   3 traps: the defaults every instructions preset keeps), health 1..7 × escapes needed 1..5,
   the presets' player; the tuner's rule (every 95 % interval within target ± 0.02, fewest
   changes from the defaults, then the closest) applied to this grid, set beside the presets.

Writes both tables (with their provenance) and ``results/health_and_presets.md``. About three
minutes on 2 cores at the default 40,000 games per cell (a cold cache adds the compile).
"""
import argparse
from pathlib import Path
import sys
import time
import tomllib

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from slashersim.analysis.report import health_step_lines, health_steps  # noqa: E402
from slashersim.analysis.sweeps import parse_spec, run_sweep  # noqa: E402
from slashersim.core.presets import PRESETS_FILE, derived_for, load_presets  # noqa: E402
from slashersim.runner.tables import load_table, pool_counts  # noqa: E402

TARGETS = {"easy": 0.50, "normal": 0.25, "hard": 0.10, "nightmare": 0.03}
TOLERANCE = 0.02
DEFAULTS = {"health": 7, "escapes_needed": 4}


def sweep(name, spec, out_dir, command):
    out = out_dir / f"{name}.parquet"
    df = run_sweep(parse_spec(spec), out, command=command)
    print(f"{out}: {len(df)} rows", flush=True)
    return load_table(out)


def per_health_table(df, player):
    """Markdown rows: per Hideaway setting and health, the win rate and what explains it."""
    lines = ["| Hideaway | health | whites | win rate [95% CI] | Killer draws / game | "
             "items kept / game | loss by health | loss by traps |",
             "|---|---:|---|---:|---:|---:|---:|---:|"]
    sub = df[df["policy"] == player]
    kept = [c for c in sub.columns if c.startswith("kept_")]
    for (hideaway, health), g in sub.groupby(["hideaway", "health"], sort=False):
        r = pool_counts(g, []).iloc[0]
        n = r["games"]
        white = g.attrs["slashersim"]["cells"][int(g["cell"].iloc[0])]["config"][
            "white_colours"][int(health) - 1]
        lines.append(f"| {'in' if hideaway else 'out'} | {health} | {white} | "
                     f"{r['win_rate']:.4f} [{r['win_ci_low']:.4f}, {r['win_ci_high']:.4f}] | "
                     f"{r['killer_draws'] / n:.2f} | {g[kept].to_numpy().sum() / n:.2f} | "
                     f"{r['loss_health'] / n:.3f} | {r['loss_traps'] / n:.3f} |")
    return lines


def killer_step_words(steps, player, hideaway_words):
    """How much the Killer draws per game rise at each health step (one sentence)."""
    s = steps[(steps["policy"] == player) & (steps["setting"] == hideaway_words)]
    parts = [f"{int(r['health'])}→{int(r['health']) + 1}: "
             f"{(r['killer_draws_next'] - r['killer_draws']) / r['killer_draws']:+.0%}"
             for _, r in s.iterrows()]
    return "; ".join(parts)


def grid_lines(grid, player):
    """The win-rate grid (health down, escapes across) and the tuner's choice on it."""
    sub = grid[grid["policy"] == player]
    escapes = sorted(sub["escapes_needed"].unique())
    healths = sorted(sub["health"].unique())
    rates = {(int(r["health"]), int(r["escapes_needed"])): r for _, r in sub.iterrows()}
    lines = ["| health \\ escapes needed | " + " | ".join(str(e) for e in escapes) + " |",
             "|---:|" + "---:|" * len(escapes)]
    for h in healths:
        lines.append(f"| {h} | " + " | ".join(f"{rates[h, e]['win_rate']:.3f}"
                                             for e in escapes) + " |")
    choices = {}
    for name, target in TARGETS.items():
        ok = [(k, r) for k, r in rates.items()
              if r["win_ci_low"] >= target - TOLERANCE and r["win_ci_high"] <= target + TOLERANCE]
        ranked = sorted(ok, key=lambda kr: ((kr[0][0] != DEFAULTS["health"])
                                            + (kr[0][1] != DEFAULTS["escapes_needed"]),
                                            abs(kr[1]["win_rate"] - target)))
        choices[name] = ranked
    return lines, choices, rates


#: the instructions defaults every cell of the presets grid keeps
GRID_DEFAULTS = {"hideaway": True, "cursed_object": True, "traps": 3}


def _extra(knobs):
    """What a preset changes besides health and escapes needed, in words."""
    words = {"hideaway": {True: "the Hideaway in", False: "the Hideaway out"},
             "cursed_object": {True: "the Cursed Object in", False: "the Cursed Object out"}}
    return [words[k][knobs[k]] if k in words else f"{k} = {knobs[k]}"
            for k, v in GRID_DEFAULTS.items() if knobs[k] != v]


def _names(names):
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40_000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "health_and_presets.md")
    args = ap.parse_args()
    t0 = time.perf_counter()
    player = derived_for() or "heuristic"
    command = (f"python experiments/health_and_presets.py --games {args.games} "
               f"--seed {args.seed}")
    out_dir = args.out.parent
    steps_table = sweep("health_steps", {
        "sweep": {"games": args.games, "seed": args.seed, "chunk_games": args.games,
                  "policies": sorted({"baseline", player})},
        "base": {"edition": "instructions"},
        "axes": {"hideaway": [True, False], "health": list(range(1, 8))}}, out_dir, command)
    grid = sweep("presets_grid", {
        "sweep": {"games": args.games, "seed": args.seed, "chunk_games": args.games,
                  "policies": [player]},
        "base": {"edition": "instructions"},
        "axes": {"escapes_needed": [1, 2, 3, 4, 5], "health": list(range(1, 8))}},
        out_dir, command)

    steps = health_steps(steps_table)
    sw = steps_table.attrs["slashersim"]["software"]
    git = sw.get("git") or {}
    made = f"slashersim {sw['slashersim']}" + (f", git commit `{git['commit'][:12]}`"
                                              + (" (uncommitted changes)" if git.get("dirty")
                                                 else "") if git else "")
    presets = load_presets()["instructions"]
    in_grid = [n for n in TARGETS if not _extra(presets[n])]
    out_grid = [n for n in TARGETS if _extra(presets[n])]
    grid_md, choices, rates = grid_lines(grid, player)
    h3_4 = steps[(steps["health"] == 3)]
    md = ["# Health steps and the instructions presets", "",
          f"Made by `{command}` ({made}; {args.games:,} games per cell and player, seed "
          f"{args.seed}, every cell on the same games). The tables are "
          f"`results/health_steps.parquet` and `results/presets_grid.parquet`; "
          f"`slashersim info` prints how each was made. Every number below is computed from "
          f"their counts by the script.", "",
          "## Why health 3 can beat health 4 under the instructions", "",
          "Under the instructions a white card takes its colour from its holder's health "
          "(`white_colours`): red at health 1–3, yellow at 4–6, green at 7. Red whites are "
          "knives: they only hurt when the Killer is drawn. Yellow whites are draws: each adds "
          "a card from the item deck, which brings escape items but also the Killer, who is "
          "shuffled back at once with a Junk card. One more point of health, from 3 to 4, "
          "therefore does two things at once: one more hit survived, and every white won "
          "turns from a knife into a draw.", ""]
    for p in sorted({"baseline", player}):
        md += [f"### Player `{p}`", ""] + per_health_table(steps_table, p) + [""]
        for words in ("Hideaway in", "Hideaway out"):
            md.append(f"- Killer draws per game, change at each health step ({words}): "
                      + killer_step_words(steps, p, words) + ".")
        md.append("")
    lines = health_step_lines(steps_table)
    md += ["### The steps where more health does not help", ""] + lines[4:] + [""]
    if not h3_4.empty:
        jump = h3_4["killer_draws_next"] / h3_4["killer_draws"] - 1
        others = steps[steps["health"] != 3]
        other = others["killer_draws_next"] / others["killer_draws"] - 1
        diffs = "; ".join(f"{r['policy']}, {r['setting']}: {r['difference']:+.4f}"
                          for _, r in h3_4.iterrows())
        fell = int((h3_4["kept_next"] < h3_4["kept"]).sum())
        fell_other = int((others["kept_next"] < others["kept"]).sum())
        md += [f"The Killer draws per game jump by {jump.min():.0%} to {jump.max():.0%} from "
               f"health 3 to 4 across these players and Hideaway settings, the step where the "
               f"whites turn yellow, against {other.min():.0%} to {other.max():.0%} at every "
               f"other step. The items kept per game fall from health 3 to 4 in {fell} of these "
               f"{len(h3_4)} cases, and at {fell_other} of the {len(others)} other steps: a "
               f"draw that finds the Killer keeps nothing. A Killer drawn "
               f"in the Hideaway takes all health, so extra draws cost most with the Hideaway "
               f"in. The win-rate change from health 3 to 4: {diffs}.", ""]
    healths = ", ".join(str(presets[n]["health"]) for n in TARGETS)
    md += [f"## Why the instructions presets' health reads {healths}", "",
           f"The presets (`slashersim/core/presets/difficulty.toml`, derived for the player "
           f"`{player}` by `experiments/derive_presets.py`) are, for the instructions:", "",
           "| difficulty | target | health | escapes needed | Hideaway | Cursed Object | traps |",
           "|---|---:|---:|---:|---|---|---:|"]
    for name, target in TARGETS.items():
        k = presets[name]
        md.append(f"| {name} | {target:.2f} | {k['health']} | {k['escapes_needed']} | "
                  f"{'in' if k['hideaway'] else 'out'} | "
                  f"{'in' if k['cursed_object'] else 'out'} | {k['traps']} |")
    md += ["", "The tuner picks, among the settings whose whole 95 % interval lies within "
               f"target ± {TOLERANCE}, the one with the fewest changes from the edition's "
               "defaults (health 7, 4 escapes, Hideaway in, Cursed Object in, 3 traps), then the "
               "closest. The grid below is health × escapes needed with the Hideaway, the "
               "Cursed Object and 3 traps"
           + (f"; it holds {_names(in_grid)}" if in_grid else "; it holds none of the presets")
           + (f", while {_names(out_grid)} also change"
              + (" " if len(out_grid) > 1 else "s ")
              + "; ".join(f"{n}: {', '.join(_extra(presets[n]))}" for n in out_grid)
              if out_grid else "")
           + f" (player `{player}`, win rate):", ""] + grid_md + [""]
    at4 = [rates[h, 4]["win_rate"] for h in range(1, 8)]
    md.append(f"- At the default 4 escapes, health alone reaches win rates from "
              f"{min(at4):.3f} to {max(at4):.3f}. Targets outside that range, or falling "
              f"between two health values, need a second change: fewer escapes needed, the "
              f"strongest lever, with health then bringing the win rate back down to the "
              f"target.")
    for name, target in TARGETS.items():
        ranked = choices[name]
        k = presets[name]
        if name in out_grid:
            md.append(f"- {name} ({target:.2f}): the preset is health {k['health']} with "
                      f"{k['escapes_needed']} escapes and {', '.join(_extra(k))}, outside "
                      f"this grid.")
            continue
        if not ranked:
            md.append(f"- {name} ({target:.2f}): no cell of this grid meets it at "
                      f"{args.games:,} games; the preset is health {k['health']}, "
                      f"{k['escapes_needed']} escapes.")
            continue
        (h, e), r = ranked[0]
        others = ", ".join(f"health {hh} with {ee} escapes ({rr['win_rate']:.3f})"
                           for (hh, ee), rr in ranked[1:4])
        same = (h, e) == (k["health"], k["escapes_needed"])
        md.append(f"- {name} ({target:.2f}): on this grid the rule picks health {h} with {e} "
                  f"escapes ({r['win_rate']:.3f} [{r['win_ci_low']:.3f}, "
                  f"{r['win_ci_high']:.3f}])" + (f"; also meeting it: {others}" if others else "")
                  + (". The preset is the same." if same else
                     f". The preset is health {k['health']} with {k['escapes_needed']} escapes, "
                     f"chosen by the tuner on its own games (`results/presets.md`), where the "
                     f"win rates differed slightly."))
    escapes = sorted({e for _, e in rates})
    pairs = "; ".join(f"{e} escapes {rates[3, e]['win_rate']:.3f} against "
                      f"{rates[4, e]['win_rate']:.3f}" for e in escapes)
    not_better = [e for e in escapes if rates[4, e]["win_ci_low"] <= rates[3, e]["win_ci_high"]]
    hard = tomllib.loads(PRESETS_FILE.read_text())["instructions"]["hard"]
    changed = [n for n in in_grid if presets[n]["escapes_needed"] != 4]
    kept = [n for n in in_grid if presets[n]["escapes_needed"] == 4]
    levers = []
    if changed:
        levers.append(_names(changed) + (" also change" if len(changed) > 1 else " also changes")
                      + " the escapes needed (to "
                      + " and ".join(str(presets[n]["escapes_needed"]) for n in changed)
                      + ") and health then brings the win rate back to the target")
    if kept:
        levers.append(_names(kept) + (" keep 4 escapes and change" if len(kept) > 1 else
                                      " keeps 4 escapes and changes") + " health alone")
    if out_grid:
        levers.append(_names(out_grid) + (" change" if len(out_grid) > 1 else " changes")
                      + " other knobs too (above)")
    md += ["", f"Health 4 wins no more than health 3 (their intervals overlap, or 3 is above) "
               f"at {len(not_better)} of the {len(escapes)} escape counts of the grid (health 3 "
               f"against 4: {pairs}). So the health of the presets reads {healths}: "
               + "; ".join(levers) + "; and wherever the target lies near health 3 or 4, the "
               f"two compete as equals, so a few thousandths decide which is closer. The hard "
               f"preset took health {presets['hard']['health']} at {hard['win_rate']:.4f} over "
               f"{hard['games']:,} games; on this grid the rule's first pick for hard is health "
               f"{choices['hard'][0][0][0] if choices['hard'] else '-'}."]
    md += ["", f"Total time: {time.perf_counter() - t0:.0f} s on this 2-core machine.", ""]
    args.out.write_text("\n".join(md), encoding="utf-8")
    print(f"written {args.out}")


if __name__ == "__main__":
    main()
