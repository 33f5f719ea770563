"""Compile time per command from a clean numba cache, and the time of ``--help``.

Each command runs in a fresh process with ``SLASHERSIM_CACHE_DIR`` set to an empty temporary
folder, so every kernel it needs is compiled. Reported per command: the wall time of the whole
process (the games played are few, except the README's main command, which runs as a new user
runs it), the CPU time of the process and its helpers, and its target (:data:`TARGETS`).
``--processes N`` sets ``SLASHERSIM_COMPILE_PROCESSES``
(1 = no helper processes); ``--root DIR`` measures another checkout (its package is put first
on ``PYTHONPATH``).

    python dev/benchmarks/bench_compile.py [--root DIR] [--only NAME,...] [--processes N]
        [--out dev/reports/compile_bench.md]
"""
import argparse
import os
from pathlib import Path
import resource
import subprocess
import sys
import tempfile
import time

#: the repository root (this file is dev/benchmarks/bench_compile.py)
HERE = Path(__file__).resolve().parents[2]
SPEC = """[sweep]
games = 20
seed = 1
policies = ["baseline"]
[axes]
health = [7, 5]
"""

#: the README's main command, as a new user first runs it
MAIN = "simulate (README)"
COMMANDS = {
    "help": ["--help"],
    "refusal": ["simulate", "--health", "0"],
    MAIN: ["simulate"],
    "simulate baseline": ["simulate", "--games", "20", "--policy", "baseline"],
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
    "simulate belief": ["simulate", "--games", "2", "--policy", "belief"],
    "simulate open_hands": ["simulate", "--games", "2", "--policy", "open_hands"],
}
#: the first-run target of each command in seconds (the README's main command 30, the two
#: strongest players' 90, every other 45)
TARGETS = {MAIN: 30, "simulate belief": 90, "simulate open_hands": 90}

#: the exit status a command should give (a refusal exits with 2), 0 for the others
EXIT = {"refusal": 2}


def run(root, args, processes=None):
    """Wall seconds, CPU seconds (the process and its helpers) and exit status of one command
    from a clean cache."""
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "spec.toml"
        spec.write_text(SPEC)
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env.update(SLASHERSIM_CACHE_DIR=str(Path(tmp) / "cache"), PYTHONPATH=str(root))
        if processes is not None:
            env["SLASHERSIM_COMPILE_PROCESSES"] = str(processes)
        argv = [a.format(root=root, spec=spec, tmp=tmp) for a in args]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-m", "slashersim", *argv], env=env, cwd=tmp,
                           capture_output=True, text=True)
        elapsed = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return elapsed, cpu, p.returncode


def revision(root):
    """The git commit of the checkout measured, marked when it has uncommitted changes."""
    def git(*args):
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True,
                              text=True).stdout.strip()
    commit = git("rev-parse", "--short", "HEAD") or "no git checkout"
    dirty = git("status", "--porcelain", "--", "slashersim")
    return f"git {commit}" + (" with uncommitted changes" if dirty else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=str(HERE))
    ap.add_argument("--only", default=None)
    ap.add_argument("--processes", type=int, default=None)
    ap.add_argument("--out", default=None, help="also write the table to this markdown file")
    a = ap.parse_args()
    names = list(COMMANDS) if a.only is None else a.only.split(",")
    made = "python dev/benchmarks/bench_compile.py" + "".join(
        f" --{k} {v}" for k, v in (("only", a.only), ("processes", a.processes))
        if v is not None)
    lines = ["# First-run times from a clean cache", "",
             f"Made by `{made}` on a machine with {os.cpu_count()} cores (compile processes: "
             f"{a.processes or 'one per core'}), {revision(Path(a.root).resolve())}. Each "
             "command ran once in a fresh process with an empty numba cache; wall is the whole "
             "process, CPU adds its helper processes. Each command plays the games its line "
             "gives, with its default seed (0) and player (the expert unless the line names "
             "one; the main command: the expert, 100,000 games; the sweep: SPEC in the script, the "
             "baseline, 20 games a cell, seed 1). Targets: 30 s for the "
             "README's main command, 90 s for the belief and open-hands players, 45 s for "
             "every other.",
             "", "| command | wall s | CPU s | exit | target s | verdict |",
             "| --- | ---: | ---: | ---: | ---: | --- |"]
    print("\n".join(lines), flush=True)
    for name in names:
        elapsed, cpu, rc = run(Path(a.root).resolve(), COMMANDS[name], a.processes)
        target = TARGETS.get(name, 45)
        verdict = "met" if elapsed <= target and rc == EXIT.get(name, 0) else "not met"
        lines.append(f"| `slashersim {' '.join(COMMANDS[name])}` | {elapsed:.1f} | {cpu:.1f} "
                     f"| {rc} | {target} | {verdict} |")
        print(lines[-1], flush=True)
    if a.out:
        Path(a.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
