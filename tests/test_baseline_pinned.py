"""Nothing else moves: the baseline plays bit-for-bit the pinned games of a set of
configurations and seeds (``data/baseline_pins.json``, made when the random streams were first
seeded one-way; before, with each player's own stream, and before that by the code of commit
92394e8, the same settings with other games). Re-pinned when the game came to end at the keep
that wins it: every outcome the same, the cards kept after a winning one no longer counted
(``kept_0``, ``kept_1``, ``escapes`` of 7 to 24 won games of 20,000 differ)."""
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from slashersim.core.config import GameConfig
from slashersim.runner import simulate

PINS = json.loads((Path(__file__).parent / "data" / "baseline_pins.json").read_text())


@pytest.mark.parametrize("name", sorted(PINS))
def test_baseline_games_are_bit_identical_to_the_pinned_ones(name):
    pin = PINS[name]
    r = simulate(GameConfig(**pin["knobs"]), "baseline", games=pin["games"], seed=pin["seed"],
                 keep_records=True)
    df = r.records.assign(outcome=r.records["outcome"].cat.codes)
    data = np.ascontiguousarray(df[pin["columns"]].to_numpy(dtype=np.int64))
    assert r.wins == pin["wins"]
    assert hashlib.sha256(data.tobytes()).hexdigest() == pin["sha256"]
