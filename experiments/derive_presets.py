"""Derive the difficulty presets with the tuner and write their evidence.

    python experiments/derive_presets.py [--policy heuristic] [--seed 2026]

For each edition and each difficulty's target win rate, the tuner searches health, Hideaway,
Cursed Object, escapes needed and traps (coarse to fine on common random numbers) and picks the
setting that meets the target (95 % interval within +-0.02) with the fewest changes from the
edition's defaults. Writes ``slashersim/presets/difficulty.toml`` (with tomli-w; its top-level
``derived_for`` names the policy) and ``results/presets.md``.
"""
import argparse
from datetime import date
from pathlib import Path
import time

from slashersim.config import GameConfig
from slashersim.presets import DIFFICULTIES, PRESETS_FILE, write_presets
from slashersim.rules import EDITION_NAMES
from slashersim.tune import DEFAULT_KNOBS, DEFAULT_STAGES, Tuner

#: target win rate of each difficulty for the strongest fair policy
TARGETS = {"easy": 0.50, "normal": 0.25, "hard": 0.10, "nightmare": 0.03}
TOLERANCE = 0.02
ROOT = Path(__file__).resolve().parents[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    t0 = time.perf_counter()
    presets = {}
    md = ["# Difficulty presets", "",
          f"Derived {date.today().isoformat()} by `python experiments/derive_presets.py "
          f"--policy {args.policy} --seed {args.seed}` for the `{args.policy}` policy"
          + (" (the strongest fair policy fast enough for the tuner's million-game stages; "
             "`search` plays better still, see results/policies.md)"
             if args.policy == "heuristic" else "") + ". Targets: "
          + ", ".join(f"{n} {t:.2f}" for n, t in TARGETS.items())
          + f"; a setting meets its target when its whole 95 % Wilson interval lies within "
            f"±{TOLERANCE}. Knobs searched: {', '.join(DEFAULT_KNOBS)}; stages of "
          + ", ".join(f"{g:,}" for g in DEFAULT_STAGES)
          + " games per candidate on common random numbers. Among the settings that meet the "
            "target the one with the fewest changes from the edition's defaults is chosen, "
            "then the closest.", ""]
    for edition in EDITION_NAMES:
        tuner = Tuner(args.policy, DEFAULT_KNOBS, GameConfig(edition=edition), args.seed)
        md += [f"## {edition}", ""]
        presets[edition] = {}
        for name in DIFFICULTIES:
            target = TARGETS[name]
            df = tuner.search(target, TOLERANCE)
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
    md += [f"Total time: {time.perf_counter() - t0:.0f} s on this 2-core machine.", ""]
    write_presets(presets, args.policy, PRESETS_FILE, header=[
        "Difficulty presets, derived by experiments/derive_presets.py (evidence: "
        "results/presets.md).",
        "derived_for: the player (policy) the win rates hold for."])
    (ROOT / "results" / "presets.md").write_text("\n".join(md))


if __name__ == "__main__":
    main()
