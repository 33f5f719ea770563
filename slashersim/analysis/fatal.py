"""Where was a game lost? The point of no return of a game as it was played (the fatal
decision), found by the exact solver; :mod:`.why` sums it over many games.

Once a game's seed is fixed, every card still to come is fixed too, so the exact solver
(:mod:`.winnable`) can say of any position of the game *as played* whether some line of both
players' decisions still wins it. Along the played game that answer can only go from
winnable to unwinnable, once: the last winnable position is the **point of no return**, and
the decision taken there is the **fatal decision** (a chance event cannot pass the point: what
it brings was fixed all along; a decision that changes what is drawn, such as a Flashlight's
order, is a decision). A game no line wins from its first position was **lost at the deal**.

The search narrows down in steps, each on positions the solver decides: the starts of the
rounds, then the positions between the tricks of the round the game was lost in, then the
answers of its item phase (or window (c)), each a prefix of the answers given
(:func:`slashersim.engine.solver.explore_from`). In a trick, the follower's card is the fatal
one when another card of the follower keeps the game winnable; else the leader's is.

Then the best fair player, ``belief``, is asked the same decision from the same position,
seeing only what that seat saw (its memory of the round rebuilt by asking it every earlier
decision of that seat in the round): a loss it would have avoided is one **a fair pair could
have avoided**; one where its answer loses too, **only hindsight** could have.

Every fatal decision carries two proofs (:func:`check_fatal`): the winning line from the
position before it replays to a win through the engine's own flow, and every way on from the
position after it was searched and none wins.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
import time

import numpy as np

from ..core import layout as L
from ..core import rules
from ..engine import decisions as D
from ..engine.positions import SNAP_DEALT, SNAP_START
from ..engine.rng import POLICY as _POLICY_STREAM
from . import winnable as W
from .hygiene import POINT_HEADER, decision_points
from .records import record_game

#: what became of a game, in the order the profile lists them
WON, DEAL, AVOIDABLE, HINDSIGHT, UNDECIDED = "won", "deal", "avoidable", "hindsight", \
    "undecided"
VERDICTS = (WON, DEAL, AVOIDABLE, HINDSIGHT, UNDECIDED)
#: the verdicts in words (the legends of the tables)
VERDICT_WORDS = {
    WON: "won",
    DEAL: "lost at the deal: no line of play could win it",
    AVOIDABLE: "lost by a decision the best fair player (belief) would have avoided",
    HINDSIGHT: "lost by a decision only hindsight could have avoided: belief loses there too",
    UNDECIDED: "undecided: the solver's budget for the game ran out",
}
#: the part of a round a fatal decision was taken in
PART_WORDS = {"play_start": "before the first trick (window (c))", "trick": "a trick",
              "after_trick": "items right after a trick (window (d))",
              "item_phase": "the item phase"}
#: a decision's kind, by decision code
KIND = {D.PLAY_CARD: "card", D.PHASE_START: "item used or not", D.BEFORE_DRAW:
        "item used or not", D.PLAY_START: "item used or not", D.AFTER_TRICK: "item used or not",
        D.PEEK_ORDER: "Flashlight order", D.EXTRA_DRAW: "draw", D.OPTIONAL_DRAW: "draw",
        D.USE_BACKPACK: "keep", D.KEEP: "keep", D.TAKE_DISCARD: "keep", D.TRADE: "gift"}
#: the yardstick asked at each fatal decision
FAIR = "belief"
#: the solver's budget per game, in rounds expanded (all its positions together): a count,
#: not a time, so that the same games give the same answers on any machine
BUDGET = 4000        # the API's default too (``api.calls.WHY_BUDGET``)


@dataclass
class Fatal:
    """The moment one game was lost (:func:`fatal_decision`)."""

    game: int
    outcome: str                 #: how the game ended (``rules.OUTCOME_NAMES``)
    verdict: str                 #: one of :data:`VERDICTS`
    rounds: int = 0              #: rounds the game lasted
    winnable_rounds: int = 0     #: rounds whose start was still winnable
    round: int | None = None     #: the round of the fatal decision
    area: str | None = None      #: the area of that round
    part: str | None = None      #: where in the round (:data:`PART_WORDS`)
    trick: int | None = None     #: the trick (1..8), in a trick or right after one
    seat: int | None = None      #: the seat that decided
    decision: str | None = None  #: the decision (``engine.decisions.DECISION_NAMES``)
    kind: str | None = None      #: card, keep, item used or not, gift, draw, Flashlight order
    answer: int | None = None    #: the answer given (a card or item id, or -1)
    fair_answer: int | None = None   #: belief's answer there
    #: the two answers in words: a card's name (``R4``), else as given
    answer_name: str | None = None
    fair_answer_name: str | None = None
    seconds: float = 0.0
    expanded: int = 0            #: rounds the solver expanded for it
    #: the area of each round whose start was still winnable, in order
    winnable_areas: tuple = ()
    #: what the proofs need: the positions and scripts of the point of no return
    proof: dict = field(default_factory=dict, repr=False)

    def row(self):
        """The game as a flat dict (a row of the per-game table, :class:`.why.WhyResult`)."""
        return {k: v for k, v in asdict(self).items() if k != "proof"}


class _Budgeted(W._Search):
    """The solver's search with a budget of rounds expanded instead of a deadline."""

    def __init__(self, budget, players):
        super().__init__(float("inf"), players)
        self.budget = budget

    def expand(self, st, in_play=False):
        if self.expanded >= self.budget:
            raise W._OutOfTime
        return super().expand(st, in_play)


class _Solver:
    """The solver's questions about the positions of one game, within one budget (the states
    shown lost are remembered across them)."""

    def __init__(self, budget):
        self.s = W._solver()
        self.sc = W._scripted()
        W._compiled(W.FIRST_TRIES)
        self.search = _Budgeted(budget, W.FIRST_TRIES)

    def wins(self, st, in_play=False):
        """Whether ``st`` (between rounds, or ``in_play``: between two tricks or a led card
        waiting for its answer) can be won, and a winning line; raises
        ``winnable._OutOfTime`` when the deadline passes."""
        if in_play and st[L.S_LED] >= 0:
            return self._answers_win(st)
        line = []
        return self.search.wins(_clean(st), line, in_play), line

    def _answers_win(self, st):
        """Whether some legal answer to the led card keeps ``st`` winnable, with the line
        (its first card that answer)."""
        follower = 1 - int(st[L.S_TRICK_LEADER])
        for card in _cards(_legal_follows(st, follower)):
            won, line = self.wins(self.given(st, follower, card), in_play=True)
            if won:
                return True, _prepend(line, [card])
        return False, []

    def given(self, st, player, card):
        """A copy of ``st`` with ``player``'s ``card`` played."""
        out = _clean(st)
        self.s.give_card(out, np.int64(player), np.int64(card))
        return out

    def ends_win(self, part, start, prefix):
        """Whether some way on from ``start`` with the part's first answers ``prefix`` keeps
        the game winnable: ``(True, script, line)`` with the part's whole script and the line
        from its ending, else ``(False, None, None)``."""
        for end, script in self.endings(part, start, prefix):
            if end[L.S_OUTCOME] == rules.WIN:
                return True, script, []
            if end[L.S_OUTCOME] != rules.RUNNING:
                continue
            won, line = self.wins(end, in_play=part == 0)
            if won:
                return True, script, line
        return False, None, None

    def endings(self, part, start, prefix):
        """Every ending of ``part`` from ``start`` with its first answers ``prefix``, with
        the part's whole script."""
        rows = 64
        while True:
            states = np.empty((rows, L.STATE_SIZE), dtype=np.int64)
            scripts = np.empty((rows, self.sc.MAX_SCRIPT), dtype=np.int64)
            lengths = np.empty(rows, dtype=np.int64)
            params = np.zeros(self.sc.PARAMS_SIZE, dtype=np.float64)
            n = self.s.explore_from(part, _clean(start), np.asarray(prefix, dtype=np.int64),
                                    states, scripts, lengths, params)
            if n >= 0:
                return [(states[i], [int(a) for a in scripts[i, :lengths[i]]])
                        for i in range(n)]
            if n < -1 or rows > 1 << 16:
                raise W._OutOfTime     # too wide to list: the game stays undecided
            rows *= 8


class _Game(_Solver):
    """One lost game as it was played: its round starts, its decision points."""

    def __init__(self, config, policy, seed, game, params, budget, fair):
        super().__init__(budget)
        self.config, self.policy, self.seed, self.game = config, policy, seed, game
        self.fair = fair
        rec = record_game(config, policy, seed, game, params)
        kinds = rec.info[:, 0]
        self.starts = [rec.snaps[i] for i in np.flatnonzero(kinds == SNAP_START)]
        self.dealt = [rec.snaps[i] for i in np.flatnonzero(kinds == SNAP_DEALT)]
        self.end = rec.snaps[-1]
        self.points = _points(policy, config, seed, game, params)
        self.areas = config.card_set.slots

    # --- the played game's positions -------------------------------------------------------
    def round_points(self, r):
        """Indices of the decision points of round ``r``."""
        return [i for i in range(len(self.points))
                if self.points[i, POINT_HEADER + L.S_ROUND] == r]

    def state(self, i):
        return _clean(self.points[i, POINT_HEADER:])

    def after_play(self, r, lead8):
        """The position the item phase of round ``r`` starts from: its last trick played from
        the lead point ``lead8`` with the answers given, window (d) included."""
        idx = self.round_points(r)
        after = [i for i in idx if i >= lead8]
        cards = [int(self.points[i, 3]) for i in after if self.points[i, 0] == D.PLAY_CARD]
        windows = [int(self.points[i, 3]) for i in after if self.points[i, 0] == D.AFTER_TRICK]
        params = self._script(cards[:2], windows, r)
        st = self.state(lead8)
        if self.s.finish_play_scripted(st, params):
            raise RuntimeError("the played answers do not finish the play phase")
        return st

    def _script(self, cards, answers, windows_from=0):
        params = np.zeros(self.sc.PARAMS_SIZE, dtype=np.float64)
        params[self.sc.P_CARDS] = len(cards)
        params[self.sc.P_ANSWERS] = len(answers)
        params[self.sc.P_WINDOWS_FROM] = windows_from
        at = self.sc.P_SCRIPT
        params[at:at + len(cards)] = cards
        params[at + len(cards):at + len(cards) + len(answers)] = answers
        return params

    # --- belief at the fatal decision ---------------------------------------------------------
    def fair_answer(self, i, r):
        """``belief``'s answer at decision point ``i`` of round ``r``, its memory of the round
        rebuilt by asking it that seat's earlier decisions of the round."""
        from .hygiene import decide
        seat = int(self.points[i, 1])
        lo = L.S_MEMORY + seat * L.MEMORY_SIZE
        memory = np.zeros(L.MEMORY_SIZE, dtype=np.int64)
        for j in self.round_points(r):
            if int(self.points[j, 1]) != seat or j > i:
                continue
            point = self.points[j]
            st = point[POINT_HEADER:].copy()      # the seat's stream in the policies' slot
            st[lo:lo + L.MEMORY_SIZE] = memory
            answer, wrote = decide(self.fair, point, st)
            for offset, value in wrote:
                if isinstance(offset, int) and lo <= offset < lo + L.MEMORY_SIZE:
                    memory[offset - lo] = value
            if j == i:
                return answer
        raise RuntimeError("no such decision point")


def _clean(st):
    """A copy of ``st`` as it is between two decisions (a recorded decision point holds the
    deciding seat's stream in the policies' slot)."""
    out = np.array(st, dtype=np.int64)
    out[L.S_RNG + _POLICY_STREAM] = 0
    return out


def _cards(mask):
    return [c for c in range(rules.N_NUMBER_CARDS) if (int(mask) >> c) & 1]


def _legal_follows(st, player):
    from ..engine.predicates import legal_cards
    return legal_cards(np.int64(st[L.S_HAND + player]), np.int64(st[L.S_LED]))


def _prepend(line, cards=(), start=()):
    """``line`` (a list of :class:`winnable.Round`) with ``cards`` before its first round's
    cards and ``start`` before its first round's answers (a line that starts in a trick)."""
    if not line:
        return [W.Round(list(start), list(cards), [])]
    first = line[0]
    return [W.Round(list(start) + first.start, list(cards) + first.cards, first.items,
                    first.windows)] + line[1:]


def _points(policy, config, seed, game, params):
    """Every decision point of the game, in the order asked."""
    rates = {d: 1.0 for d in range(D.N_DECISIONS)}
    capacity = 1024
    while True:
        pts = decision_points(policy, config, 1, seed, rates=rates, capacity=capacity,
                              params=params, first_game=game)
        if len(pts) < capacity:
            return pts
        capacity *= 4


def _first_unwinnable(n, winnable_at):
    """The first of positions ``0 .. n - 1`` that cannot be won, given position 0 can and
    that none after an unwinnable one can (``n`` if every one can)."""
    lo, hi = 0, n                     # lo winnable; hi unwinnable (n: past the last)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if winnable_at(mid):
            lo = mid
        else:
            hi = mid
    return hi


def fatal_decision(config, policy, seed, game, params=None, budget=BUDGET, fair=FAIR):
    """The moment game ``game`` of a run (``config``, ``policy``, ``seed``) was lost: a
    :class:`Fatal`. ``budget`` bounds the rounds the solver expands for the whole game; when
    it runs out the verdict is ``undecided``."""
    t0 = time.perf_counter()
    g = _Game(config, policy, seed, game, params, budget, fair)
    outcome = rules.OUTCOME_NAMES[int(g.end[L.S_OUTCOME])]
    rounds = len(g.starts)
    out = Fatal(game, outcome, WON, rounds, rounds)
    if outcome == "win":
        return out
    try:
        _locate(g, out)
    except W._OutOfTime:
        out.verdict = UNDECIDED
    out.seconds = time.perf_counter() - t0
    out.expanded = g.search.expanded
    return out


def _locate(g, out):
    """Fill ``out`` with the point of no return of game ``g`` (a lost game)."""
    won0, _ = g.wins(g.starts[0])
    if not won0:
        out.verdict, out.winnable_rounds = DEAL, 0
        return
    r = _first_unwinnable(len(g.starts), lambda i: g.wins(g.starts[i])[0])  # 1-based round
    out.winnable_rounds = r
    out.winnable_areas = tuple(g.areas[int(d[L.S_AREA])] for d in g.dealt[:r])
    out.round = r
    out.area = g.areas[int(g.dealt[r - 1][L.S_AREA])]
    idx = g.round_points(r)
    leads = [i for i in idx if g.points[i, 0] == D.PLAY_CARD
             and g.points[i, POINT_HEADER + L.S_LED] < 0]
    # the positions between tricks: before trick t + 1 (t = 0 .. ), then after the last
    between = [g.state(i) for i in leads]
    if len(leads) == rules.TRICKS_PER_ROUND:
        try:
            between.append(g.after_play(r, leads[-1]))
        except RuntimeError:
            pass
    if not g.wins(between[0], in_play=True)[0]:
        starts = [i for i in idx if g.points[i, 0] == D.PLAY_START]
        return _in_part(g, out, 0, g.dealt[r - 1], starts, "play_start")
    t = _first_unwinnable(len(between), lambda k: g.wins(between[k], in_play=True)[0])
    if t == len(between) and len(between) == rules.TRICKS_PER_ROUND + 1:
        items = [i for i in idx if i > leads[-1] and g.points[i, 0] not in
                 (D.PLAY_CARD, D.AFTER_TRICK)]
        return _in_part(g, out, 1, between[-1], items, "item_phase")
    _in_trick(g, out, leads[t - 1], between[t - 1], t)


def _in_trick(g, out, lead, before, trick):
    """The fatal decision of trick ``trick`` (its lead point ``lead``; the position ``before``
    it winnable, the position after it not)."""
    follow = lead + 1
    leader = _seat(g, lead)
    led = g.state(follow)
    out.trick = trick
    won, line = g.wins(led, in_play=True)
    if not won:                           # no answer to the lead wins: the lead lost it
        out.part = "trick"
        _decided(g, out, lead)
        out.proof = {"before": ("play", before, g.wins(before, in_play=True)[1]),
                     "after": ("play", led)}
        _fair(g, out, lead, lambda answer: g.wins(g.given(before, leader, answer),
                                                  in_play=True)[0])
        return
    played = g.given(led, 1 - leader, int(g.points[follow, 3]))
    kept, kept_line = g.wins(played, in_play=True)
    if kept:                              # the cards kept it; the items after the trick lost it
        out.part = "after_trick"
        windows = [i for i in range(follow + 1, len(g.points))
                   if g.points[i, 0] == D.AFTER_TRICK
                   and g.points[i, POINT_HEADER + L.S_TRICK] == trick]
        used = [i for i in windows if g.points[i, 3] >= 0]
        if not used:
            raise W._OutOfTime            # nothing was used there: not what was played
        _decided(g, out, used[0])
        out.proof = {"before": ("play", played, kept_line), "after": None}
        return
    out.part = "trick"
    _decided(g, out, follow)
    out.proof = {"before": ("play", led, line), "after": ("play", played)}
    _fair(g, out, follow, lambda answer: g.wins(g.given(led, out.seat, answer),
                                                in_play=True)[0])


def _in_part(g, out, part, start, idx, name):
    """The fatal answer among the answers ``idx`` (decision points) given in ``part`` (0:
    window (c), 1: the item phase) from ``start``."""
    answers = [int(g.points[i, 3]) for i in idx]
    j = _first_unwinnable(len(answers) + 1,
                          lambda k: g.ends_win(part, start, answers[:k])[0]) - 1
    if j >= len(answers):
        raise W._OutOfTime        # the answers given keep it winnable: not what was played
    out.part = name
    _decided(g, out, idx[j])
    _, script, line = g.ends_win(part, start, answers[:j])
    out.proof = {"before": ("part", part, start, script, line),
                 "after": ("part", part, start, answers[:j + 1])}
    _fair(g, out, idx[j], lambda answer: g.ends_win(part, start, answers[:j] + [answer])[0])


def _seat(g, i):
    return int(g.points[i, 1])


def _decided(g, out, i):
    code = int(g.points[i, 0])
    out.seat = _seat(g, i)
    out.decision = D.DECISION_NAMES[code]
    out.kind = KIND[code]
    out.answer = int(g.points[i, 3])


def _named(decision, answer):
    return rules.card_name(answer) if decision == "play_card" and answer >= 0 else str(answer)


def _fair(g, out, i, keeps):
    """Ask the fair player the decision at point ``i``; the verdict is ``avoidable`` when its
    answer differs and keeps the game winnable (``keeps(answer)``)."""
    out.fair_answer = g.fair_answer(i, out.round)
    out.answer_name = _named(out.decision, out.answer)
    out.fair_answer_name = _named(out.decision, out.fair_answer)
    avoided = out.fair_answer != out.answer and keeps(out.fair_answer)
    out.verdict = AVOIDABLE if avoided else HINDSIGHT


# --- the proofs -------------------------------------------------------------------------------
def check_fatal(fatal, budget=20 * BUDGET):
    """The two proofs of a fatal decision: ``(before, after)``, True when the winning line
    from the position before it replays to a win through the engine's flow, and when a fresh
    search (within ``budget`` rounds expanded) decides the position after it unwinnable
    (``None`` where the decision has no such position: items used right after a trick, which
    the solver does not search)."""
    solver = _Solver(budget)
    kind, *rest = fatal.proof["before"]
    if kind == "play":
        st, line = rest
        before = W.replay_from(st, line)[L.S_OUTCOME] == rules.WIN
    else:
        part, start, script, line = rest
        (end, _), = solver.endings(part, start, script)
        if part == 0:
            before = W.replay_from(end, line)[L.S_OUTCOME] == rules.WIN
        else:
            first = W.Round([], [], script)
            before = W.replay_from(_clean(start), [first] + line)[L.S_OUTCOME] == rules.WIN
    after = fatal.proof["after"]
    if after is None:
        return before, None
    if after[0] == "play":
        won = solver.wins(after[1], in_play=True)[0]
    else:
        won = solver.ends_win(after[1], after[2], after[3])[0]
    return before, not won
