"""Helpers shared by the tests: hand-built game states, and running the CLI.

The item deck is ``st[S_DECK : S_DECK + st[S_DECK_N]]`` with index 0 the BOTTOM; these helpers
take and return decks TOP FIRST.
"""
import os
from pathlib import Path
import subprocess
import sys

from numba import carray, njit
import numpy as np

from slashersim.core import layout as L
from slashersim.core import rules as R
from slashersim.core.config import GameConfig
from slashersim.core.rules import CABINS
from slashersim.engine import deal, rng
from slashersim.runner.recorded import pointer as _pointer


@njit
def writable(params):
    """A writable array over a policy's (read-only) parameters, for a test policy that logs
    what it was asked where the test can read it: native code can always write through an
    address, which is why the hygiene checker holds the parameters of the players it checks."""
    return carray(_pointer(params.ctypes.data), params.shape, np.float64)


def c(suit, rank):
    """Card id of ``suit`` ``rank``."""
    return R.card_id(suit, rank)


def cards(*ids):
    """Bitmask of card ids."""
    m = 0
    for i in ids:
        m |= 1 << i
    return m


def make_state(edition="rulebook", seed=0, area=CABINS, **knobs):
    """A freshly set-up game (``deal.setup_game``) with ``area`` as the current area."""
    st = L.new_state(GameConfig(edition=edition, **knobs).to_array())
    rng.seed_streams(st, seed, 0, 0, 0)
    deal.setup_game(st)
    st[L.S_AREA] = area
    return st


def set_deck(st, top_first):
    cards_ = list(reversed(top_first))
    st[L.S_DECK_N] = len(cards_)
    st[L.S_DECK:L.S_DECK + len(cards_)] = cards_


def deck(st):
    """The item deck, top first."""
    return [int(x) for x in st[L.S_DECK:L.S_DECK + st[L.S_DECK_N]][::-1]]


def set_discard(st, earliest_first):
    st[L.S_DISCARD_N] = len(earliest_first)
    st[L.S_DISCARD:L.S_DISCARD + len(earliest_first)] = earliest_first


def discard(st):
    return [int(x) for x in st[L.S_DISCARD:L.S_DISCARD + st[L.S_DISCARD_N]]]


def set_drawn(st, drawn):
    st[L.S_DRAWN_N] = len(drawn)
    st[L.S_DRAWN:L.S_DRAWN + len(drawn)] = drawn
    st[L.S_PICK] = -1
    st[L.S_PICK + 1] = -1


def drawn(st):
    return [int(x) for x in st[L.S_DRAWN:L.S_DRAWN + st[L.S_DRAWN_N]]]


def hold(st, player, *item_ids):
    for i in item_ids:
        st[L.S_HELD + player] |= 1 << i


def held(st, player):
    return {i for i in range(R.N_ITEM_IDS) if (st[L.S_HELD + player] >> i) & 1}


def is_out(st, item):
    return bool((st[L.S_OUT] >> item) & 1)


ROOT = Path(__file__).resolve().parents[1]


def run_main(capsys, *argv):
    """``slashersim.cli.main(argv)`` in this process: ``(exit status, stdout, stderr)``."""
    from slashersim.cli import main
    try:
        code = main(list(argv))
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def run_cli(*args, cwd=ROOT):
    """``python -m slashersim ARGS`` in a subprocess, with this checkout importable."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "slashersim", *args], capture_output=True,
                          text=True, env=env, cwd=cwd)


def run_python(script, disable_jit=False):
    """Run ``script`` in a fresh interpreter (numba off if ``disable_jit``); its stdout."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1" if disable_jit else "0")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, "-W", "ignore", "-c", script], env=env,
                       capture_output=True, text=True, check=True, cwd=ROOT)
    return p.stdout


def assert_one_line_error(p, needle):
    """Exit status 2, nothing on stdout, one stderr line holding ``needle``, no traceback."""
    assert p.returncode == 2 and p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], p.stderr
    assert "Traceback" not in p.stderr


def parquet_equals(path, df):
    """Whether the parquet table at ``path`` holds ``df`` (``rounds_hist`` and the other list
    columns read back as lists)."""
    import pandas as pd

    from slashersim.runner.tables import LIST_COLUMNS
    back = pd.read_parquet(path)
    lists = [c for c in LIST_COLUMNS if c in df.columns]
    return back.drop(columns=lists).equals(df.drop(columns=lists)) and \
        all([list(h) for h in back[c]] == [list(h) for h in df[c]] for c in lists)
