"""What the page asks for, checked in pure Python (nothing here imports the web libraries or
compiles a kernel): the settings of a run and their configuration and policy, the port of the
server, a position typed as JSON, the name of a preset a setting equals, the page's link (every
setting in the URL), whether a shown result still belongs to the settings on screen, and the
precomputed grid's answer for a setting (and its win rate by starting health).

Every refusal is a :class:`~slashersim.config.ConfigError` (a ``ValueError``) in one line
naming the value and what is allowed, the same rules as the command line's: the page shows the
message and the server keeps running.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
import json
from pathlib import Path
import shlex
import socket
from typing import Any

from .. import rules
from ..analysis.position import parse_position
from ..config import GameConfig
from ..errors import ConfigError
from ..inputs import SEED_LIMIT, parse_port  # noqa: F401 (the page's port rule)
from ..policies import DEFAULT_SKILL, SKILLS
from ..present import cards_line
from ..presets import DIFFICULTIES, load_presets
from ..tables import load_table

#: the port ``slashersim serve`` listens on unless ``--port`` says otherwise
DEFAULT_PORT = 5006
#: the most games one run of the page plays (a run refines live; the command line has no cap)
MAX_GAMES = 10_000_000
#: the most play-outs of one position in the luck panel
MAX_PLAYOUTS = 1_000_000
#: the package's data (``slashersim/data/``, package data of the wheel), found with
#: importlib.resources wherever the package is installed. In the repository each file there
#: is a link to the committed table of ``results/`` of the same name, its one copy.
DATA = resources.files("slashersim") / "data"
#: the committed precomputed grid (``slashersim sweep experiments/difficulty.toml``)
GRID_TABLE = DATA / "difficulty.parquet"
#: the difficulty presets of both editions for every skill level
#: (``slashersim sweep experiments/presets_study.toml``), read when it exists
PRESETS_TABLE = DATA / "presets_study.parquet"
#: the tables of the precomputed grid, in order: a setting in two of them is the first's
GRID_TABLES = (GRID_TABLE, PRESETS_TABLE)
#: a table of the grid: a path, or a file of the package's data
Table = str | Path | Traversable
#: the preset menu's name for the edition's own rules, and for any other setting
DEFAULTS = "defaults"
CUSTOM = "custom"
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


def _flag(name: str, value: Any, words: tuple[str, str] = ("in", "out")) -> bool:
    """A yes/no from a widget or the link: ``True``/``False`` or one of the usual words."""
    if isinstance(value, bool):
        return value
    if value in ("in", "on", "true", "yes"):
        return True
    if value in ("out", "off", "false", "no"):
        return False
    raise ConfigError(f"{name} must be {words[0]} or {words[1]}, got {value!r}")


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
    skill: str = DEFAULT_SKILL
    games: int = 100_000
    seed: int = 0
    #: the card file the page was started with (``slashersim serve --cards``), or ``None``
    cards: str | None = None

    @property
    def policy(self) -> str:
        """The policy of the skill level (``novice`` -> ``baseline`` ...)."""
        return SKILLS[self.skill]

    @property
    def player(self) -> str:
        """The player the answer speaks for: ``"expert (policy expert)"``."""
        return player_label(self.skill)

    def knobs(self) -> dict[str, Any]:
        """The knobs as :func:`slashersim.simulate` takes them (``difficulty`` first when
        set; the explicit knobs override its values)."""
        out: dict[str, Any] = {"edition": self.edition}
        if self.difficulty:
            out["difficulty"] = self.difficulty
        out.update(health=self.health, hideaway=self.hideaway,
                   cursed_object=self.cursed_object, escapes_needed=self.escapes_needed,
                   traps=self.traps)
        if self.cards is not None:
            out["cards"] = self.cards
        return out

    def config(self) -> GameConfig:
        """The rules of this setting, checked."""
        return GameConfig.from_dict(self.knobs())

    def command(self) -> str:
        """The ``slashersim simulate`` command that plays the same games."""
        parts = ["slashersim simulate", f"--edition {self.edition}"]
        if self.cards is not None:
            parts.append(f"--cards {shlex.quote(self.cards)}")
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
        changed = f"{cards_line(self.cards)}; " if self.cards is not None else ""
        return (f"{changed}{c['edition']}, health {c['health']}, hideaway "
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
    if difficulty in ("none", CUSTOM, DEFAULTS):
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
        seed=parse_seed(v["seed"]), cards=v["cards"])
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


def preset_menu(edition: str) -> list[str]:
    """The preset menu of ``edition``: its defaults, its presets easiest first, custom."""
    return [DEFAULTS, *difficulties(edition), CUSTOM]


def recognise(edition: str, knobs: Mapping[str, Any]) -> str:
    """The menu's name for ``knobs`` of ``edition``: the preset they equal (easiest first),
    else :data:`DEFAULTS` if they are the edition's own rules, else :data:`CUSTOM`; so a
    setting is never called custom when a name fits it."""
    mine = {k: knobs[k] for k in preset_values(None, edition)}
    for name in difficulties(edition):
        if preset_values(name, edition) == mine:
            return name
    return DEFAULTS if preset_values(None, edition) == mine else CUSTOM


def player_label(skill: str) -> str:
    """The first line of every answer on the page: the skill level and its policy."""
    return f"{skill} (policy {SKILLS[skill]})"


# --- a position typed as JSON --------------------------------------------------------------

def parse_position_text(text: str, cards: str | None = None):
    """The :class:`~slashersim.analysis.position.Position` of a JSON text in the format of
    ``slashersim luck state`` (docs/reference/formats.md, "Position files"), played under the
    card file ``cards`` unless its configuration names its own; malformed JSON or a position
    that cannot happen raises :class:`ConfigError` naming the fault."""
    if not isinstance(text, str) or not text.strip():
        raise ConfigError("the position is empty; describe it as a JSON object (see the "
                          "example)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"the position is not valid JSON: {e}") from None
    if cards is not None and isinstance(data, dict) and isinstance(data.get("config", {}), dict):
        data = {**data, "config": {"cards": cards, **data.get("config", {})}}
    return parse_position(data)


# --- the page's link ------------------------------------------------------------------------

#: a setting's fields as the link names them (setting B's with the prefix ``b_``)
SETTING_KEYS = ("edition", "difficulty", "health", "hideaway", "cursed_object",
                "escapes_needed", "traps", "skill")
KNOBS = ("health", "hideaway", "cursed_object", "escapes_needed", "traps")
#: the page's tabs as the link names them
TABS = ("difficulty", "luck")
#: the link's keys, in the order it lists them
LINK_KEYS = (*SETTING_KEYS, "side_by_side", *(f"b_{k}" for k in SETTING_KEYS), "games", "seed",
             "luck_skill", "playouts", "luck_seed", "position", "tab")


def default_setting(edition: str = "rulebook") -> dict[str, Any]:
    """A setting's widget values as the page opens: the edition's own rules, the expert."""
    return {"edition": edition, "difficulty": DEFAULTS, **preset_values(None, edition),
            "skill": DEFAULT_SKILL}


@dataclass
class PageValues:
    """Every setting on the page as its widgets hold it: settings A and B (``edition``, the
    preset menu's ``difficulty``, the knobs and ``skill``), whether B is shown, games and seed
    as typed, the luck tab's skill, play-outs, seed and position, and the tab shown."""

    a: dict = field(default_factory=default_setting)
    b: dict = field(default_factory=default_setting)
    side_by_side: bool = False
    games: str = "100,000"
    seed: str = "0"
    luck_skill: str = DEFAULT_SKILL
    playouts: str = "20,000"
    luck_seed: str = "0"
    position: str = EXAMPLE_POSITION
    tab: str = "difficulty"


def _count_text(text: str, check) -> str:
    """A typed count as the link writes it: plain digits when ``check`` takes it, else as
    typed (so the link refuses it as the page does)."""
    try:
        return str(check(text))
    except ConfigError:
        return str(text)


def _shown(text: str, show) -> str:
    """A count from the link as its box shows it (``100,000``), or as given if refused."""
    try:
        return show(text)
    except ConfigError:
        return text


def link_query(page: PageValues) -> dict[str, str]:
    """The link's query (key -> text, in :data:`LINK_KEYS` order) of ``page``: every setting,
    B's only when shown, the position only when it is not the example."""
    q: dict[str, str] = {}
    sides = [("", page.a)] + ([("b_", page.b)] if page.side_by_side else [])
    for prefix, side in sides:
        for key in SETTING_KEYS:
            value = side[key]
            q[prefix + key] = ("in" if value else "out") if isinstance(value, bool) \
                else str(value)
        if not prefix:
            q["side_by_side"] = "on" if page.side_by_side else "off"
    q["games"] = _count_text(page.games, lambda v: _integer("games", v, 1, MAX_GAMES))
    q["seed"] = _count_text(page.seed, parse_seed)
    q["luck_skill"] = page.luck_skill
    q["playouts"] = _count_text(page.playouts,
                                lambda v: _integer("play-outs", v, 1, MAX_PLAYOUTS))
    q["luck_seed"] = _count_text(page.luck_seed, parse_seed)
    if page.position.strip() != EXAMPLE_POSITION.strip():
        q["position"] = page.position
    q["tab"] = page.tab
    return q


def _link_setting(query: Mapping[str, str], prefix: str,
                  errors: list[tuple[str, str]]) -> dict[str, Any]:
    """One setting of the link, each field checked by :func:`parse_settings` as a typed
    value is; a refused field keeps the page's default and its refusal joins ``errors``."""
    given = {k: query[prefix + k] for k in SETTING_KEYS if prefix + k in query}
    good: dict[str, Any] = {}
    for key in SETTING_KEYS:
        if key not in given:
            continue
        try:
            parse_settings({**good, key: given[key]})
        except ConfigError as e:
            errors.append(("difficulty", str(e)))
        else:
            good[key] = given[key]
    try:
        s = parse_settings(good)
    except ConfigError as e:
        errors.append(("difficulty", str(e)))
        s = parse_settings({"edition": good.get("edition", "rulebook")})
    knobs = {k: getattr(s, k) for k in KNOBS}
    return {"edition": s.edition, "difficulty": recognise(s.edition, knobs), **knobs,
            "skill": s.skill}


def parse_link(query: Mapping[str, str]) -> tuple[PageValues, list[tuple[str, str]]]:
    """The page a link opens: its :class:`PageValues` and the refusals ``(tab, message)``.

    ``query`` maps the link's keys to their text, as in the URL. The refusals are the page's
    own one-line messages for the same values typed. A refused knob, skill, flag or tab keeps
    the page's default (a slider cannot show ``abc``); games, seeds, play-outs and the
    position keep the text as given, as a typed value stays in its box, refused."""
    errors: list[tuple[str, str]] = []
    for key in query:
        if key not in LINK_KEYS:
            errors.append(("difficulty", f"unknown setting {key!r} in the link; expected one "
                                         f"of: {', '.join(LINK_KEYS)}"))
    page = PageValues()
    page.a = _link_setting(query, "", errors)
    if "side_by_side" in query:
        try:
            page.side_by_side = _flag("side_by_side", query["side_by_side"], ("on", "off"))
        except ConfigError as e:
            errors.append(("difficulty", str(e)))
    if page.side_by_side or any(f"b_{k}" in query for k in SETTING_KEYS):
        page.b = _link_setting(query, "b_", errors)
    page.games = _shown(query.get("games", page.games),
                        lambda v: f"{_integer('games', v, 1, MAX_GAMES):,}")
    page.seed = _shown(query.get("seed", page.seed), lambda v: str(parse_seed(v)))
    try:
        parse_settings({"games": page.games, "seed": page.seed})
    except ConfigError as e:
        errors.append(("difficulty", str(e)))
    if "luck_skill" in query:
        if query["luck_skill"] in SKILLS:
            page.luck_skill = query["luck_skill"]
        else:
            errors.append(("luck", f"unknown skill level {query['luck_skill']!r}; expected "
                                   f"one of: {', '.join(SKILLS)}"))
    page.playouts = _shown(query.get("playouts", page.playouts),
                           lambda v: f"{_integer('play-outs', v, 1, MAX_PLAYOUTS):,}")
    page.luck_seed = _shown(query.get("luck_seed", page.luck_seed),
                            lambda v: str(parse_seed(v)))
    page.position = query.get("position", page.position)
    try:
        check_luck(page.position, page.playouts, page.luck_seed)
    except ConfigError as e:
        errors.append(("luck", str(e)))
    if "tab" in query:
        if query["tab"] in TABS:
            page.tab = query["tab"]
        else:
            errors.append(("difficulty", f"tab must be one of: {', '.join(TABS)}; got "
                                         f"{query['tab']!r}"))
    return page, errors


def check_luck(position: str, playouts: Any, seed: Any,
               cards: str | None = None) -> tuple[Any, int, int]:
    """The luck tab's values checked, as its button checks them: ``(position, play-outs,
    seed)``, the position under the card file ``cards`` (:func:`parse_position_text`); a
    :class:`ConfigError` names the first bad one."""
    games = _integer("play-outs", playouts, 1, MAX_PLAYOUTS)
    seed = parse_seed(seed)
    return parse_position_text(position, cards), games, seed


# --- whether a shown result is still the settings' -------------------------------------------

def run_identity(a: Settings, b: Settings | None = None) -> tuple:
    """What decides a run's games: each setting's rules, player, games and seed. A shown
    run belongs to the settings on screen only while theirs is the same (a preset's name
    or a knob set to its value again does not change it)."""
    return tuple(None if s is None else (config_key(s.config()), s.policy, s.games, s.seed)
                 for s in (a, b))


def luck_identity(position: str, skill: str, playouts: Any, seed: Any) -> tuple | None:
    """What decides a luck answer: the position (as data, not as typed), the player, the
    play-outs and the seed; ``None`` when a value is refused."""
    try:
        _, games, seed = check_luck(position, playouts, seed)
    except ConfigError:
        return None
    data = json.dumps(json.loads(position), sort_keys=True)
    return data, SKILLS.get(skill), games, seed


def is_stale(shown: tuple | None, current: tuple | None) -> bool:
    """Whether a shown answer (its identity, ``None``: nothing shown) no longer belongs to
    the settings on screen (``current``; ``None``: a refused value)."""
    return shown is not None and shown != current


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


@dataclass(frozen=True)
class GridTable:
    """One table of the grid, from its provenance: file name, seed, games per cell of each
    policy and the spec's axes."""

    name: str
    seed: int
    games_by_policy: dict
    axes: tuple[str, ...]

    def games_text(self) -> str:
        """Its games per cell: one number, or one per skill level when they differ."""
        games = set(self.games_by_policy.values())
        if len(games) == 1:
            return f"{games.pop():,} games per cell"
        return "games per cell: " + ", ".join(
            f"{_skill_of(p)} {n:,}" for p, n in self.games_by_policy.items())


def _skill_of(policy: str) -> str:
    return next((k for k, v in SKILLS.items() if v == policy), policy)


class Grid:
    """The precomputed grid of one or more sweep tables: ``lookup(settings)`` answers a
    setting whose rules and policy are a cell of a table (``None`` otherwise).

    A cell is matched on its fully resolved rules (the provenance's configuration of each
    cell), not on the table's columns: a table whose axis is ``difficulty`` answers a preset
    and the same knobs set by hand alike. A setting in two tables is answered by the first.
    """

    def __init__(self, tables: Table | Sequence[Table] = GRID_TABLES):
        if not isinstance(tables, (list, tuple)):
            tables = (tables,)
        self.rows: dict[tuple, GridAnswer] = {}
        self.tables: list[GridTable] = []
        for table in tables:
            self._read(_traversable(table))

    def _read(self, path: Traversable) -> None:
        with resources.as_file(path) as file:
            df = load_table(file)
        prov = df.attrs.get("slashersim") or {}
        seed = prov.get("seed")
        if seed is None:
            return
        configs = {c["cell"]: GameConfig(**c["config"]) for c in prov.get("cells", ())}
        axes = tuple((prov.get("spec") or {}).get("axes", {}))
        self.tables.append(GridTable(_shown_path(path), int(seed),
                                     dict(prov.get("games_by_policy") or {}), axes))
        areas = rules.AREA_NAMES
        for row in df.to_dict("records"):
            config = configs.get(row["cell"])
            if config is None:
                continue
            g = int(row["games"])
            answer = GridAnswer(
                games=g, seed=int(seed), wins=int(row["wins"]), win_rate=float(row["win_rate"]),
                win_ci=(float(row["win_ci_low"]), float(row["win_ci_high"])),
                loss_health=int(row["loss_health"]) / g, loss_traps=int(row["loss_traps"]) / g,
                timeout=int(row["timeout"]) / g,
                trap_rate_by_area={a: _nan_none(row.get(f"trap_rate_{a}")) for a in areas},
                source=_shown_path(path))
            self.rows.setdefault((config_key(config), row["policy"]), answer)

    def answer(self, config: GameConfig, policy: str) -> GridAnswer | None:
        """The precomputed answer for ``config`` played by ``policy``, if the grid has it."""
        return self.rows.get((config_key(config), policy))

    def lookup(self, settings: Settings) -> GridAnswer | None:
        """The precomputed answer for ``settings``' rules and policy, if the grid has it."""
        return self.answer(settings.config(), settings.policy)

    def covers(self) -> str:
        """What the grid covers, one table at a time: ``difficulty.parquet (edition ×
        health × ...)``."""
        return "; ".join(f"{t.name} ({' × '.join(t.axes)})" for t in self.tables)

    def table(self, name: str) -> GridTable | None:
        return next((t for t in self.tables if t.name == name), None)


def _traversable(table: Table) -> Traversable:
    """A table given as a path (``str`` or :class:`~pathlib.Path`) or as the package's data."""
    return Path(table) if isinstance(table, str) else table


def _shown_path(path: Traversable) -> str:
    """A table's name on the page: one the package ships (or the file of ``results/`` in the
    repository it links to) by the committed file it is, ``results/difficulty.parquet``; any
    other by its file name."""
    for shipped in GRID_TABLES:
        if path == shipped or _same_file(path, shipped):
            return f"results/{shipped.name}"
    return path.name


def _same_file(a: Traversable, b: Traversable) -> bool:
    try:
        return isinstance(a, Path) and isinstance(b, Path) and a.samefile(b)
    except OSError:
        return False


def _nan_none(value: Any) -> float | None:
    if value is None or value != value:
        return None
    return float(value)


@cache
def grid(tables: tuple[Table, ...] = GRID_TABLES) -> Grid | None:
    """The grid of those of ``tables`` that exist (by default the committed
    ``results/difficulty.parquet`` and ``results/presets_study.parquet``, which the package
    ships as its data), loaded once; ``None`` when none is there."""
    present = [t for t in map(_traversable, tables) if t.is_file()]
    if not present:
        return None
    return Grid(present)


# --- the figure designers look for first ----------------------------------------------------

@dataclass(frozen=True)
class HealthCurves:
    """Win rate by starting health for every skill level, from the grid: ``points[skill]``
    is a list of ``(health, win_rate, ci_low, ci_high)``; ``title``, the axis labels and the
    ``caption`` (the tables' seed and games per cell, from their provenance) name the rest."""

    title: str
    x_label: str
    y_label: str
    caption: str
    points: dict


def health_curves(g: Grid, edition: str, hideaway: bool, cursed_object: bool) -> HealthCurves:
    """The win rate of each skill level by starting health 1..7 under ``edition``'s own rules
    with the areas chosen (Hideaway, Cursed Object) in or out, with their 95 % intervals
    (the tables' ``win_ci_low`` and ``win_ci_high``); a health the grid lacks is left out."""
    points: dict[str, list] = {}
    sources: set[str] = set()
    for skill, policy in SKILLS.items():
        points[skill] = []
        for health in range(1, rules.MAX_HEALTH + 1):
            a = g.answer(GameConfig(edition=edition, health=health, hideaway=hideaway,
                                    cursed_object=cursed_object), policy)
            if a is not None:
                points[skill].append((health, a.win_rate, *a.win_ci))
                sources.add(a.source)
    c = GameConfig(edition=edition).resolved()
    areas = (f"Hideaway {'in' if hideaway else 'out'}, Cursed Object "
             f"{'in' if cursed_object else 'out'}")
    made = [t for t in g.tables if t.name in sources]
    caption = ("; ".join(f"From {t.name}: seed {t.seed}, {t.games_text()}" for t in made)
               or "The precomputed grid has no cell of these rules")
    caption += (f". The {edition} edition's own rules otherwise ({c['escapes_needed']} "
                f"escapes needed, {c['traps']} traps lose); bars: 95 % intervals.")
    return HealthCurves(
        title=f"Win rate by starting health: {edition}, {areas}",
        x_label=f"starting health ({edition}, {areas})",
        y_label="win rate (95 % interval)", caption=caption, points=points)
