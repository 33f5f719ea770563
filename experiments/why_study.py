"""Why and where games are lost, for every skill level and one mixed pair: the difficulty
profile and the hazard by round (``slashersim why``) at the rulebook and instructions defaults
and their hard presets, on the same games for every player (one seed), with the ceilings; and
with ``--equity`` (``slashersim why --equity``) each player's luck and play: the mean per game
and the share of the outcome's variance of each kind of luck and of the decisions.

    python experiments/why_study.py --games 400 --hard-games 150 --seed 2026 --equity \\
        --out results/why.md --figures results/why

Writes the report, ``profile.csv`` and ``hazard.csv`` (small tables) and one hazard figure per
configuration into ``--figures``. Each player's answer is kept in ``--cache`` as it is found, so
an interrupted study resumes where it stopped (the cache is keyed by everything that decides
the answer).
"""
import argparse
import datetime
import hashlib
import json
import os
from pathlib import Path
import sys
import time

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from slashersim.analysis.equity import CHOOSE, ESTIMATE  # noqa: E402
from slashersim.analysis.fatal import BUDGET, VERDICTS  # noqa: E402
from slashersim.analysis.why import why  # noqa: E402
from slashersim.core.config import GameConfig  # noqa: E402
from slashersim.policies import resolve  # noqa: E402
from slashersim.present.figures import hazard_figure  # noqa: E402
from slashersim.present.text import config_line, player_line  # noqa: E402

CONFIGS = {"rulebook defaults": {}, "instructions defaults": {"edition": "instructions"},
           "rulebook hard": {"difficulty": "hard"},
           "instructions hard": {"edition": "instructions", "difficulty": "hard"}}
PLAYERS = ("novice", "casual", "expert")
#: the mixed pair studied at the rulebook defaults
PAIR = "novice+expert"
WORDS = {"won": "won", "deal": "lost at the deal", "avoidable": "avoidable",
         "hindsight": "hindsight", "undecided": "undecided"}


def cell(r):
    return f"{r['share']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]"


def equity_lines(answers):
    """The luck-and-play table of a configuration: per player, the mean per game and the share
    of the outcome's variance [95 % interval] of each source."""
    sources = [r["source"] for r in answers[0]["equity"]["sources"]]
    e = answers[0]["equity"]
    out = ["", f"Luck and play with the future unknown (`why --equity`, {e['estimate']} "
           f"play-outs per estimate, {e['choose']} per answer to pick the best): per player, "
           "the mean per game, then the share of the outcome's variance [95 % bootstrap "
           "interval]. The start plus the luck less the costs is each game's outcome; the "
           "start and \"none\" (no chance event) hold the estimates' noise. A decision is "
           "valued by its best answer, so the luck before it counts the chance of playing it "
           "best: a weak player's luck means run high and its costs take that back.", "",
           "| player | " + " | ".join(src.replace("luck: ", "") for src in sources) + " |",
           "| --- | " + " | ".join("---" for _ in sources) + " |"]
    for s in answers:
        cells = [f"{r['mean']:+.3f}; " + ("- (every game ended the same)" if r["share"] is None
                                          else f"{r['share']:.2f} [{r['low']:.2f}, "
                                               f"{r['high']:.2f}]")
                 for r in s["equity"]["sources"]]
        out.append(f"| {s['label']} | " + " | ".join(cells) + " |")
    astray = sum(s["equity"]["astray"] for s in answers)
    out += ["", f"Play-outs whose replay left their game: {astray}."]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--hard-games", type=int, default=150)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--budget", type=int, default=BUDGET)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--out", default="results/why.md")
    ap.add_argument("--figures", default="results/why")
    ap.add_argument("--cache", default=".why_study_cache")
    ap.add_argument("--equity", action="store_true",
                    help="also each game's luck and costs with the future unknown")
    args = ap.parse_args(argv)
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    figures = Path(args.figures)
    figures.mkdir(parents=True, exist_ok=True)
    profile_rows, hazard_rows, sections = [], [], []
    for label in args.configs.split(","):
        config = GameConfig.of(None, CONFIGS[label])
        games = args.hard_games if "hard" in label else args.games
        players = (*PLAYERS, PAIR) if label == "rulebook defaults" else PLAYERS
        answers = []
        for i, player in enumerate(players):
            key = json.dumps([config.rules_id.digest, player, games, args.seed, args.budget,
                              i == 0] + ([CHOOSE, ESTIMATE] if args.equity else []))
            kept = cache / (hashlib.sha256(key.encode()).hexdigest()[:20] + ".json")
            if kept.is_file():
                s = json.loads(kept.read_text())
            else:
                t = time.perf_counter()
                r = why(config, policy=player, games=games, seed=args.seed, budget=args.budget,
                        workers=args.workers, ceilings=i == 0,
                        equity={"choose": CHOOSE, "estimate": ESTIMATE} if args.equity
                        else None)
                s = r.summary()
                s["label"] = player
                kept.write_text(json.dumps(s))
                print(f"{label}, {player}: {time.perf_counter() - t:.0f} s", file=sys.stderr,
                      flush=True)
            answers.append(s)
            for row in s["profile"]:
                profile_rows.append({"configuration": label, "player": player, **row})
            for row in s["hazard_by_round"]:
                hazard_rows.append({"configuration": label, "player": player, **row})
        fig = hazard_figure(answers, f"{label}: {config_line(answers[0]['config'])}")
        png = figures / f"hazard_{label.replace(' ', '_')}.png"
        fig.savefig(png)
        sections.append((label, config, games, answers, png))
    pd.DataFrame(profile_rows).to_csv(figures / "profile.csv", index=False)
    pd.DataFrame(hazard_rows).to_csv(figures / "hazard.csv", index=False)
    only = f' --configs "{args.configs}"' if args.configs != ",".join(CONFIGS) else ""
    only += " --equity" if args.equity else ""
    lines = [
        "# Why and where games are lost",
        "",
        f"Regenerate: `python experiments/why_study.py --games {args.games} --hard-games "
        f"{args.hard_games} --seed {args.seed} --budget {args.budget}{only} --out {args.out} "
        f"--figures {args.figures}` (seed {args.seed}: every player of a configuration plays "
        f"the same games, {args.games:,} per player at the defaults and {args.hard_games:,} at "
        f"the hard presets; solver budget {args.budget:,} rounds expanded per game; "
        f"{args.workers} workers). Written {datetime.date.today()}. The tables: "
        f"`{figures / 'profile.csv'}`, `{figures / 'hazard.csv'}`; the time per lost game is "
        f"measured in `dev/benchmarks/why_speed.py`.",
        "",
        "Each lost game is walked back by the exact solver to its point of no return, the last "
        "position from which some play still wins; the decision taken there is the fatal "
        "decision. *Avoidable*: the best fair player (`belief`, asked with only what that seat "
        "saw) answers it otherwise and keeps the game winnable; *hindsight*: its answer loses "
        "too; *lost at the deal*: no play could win from the first position; *undecided*: the "
        "solver's budget ran out. Shares of all games, with 95 % Wilson intervals. The hazard "
        "of round *r* is the share of the games still winnable at its start that are lost "
        "during it.",
    ]
    for label, _, games, answers, png in sections:
        c = answers[0]["ceilings"]
        lines += ["", f"## {label}", "", f"{config_line(answers[0]['config'])}; {games:,} "
                  f"games per player, seed {args.seed}.", "",
                  "| player | " + " | ".join(WORDS[v] for v in VERDICTS) + " |",
                  "| --- | " + " | ".join("---" for _ in VERDICTS) + " |"]
        for s in answers:
            shares = {r["verdict"]: r for r in s["profile"]}
            lines.append(f"| {player_line(resolve(s['policy']))} | "
                         + " | ".join(cell(shares[v]) for v in VERDICTS) + " |")
        w = c["winnable"]
        lines += ["", "Ceilings on the same games: winnable (exact solver) "
                  f"{w['share']:.3f} [{w['ci'][0]:.3f}, {w['ci'][1]:.3f}] (undecided counted "
                  f"as winnable: {w['upper']:.3f}); belief {c['belief']['win_rate']:.3f} "
                  f"[{c['belief']['ci'][0]:.3f}, {c['belief']['ci'][1]:.3f}]; open_hands "
                  f"{c['open_hands']['win_rate']:.3f} [{c['open_hands']['ci'][0]:.3f}, "
                  f"{c['open_hands']['ci'][1]:.3f}].", "",
                  "Hazard by round (rounds with 20 games at risk or more):", "",
                  "| round | " + " | ".join(s["label"] for s in answers) + " |",
                  "| ---: | " + " | ".join("---" for _ in answers) + " |"]
        rounds = sorted({r["round"] for s in answers for r in s["hazard_by_round"]
                         if r["at_risk"] >= 20})
        for k in rounds:
            row = []
            for s in answers:
                h = next((r for r in s["hazard_by_round"] if r["round"] == k), None)
                row.append(f"{h['hazard']:.3f} [{h['ci_low']:.3f}, {h['ci_high']:.3f}] "
                           f"of {h['at_risk']}" if h and h["at_risk"] >= 20 else "")
            lines.append(f"| {k} | " + " | ".join(row) + " |")
        lines += ["", "The fatal decisions (share of the games lost by a decision; how many "
                  "a fair pair avoids):", ""]
        for s in answers:
            top = ", ".join(f"{d['kind']} ({d['part'].replace('_', ' ')}, seat "
                            f"{int(d['seat'])}) {d['share']:.2f} ({d['avoidable']} avoidable)"
                            for d in s["decisions"][:4])
            lines.append(f"- {s['label']}: {top or 'none'}")
        if args.equity:
            lines += equity_lines(answers)
        shown = os.path.relpath(png, Path(args.out).parent)
        lines += ["", f"![hazard by round, {label}]({shown})"]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
