"""A pure refactor plays every game as before: the fingerprints of ``fingerprints.py`` (every
policy on pinned configurations, the luck kernels, a Python player, a stepped game, the hygiene
recorder, a sweep) equal those in ``data/fingerprints.json``."""
import json

import fingerprints
import pytest

PINNED = json.loads(fingerprints.DATA.read_text())


@pytest.mark.parametrize("name", sorted(fingerprints.cases()))
def test_games_match_their_fingerprint(name, tmp_path):
    assert fingerprints.cases()[name](tmp_path) == PINNED[name]
