"""What the page asks for, checked in pure Python (nothing here imports the web libraries or
compiles a kernel): the settings of a run and their configuration and policy, the port of the
server, a position typed as JSON, and the precomputed grid's answer for a setting.

Every refusal is a :class:`~slashersim.config.ConfigError` (a ``ValueError``) in one line
naming the value and what is allowed, the same rules as the command line's: the page shows the
message and the server keeps running.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
import json
from pathlib import Path
import socket
from typing import Any

from .. import rules
from ..analysis.position import parse_position
from ..config import GameConfig
from ..errors import ConfigError
from ..inputs import SEED_LIMIT, parse_port  # noqa: F401 (the page's port rule)
from ..presets import DIFFICULTIES, load_presets
from ..tables import load_table

#: the port ``slashersim serve`` listens on unless ``--port`` says otherwise
DEFAULT_PORT = 5006
#: the most games one run of the page plays (a run refines live; the command line has no cap)
MAX_GAMES = 10_000_000
#: the most play-outs of one position in the luck panel
MAX_PLAYOUTS = 1_000_000
#: the page's skill levels and the policies they stand for (README: "Skill levels")
SKILLS = {"novice": "baseline", "casual": "heuristic", "expert": "expert"}
#: the committed precomputed grid (``slashersim sweep experiments/difficulty.toml``)
GRID_TABLE = Path(__file__).resolve().parent.parent.parent / "results" / "difficulty.parquet"
#: the position the luck panel starts with (``experiments/state_example.json``)
EXAMPLE_POSITION = """{
  "config": {"edition": "rulebook", "health": 7},
  "round": 3,
  "areas_seen": ["lodge", "tent_site"],
  "area": "woodland",
  "leader": 1,
  "health": [5, 6],
  "traps": 1,
  "killer_draws": 1,
  "items": [["map"], ["car_key", "lucky_charm"]],
  "item_deck": {
    "discard": ["flashlight", "backpack"],
    "gone": ["cursed_object"],
    "top": [],
    "killer_position": null
  },
  "hands": [["white 1", "white 4", "green 2", "green 5",
             "yellow 3", "yellow 4", "red 1", "red 5"], null],
  "trump": "yellow"
}
"""


# --- the server's port ---------------------------------------------------------------------

def check_port_free(port: int, host: str = "127.0.0.1") -> int:
    """``port`` after checking that nothing listens on it at ``host`` (binding and letting go
    at once, as the server will bind it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as e:
            raise ConfigError(f"port {port} is in use ({e.strerror or e}); choose another with "
                              f"--port") from None
    return port


# --- the settings of a run -----------------------------------------------------------------

def _integer(name: str, value: Any, low: int, high: int) -> int:
    """An integer ``low..high`` from a widget value: an int, or text such as ``"2,000"``."""
    if isinstance(value, bool):
        raise ConfigError(f"{name} must be an integer {low:,}..{high:,}, got {value!r}")
    if isinstance(value, str):
        text = value.strip().replace(",", "").replace("_", "")
        try:
            value = int(text, 10)
        except ValueError:
            raise ConfigError(f"{name} must be an integer {low:,}..{high:,}, got "
                              f"{value!r}") from None
    elif isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"{name} must be an integer {low:,}..{high:,}, got {value!r}")
    return value


def parse_seed(value: Any) -> int:
    """A seed 0 <= S < 2**63 (the command line's rule) from a widget value."""
    try:
        return _integer("seed", value, 0, SEED_LIMIT - 1)
    except ConfigError:
        raise ConfigError(f"seed must be an integer 0 <= seed < 2**63, got {value!r}") from None


def _flag(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if value in ("in", "on", "true", "yes"):
        return True
    if value in ("out", "off", "false", "no"):
        return False
    raise ConfigError(f"{name} must be in or out, got {value!r}")


@dataclass(frozen=True)
class Settings:
    """One setting of the page: the rules' knobs, the skill level, the games and the seed.

    ``difficulty`` names the preset the knobs were taken from (``None``: none); the knobs
    given here always win over it, as on the command line.
    """

    edition: str = "rulebook"
    difficulty: str | None = None
    health: int = 7
    hideaway: bool = False
    cursed_object: bool = True
    escapes_needed: int = 4
    traps: int = 3
    skill: str = "novice"
    games: int = 100_000
    seed: int = 0

    @property
    def policy(self) -> str:
        """The policy of the skill level (``novice`` -> ``baseline`` ...)."""
        return SKILLS[self.skill]

    def knobs(self) -> dict[str, Any]:
        """The knobs as :func:`slashersim.simulate` takes them (``difficulty`` first when
        set; the explicit knobs override its values)."""
        out: dict[str, Any] = {"edition": self.edition}
        if self.difficulty:
            out["difficulty"] = self.difficulty
        out.update(health=self.health, hideaway=self.hideaway,
                   cursed_object=self.cursed_object, escapes_needed=self.escapes_needed,
                   traps=self.traps)
        return out

    def config(self) -> GameConfig:
        """The rules of this setting, checked."""
        return GameConfig.from_dict(self.knobs())

    def command(self) -> str:
        """The ``slashersim simulate`` command that plays the same games."""
        parts = ["slashersim simulate", f"--edition {self.edition}"]
        if self.difficulty:
            parts.append(f"--difficulty {self.difficulty}")
        parts += [f"--health {self.health}",
                  "--hideaway" if self.hideaway else "--no-hideaway",
                  "--cursed-object" if self.cursed_object else "--no-cursed-object",
                  f"--escapes-needed {self.escapes_needed}", f"--traps {self.traps}",
                  f"--skill {self.skill}", f"--games {self.games}", f"--seed {self.seed}"]
        return " ".join(parts)

    def describe(self) -> str:
        """One line: the rules, the skill level, games and seed."""
        c = self.config().resolved()
        return (f"{c['edition']}, health {c['health']}, hideaway "
                f"{'in' if c['hideaway'] else 'out'}, cursed object "
                f"{'in' if c['cursed_object'] else 'out'}, {c['escapes_needed']} escapes, "
                f"{c['traps']} traps; {self.skill} ({self.policy}); {self.games:,} games, "
                f"seed {self.seed}")


def parse_settings(values: Mapping[str, Any]) -> Settings:
    """The :class:`Settings` of the page's widget values (a mapping of the field names to
    widget values: ints or their text, ``True``/``False`` or ``"in"``/``"out"``); the knobs
    not given take the difficulty preset's values, or else the edition's. An unknown
    field, a malformed or out-of-range value or a configuration the rules refuse raises
    :class:`ConfigError` in one line."""
    known = Settings.__dataclass_fields__
    for key in values:
        if key not in known:
            raise ConfigError(f"unknown setting {key!r}; expected one of: {', '.join(known)}")
    v = {**{k: f.default for k, f in known.items()}, **values}
    edition = v["edition"]
    if edition not in rules.EDITION_NAMES:
        raise ConfigError(f"unknown edition {edition!r}; expected one of: "
                          f"{', '.join(rules.EDITION_NAMES)}")
    difficulty = v["difficulty"] or None
    if difficulty in ("none", "custom"):
        difficulty = None
    # the knobs not given take the preset's values, or the edition's
    v.update({k: x for k, x in preset_values(difficulty, edition).items() if k not in values})
    if v["skill"] not in SKILLS:
        raise ConfigError(f"unknown skill level {v['skill']!r}; expected one of: "
                          f"{', '.join(SKILLS)}")
    settings = Settings(
        edition=edition, difficulty=difficulty,
        health=_integer("health", v["health"], 1, rules.MAX_HEALTH),
        hideaway=_flag("hideaway", v["hideaway"]),
        cursed_object=_flag("cursed object", v["cursed_object"]),
        escapes_needed=_integer("escapes needed", v["escapes_needed"], 1, rules.N_ESCAPES),
        traps=_integer("traps", v["traps"], 1, 4),
        skill=v["skill"],
        games=_integer("games", v["games"], 1, MAX_GAMES),
        seed=parse_seed(v["seed"]))
    settings.config()
    return settings


def preset_values(difficulty: str | None, edition: str) -> dict[str, Any]:
    """The knob values the page shows for ``difficulty`` of ``edition`` (``None``: the
    edition's defaults): ``health``, ``hideaway``, ``cursed_object``, ``escapes_needed``,
    ``traps``."""
    values: dict[str, Any] = {"edition": edition}
    if difficulty:
        values["difficulty"] = difficulty
    c = GameConfig.from_dict(values).resolved()
    return {k: c[k] for k in ("health", "hideaway", "cursed_object", "escapes_needed", "traps")}


def difficulties(edition: str) -> list[str]:
    """The difficulty presets of ``edition``, easiest first."""
    available = load_presets().get(edition, {})
    return [d for d in DIFFICULTIES if d in available]


# --- a position typed as JSON --------------------------------------------------------------

def parse_position_text(text: str):
    """The :class:`~slashersim.analysis.position.Position` of a JSON text in the format of
    ``slashersim luck state`` (README: "slashersim luck state"); malformed JSON or a position
    that cannot happen raises :class:`ConfigError` naming the fault."""
    if not isinstance(text, str) or not text.strip():
        raise ConfigError("the position is empty; describe it as a JSON object (see the "
                          "example)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"the position is not valid JSON: {e}") from None
    return parse_position(data)


# --- the precomputed grid ------------------------------------------------------------------

def _freeze(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def config_key(config: GameConfig) -> tuple:
    """Every rule of ``config`` with the edition's values filled in, hashable: two settings
    with the same key play the same games."""
    return tuple(sorted((k, _freeze(v)) for k, v in config.resolved().items()))


@dataclass(frozen=True)
class GridAnswer:
    """A precomputed row of the grid: its counts and rates, the games and seed it was played
    with, and where it comes from."""

    games: int
    seed: int
    wins: int
    win_rate: float
    win_ci: tuple[float, float]
    loss_health: float
    loss_traps: float
    timeout: float
    trap_rate_by_area: dict
    source: str

    def label(self) -> str:
        return f"precomputed: {self.games:,} games, seed {self.seed}"


class Grid:
    """The precomputed grid of a sweep table: ``lookup(settings)`` answers a setting whose
    rules and policy are a cell of the table (``None`` otherwise)."""

    def __init__(self, table: str | Path = GRID_TABLE):
        self.source = Path(table).name
        df = load_table(table)
        prov = df.attrs.get("slashersim") or {}
        seed = prov.get("seed")
        configs = {c["cell"]: GameConfig(**c["config"]) for c in prov.get("cells", ())}
        self.rows: dict[tuple, GridAnswer] = {}
        areas = rules.AREA_NAMES
        for row in df.to_dict("records"):
            config = configs.get(row["cell"])
            if config is None or seed is None:
                continue
            g = int(row["games"])
            answer = GridAnswer(
                games=g, seed=int(seed), wins=int(row["wins"]), win_rate=float(row["win_rate"]),
                win_ci=(float(row["win_ci_low"]), float(row["win_ci_high"])),
                loss_health=int(row["loss_health"]) / g, loss_traps=int(row["loss_traps"]) / g,
                timeout=int(row["timeout"]) / g,
                trap_rate_by_area={a: _nan_none(row.get(f"trap_rate_{a}")) for a in areas},
                source=self.source)
            self.rows[(config_key(config), row["policy"])] = answer

    def lookup(self, settings: Settings) -> GridAnswer | None:
        """The precomputed answer for ``settings``' rules and policy, if the grid has it."""
        return self.rows.get((config_key(settings.config()), settings.policy))


def _nan_none(value: Any) -> float | None:
    if value is None or value != value:
        return None
    return float(value)


@cache
def grid(table: str | None = None) -> Grid | None:
    """The committed grid (``results/difficulty.parquet``), loaded once; ``None`` when the
    table is not there (an installed package without the repository's results)."""
    path = Path(table) if table else GRID_TABLE
    if not path.exists():
        return None
    return Grid(path)

