"""Where compile time goes: each compile part (``slashersim.policies.compile_parts``) compiled
from a clean numba cache in a fresh process, its time split by function and by stage with
numba's compiler events (``numba.core.event``).

For every function numba compiles on the way (the kernel and each callee it specialises), the
``numba:run_pass`` events give the time of each compiler pass: type inference
(``nopython_type_inference``), lowering to LLVM IR (``native_lowering``, less the LLVM work
inside it) and the rest of numba's passes; the ``numba:llvm_lock`` events give the time LLVM
holds its lock (optimisation and machine code), charged to the function being compiled. A
function compiled once per caller shows up with a count above one, and a function compiled
twice for what is one signature is named (``slashersim.core.numba_checks.repeated_compilations``).
Times are the compiling process's CPU seconds (``time.process_time``; numba compiles on one
thread), so a busy machine changes them little; the whole process's wall time is given beside
them.

A part written ``a+b`` is parts ``a`` then ``b`` compiled in one process (what one shares with
the other compiles once); ``steps`` is the engine's entry points for single rules
(``slashersim.engine.steps``). ``--warm-up`` profiles the test suite's warm-up: each worker's
parts of ``WARM_UP`` in ``tests/conftest.py``, one process a worker. ``--root DIR`` measures
another checkout (its package first on ``PYTHONPATH``, its ``tests/conftest.py``).

    python dev/benchmarks/compile_profile.py [--root DIR] [--parts engine,engine_baseline,...]
        [--warm-up] [--top 12] [--out dev/reports/compile_profile.md]
"""
import argparse
import ast
from collections import Counter, defaultdict
import json
import os
from pathlib import Path
import subprocess
import sys
import tempfile
import time

#: the repository root (this file is dev/benchmarks/compile_profile.py)
HERE = Path(__file__).resolve().parents[2]

#: run in the child process: compile one part, print the events as JSON
CHILD = r"""
import json, sys, time
from numba.core import event as ev

class Recorder(ev.Listener):
    def __init__(self):
        self.stack = []          # (kind, key, start, child time)
        self.rows = []           # (function, stage, self seconds)
        self.compiles = []       # functions compiled, in order
    def on_start(self, event):
        data = event.data or {}
        if event.kind == "numba:run_pass":
            key = (data.get("qualname"), data.get("name", "").split(" [")[0])
        elif event.kind == "numba:compile":
            d = data.get("dispatcher")
            key = (getattr(getattr(d, "py_func", None), "__qualname__", str(d)), "compile")
            self.compiles.append(key[0])
        else:
            fn = next((k[0] for kind, k, _, _ in reversed(self.stack)
                       if kind == "numba:run_pass"), None)
            key = (fn, "llvm")
        self.stack.append((event.kind, key, time.process_time(), [0.0]))
    def on_end(self, event):
        kind, key, t0, child = self.stack.pop()
        dt = time.process_time() - t0
        if self.stack:
            self.stack[-1][3][0] += dt
        if kind != "numba:compile":
            self.rows.append((key[0], key[1], dt - child[0]))

rec = Recorder()
for kind in ("numba:run_pass", "numba:compile", "numba:llvm_lock"):
    ev.register(kind, rec)
parts = sys.argv[1].split("+")
from importlib import import_module
from slashersim.core.numba_checks import compile_log, repeated_compilations
from slashersim.runner.kernels import compile_part
t0 = time.process_time()
with compile_log() as log:
    for part in parts:
        if part == "steps":
            import_module("slashersim.engine.steps")
        else:
            compile_part(part)
total = time.process_time() - t0
print(json.dumps({"total": total, "rows": rec.rows, "compiles": rec.compiles,
                  "repeated": repeated_compilations(log)}))
"""


def profile(part, root=HERE):
    """The events of compiling ``part`` (of the checkout ``root``) in a fresh process from a
    clean cache."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env.update(SLASHERSIM_CACHE_DIR=tmp, PYTHONPATH=str(root))
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-c", CHILD, part], env=env, cwd=tmp,
                           capture_output=True, text=True, check=True)
        wall = time.perf_counter() - t0
    data = json.loads(p.stdout.strip().splitlines()[-1])
    data["wall"] = wall
    return data


def stage_of(name):
    if name == "llvm":
        return "llvm"
    if "type_inference" in name:
        return "types"
    if name == "native_lowering":
        return "lowering"
    return "other"


def report(part, data, top):
    by_fn = defaultdict(Counter)
    for fn, name, seconds in data["rows"]:
        by_fn[fn][stage_of(name)] += seconds
    counts = Counter(data["compiles"])
    stages = Counter()
    for c in by_fn.values():
        stages.update(c)
    lines = [f"### {part}: {data['total']:.1f} CPU s compiling ({data['wall']:.1f} s wall for "
             f"the whole process), {len(counts)} functions, {sum(counts.values())} compilations",
             "", "| stage | CPU s | share |", "| --- | ---: | ---: |"]
    for stage in ("types", "lowering", "llvm", "other"):
        lines.append(f"| {stage} | {stages[stage]:.1f} | "
                     f"{stages[stage] / max(data['total'], 1e-9):.0%} |")
    repeated = data.get("repeated", {})
    lines += ["", "Functions compiled twice for one signature (a literal constant, an omitted "
              "default or an unsigned index as an argument): "
              + (", ".join(f"`{name.rsplit('.', 1)[-1]}` ({len(sigs)})"
                           for name, sigs in sorted(repeated.items())) or "none") + ".", ""]
    lines += ["| function | compiled | types | lowering | llvm | other | total CPU s |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    ranked = sorted(by_fn.items(), key=lambda kv: -sum(kv[1].values()))[:top]
    for fn, c in ranked:
        lines.append(f"| `{fn}` | {counts.get(fn, 0)} | {c['types']:.1f} | {c['lowering']:.1f} "
                     f"| {c['llvm']:.1f} | {c['other']:.1f} | {sum(c.values()):.1f} |")
    return lines


def revision(root):
    """The git commit of the checkout measured, marked when its package has uncommitted
    changes."""
    def git(*args):
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True,
                              text=True).stdout.strip()
    commit = git("rev-parse", "--short", "HEAD")
    if not commit:
        return "outside a git checkout"
    dirty = git("status", "--porcelain", "--", "slashersim")
    return f"git {commit}" + (" with uncommitted changes" if dirty else "")


def warm_up(root):
    """The test suite's warm-up of the checkout ``root``: each worker's parts (``WARM_UP`` in
    its ``tests/conftest.py``) joined with ``+``."""
    tree = ast.parse((Path(root) / "tests" / "conftest.py").read_text())
    value = next(node.value for node in ast.walk(tree) if isinstance(node, ast.Assign)
                 and any(getattr(t, "id", None) == "WARM_UP" for t in node.targets))
    return ["+".join(parts) for parts in ast.literal_eval(value).values()]


def main():
    sys.path.insert(0, str(HERE))
    from slashersim.policies import POLICIES, compile_parts
    parts = [p.name for p in compile_parts([*POLICIES, object()], ["engine", "rollouts",
                                                                   "record"])]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=HERE)
    ap.add_argument("--parts", default=",".join(parts))
    ap.add_argument("--warm-up", action="store_true",
                    help="the test suite's warm-up, one part a worker (instead of --parts)")
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--out", default=None, help="also write the tables to this markdown file")
    ap.add_argument("--estimates", default=None, metavar="JSON",
                    help="also write each part's measured wall time, the estimate the compile "
                         "notice prints, to this file (slashersim/data/compile_seconds.json)")
    a = ap.parse_args()
    chosen = warm_up(a.root) if a.warm_up else a.parts.split(",")
    made = " --warm-up" if a.warm_up else f" --parts {a.parts}"
    root = "" if a.root.resolve() == HERE else f" --root {a.root}"
    lines = ["# Where compile time goes", "",
             f"Made by `python dev/benchmarks/compile_profile.py{root}{made} --top {a.top}` "
             f"on a machine with {os.cpu_count()} cores, {revision(a.root)}: each part "
             f"compiled from a clean cache "
             f"in a fresh process, numba's compiler events summed per function (self CPU time "
             f"of the compiling process). No games are played: each part is only compiled, "
             f"for every player it serves (the parts are named after them).",
             ""]
    print("\n".join(lines), flush=True)
    walls = {}
    for part in chosen:
        data = profile(part, a.root)
        walls[part] = round(data["wall"])
        block = report(part, data, a.top) + [""]
        print("\n".join(block), flush=True)
        lines += block
    if a.out:
        Path(a.out).write_text("\n".join(lines))
    if a.estimates:
        made = (f"python dev/benchmarks/compile_profile.py --parts {a.parts} --estimates "
                f"{a.estimates}")
        Path(a.estimates).write_text(json.dumps(
            {"made_by": made, "measured": revision(a.root),
             "machine": f"{os.cpu_count()} cores, idle",
             "what": "the wall time of a fresh process compiling each part from a clean cache",
             "seconds": walls}, indent=1) + "\n")


if __name__ == "__main__":
    main()
