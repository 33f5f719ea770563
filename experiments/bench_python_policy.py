"""Speed of policies written in Python (``slashersim.player``): games per second on the
compiled engine, each decision a call back into Python, against issue 14's target of 2,000
games/s for a trivial policy. The compiled heuristic on one thread is the yardstick.

    python experiments/bench_python_policy.py [--games N] [--repeats R]

Each figure is the best of R timed runs of N games (seed 0, rulebook defaults), after a
warm-up run that compiles or loads the kernels.
"""
import argparse
import random
import time

from slashersim.config import GameConfig
from slashersim.policies import get_policy, param_vector
from slashersim.runner import simulate


def first_legal(obs):
    """The trivial policy: the first legal answer."""
    return obs.legal[0]


class RandomLegal:
    """A uniformly random legal answer (Python's random)."""

    def __init__(self):
        self.rng = random.Random(0)

    def act(self, obs):
        return self.rng.choice(obs.legal)


class ReadsTheTable:
    """Reads the decoded observation a hand-written player would: hand, trick, health."""

    def act(self, obs):
        if obs.kind == "play_card":
            led = obs.led
            legal = obs.legal
            return max(legal) if led is not None and obs.health[obs.player] > 3 else legal[0]
        return obs.legal[-1]


def wrapped_heuristic():
    fn, params = get_policy("heuristic").decide, param_vector("heuristic")
    return lambda obs: fn(obs.decision, obs.player, obs.arg, obs.state, params)


def best_rate(policy, games, repeats):
    rates = []
    for _ in range(repeats):
        t = time.perf_counter()
        simulate(GameConfig(), policy, games=games, seed=0, threads=1)
        rates.append(games / (time.perf_counter() - t))
    return max(rates)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    rows = [("first legal answer (Python)", first_legal),
            ("random legal answer (Python)", RandomLegal()),
            ("reads hand, trick, health (Python)", ReadsTheTable()),
            ("heuristic called from Python", wrapped_heuristic()),
            ("heuristic, compiled, 1 thread", "heuristic")]
    for _, policy in rows:
        simulate(GameConfig(), policy, games=200, seed=0, threads=1)
    print(f"games/s, best of {a.repeats} runs of {a.games:,} games (target: 2,000 for a "
          f"trivial Python policy)")
    for label, policy in rows:
        print(f"  {label:<38} {best_rate(policy, a.games, a.repeats):>10,.0f}")


if __name__ == "__main__":
    main()
