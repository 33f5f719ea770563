"""Sweep tables on disk: their columns, their provenance, reading, writing and pooling.

A sweep table has one row per cell × policy. It stores **counts** — integers that pool by
adding — and derives every rate from them:

- counts: each count of the field registry that has a column (``core.fields.COUNTS``), in its
  order: ``games``, ``wins``, ``loss_health``, ``loss_traps``, ``timeout``,
  ``invariant_violations``, ``rounds`` (rounds played, all games), ``damage`` (health lost
  to the Killer), ``traps_<area>`` and ``rounds_<area>`` (traps set off in, and rounds played
  in, each area), ``rounds_hist`` (games that ended in round 0, 1, 2, ...: a list column of
  integers in parquet, JSON text in CSV), the item totals ``used_<item>``, ``kept_<item>``,
  ``killer_draws``, ``extra_draws``, ``gifts``, ...; ``cell`` numbers the cell (an index
  into the provenance's ``cells``);
- rates: ``win_rate``, ``win_ci_low``, ``win_ci_high`` (95 % Wilson) and ``mean_rounds`` are
  written beside the counts for a reader with nothing but pandas, and :func:`load_table`
  recomputes them, and adds ``trap_rate_<area>`` (traps over rounds played there, NaN where
  never played), from the counts, so a rate can never drift from its counts.

Every other column is a knob of the cell (the spec's axes and base), and ``policy`` names the
player. The table's **provenance** — the format version, the software (version, git commit,
source hash), when, the command, the spec, seed, games, each policy with its parameters and the
full resolved configuration of every cell — travels with it: in the parquet schema metadata
under the key ``slashersim`` (JSON), and for CSV in a sidecar file ``NAME.csv.json``.
:func:`load_table` puts it in ``DataFrame.attrs["slashersim"]``; ``slashersim info FILE``
prints it.

Tables of format 2 name a column as format 3 does not (:data:`RENAMED_COLUMNS`:
``cabins_extra_draws``, the extra cards of any area card that allows one, is ``extra_draws``);
they load under the new names. Tables written before format 2 (no provenance,
``trap_rate_<area>`` rates and a JSON ``rounds_hist``) still load: their outcome counts are
exact and ``rounds`` is rebuilt from ``rounds_hist``, but trap rates cannot become counts, so
they are dropped and anything that needs trap counts refuses in one line naming the command
that regenerates the table.

Pure Python (pandas, pyarrow): nothing here compiles or plays.
"""
import json
import math
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..core import fields as F
from ..core import rules
from ..core.errors import ConfigError
from ..core.stats import rates, wilson_arrays
from .result import ITEMS, count_fields

#: the table format written by this version; 1 is the format before provenance and counts, 2
#: the format before the names of :data:`RENAMED_COLUMNS`
FORMAT = 3
#: the columns of older tables under their old names: old name -> name
RENAMED_COLUMNS = {"cabins_extra_draws": "extra_draws"}
#: the first format with provenance and counts
COUNTS_FORMAT = 2
#: the key of the provenance in the parquet schema metadata
METADATA_KEY = "slashersim"
AREAS = tuple(rules.AREA_NAMES)

OUTCOME_COLUMNS = F.OUTCOME_COLUMNS
TRAP_COUNT_COLUMNS = tuple(f"traps_{a}" for a in AREAS)
AREA_ROUND_COLUMNS = tuple(f"rounds_{a}" for a in AREAS)
TRAP_RATE_COLUMNS = tuple(f"trap_rate_{a}" for a in AREAS)


def _columns(count):
    """The columns of a count of the field registry in a table of the printed cards."""
    if count.per == F.AREA:
        return tuple(f"{count.column}_{a}" for a in AREAS)
    if count.per == F.ITEM:
        return tuple(f"{count.column}_{i}" for i in rules.ITEM_STAT_NAMES)
    return OUTCOME_COLUMNS if count.per == F.OUTCOME else (count.column,)


#: the counts of the field registry (``core.fields.COUNTS``) that are columns, in order
COUNTS = tuple(c for c in F.COUNTS if c.column)
#: the columns of a list of counts by round (games by round 0, 1, ...; JSON text in CSV)
LIST_COLUMNS = tuple(c.column for c in COUNTS if c.per == F.OPEN)
#: the rates written after a count's column: ``win_rate``, its 95 % Wilson interval and
#: ``mean_rounds``, for a reader with nothing but pandas (:func:`load_table` derives them anew)
RATES = {"wins": ("win_rate", "win_ci_low", "win_ci_high"), "rounds": ("mean_rounds",)}
#: the item statistics: totals over the cell's games (see ``simulate --json``)
ITEM_COLUMNS = tuple(col for c in COUNTS if c.answer.startswith("item_stats.")
                     for col in _columns(c))
#: the item statistics that are one total per cell, not one per item card
ITEM_TOTALS = tuple(c.column for c in COUNTS if c.answer.startswith("item_stats.")
                    and c.per == F.GAME)
#: integer counts: pooling rows adds them
COUNT_COLUMNS = tuple(col for c in COUNTS if c.per != F.OPEN for col in _columns(c))
#: the columns after the knobs, in the order ``sweep`` writes them
TABLE_COLUMNS = ("policy", "cell", *(col for c in COUNTS for column in _columns(c)
                                     for col in (column, *RATES.get(column, ()))))
#: the exact solver's answers for the first games of a cell (a sweep with ``winnable``): the
#: games solved, the three counts, and the winnable share with its 95 % interval
WINNABLE_COLUMNS = ("solved", "winnable", "unwinnable", "undecided", "winnable_share",
                    "winnable_ci_low", "winnable_ci_high")
#: columns every table must have to be analysed
REQUIRED_COLUMNS = ("policy", "games", *OUTCOME_COLUMNS)
#: columns that are results, not knobs; every other column is a knob (but the columns of an
#: area or item card added by a card file: :func:`added_columns`)
RESULT_COLUMNS = frozenset((*TABLE_COLUMNS, *TRAP_RATE_COLUMNS, *WINNABLE_COLUMNS))
#: the stems of an area's and an item card's columns
_CARD_STEMS = ("traps_", "rounds_", "trap_rate_", "used_", "kept_")


def table_areas(columns):
    """The areas a table counts: the printed seven, then each area a card file added beside
    them (a ``traps_<area>`` column with its ``rounds_<area>``), in column order."""
    added = [c[len("traps_"):] for c in columns if c.startswith("traps_")
             and c[len("traps_"):] not in AREAS and f"rounds_{c[len('traps_'):]}" in columns]
    return (*AREAS, *added)


def table_items(columns):
    """The item cards a table counts: the printed twelve, then each item a card file added
    beside them (a ``used_<item>`` column with its ``kept_<item>``), in column order."""
    added = [c[len("used_"):] for c in columns if c.startswith("used_") and c != "used_items"
             and c[len("used_"):] not in rules.ITEM_STAT_NAMES
             and f"kept_{c[len('used_'):]}" in columns]
    return (*rules.ITEM_STAT_NAMES, *added)


def added_columns(columns):
    """The count columns of the cards added beside the printed ones: ``traps_<area>`` and
    ``rounds_<area>`` of each added area, then ``used_<item>`` and ``kept_<item>`` of each
    added item."""
    areas = table_areas(columns)[len(AREAS):]
    items = table_items(columns)[len(rules.ITEM_STAT_NAMES):]
    return [f"traps_{a}" for a in areas] + [f"rounds_{a}" for a in areas] \
        + [f"used_{i}" for i in items] + [f"kept_{i}" for i in items]


def count_columns(columns):
    """The integer count columns among ``columns`` (pooling adds them)."""
    return [c for c in (*COUNT_COLUMNS, *added_columns(columns)) if c in columns]


def _is_result(column):
    return column in RESULT_COLUMNS or column.startswith(_CARD_STEMS) and column != "used_items"


class TableError(ConfigError):
    """A table that cannot be read or used; the one-line message says why and what to do."""


# --- rows from counts ----------------------------------------------------------------------------

def row_from_counts(knobs, base, policy, counts, cell=0, areas=AREAS, items=ITEMS):
    """One table row from a cell's summed integer ``counts`` (laid out by
    ``core.layout.K_*``): the knobs, ``policy``, ``cell`` and the count columns of
    :func:`slashersim.runner.result.count_fields` (``areas``, ``items``: the cell's cards)."""
    return {**knobs, **base, "policy": policy, "cell": int(cell),
            **count_fields(counts, areas, items)}


def fill_added(df):
    """Give every row of ``df`` the counts of the cards some row's card file added: 0 where a
    row's cards hold no such card (never played, never drawn), in place; ``df``."""
    for col in added_columns(df.columns):
        df[col] = df[col].fillna(0).astype(np.int64)
    return df


def derive_rates(df):
    """Add (or overwrite) the rates of ``df`` from its counts, in place, and return it:
    ``win_rate`` and its Wilson interval, ``mean_rounds`` (with a ``rounds`` column) and
    ``trap_rate_<area>`` (with ``traps_<area>`` and ``rounds_<area>`` columns)."""
    games = df["games"].to_numpy(dtype=np.int64)
    wins = df["wins"].to_numpy(dtype=np.int64)
    df["win_rate"] = rates(wins, games)
    df["win_ci_low"], df["win_ci_high"] = wilson_arrays(wins, games)
    if "rounds" in df.columns:
        df["mean_rounds"] = rates(df["rounds"].to_numpy(dtype=np.int64), games)
    for area in table_areas(df.columns):
        if f"traps_{area}" in df.columns and f"rounds_{area}" in df.columns:
            df[f"trap_rate_{area}"] = rates(df[f"traps_{area}"].to_numpy(dtype=np.int64),
                                            df[f"rounds_{area}"].to_numpy(dtype=np.int64))
    return df


# --- writing -------------------------------------------------------------------------------------

def _replace_atomic(path, write):
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def sidecar_path(csv_path):
    """The provenance sidecar of a CSV table: ``NAME.csv.json`` beside it."""
    csv_path = Path(csv_path)
    return csv_path.with_name(csv_path.name + ".json")


def write_table(df, path, provenance, csv=False):
    """Write table ``df`` to ``path`` atomically, with ``provenance`` (a JSON-ready dict): as
    parquet with the provenance in the schema metadata, or with ``csv`` as CSV
    (the lists by round, ``rounds_hist`` and the like, as JSON text) with the provenance in
    :func:`sidecar_path`."""
    text = json.dumps(provenance, sort_keys=False)
    if csv:
        out = df.copy()
        for col in LIST_COLUMNS:
            if col in out.columns:
                out[col] = [json.dumps([int(v) for v in h]) for h in out[col]]
        _replace_atomic(path, lambda tmp: out.to_csv(tmp, index=False))
        _replace_atomic(sidecar_path(path), lambda tmp: tmp.write_text(text + "\n"))
        return
    table = pa.Table.from_pandas(df, preserve_index=False)
    for col in LIST_COLUMNS:
        if col in df.columns:
            hist = pa.array([[int(v) for v in h] for h in df[col]], type=pa.list_(pa.int64()))
            table = table.set_column(table.schema.get_field_index(col), col, hist)
    meta = dict(table.schema.metadata or {})
    meta[METADATA_KEY.encode()] = text.encode()
    table = table.replace_schema_metadata(meta)
    _replace_atomic(path, lambda tmp: pq.write_table(table, tmp))


# --- reading -------------------------------------------------------------------------------------

def _suffix(path):
    suffix = Path(path).suffix.lower()
    if suffix not in (".parquet", ".pq", ".csv"):
        raise TableError(f"cannot read {str(path)!r}: expected a .parquet or .csv sweep table")
    return suffix


def _check_file(path):
    p = Path(path)
    if not p.exists():
        raise TableError(f"table {str(path)!r} not found")
    if not p.is_file():
        raise TableError(f"table {str(path)!r} is not a file")
    return _suffix(path)


def regenerate_command(path):
    """The command that remakes the table at ``path``: its provenance's command when it has
    one, else ``slashersim sweep SPEC --out PATH`` with the spec of the same name in
    ``experiments/`` when there is one."""
    path = Path(path)
    spec = "SPEC.toml"
    for root in (Path.cwd(), *Path(path).resolve().parents):
        candidate = root / "experiments" / f"{path.stem}.toml"
        if candidate.is_file():
            try:
                spec = str(candidate.relative_to(Path.cwd()))
            except ValueError:
                spec = str(candidate)
            break
    csv = " --csv" if path.suffix == ".csv" else ""
    out = path.with_suffix(".parquet") if csv else path
    return f"slashersim sweep {spec} --out {out}{csv}"


def read_provenance(path):
    """``(provenance or None, columns)`` of the table file at ``path``, reading only the parquet
    footer or the CSV header and sidecar. Raises :class:`TableError` (one line) for a file
    that is missing or not a table."""
    suffix = _check_file(path)
    if suffix == ".csv":
        try:
            with open(path, newline="", encoding="utf-8") as f:
                header = f.readline()
        except (OSError, UnicodeDecodeError) as e:
            raise TableError(f"cannot read {str(path)!r} as a CSV table: {e}") from None
        columns = [c.strip().strip('"') for c in header.rstrip("\r\n").split(",")] \
            if header else []
        side = sidecar_path(path)
        prov = None
        if side.is_file():
            try:
                prov = json.loads(side.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
                raise TableError(f"cannot read the provenance {str(side)!r}: {e}") from None
        return prov, columns
    try:
        schema = pq.read_schema(path)
    except Exception as e:  # pyarrow raises several kinds for a file that is not parquet
        raise TableError(f"cannot read {str(path)!r} as a parquet table: "
                         f"{str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
    raw = (schema.metadata or {}).get(METADATA_KEY.encode())
    prov = None
    if raw is not None:
        try:
            prov = json.loads(raw)
        except json.JSONDecodeError as e:
            raise TableError(f"the provenance of {str(path)!r} is not JSON: {e}") from None
    return prov, list(schema.names)


def table_format(provenance, columns):
    """The format of a table: its provenance's ``format``, else 1 for a table with trap rates
    and no trap counts (written before format 2), else 2 for one with a column of
    :data:`RENAMED_COLUMNS` under its old name, else :data:`FORMAT` (counts, no provenance:
    e.g. built in memory)."""
    if provenance is not None:
        return int(provenance.get("format", 1))
    if any(c in columns for c in TRAP_RATE_COLUMNS) and \
            not any(c in columns for c in TRAP_COUNT_COLUMNS):
        return 1
    return 2 if any(c in columns for c in RENAMED_COLUMNS) else FORMAT


def _renamed(df):
    """``df`` with the columns of an older table under their names of this format."""
    return df.rename(columns={old: new for old, new in RENAMED_COLUMNS.items()
                              if old in df.columns and new not in df.columns})


def _read(path):
    suffix = _check_file(path)
    prov, _ = read_provenance(path)
    try:
        if suffix == ".csv":
            df = pd.read_csv(path)
        else:
            df = pd.read_parquet(path)
    except (OSError, ValueError) as e:
        raise TableError(f"cannot read {str(path)!r}: {str(e).splitlines()[0]}") from None
    df.attrs = {}
    return df, prov


def _hashable(value):
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    return value


def parse_hist(value, i=0, column="rounds_hist"):
    """A cell of a list column (``column``: ``rounds_hist`` and the like) as a list of ints:
    from a list or array (parquet), JSON text (CSV) or numpy's printed form ``"[0 3 5]"``;
    ``None`` for a missing value."""
    if isinstance(value, str):
        text = value.strip()
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            body = text.strip("[]").replace(",", " ").split()
            if "..." in body:
                raise TableError(f"{column} of row {i} is abbreviated ('...'): "
                                 f"{value!r}") from None
            try:
                value = [int(v) for v in body]
            except ValueError:
                raise TableError(f"{column} of row {i} is not a list of integers: "
                                 f"{value!r}") from None
    elif value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    arr = np.asarray(value)
    if arr.ndim != 1 or (arr.size and not np.issubdtype(arr.dtype, np.number)):
        raise TableError(f"{column} of row {i} is not a list of integers: {value!r}")
    if arr.size and (np.any(arr < 0) or np.any(arr != np.round(arr))):
        raise TableError(f"{column} of row {i} has a negative or fractional count")
    return [int(v) for v in arr]


def check_table(df):
    """Raise ``ValueError`` naming the first required column that is missing or does not hold
    counts."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame, got {type(df).__name__}")
    for col in REQUIRED_COLUMNS:
        if col not in df.columns:
            raise TableError(f"the table has no column {col!r} (required: "
                             f"{', '.join(REQUIRED_COLUMNS)})")
    if len(df) == 0:
        raise TableError("the table has no rows")
    for col in count_columns(df.columns):
        if not pd.api.types.is_numeric_dtype(df[col]):
            raise TableError(f"column {col!r} must be numeric, got {df[col].dtype}")
        values = df[col].to_numpy(dtype=np.float64)
        if np.isnan(values).any() or (values < 0).any() or (values != np.round(values)).any():
            raise TableError(f"column {col!r} must hold counts (whole numbers >= 0)")
    if (df["games"] <= 0).any():
        raise TableError("column 'games' must be at least 1 in every row")


def _from_format_1(df, source):
    """A table of format 1 in the form of format 2, as far as counts allow: ``rounds`` from
    ``rounds_hist`` (or ``mean_rounds`` × ``games``); the trap rates are dropped."""
    if "rounds_hist" in df.columns:
        hists = [parse_hist(h, i) for i, h in enumerate(df["rounds_hist"])]
        if all(h is not None for h in hists):
            df["rounds"] = [sum(r * n for r, n in enumerate(h)) for h in hists]
    if "rounds" not in df.columns and "mean_rounds" in df.columns:
        df["rounds"] = np.round(df["mean_rounds"].to_numpy(dtype=float)
                                * df["games"].to_numpy(dtype=float)).astype(np.int64)
    return df.drop(columns=[c for c in TRAP_RATE_COLUMNS if c in df.columns])


def load_table(table):
    """The sweep table as a checked DataFrame, from a DataFrame or a ``.parquet`` / ``.csv``
    path, every rate recomputed from the counts (:func:`derive_rates`).

    ``rounds_hist`` (and each list column) becomes a list of ints per row; list-valued knobs
    (e.g. ``red_knives``) become tuples so that they can be grouped. ``df.attrs["slashersim"]``
    holds the provenance (``None`` when the table has none) and ``df.attrs["format"]`` the table
    format; a table of format 1 also gets ``df.attrs["missing"]``, what it cannot give and how
    to regenerate it. The input frame is not modified.

    Raises
    ------
    TableError
        (a ``ValueError``) in one line, for a file that is missing or not a table, a table of
        a newer format, or a column that is missing or does not hold counts.
    """
    carried = {}
    if isinstance(table, pd.DataFrame):
        df = table.copy()
        prov = table.attrs.get("slashersim")
        carried = {k: table.attrs[k] for k in ("format", "missing") if k in table.attrs}
        source = None
    elif isinstance(table, (str, os.PathLike)):
        df, prov = _read(table)
        source = os.fspath(table)
    else:
        raise TypeError(f"expected a DataFrame or a path, got {type(table).__name__}")
    fmt = carried.get("format") or table_format(prov, list(df.columns))
    if fmt > FORMAT:
        raise TableError(f"table {source or ''} is of format {fmt}, newer than this slashersim "
                         f"reads ({FORMAT}); upgrade slashersim".replace("table  ", "table "))
    df = _renamed(df)
    check_table(df)
    missing = carried.get("missing")
    if fmt < COUNTS_FORMAT and missing is None:
        df = _from_format_1(df, source)
        missing = (f"it was written before table format {COUNTS_FORMAT} and holds trap rates, "
                   f"not trap counts; regenerate it with: "
                   f"{regenerate_command(source or 'TABLE.parquet')}")
    df = df.reset_index(drop=True)
    for col in knob_columns(df):
        if df[col].dtype == object:
            df[col] = df[col].map(_hashable)
    for col in LIST_COLUMNS:
        if col in df.columns:
            df[col] = pd.Series([parse_hist(v, i, col) for i, v in enumerate(df[col])],
                                dtype=object)
    for col in count_columns(df.columns):
        df[col] = df[col].astype(np.int64)
    derive_rates(df)
    df.attrs = {"slashersim": prov, "format": fmt}
    if missing:
        df.attrs["missing"] = missing
    return df


def knob_columns(df):
    """The knob columns of the table, in table order: every column that is not a result."""
    return [c for c in df.columns if not _is_result(c)]


def varying_knobs(df):
    """The knob columns with more than one distinct value, in table order."""
    return [c for c in knob_columns(df) if df[c].nunique(dropna=False) > 1]


# --- pooling -------------------------------------------------------------------------------------

def pool_counts(df, by):
    """Pool the rows sharing the values of ``by`` (a list of columns) by adding their counts.

    Returns one row per group (``by`` columns first, in order of first appearance) with every
    count column of the table summed, ``rows`` (rows pooled) and the rates derived from the
    sums (:func:`derive_rates`): ``win_rate = sum(wins) / sum(games)`` with its Wilson
    interval, ``trap_rate_<area> = sum(traps_<area>) / sum(rounds_<area>)``, ``mean_rounds``.
    With ``by = []`` everything is pooled into one row.
    """
    by = list(by)
    for col in by:
        if col not in df.columns:
            raise TableError(f"the table has no column {col!r}")
    counts = count_columns(df.columns)
    work = df.assign(_one=1)
    if by:
        groups = work.groupby(by, sort=False, dropna=False)
        pooled = groups[counts].sum()
        pooled["rows"] = groups["_one"].sum()
        pooled = pooled.reset_index()
    else:
        pooled = pd.DataFrame([{c: int(work[c].sum()) for c in counts}])
        pooled["rows"] = len(work)
    return derive_rates(pooled)


def pool_rounds_hist(df, column="rounds_hist"):
    """The element-wise sum of the rows' lists of ``column`` (``rounds_hist`` or another list
    column; shorter ones padded with 0)."""
    if column not in df.columns:
        raise TableError(f"the table has no {column!r} column")
    hists = [h if isinstance(h, list) else parse_hist(h, i, column)
             for i, h in enumerate(df[column])]
    if any(h is None for h in hists):
        raise TableError(f"some rows have no {column}")
    total = np.zeros(max(1, max(len(h) for h in hists)), dtype=np.int64)
    for h in hists:
        total[:len(h)] += np.asarray(h, dtype=np.int64)
    return total


def cells_played(df, area, by=()):
    """How many distinct cells (knob settings, whatever the policy) played at least one round
    in ``area``, per group of ``by``: ``{group key: (cells played, cells)}``, or one pair when
    ``by`` is empty. A cell counts once however many policies played it."""
    col = f"rounds_{area}"
    if col not in df.columns:
        raise TableError(f"the table has no column {col!r} (rounds played per area)")
    knobs = knob_columns(df)
    by = list(by)

    def count(sub):
        played = sub[sub[col] > 0]
        n = lambda d: len(d.drop_duplicates(subset=knobs)) if knobs else min(1, len(d))  # noqa
        return n(played), n(sub)

    if not by:
        return count(df)
    return {key: count(sub) for key, sub in df.groupby(by if len(by) > 1 else by[0],
                                                       sort=False, dropna=False)}


# --- describing a table --------------------------------------------------------------------------

def table_info(path):
    """``{"path", "rows", "format", "provenance"}`` of the table file at ``path``, from its
    footer (parquet) or header and sidecar (CSV). Raises :class:`TableError` in one line for a
    file that is missing or not a table, and for a table without provenance (written before
    format 2, or a CSV whose sidecar is missing), naming the command that regenerates it."""
    prov, columns = read_provenance(path)
    fmt = table_format(prov, columns)
    if prov is None:
        if fmt < COUNTS_FORMAT:
            raise TableError(f"table {str(path)!r} has no provenance (written before table "
                             f"format {COUNTS_FORMAT}); regenerate it with: "
                             f"{regenerate_command(path)}")
        where = f"its sidecar {str(sidecar_path(path))!r} is missing" \
            if Path(path).suffix.lower() == ".csv" else "its metadata holds none"
        raise TableError(f"table {str(path)!r} has no provenance: {where}; regenerate it "
                         f"with: {regenerate_command(path)}")
    if Path(path).suffix.lower() == ".csv":
        with open(path, encoding="utf-8") as f:
            rows = max(0, sum(1 for _ in f) - 1)
    else:
            rows = pq.read_metadata(path).num_rows
    return {"path": str(path), "rows": rows, "format": fmt, "provenance": prov}
