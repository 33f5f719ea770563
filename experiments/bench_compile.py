"""Compile time per command from a clean numba cache, and the time of ``--help``.

Each command runs in a fresh process with ``SLASHERSIM_CACHE_DIR`` set to an empty temporary
folder, so every kernel it needs is compiled; the wall time of the whole process is reported
(the games played are too few to count). ``--root DIR`` measures another checkout (its package
is put first on ``PYTHONPATH``).

    python experiments/bench_compile.py [--root DIR] [--only NAME,...]
"""
import argparse
import os
from pathlib import Path
import subprocess
import sys
import tempfile
import time

HERE = Path(__file__).resolve().parents[1]
SPEC = """[sweep]
games = 20
seed = 1
policies = ["baseline"]
[axes]
health = [7, 5]
"""

COMMANDS = {
    "help": ["--help"],
    "refusal": ["simulate", "--health", "0"],
    "simulate baseline": ["simulate", "--games", "20"],
    "simulate heuristic": ["simulate", "--games", "20", "--policy", "heuristic"],
    "compare": ["compare", "--policies", "baseline,heuristic", "--games", "20"],
    "luck killer": ["luck", "killer", "--all", "--games", "20"],
    "luck state": ["luck", "state", "{root}/experiments/state_example.json", "--games", "20"],
    "sweep": ["sweep", "{spec}", "--out", "{tmp}/out.parquet"],
    "simulate --record": ["simulate", "--games", "20", "--record", "1", "--record-out",
                          "{tmp}/rec.json"],
    "luck sources": ["luck", "sources", "--games", "32", "--repeats", "4"],
    "simulate search": ["simulate", "--games", "2", "--policy", "search"],
    "simulate omniscient": ["simulate", "--games", "2", "--policy", "omniscient"],
    "simulate expert": ["simulate", "--games", "20", "--policy", "expert"],
}


def run(root, args):
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "spec.toml"
        spec.write_text(SPEC)
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env.update(SLASHERSIM_CACHE_DIR=str(Path(tmp) / "cache"), PYTHONPATH=str(root))
        argv = [a.format(root=root, spec=spec, tmp=tmp) for a in args]
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-m", "slashersim", *argv], env=env, cwd=tmp,
                           capture_output=True, text=True)
        elapsed = time.perf_counter() - t0
        return elapsed, p.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=str(HERE))
    ap.add_argument("--only", default=None)
    a = ap.parse_args()
    names = list(COMMANDS) if a.only is None else a.only.split(",")
    print(f"clean-cache wall time per command ({Path(a.root).resolve()}, "
          f"{os.cpu_count()} cores)", flush=True)
    for name in names:
        elapsed, rc = run(Path(a.root).resolve(), COMMANDS[name])
        print(f"  {name:<20} {elapsed:7.1f} s   exit {rc}", flush=True)


if __name__ == "__main__":
    main()
