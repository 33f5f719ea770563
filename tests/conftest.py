from pathlib import Path
import sys

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture
def no_play(monkeypatch):
    """Fail the test if a policy is about to be compiled or played."""
    from slashersim import policies

    def boom(*args, **kwargs):
        raise AssertionError("a game was about to be played")
    policies._imported.cache_clear()     # so that a policy imported before is imported anew
    monkeypatch.setattr(policies, "import_module", boom)
    yield
    policies._imported.cache_clear()


@pytest.fixture(autouse=True)
def fresh_compile_notice():
    """Each test finds the compile notice as a new process does, whatever the last one told it."""
    yield
    from slashersim.core import compiling
    compiling.reset()


#: what each of the two pytest-xdist workers compiles (or loads) before its first test: a clean
#: numba cache is filled once, its two halves at the same time. Left to the tests, whichever
#: came first compiled a kernel, and now and then both workers compiled the same one at once.
#: Names are compile parts (``slashersim.policies.compile_part``), ``steps`` (the engine's
#: entry points for single rules), ``solver`` (the exact solver's) and ``continued`` (a recorded
#: position played on as it is, a test's kernel: it shares the play-outs' game, which the
#: process that compiled them has at hand, so it takes seconds after them and half a minute
#: in the other worker). No test starts before
#: both halves are done, so the halves take about as long each (the parts' compile times:
#: ``PolicySpec.compile_seconds``, ``core.compiling.KERNELS``). The players whose compiled
#: pieces others reuse (the heuristic's card, the expert's, the searches' play-outs) come before
#: them in the same half, so that no piece is compiled by both halves at once; the engine's
#: kernels for any player go to the other half.
WARM_UP = {"gw0": ("engine_baseline", "rollouts_baseline", "record", "steps", "engine",
                   "rollouts", "continued", "solver"),
           "gw1": ("heuristic", "expert", "search", "omniscient", "exerciser", "belief")}


def _warm(part):
    from importlib import import_module
    if part == "steps":
        import_module("slashersim.engine.steps")
        return
    if part == "solver":
        import_module("slashersim.analysis.winnable")._compiled()
        return
    if part == "continued":
        import_module("slashersim.runner.kernels").continue_as_is.compile()
        return
    import_module("slashersim.runner.kernels").compile_part(part)


def pytest_sessionstart(session):
    import os
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker in WARM_UP and os.environ.get("PYTEST_XDIST_WORKER_COUNT") == "2" \
            and os.environ.get("NUMBA_DISABLE_JIT") != "1":
        from slashersim.core.numba_checks import compile_log
        with compile_log() as log:
            for part in WARM_UP[worker]:
                _warm(part)
        session.config.slashersim_compiled = log
