"""Policy speed benchmark (same as ``slashersim bench --policies``): games per second of each
policy at its default parameters, on one thread and on all, against issue 3's targets.

    python experiments/bench_policies.py [--policies A,B,...|all] [--seconds S] [--json]
"""
import sys

from slashersim.cli import main

if __name__ == "__main__":
    args = sys.argv[1:]
    if not any(a == "--policies" or a.startswith("--policies=") for a in args):
        args = ["--policies", "all", *args]
    sys.exit(main(["bench", *args]))
