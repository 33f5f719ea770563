"""Engine benchmark (same as ``slashersim bench``): games/s on 1 and all threads, memory.

    python experiments/bench_engine.py [--games N] [--policy NAME]
"""
import sys

from slashersim.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
