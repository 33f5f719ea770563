"""Derive the difficulty presets with the tuner and write their evidence.

    python experiments/derive_presets.py [--policy expert] [--seed 2026]
        [--stages 20000,200000,1000000] [--level-games 200000]

For each edition and each difficulty's target win rate, the tuner searches health, Hideaway,
Cursed Object, escapes needed and traps (coarse to fine on common random numbers) and picks the
setting that meets the target (95 % interval within +-0.02) with the fewest changes from the
edition's defaults. Writes ``slashersim/core/presets/difficulty.toml`` (with tomli-w; its top-level
``derived_for`` names the policy) and ``results/presets.md``, which also gives each preset's
win rate for every skill level (novice, casual, expert) on the same games.
"""
import argparse
from datetime import date
from pathlib import Path
import time

from slashersim.analysis.compare import compare_policies
from slashersim.analysis.tune import DEFAULT_KNOBS, DEFAULT_STAGES, Tuner
from slashersim.core.config import GameConfig
from slashersim.core.presets import DIFFICULTIES, PRESETS_FILE, write_presets
from slashersim.core.rules import EDITION_NAMES
from slashersim.policies import SKILLS

#: target win rate of each difficulty for the strongest fair policy
TARGETS = {"easy": 0.50, "normal": 0.25, "hard": 0.10, "nightmare": 0.03}
TOLERANCE = 0.02
ROOT = Path(__file__).resolve().parents[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policy", default="expert")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--stages", default=",".join(str(g) for g in DEFAULT_STAGES),
                    help="games per candidate after each stage of the tuner")
    ap.add_argument("--level-games", type=int, default=200_000,
                    help="games per preset and skill level in the table of levels")
    args = ap.parse_args()
    stages = tuple(int(g) for g in args.stages.split(","))
    t0 = time.perf_counter()
    presets = {}
    md = ["# Difficulty presets", "",
          f"Derived {date.today().isoformat()} by `python experiments/derive_presets.py "
          f"--policy {args.policy} --seed {args.seed} --stages {args.stages} --level-games "
          f"{args.level_games}` for the `{args.policy}` player: the win rates and targets below "
          f"hold for it. Targets: "
          + ", ".join(f"{n} {t:.2f}" for n, t in TARGETS.items())
          + f"; a setting meets its target when its whole 95 % Wilson interval lies within "
            f"±{TOLERANCE}. Knobs searched: {', '.join(DEFAULT_KNOBS)}; stages of "
          + ", ".join(f"{g:,}" for g in stages)
          + " games per candidate on common random numbers. Among the settings that meet the "
            "target the one with the fewest changes from the edition's defaults is chosen, "
            "then the closest.", ""]
    for edition in EDITION_NAMES:
        tuner = Tuner(args.policy, DEFAULT_KNOBS, GameConfig(edition=edition), args.seed)
        md += [f"## {edition}", ""]
        presets[edition] = {}
        for name in DIFFICULTIES:
            target = TARGETS[name]
            df = tuner.search(target, TOLERANCE, stages=stages)
            best = df.iloc[0]
            knobs = {k: (bool(best[k]) if isinstance(best[k], (bool,)) or k in
                         ("hideaway", "cursed_object") else int(best[k]))
                     for k in DEFAULT_KNOBS}
            presets[edition][name] = {
                "target": target, "win_rate": round(float(best["win_rate"]), 4),
                "win_ci": [round(float(best["win_ci_low"]), 4),
                           round(float(best["win_ci_high"]), 4)],
                "games": int(best["games"]), "meets_target": bool(best["meets_target"]),
                "knobs": knobs}
            verdict = "meets the target" if best["meets_target"] else \
                "**does not meet the target** (closest setting found)"
            md += [f"### {name} (target {target:.2f})", "",
                   "Chosen: " + ", ".join(f"{k} = {v}" for k, v in knobs.items())
                   + f" — win rate {best['win_rate']:.4f} "
                     f"[{best['win_ci_low']:.4f}, {best['win_ci_high']:.4f}] over "
                     f"{int(best['games']):,} games; {verdict}.", "",
                   "Candidates of the last stage (best first):", "",
                   "| " + " | ".join([*DEFAULT_KNOBS, "games", "win rate", "95% CI",
                                      "meets", "changes"]) + " |",
                   "|" + " --- |" * (len(DEFAULT_KNOBS) + 5)]
            for _, r in df.head(6).iterrows():
                md.append("| " + " | ".join([*(str(r[k]) for k in DEFAULT_KNOBS),
                                             f"{int(r['games']):,}", f"{r['win_rate']:.4f}",
                                             f"[{r['win_ci_low']:.4f}, {r['win_ci_high']:.4f}]",
                                             "yes" if r["meets_target"] else "no",
                                             str(int(r["changes"]))]) + " |")
            md.append("")
            print(f"{edition} {name}: {knobs} -> {best['win_rate']:.4f}", flush=True)
    md += levels_table(presets, args.seed, args.level_games)
    md += [f"Total time: {time.perf_counter() - t0:.0f} s on this 2-core machine.", ""]
    write_presets(presets, args.policy, PRESETS_FILE, header=[
        "Difficulty presets, derived by experiments/derive_presets.py (evidence: "
        "results/presets.md).",
        "derived_for: the player (policy) the win rates hold for."])
    (ROOT / "results" / "presets.md").write_text("\n".join(md))


def levels_table(presets, seed, games):
    """Each preset's win rate for every skill level, all levels on the same games (seed)."""
    levels = list(SKILLS)
    md = ["## Every preset for every skill level", "",
          "Win rate with its 95 % interval of each preset for each skill level ("
          + ", ".join(f"{lv} = `{p}`" for lv, p in SKILLS.items())
          + f"), {games:,} games each, seed {seed}, the same games for every level.", "",
          "| edition | preset | " + " | ".join(levels) + " |",
          "| --- | --- |" + " ---: |" * len(levels)]
    for edition, table in presets.items():
        for name, p in table.items():
            config = GameConfig(edition=edition, **p["knobs"])
            r = compare_policies(config, [SKILLS[lv] for lv in levels], games=games, seed=seed)
            cells = [f"{row['win_rate']:.4f} [{row['win_ci'][0]:.4f}, {row['win_ci'][1]:.4f}]"
                     for row in r["policies"]]
            md.append(f"| {edition} | {name} | " + " | ".join(cells) + " |")
            print(f"levels {edition} {name}: {cells}", flush=True)
    return md + [""]


if __name__ == "__main__":
    main()
