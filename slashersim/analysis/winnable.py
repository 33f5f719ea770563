"""Could the game have been won? The exact solver's search over rounds, and its answers.

A game is *winnable* when some sequence of decisions of both players, each seeing everything
(hands, the trump deck, the item deck and the area order), wins it; *unwinnable* when none
does; *undecided* when the time allowed for the game ran out first. The rounds are expanded by
the engine's own flow (:mod:`slashersim.engine.solver`); this module searches them depth first,
most promising first, and remembers the states already shown lost. Before a state between
rounds is expanded, registered players who see every card (:data:`FIRST_TRIES`) play the game
on from it (:mod:`slashersim.runner.recorded`): most winnable games are won so at once, and
only the rest, the unwinnable ones above all, cost a search. A winnable answer carries its
winning line, which :func:`replay_line` plays through the engine's ordinary game loop.
"""
from __future__ import annotations

from dataclasses import dataclass, field
import functools
import time

import numpy as np

from ..core import layout as L
from ..core.config import GameConfig
from ..core.rules import RUNNING, TRICKS_PER_ROUND, WIN, card_name
from ..engine.decisions import PLAY_CARD

WINNABLE, UNWINNABLE, UNDECIDED = "winnable", "unwinnable", "undecided"


@dataclass
class Round:
    """One round of a winning line: window (c)'s answers, the 16 cards in play order, and the
    answers of the item phase, each in the order the engine asks. In a round a registered
    player played (``windows``), ``start`` also holds the answers of window (d), in order."""

    start: list[int]
    cards: list[int]
    items: list[int]
    windows: bool = False


@dataclass
class Solution:
    """The solver's answer for one game."""

    answer: str
    line: list[Round] = field(default_factory=list)
    rounds_expanded: int = 0
    seconds: float = 0.0
    #: the registered player that played the line's last rounds (``None``: the search alone)
    player: str | None = None

    def summary(self):
        """The JSON-ready answer: the answer, the seconds it took, and for a winnable game how
        it is won, round by round: the cards in play order (named), the other answers in the
        order the engine asks them, and whether ``player`` played that round."""
        return {"answer": self.answer, "seconds": self.seconds, "player": self.player,
                "line": [{"cards": [card_name(c) for c in r.cards], "answers": r.start,
                          "item_answers": r.items, "played_by_player": r.windows}
                         for r in self.line]}


class _OutOfTime(Exception):
    pass


def _solver():
    from ..engine import solver
    return solver


def _scripted():
    from ..engine import scripted
    return scripted


def play_recorded(name, st, capacity=4096):
    """:func:`slashersim.runner.recorded.play_recorded`, loaded when first played."""
    from ..runner.recorded import play_recorded as play
    return play(name, st, capacity)


class _Search:
    """The search of one game: a depth-first walk over the rounds' distinct endings. At each
    state between rounds the registered ``players`` first play the game on; a game one of them
    wins ends the search with its answers as the line's last rounds."""

    def __init__(self, deadline, players=()):
        self.s = _solver()
        self.deadline = deadline
        self.players = players
        self.player = None
        self.lost = set()
        self.expanded = 0
        self.params = np.zeros(_scripted().PARAMS_SIZE, dtype=np.float64)
        self._rows = 512

    def _explore(self, part, start):
        """Every ending of one part of a round (window (c), or the item phase)."""
        rows = self._rows
        while True:
            states = np.empty((rows, L.STATE_SIZE), dtype=np.int64)
            scripts = np.empty((rows, _scripted().MAX_SCRIPT), dtype=np.int64)
            lengths = np.empty(rows, dtype=np.int64)
            n = self.s.explore_part(part, start, states, scripts, lengths, self.params)
            if n >= 0:
                return states[:n], [scripts[i, :lengths[i]] for i in range(n)]
            if n < -1:
                raise RuntimeError(f"a part of a round is too deep to search ({n})")
            rows *= 4
            if rows > 1 << 16:
                raise RuntimeError("a part of a round has too many endings to list")
            self._rows = rows

    def expand(self, st, in_play=False):
        """The distinct states ``st``'s next round (``in_play``: the rest of its round, from
        between two tricks) can end in without losing, with how."""
        self.expanded += 1
        children = {}
        if in_play:
            starts, start_scripts = st[None, :], [[]]
        else:
            starts, start_scripts = self._explore(0, self.s.begun_round(st))
        for c in range(len(starts)):
            rows = 4096
            while True:
                post = np.empty((rows, L.STATE_SIZE), dtype=np.int64)
                cards = np.empty((rows, 16), dtype=np.int64)
                n = self.s.play_tricks(starts[c], post, cards)
                if n >= 0:
                    break
                rows *= 4
            for i in range(n):
                ends, scripts = self._explore(1, post[i])
                for j in range(len(ends)):
                    end = ends[j]
                    how = (start_scripts[c], cards[i], scripts[j])
                    if end[L.S_OUTCOME] == WIN:
                        return [(end.copy(), how)]
                    if end[L.S_OUTCOME] != RUNNING:
                        continue
                    key = self.s.round_key(end)
                    if key not in children:
                        children[key] = (end.copy(), how)
            if time.perf_counter() > self.deadline:
                raise _OutOfTime
        return sorted(children.values(), key=lambda c: _promise(c[0]), reverse=True)

    def wins(self, st, line, in_play=False):
        """Whether ``st`` (between rounds, or ``in_play``: between two tricks) can be won; the
        winning rounds appended to ``line``."""
        if st[L.S_OUTCOME] == WIN:
            return True
        if st[L.S_OUTCOME] != RUNNING or \
                (not in_play and st[L.S_ROUND] >= st[L.C_MAX_ROUNDS]):
            return False
        key = None if in_play else self.s.round_key(st)
        if key in self.lost:
            return False
        if time.perf_counter() > self.deadline:
            raise _OutOfTime
        if not in_play:
            for name in self.players:
                end, rows = play_recorded(name, st)
                if end[L.S_OUTCOME] == WIN and rows is not None:
                    line.extend(_played_rounds(rows))
                    self.player = name
                    return True
        for child, (start, cards, items) in self.expand(st, in_play):
            line.append(Round([int(a) for a in start], [int(a) for a in cards if a >= 0],
                              [int(a) for a in items]))
            if self.wins(child, line):
                return True
            line.pop()
        if key is not None:
            self.lost.add(key)
        return False


def _played_rounds(rows):
    """A registered player's answers (rows ``round, decision, answer``) as the line's rounds:
    the answers before a round's last card are its ``start``, window (d)'s among them."""
    rounds = {}
    for number, decision, answer in rows.tolist():
        r = rounds.setdefault(number, Round([], [], [], windows=True))
        if decision == PLAY_CARD:
            r.cards.append(answer)
        elif len(r.cards) < 2 * TRICKS_PER_ROUND:
            r.start.append(answer)
        else:
            r.items.append(answer)
    return [rounds[k] for k in sorted(rounds)]


def _promise(st):
    """The order children are tried in: escape items held, then health, then fewer traps."""
    escapes = bin(int(st[L.S_HELD] | st[L.S_HELD + 1]) & 0x1F).count("1")
    return (escapes, int(st[L.S_HEALTH] + st[L.S_HEALTH + 1]), -int(st[L.S_TRAPS]))


def start_state(cfg, seed, game):
    """Game ``game`` of a run with ``seed`` under the rules ``cfg``, set up, before round 1."""
    from ..engine.deal import setup_game
    from ..engine.rng import seed_streams
    st = L.new_state(cfg)
    seed_streams(st, np.int64(seed), np.int64(game), np.int64(0), np.int64(0))
    setup_game(st)
    return st


@functools.cache
def _compiled(players=()):
    """Compile (or load) the solver's kernels, those the fatal decisions' walk calls too
    (:mod:`.fatal`), and the recorders of ``players`` once, so that no game's time is spent
    on it."""
    import numba
    s = _solver()
    for name in players:
        play_recorded(name, start_state(GameConfig().to_array(), 0, 0), 1)
    st = s.begun_round(L.new_state(np.zeros(L.CFG_SIZE, dtype=np.int64)))
    rows = np.empty((1, L.STATE_SIZE), dtype=np.int64)
    params = np.zeros(_scripted().PARAMS_SIZE, dtype=np.float64)
    s.explore_part(0, st, rows, np.empty((1, _scripted().MAX_SCRIPT), dtype=np.int64),
                   np.empty(1, dtype=np.int64), params)
    s.play_tricks(st, rows, np.empty((1, 16), dtype=np.int64))
    s.round_key(st)
    if not hasattr(s.give_card, "compile"):        # numba off
        return True
    state, vector, i64 = numba.typeof(st), numba.typeof(params), numba.types.int64
    s.explore_from.compile((i64, state, state, numba.typeof(rows),
                            numba.typeof(np.empty((1, 1), dtype=np.int64)), state, vector))
    s.finish_play_scripted.compile((state, vector))
    s.give_card.compile((state, i64, i64))
    return True


#: the registered players that play each state between rounds on before it is searched
FIRST_TRIES = ("expert", "omniscient")


def solve_state(st, seconds=1.0, in_play=False, players=FIRST_TRIES):
    """Solve the game from ``st`` (between rounds, or ``in_play``: between two tricks of a
    play phase) within ``seconds`` (compiling the solver
    on first use does not count). ``players`` play each state between rounds on first; a
    winnable answer they find carries their answers as the line's last rounds."""
    _compiled(tuple(players))
    t0 = time.perf_counter()
    search = _Search(t0 + seconds, tuple(players))
    line = []
    try:
        answer = WINNABLE if search.wins(st, line, in_play) else UNWINNABLE
    except _OutOfTime:
        answer, line = UNDECIDED, []
    return Solution(answer, line, search.expanded, time.perf_counter() - t0,
                    search.player if line else None)


def solve_game(cfg, seed, game, seconds=1.0, players=FIRST_TRIES):
    """Solve game ``game`` of a run with ``seed`` under the rules ``cfg`` (an engine array)."""
    return solve_state(start_state(cfg, seed, game), seconds, players=players)


@dataclass
class Winnability:
    """The solver's answers for games ``first_game ..`` of a run with ``seed``: one
    :class:`Solution` per game, each decided within ``seconds``."""

    config: object
    seed: int
    first_game: int
    seconds: float
    solutions: list[Solution]

    @property
    def counts(self):
        """Games winnable, unwinnable and undecided."""
        answers = [s.answer for s in self.solutions]
        return {a: answers.count(a) for a in (WINNABLE, UNWINNABLE, UNDECIDED)}

    def share(self):
        """The share of games shown winnable, its 95 % Wilson interval, and the upper bound
        that counts the undecided games as winnable, with its interval."""
        from ..core.stats import wilson_interval
        c, n = self.counts, len(self.solutions)
        upper = c[WINNABLE] + c[UNDECIDED]
        return {"winnable": c[WINNABLE] / n, "ci": wilson_interval(c[WINNABLE], n),
                "upper": upper / n, "upper_ci": wilson_interval(upper, n)}

    def summary(self):
        """The JSON-ready answer: games, the time per game, the three counts, the winnable
        share and the upper bound, each with its interval."""
        share = self.share()
        return {"games": len(self.solutions), "seconds": self.seconds, **self.counts,
                "share": share["winnable"], "ci": list(share["ci"]),
                "upper": share["upper"], "upper_ci": list(share["upper_ci"])}

    def to_frame(self):
        """One row per game: its number, answer, seconds spent, and the rounds of the winning
        line (0 when there is none)."""
        import pandas as pd
        return pd.DataFrame({
            "game": [self.first_game + i for i in range(len(self.solutions))],
            "answer": [s.answer for s in self.solutions],
            "seconds": [s.seconds for s in self.solutions],
            "line_rounds": [len(s.line) for s in self.solutions]})


def solve_games(config, seed, first_game, games, seconds, progress=None, players=FIRST_TRIES):
    """:class:`Winnability` of ``games`` games of a run (``config`` a :class:`GameConfig`);
    ``progress(done)`` after each game."""
    cfg = config.to_array()
    solutions = []
    for i in range(games):
        solutions.append(solve_game(cfg, seed, first_game + i, seconds, players))
        if progress is not None:
            progress(i + 1)
    return Winnability(config, seed, first_game, seconds, solutions)


def line_script(line, first_round=1):
    """A winning line whose first round is the game's round ``first_round`` as the scripted
    player's parameters: all its cards, then all its other answers
    (:func:`slashersim.engine.scripted.scripted`)."""
    cards = [c for r in line for c in r.cards]
    answers = [a for r in line for a in (r.start + r.items)]
    played = [i for i, r in enumerate(line) if r.windows]
    windows_from = first_round + played[0] if played else 0
    return np.array([len(cards), len(answers), windows_from] + cards + answers,
                    dtype=np.float64)


def replay_line(cfg, seed, game, line):
    """Play game ``game`` through the engine's own game loop with the scripted player following
    ``line``; the finished state (its outcome is ``WIN`` when the line is a winning one)."""
    st = L.new_state(cfg)
    _solver().play_scripted_game(st, line_script(line), np.int64(seed), np.int64(game))
    return st


def replay_from(st, line):
    """Play ``line`` from ``st`` (between two tricks of a play phase) to the game's end
    through the engine's own flow; the finished state."""
    out = st.copy()
    _solver().finish_game(out, line_script(line, int(st[L.S_ROUND])))
    return out
