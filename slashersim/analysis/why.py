"""Why and where a setting is hard, for a player or a pair: the difficulty profile.

A run of games is played as ``simulate`` plays it; each lost game is then walked back by the
exact solver to its point of no return (:mod:`.fatal`). The profile splits the games: won;
lost at the deal (no line could win); lost by a decision the best fair player would have
avoided; lost by one only hindsight could; undecided (the solver's budget ran out) — each
with its 95 % Wilson interval. The **hazard by round** is the share of the games still
winnable at the start of round *r* that are lost during it (Isaksen & Nealen's hazard
curve), and the hazard by area the same per round played in each area. Every question can
be asked of a subset of the games (``where``: "games lost in round 2", "games where the
Killer started second").

With ``equity``, every game (won or lost) is also seen with the future unknown
(:mod:`.equity`): its luck by kind of chance and its decisions' cost, and the profile gains
the share of the outcome's variance each of them explains.

The solver's budget is a count of rounds expanded, so the same run gives the same profile
on any machine and with any number of workers.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
import os
import pickle
import struct
import subprocess
import sys
import threading

import numpy as np
import pandas as pd

from ..core.config import GameConfig
from ..core.errors import ConfigError
from ..core.inputs import check_count, check_seed
from ..core.stats import wilson_interval
from .fatal import (
    AVOIDABLE,
    BUDGET,
    DEAL,
    FAIR,
    HINDSIGHT,
    PART_WORDS,
    UNDECIDED,
    VERDICT_WORDS,
    VERDICTS,
    WON,
    Fatal,
    fatal_decision,
)

#: the columns of the per-game table a ``where`` question may name, besides the game
#: record's (``runner.result.records_frame``)
FATAL_COLUMNS = tuple(f.name for f in fields(Fatal)
                      if f.name not in ("proof", "winnable_areas", "game", "outcome", "rounds"))
#: the verdicts of games lost by a decision
DECIDED = (AVOIDABLE, HINDSIGHT)


def _record_columns(config):
    from ..core import layout as L
    from ..runner.result import area_names, item_cards, records_frame
    empty = np.zeros((0, L.RECORD_SIZE), dtype=np.int32)
    return list(records_frame(empty, 0, area_names(config), item_cards(config)).columns)


def check_where(where, config=None):
    """``where`` (a pandas query over the per-game table) checked against the table's
    columns on an empty table, before anything is played: a one-line ``ConfigError`` naming
    the bad expression and the columns it may use."""
    if where is None:
        return None
    if not isinstance(where, str) or not where.strip():
        raise ConfigError(f"--where must be a condition on the games' columns, got {where!r}")
    cols = _record_columns(config or GameConfig()) + [c for c in FATAL_COLUMNS]
    empty = pd.DataFrame({c: pd.Series(dtype="object" if c in _TEXT else "int64")
                          for c in dict.fromkeys(cols)})
    try:
        empty.query(where)
    except Exception as e:         # pandas raises many kinds: each is a bad condition
        raise ConfigError(f"--where {where!r} is not a condition on the games' columns "
                          f"({type(e).__name__}: {e}); the columns are: "
                          f"{', '.join(dict.fromkeys(cols))}") from None
    return where


_TEXT = ("outcome", "verdict", "area", "part", "decision", "kind", "answer_name",
         "fair_answer_name")


def _fatal_batch(args):
    """Worker: the fatal decisions of a batch of games, as rows."""
    config, policy, seed, games, params, budget, fair = args
    out = []
    for g in games:
        f = fatal_decision(config, policy, seed, g, params, budget, fair)
        out.append({**f.row(), "winnable_areas": f.winnable_areas})
    return out


#: fewer lost games than this are walked back in this process alone unless more workers are
#: asked for: a helper process takes seconds to start, longer than most games take
HELPERS_FROM = 8


def _workers(workers, games):
    """How many processes walk back ``games`` lost games: ``workers``, or by default up to
    two, one for a few games."""
    if workers is None:
        return 1 if games < HELPERS_FROM else min(2, os.cpu_count() or 1)
    return max(1, int(workers))


def _worker():
    """A worker process of an earlier protocol (``python -c``): the pickled tasks from stdin,
    one pickled row per game to stdout, each after its length. Kept for a parent that
    started before an upgrade; :func:`_serve` is the current one."""
    config, policy, seed, games, params, budget, fair = pickle.load(sys.stdin.buffer)
    out = sys.stdout.buffer
    for g in games:
        _send(out, _fatal_batch((config, policy, seed, [g], params, budget, fair))[0])


def _send(stream, value):
    data = pickle.dumps(value)
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def _receive(stream):
    """The next length-prefixed pickled value of ``stream``; ``None`` at its end."""
    head = stream.read(8)
    if len(head) < 8:
        return None
    return pickle.loads(stream.read(struct.unpack("<Q", head)[0]))


#: what a helper process runs (:func:`_serve`); Ctrl-C while it starts ends it quietly too
HELPER = ("import sys\n"
          "try:\n"
          "    from slashersim.analysis.why import _serve\n"
          "except KeyboardInterrupt:\n"
          "    sys.exit(130)\n"
          "_serve()\n")


def _serve():
    """A worker process's loop (``python -c``): the run's inputs, then one game number at a
    time from stdin (``None`` ends it); one row per game to stdout as each is done."""
    source, out = sys.stdin.buffer, sys.stdout.buffer
    try:
        config, policy, seed, params, budget, fair = _receive(source)
        while (game := _receive(source)) is not None:
            _send(out, _fatal_batch((config, policy, seed, [game], params, budget, fair))[0])
    except KeyboardInterrupt:       # Ctrl-C reaches the whole command: the asking process says so
        sys.exit(130)


def fatal_rows(config, policy, seed, games, params=None, budget=BUDGET, fair=FAIR,
               workers=None, step=None):
    """The :class:`~.fatal.Fatal` rows of ``games`` (game numbers of a run), in game order.
    ``workers`` processes share them: this one and ``workers - 1`` of their own (started
    with ``python -c``, so that a user's script needs no ``__main__`` guard), each taking the
    next game as it finishes one (a few games take far longer than the rest), so that a small
    question is answered here before a helper has started. The answers do not depend on how
    many. ``step(n)`` after each game."""
    games = list(games)
    inputs = (config, policy, seed, params, budget, fair)
    n = min(_workers(workers, len(games)), max(1, len(games)))
    pending = list(reversed(games))
    lock = threading.Lock()
    found = {}

    def take():
        with lock:
            return pending.pop() if pending else None

    def done(row):
        with lock:
            found[row["game"]] = row
            if step:
                step(1)

    def feed(p):
        game = take()
        _send(p.stdin, game)
        if game is None:
            p.stdin.close()

    def work(p):
        _send(p.stdin, inputs)
        feed(p)
        while (row := _receive(p.stdout)) is not None:
            done(row)
            feed(p)

    procs = [subprocess.Popen([sys.executable, "-c", HELPER], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE) for _ in range(n - 1)]
    threads = [threading.Thread(target=work, args=(p,), daemon=True) for p in procs]
    try:
        for t in threads:
            t.start()
        while (game := take()) is not None:
            done(_fatal_batch((config, policy, seed, [game], params, budget, fair))[0])
        for t in threads:
            t.join()
    finally:
        for p in procs:
            if p.poll() is None and not p.stdin.closed:
                p.stdin.close()
        failed = [p.wait() for p in procs]
    if any(failed) or len(found) != len(games):
        raise RuntimeError(f"a worker of the fatal decisions failed (exit status "
                           f"{max(failed, default=0)})")
    return [found[g] for g in games]


@dataclass
class WhyResult:
    """Why the games of a run were lost: the per-game table and the tables made from it."""

    config: GameConfig
    policy: str
    seed: int
    budget: int
    table: pd.DataFrame                #: one row per game (its record and its fatal decision)
    where: str | None = None
    ceilings: dict = field(default_factory=dict)
    areas: tuple = ()                  #: the areas' ids, in the configuration's order
    #: the equity view's play-outs (``choose``, ``estimate``), if it was asked for
    equity: dict = field(default_factory=dict)

    def subset(self):
        """The games the question is about (``where`` applied)."""
        return self.table if self.where is None else self.table.query(self.where)

    def profile(self):
        """One row per verdict: games, share of the games asked about, its 95 % interval."""
        t = self.subset()
        n = len(t)
        rows = []
        for v in VERDICTS:
            k = int((t["verdict"] == v).sum())
            lo, hi = wilson_interval(k, n) if n else (0.0, 1.0)
            rows.append({"verdict": v, "games": k, "share": k / n if n else float("nan"),
                         "ci_low": lo, "ci_high": hi})
        return pd.DataFrame(rows)

    def hazard_by_round(self):
        """Round by round: the games whose start of that round was still winnable
        (``at_risk``), those of them lost during it, and the hazard with its 95 % interval."""
        t = self.subset()
        t = t[t["verdict"].isin((WON, *DECIDED))]
        reach = np.where(t["verdict"] == WON, t["rounds"], t["winnable_rounds"]).astype(int)
        lost_in = np.where(t["verdict"].isin(DECIDED), t["round"].fillna(0), 0).astype(int)
        rows = []
        for r in range(1, int(reach.max(initial=0)) + 1):
            at_risk = int((reach >= r).sum())
            lost = int((lost_in == r).sum())
            lo, hi = wilson_interval(lost, at_risk) if at_risk else (0.0, 1.0)
            rows.append({"round": r, "at_risk": at_risk, "lost": lost,
                         "hazard": lost / at_risk if at_risk else float("nan"),
                         "ci_low": lo, "ci_high": hi})
        return pd.DataFrame(rows, columns=["round", "at_risk", "lost", "hazard", "ci_low",
                                           "ci_high"])

    def hazard_by_area(self):
        """Area by area: the rounds played there while the game was still winnable, those
        in which it was lost, and the hazard with its 95 % interval."""
        t = self.subset()
        rows = []
        won = t[t["verdict"] == WON]
        decided = t[t["verdict"].isin(DECIDED)]
        for a in self.areas:
            at_risk = int(won[f"rounds_{a}"].sum()) if f"rounds_{a}" in won else 0
            at_risk += int(sum(list(w).count(a) for w in decided["winnable_areas"]))
            lost = int((decided["area"] == a).sum())
            if not at_risk:
                continue
            lo, hi = wilson_interval(lost, at_risk)
            rows.append({"area": a, "rounds_at_risk": at_risk, "lost": lost,
                         "hazard": lost / at_risk, "ci_low": lo, "ci_high": hi})
        return pd.DataFrame(rows, columns=["area", "rounds_at_risk", "lost", "hazard",
                                           "ci_low", "ci_high"])

    def decisions(self):
        """The fatal decisions by where in the round, kind and seat: games, and their share
        of the games lost by a decision; ``avoidable`` of them a fair pair would have
        avoided."""
        t = self.subset()
        d = t[t["verdict"].isin(DECIDED)]
        if d.empty:
            return pd.DataFrame(columns=["part", "kind", "seat", "games", "share",
                                         "avoidable"])
        g = d.groupby(["part", "kind", "seat"], dropna=False)
        out = g.size().rename("games").reset_index()
        out["share"] = out["games"] / len(d)
        out["avoidable"] = g["verdict"].apply(lambda v: int((v == AVOIDABLE).sum())).values
        return out.sort_values("games", ascending=False, ignore_index=True)

    def luck_and_costs(self):
        """With ``equity``: per source of the outcome (the start, each kind of luck, the
        decisions' cost), its mean per game over the games asked about, and the share of the
        outcome's variance it explains with its bootstrap 95 % interval
        (:func:`.equity.variance_shares`); empty without ``equity``."""
        from .equity import KINDS, variance_shares
        cols = ["source", "mean", "share", "low", "high"]
        t = self.subset()
        if not self.equity or t.empty:
            return pd.DataFrame(columns=cols)
        shares = variance_shares(t.to_dict("records"), seed=self.seed)
        means = [t["start"].mean()] + [t[f"luck_{k}"].mean() for k in KINDS] \
            + [-t["cost"].mean()]
        shares.insert(1, "mean", means)
        return shares[cols]

    def summary(self):
        """The JSON-ready answer: what was asked, the profile, the hazards, the decisions and
        the ceilings (and with ``equity`` the luck and costs)."""
        t = self.subset()
        extra = {}
        if self.equity:
            from .equity import KIND_WORDS
            extra["equity"] = {**self.equity, "sources": _records(self.luck_and_costs()),
                               "astray": int(self.table["astray"].sum()),
                               "legend": KIND_WORDS}
        return {
            "config": self.config.describe(), "rules_id": self.config.rules_id.digest,
            "policy": self.policy, "seed": self.seed, "games": int(len(self.table)),
            "asked": int(len(t)), "where": self.where, "budget": self.budget,
            "fair_player": FAIR,
            "profile": self.profile().to_dict("records"),
            "hazard_by_round": self.hazard_by_round().to_dict("records"),
            "hazard_by_area": self.hazard_by_area().to_dict("records"),
            "decisions": _records(self.decisions()),
            "ceilings": self.ceilings,
            "legend": {"verdicts": VERDICT_WORDS, "parts": PART_WORDS},
            **extra,
        }


def _records(df):
    return [{k: (None if isinstance(v, float) and np.isnan(v) else
                 int(v) if isinstance(v, (np.integer,)) else v) for k, v in r.items()}
            for r in df.to_dict("records")]


def why(config=None, policy="expert", games=1000, seed=0, budget=BUDGET, where=None,
        workers=None, threads=None, params=None, ceilings=False, progress=None, equity=None):
    """Play ``games`` games (``config``, ``policy`` — a player or a pair, ``seed``) and find
    the moment each lost game was lost: a :class:`WhyResult`. ``where`` asks about a subset of
    the games (a pandas query over :attr:`WhyResult.table`'s columns); ``ceilings`` also
    plays the same games with ``belief`` and ``open_hands``; ``progress(done, total)`` as
    lost games are walked back."""
    from ..policies import resolve
    config = config or GameConfig()
    policy = resolve(policy)
    games = check_count("games", games)
    seed = check_seed(seed)
    budget = check_count("budget", budget)
    where = check_where(where, config)
    from ..runner import simulate
    from ..runner.result import area_names
    res = simulate(config, policy, games, seed, threads=threads, keep_records=True,
                   params=params)
    rec = res.records
    lost = rec.loc[rec["outcome"] != "win", "game"].astype(int).tolist()
    done = 0
    total = len(lost) + (games if equity else 0)

    def step(n):
        nonlocal done
        done += n
        if progress:
            progress(done, total)

    rows = fatal_rows(config, policy, seed, lost, params, budget, FAIR, workers, step)
    fatal = pd.DataFrame(rows, columns=[*(f.name for f in fields(Fatal) if f.name != "proof")])
    table = rec.copy()
    table["outcome"] = table["outcome"].astype(str)
    table = table.merge(fatal.drop(columns=["outcome", "rounds"]), on="game", how="left")
    table["verdict"] = table["verdict"].fillna(WON)
    table["winnable_areas"] = [w if isinstance(w, tuple) else () for w in
                               table["winnable_areas"]]
    won = table["verdict"] == WON
    table.loc[won, "winnable_rounds"] = table.loc[won, "rounds"]
    for c in ("winnable_rounds", "expanded"):
        table[c] = table[c].fillna(0).astype(int)
    table["seconds"] = table["seconds"].fillna(0.0)
    out = WhyResult(config, res.policy, seed, budget, table, where,
                    areas=tuple(area_names(config)))
    if ceilings:
        out.ceilings = _ceilings(config, games, seed, threads, table)
    if equity:
        out.equity = {"choose": int(equity["choose"]), "estimate": int(equity["estimate"])}
        totals = pd.DataFrame(equity_rows(config, policy, seed, table["game"].astype(int),
                                          params, **out.equity,
                                          progress=lambda i, n: step(1)))
        out.table = table.merge(totals, on="game", how="left")
    return out


def equity_rows(config, policy, seed, games, params=None, choose=None, estimate=None,
                progress=None):
    """Each game's luck and costs with the future unknown (:func:`.equity.game_totals`),
    its play-outs on rollout seed ``seed``."""
    from . import equity as E
    rows = []
    for i, game in enumerate(games):
        g = E.game_moments(config, policy, seed, int(game), params)
        rows.append(E.game_totals(E.game_equity(g, choose or E.CHOOSE, estimate or E.ESTIMATE,
                                                seed)))
        if progress:
            progress(i + 1, len(games))
    return rows


def _ceilings(config, games, seed, threads, table):
    """The ceilings on the same games: the winnable share (the undecided counted as not
    winnable, and as winnable), and the win rates of ``belief`` and ``open_hands``."""
    from ..runner import simulate
    n = len(table)
    deal = int((table["verdict"] == DEAL).sum())
    undecided = int((table["verdict"] == UNDECIDED).sum())
    low = n - deal - undecided
    out = {"winnable": {"share": low / n, "ci": list(wilson_interval(low, n)),
                        "upper": (n - deal) / n, "upper_ci": list(wilson_interval(n - deal, n))}}
    for name in ("belief", "open_hands"):
        r = simulate(config, name, games, seed, threads=threads)
        out[name] = {"win_rate": r.win_rate, "ci": list(r.win_ci)}
    return out
