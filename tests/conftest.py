import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


#: what each of the two pytest-xdist workers compiles (or loads) before its first test: a clean
#: numba cache is filled once, its two halves at the same time. Left to the tests, whichever
#: came first compiled a kernel, and now and then both workers compiled the same one at once
#: (a cold run then cost up to 180 s more CPU time).
#: ``steps`` comes last: it calls the engine's round functions, which the other worker compiles
#: with its ``engine`` first.
WARM_UP = {"gw0": ("engine", "rollouts", "held", "record"),
           "gw1": ("expert", "search", "omniscient", "exerciser", "steps")}


def _warm(part):
    from importlib import import_module
    if part == "engine":
        game = import_module("slashersim.engine.game")
        game.simulate_chunk.compile()
        game.aggregate.compile()
    elif part == "steps":
        import_module("slashersim.engine.steps")
    elif part in ("rollouts", "held", "record"):
        luck = import_module("slashersim.engine.luck")
        getattr(luck, {"held": "simulate_chunk_held", "record": "record_game"}.get(part, part)
                ).compile()
    else:
        from slashersim.policies import get_policy
        get_policy(part)


def pytest_sessionstart(session):
    import os
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker in WARM_UP and os.environ.get("PYTEST_XDIST_WORKER_COUNT") == "2" \
            and os.environ.get("NUMBA_DISABLE_JIT") != "1":
        for part in WARM_UP[worker]:
            _warm(part)
