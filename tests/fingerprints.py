"""Fingerprints of every game the product plays, to prove that a refactor changes none.

Each case plays a few games through a public entry point (every policy on pinned
configurations, the luck analyses' kernels, a Python player, a game stepped by hand, the
hygiene recorder, a sweep) and reduces what it returns to a SHA-256 of its deterministic
content (timings dropped). ``tests/data/fingerprints.json`` holds the digests of the code
they were made with; ``python tests/fingerprints.py`` writes them anew (only when a change is
*meant* to change games, e.g. a new random stream).
"""
import contextlib
import hashlib
import io
import json
from pathlib import Path

import numpy as np

DATA = Path(__file__).parent / "data" / "fingerprints.json"
STATE_EXAMPLE = Path(__file__).resolve().parents[1] / "experiments" / "state_example.json"

#: configurations every policy plays: the two editions' defaults and a knob-heavy one
CONFIGS = {
    "rulebook": {},
    "instructions": {"edition": "instructions"},
    "knobs": {"health": 5, "hideaway": True, "item_timing": "any_time",
              "first_aid_target": "either", "traps": 4},
}
#: games per policy (the searches are slow)
GAMES = {"baseline": 3000, "exerciser": 1500, "heuristic": 600, "expert": 120, "search": 6,
         "omniscient": 6, "belief": 2, "open_hands": 2}
PARAMS = {"search": {"samples": 4}, "belief": {"samples": 2}, "open_hands": {"samples": 2}}
#: timing fields, and the rules' name by content (a hash of the configuration hashed beside
#: it), dropped before hashing
VOLATILE = {"elapsed_s", "seconds", "created", "software", "machine", "command_line",
            "games_per_second", "rules_id"}


def _clean(obj):
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items() if k not in VOLATILE}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if isinstance(obj, float):
        return float.hex(obj)
    if isinstance(obj, np.generic):
        return _clean(obj.item())
    return obj


def digest(obj):
    """SHA-256 of ``obj``: an array's bytes, a DataFrame's columns, or canonical JSON."""
    import pandas as pd
    h = hashlib.sha256()
    if isinstance(obj, pd.DataFrame):
        for c in obj.columns:
            col = obj[c]
            if isinstance(col.dtype, pd.CategoricalDtype):
                col = col.cat.codes
            h.update(str(c).encode())
            h.update(np.ascontiguousarray(col.to_numpy(dtype=np.float64)).tobytes())
    elif isinstance(obj, np.ndarray):
        h.update(np.ascontiguousarray(obj).tobytes())
    else:
        h.update(json.dumps(_clean(obj), sort_keys=True).encode())
    return h.hexdigest()


def _cli_json(*argv):
    from slashersim.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main([*argv, "--json", "--quiet"])
    assert status == 0, (argv, status)
    return json.loads(out.getvalue())


class MiddlePlayer:
    """A deterministic Python player: the middle legal answer (it exercises the bridge)."""

    name = "middle"

    def act(self, obs):
        legal = obs.legal
        return legal[len(legal) // 2]


def case_simulate(policy, config):
    import slashersim
    r = slashersim.simulate(policy=policy, games=GAMES[policy], seed=11, records=True,
                            params=PARAMS.get(policy), **CONFIGS[config])
    return digest(r.records)


def case_python_player():
    import slashersim
    r = slashersim.simulate(policy=MiddlePlayer(), games=300, seed=5, records=True)
    return digest(r.records)


def case_compare():
    import slashersim
    c = slashersim.compare(policies=["baseline", "heuristic", "baseline"], games=800, seed=3,
                           health=6)
    return digest(c.summary())


def case_luck_killer():
    import slashersim
    return digest(slashersim.luck(policy="baseline", games=300, seed=2).summary())


def case_luck_fact(fact):
    return digest(_cli_json("luck", fact, "--all", "--games", "300", "--seed", "4",
                            "--policy", "heuristic"))


def case_luck_sources():
    return digest(_cli_json("luck", "sources", "--games", "64", "--repeats", "4", "--seed", "6"))


def case_luck_state(policy):
    return digest(_cli_json("luck", "state", str(STATE_EXAMPLE), "--games", "3000", "--seed", "8",
                            "--policy", policy))


def case_timeline(policy, tmp):
    from slashersim.cli import main
    path = Path(tmp) / f"record-{policy}.json"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["simulate", "--policy", policy, "--games", "3", "--seed", "9", "--record",
                     "2", "--record-out", str(path), "--quiet"]) == 0
    record = json.loads(path.read_text())
    timeline = _cli_json("luck", "timeline", str(path), "--games", "200", "--seed", "1")
    return digest({"record": record, "timeline": timeline})


def case_game():
    import slashersim
    out = []
    for seed in range(4):
        g = slashersim.Game(seed=seed, game=seed, health=5)
        n = 0
        while not g.over:
            legal = g.legal
            g.apply(legal[(n * 7) % len(legal)])
            n += 1
        h = slashersim.Game(seed=seed, game=seed + 1).play("casual")
        out.append([g.history, g.record(), h.history, h.record()])
    return digest(out)


def case_hygiene(policy):
    """The recorded decision points: each row's decision, player, argument and answer, and the
    game's state after the rule settings (which the configuration fixes, and whose layout a
    change of the settings' tables may move)."""
    from slashersim.analysis.hygiene import POINT_HEADER, decision_points
    from slashersim.core.config import GameConfig
    points = decision_points(policy, GameConfig(health=6), 30, seed=3, capacity=300)
    return digest(np.concatenate([points[:, :POINT_HEADER],
                                  printed_state(points[:, POINT_HEADER:])], axis=1))


#: the state fields sized by the cards a card set may hold, and the slots of them the printed
#: game uses: seven areas, twelve item cards
PRINTED_SLOTS = {"area_deck": 7, "arrow": 7, "traps_area": 7, "rounds_area": 7, "used": 12,
                 "kept_item": 12}


def printed_state(states):
    """The columns of ``states`` (rows of a game state) after the rule settings, each field's
    slots in layout order, a field sized by the cards cut to the printed game's: the part of
    the state the printed game fills, whatever room the layout leaves for more cards."""
    from slashersim.core import layout as L
    cols = [states[:, off:off + min(n, PRINTED_SLOTS.get(name, n))]
            for name, off, n in L.STATE_FIELDS]
    return np.concatenate(cols, axis=1)


def case_sweep(tmp):
    import slashersim
    df = slashersim.sweep({"sweep": {"games": 500, "seed": 7, "policies": ["novice", "casual"]},
                           "axes": {"health": [7, 4], "hideaway": [False, True]}})
    keep = [c for c in df.columns if df[c].dtype.kind in "iufb"]
    return digest(df[keep].reset_index(drop=True))


def cases():
    """Name -> a function of a temporary folder returning the case's digest."""
    out = {}
    for policy in GAMES:
        for config in CONFIGS:
            out[f"simulate/{policy}/{config}"] = (lambda p, c: lambda tmp: case_simulate(p, c))(
                policy, config)
    out["python_player"] = lambda tmp: case_python_player()
    out["compare"] = lambda tmp: case_compare()
    out["luck/killer"] = lambda tmp: case_luck_killer()
    for fact in ("area", "trump", "yellows"):
        out[f"luck/{fact}"] = (lambda f: lambda tmp: case_luck_fact(f))(fact)
    out["luck/sources"] = lambda tmp: case_luck_sources()
    for policy in ("baseline", "expert"):
        out[f"luck/state/{policy}"] = (lambda p: lambda tmp: case_luck_state(p))(policy)
        out[f"luck/timeline/{policy}"] = (lambda p: lambda tmp: case_timeline(p, tmp))(policy)
    out["game"] = lambda tmp: case_game()
    for policy in ("baseline", "heuristic", "expert"):
        out[f"hygiene/{policy}"] = (lambda p: lambda tmp: case_hygiene(p))(policy)
    out["sweep"] = lambda tmp: case_sweep(tmp)
    return out


def main(names=()):
    """Pin the digest of every case, or (``names``) of those cases only, the others kept."""
    import sys
    import tempfile
    names = names or sys.argv[1:]
    result = json.loads(DATA.read_text()) if names else {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, fn in cases().items():
            if names and name not in names:
                continue
            result[name] = fn(tmp)
            print(name, result[name][:16], flush=True)
    DATA.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
