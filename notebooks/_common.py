"""Shared set-up of the analysis notebooks: find the repository, load (or make) the table, show
figures.

``load_results()`` reads ``results/difficulty.parquet`` from the repository root when it exists
and holds counts (table format 2); otherwise (missing, or of the old format, which has no trap
counts), or when the environment variable ``SLASHERSIM_NOTEBOOK_FRESH=1`` is set, it plays a
small sweep (both editions, starting health 7..1, Hideaway in/out, Cursed Object in/out,
policies ``baseline`` and ``heuristic``) with ``SLASHERSIM_NOTEBOOK_GAMES`` games per cell
(default 20,000) into a temporary file and returns that table instead.
"""
import io
import os
from pathlib import Path
import sys
import tempfile

RESULTS_FILE = Path("results") / "difficulty.parquet"
DEFAULT_GAMES = 20_000

#: the small sweep played when the results file is missing (``games`` is filled in at run time)
SMALL_SWEEP = {
    "sweep": {"seed": 0, "policies": ["baseline", "heuristic"]},
    "axes": {
        "edition": ["rulebook", "instructions"],
        "health": [7, 6, 5, 4, 3, 2, 1],
        "hideaway": [False, True],
        "cursed_object": [True, False],
    },
}


def repo_root(start=None):
    """The first folder at or above ``start`` (default: the working folder, i.e. the notebook's
    folder) holding ``pyproject.toml``; the working folder's parent when there is none."""
    start = Path.cwd() if start is None else Path(start)
    for folder in (start, *start.parents):
        if (folder / "pyproject.toml").is_file():
            return folder
    return start.parent


ROOT = repo_root()
try:
    import slashersim  # noqa: F401  (installed with pip install -e .)
except ImportError:  # a plain checkout: import the package from the repository
    sys.path.insert(0, str(ROOT))


def games_per_cell():
    return int(os.environ.get("SLASHERSIM_NOTEBOOK_GAMES", DEFAULT_GAMES))


def fresh():
    return os.environ.get("SLASHERSIM_NOTEBOOK_FRESH", "") == "1"


def small_sweep(games=None):
    """Play :data:`SMALL_SWEEP` with ``games`` games per cell; return the checked table."""
    from slashersim.analysis.sweeps import parse_spec, run_sweep
    from slashersim.runner.tables import load_table
    games = games_per_cell() if games is None else games
    data = {"sweep": {**SMALL_SWEEP["sweep"], "games": games, "chunk_games": games},
            "axes": dict(SMALL_SWEEP["axes"])}
    with tempfile.TemporaryDirectory() as tmp:
        df = run_sweep(parse_spec(data), Path(tmp) / "small_sweep.parquet")
    return load_table(df)


def load_results():
    """The table the notebooks analyse, and a sentence saying where it came from."""
    from slashersim.runner.tables import load_table
    path = ROOT / RESULTS_FILE
    why = "SLASHERSIM_NOTEBOOK_FRESH=1" if path.is_file() else f"{RESULTS_FILE} not found"
    if path.is_file() and not fresh():
        df = load_table(path)
        if not df.attrs.get("missing"):
            return df, f"Loaded {RESULTS_FILE} ({len(df)} rows)."
        why = f"{RESULTS_FILE} is of an old table format ({df.attrs['missing']})"
    df = small_sweep()
    return df, (f"{why}: played a small sweep instead ({len(df)} cells, "
                f"{int(df['games'].iloc[0]):,} games each).")


def show(fig):
    """Display a matplotlib Figure (drawn on the Agg canvas, outside pyplot) as a PNG."""
    from IPython.display import Image, display
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    display(Image(data=buf.getvalue(), format="png"))


def editions(df):
    """The editions in the table, in table order (one ``None`` when it has no edition column)."""
    return list(dict.fromkeys(df["edition"])) if "edition" in df.columns else [None]


def of_edition(df, edition):
    return df if edition is None else df[df["edition"] == edition]
